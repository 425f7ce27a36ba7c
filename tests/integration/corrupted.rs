//! The `corrupted` track with the reference answerer: 100 % on the undamaged control and on
//! every defect its decoders can see, in every format; the two formats whose decoders accept a
//! text cut inside a value (YAML, INI) say "complete" for the cut one, and nothing else fails.

use super::run_cli::{bench, parse, run_dir};
use bench::runlog::Line;
use std::collections::BTreeSet;

#[test]
fn the_reference_names_every_defect_its_decoders_see_and_raises_no_false_alarm() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("out");
    let out = bench(&tmp.path().join("cache"))
        .args([
            "run",
            "--suite",
            "corrupted",
            "--formats",
            "all",
            "--runs",
            "1",
        ])
        .arg("--output-root")
        .arg(&root)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("control_false_alarm_pct"), "{stdout}");
    let dir = run_dir(&root);
    let mut failed = BTreeSet::new();
    let mut seen = BTreeSet::new();
    for line in parse(&dir.join("corrupted.jsonl")) {
        let Line::Result(r) = line else { continue };
        let defect = r.task.clone().unwrap();
        seen.insert((r.format.to_string(), defect.clone()));
        assert!(r.error.is_none(), "{}: {:?}", r.sample.tag, r.error);
        let asked = if defect == "truncated" { 1 } else { 5 };
        assert_eq!(r.metrics.len(), asked, "{}", r.sample.tag);
        for m in &r.metrics {
            if m.passed == 0 {
                failed.insert((r.format.to_string(), defect.clone(), m.metric.clone()));
                assert_eq!(m.actual, "complete", "{}: {m:?}", r.sample.tag);
            }
        }
    }
    assert_eq!(
        seen.len(),
        17 * 6,
        "every format holds every defect (flat records)"
    );
    let want: BTreeSet<_> = ["ini", "yaml"]
        .map(|f| {
            (
                f.to_string(),
                "truncated".to_string(),
                "complete".to_string(),
            )
        })
        .into();
    assert_eq!(failed, want);
    let report = std::fs::read_to_string(dir.join("corrupted/BENCHMARK_REPORT.md")).unwrap();
    assert!(report.contains("## Damaged data"), "{report}");
    assert!(
        report.contains("| reference/reference | yaml | 80.000 | 100.0 | 100.0 | 0.000 | 100.0 | 100.0 | 0.000 |"),
        "{report}"
    );
}
