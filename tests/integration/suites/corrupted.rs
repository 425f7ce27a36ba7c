//! The `corrupted` track with the reference answerer: 100 % on the undamaged control and on
//! every defect its decoders can see, in every format; the two formats whose decoders accept a
//! text cut inside a value (YAML, INI) say "complete" for the cut one, and nothing else fails.

use crate::support::{bench, parse, run_in};
use bench::runlog::Line;
use std::collections::BTreeSet;

/// Runs the track on `data` (the product records when `None`) with every format; the run
/// folder and stderr.
fn run(tmp: &std::path::Path, data: Option<&std::path::Path>) -> (std::path::PathBuf, String) {
    let data = data.map(|d| ["--data", d.to_str().unwrap()]);
    let ran = run_in(
        tmp,
        &[
            "run",
            "--suite",
            "corrupted",
            "--formats",
            "all",
            "--runs",
            "1",
        ],
    )
    .args(data.iter().flatten())
    .ok();
    assert!(
        ran.stdout.contains("control_false_alarm_pct"),
        "{}",
        ran.stdout
    );
    (ran.dir(), ran.stderr)
}

/// (format, defect) pairs, and (format, defect, question) triples.
type Graded = (
    BTreeSet<(String, String)>,
    BTreeSet<(String, String, String)>,
);

/// Every (format, defect) asked, and the questions the reference got wrong: only "complete"
/// on a cut text its decoder accepted.
fn graded(dir: &std::path::Path, questions: usize) -> Graded {
    let mut failed = BTreeSet::new();
    let mut seen = BTreeSet::new();
    for line in parse(&dir.join("corrupted.jsonl")) {
        let Line::Result(r) = line else { continue };
        let defect = r.task.clone().unwrap();
        seen.insert((r.format.to_string(), defect.clone()));
        assert!(r.error.is_none(), "{}: {:?}", r.sample.tag, r.error);
        let asked = if defect == "truncated" { 1 } else { questions };
        assert_eq!(r.metrics.len(), asked, "{}", r.sample.tag);
        for m in &r.metrics {
            if m.passed == 0 {
                failed.insert((r.format.to_string(), defect.clone(), m.metric.clone()));
                assert_eq!(m.actual, "complete", "{}: {m:?}", r.sample.tag);
            }
        }
    }
    (seen, failed)
}

/// The cut text of the formats whose decoders accept a text cut inside a value.
fn undetectable() -> BTreeSet<(String, String, String)> {
    ["ini", "yaml"]
        .map(|f| {
            (
                f.to_string(),
                "truncated".to_string(),
                "complete".to_string(),
            )
        })
        .into()
}

#[test]
fn the_reference_names_every_defect_its_decoders_see_and_raises_no_false_alarm() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, _) = run(tmp.path(), None);
    let (seen, failed) = graded(&dir, 5);
    assert_eq!(
        seen.len(),
        17 * 6,
        "every format holds every defect (flat records)"
    );
    assert_eq!(failed, undetectable());
    let report = std::fs::read_to_string(dir.join("corrupted/BENCHMARK_REPORT.md")).unwrap();
    assert!(report.contains("## Damaged data"), "{report}");
    assert!(
        report.contains(
            "| reference/reference | yaml | 80.0 | 100.0 | 100.0 | 0.0 | 100.0 | 100.0 | 0.0 |"
        ),
        "{report}"
    );
}

/// `--data`: the user's records damaged the same way, named by their key (airports: `iata`,
/// the first number field `latitude` lacked and made text); the same 100 %. Records with no
/// number field skip the wrong-type defect with the reason; records without a key are refused
/// in one line naming the file.
#[test]
fn the_users_records_are_damaged_and_named_by_their_key() {
    let tmp = tempfile::tempdir().unwrap();
    let airports =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks/examples/airports.csv");
    let (dir, _) = run(tmp.path(), Some(&airports));
    let (seen, failed) = graded(&dir, 5);
    assert_eq!(seen.len(), 17 * 6);
    assert_eq!(failed, undetectable());
    let lines = parse(&dir.join("corrupted.jsonl"));
    let Line::Metadata(meta) = &lines[0] else {
        panic!("metadata first")
    };
    assert_eq!(
        bench::suites::lookup::DataMeta::of(meta)
            .unwrap()
            .unwrap()
            .records,
        122
    );
    let Some(Line::Result(r)) = lines
        .iter()
        .find(|l| matches!(l, Line::Result(r) if r.task.as_deref() == Some("wrong_type")))
    else {
        panic!("a wrong_type result")
    };
    let prompt = &r.sample.input[0].content;
    assert!(
        prompt.contains("Which record has a latitude that is not a number? Answer with its iata"),
        "{prompt}"
    );
    // Rescore loads the file again and grades the same.
    let out = bench(&tmp.path().join("cache"))
        .arg("rescore")
        .arg(&dir)
        .output()
        .unwrap();
    crate::support::success_stdout(&out);

    // Text only: no number field, so no wrong type; four questions.
    let words = tmp.path().join("words.csv");
    std::fs::write(
        &words,
        "name,colour\nash,grey\nbirch,white\ncedar,red\nelm,green\n",
    )
    .unwrap();
    let t2 = tmp.path().join("words");
    std::fs::create_dir_all(&t2).unwrap();
    let (dir, stderr) = run(&t2, Some(&words));
    assert!(
        stderr.contains("no field besides the key holds a number in every record"),
        "{stderr}"
    );
    let (seen, _) = graded(&dir, 4);
    assert!(seen.iter().all(|(_, d)| d != "wrong_type"));
    assert_eq!(seen.len(), 17 * 5);

    // Named by position only: refused, naming the file.
    let twins = tmp.path().join("twins.csv");
    std::fs::write(&twins, "a,b\n1,1\n1,1\n2,2\n2,2\n").unwrap();
    let out = run_in(tmp.path(), &["run", "--suite", "corrupted", "--data"])
        .args([&twins])
        .root(&tmp.path().join("t3"))
        .output();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "twins.csv: --suite corrupted names the damaged record by one identifying field"
        ),
        "{stderr}"
    );
}
