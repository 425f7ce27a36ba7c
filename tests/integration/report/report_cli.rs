//! `bench report` and the report at the end of `bench run`, as a user runs them.

use crate::support::bench;
use std::path::{Path, PathBuf};

fn only_run(root: &Path) -> PathBuf {
    let dirs: Vec<_> = std::fs::read_dir(root.join("benchmarks"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs[0].clone()
}

#[test]
fn offline_run_ends_with_a_complete_report() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let out = bench(&tmp.path().join("cache"))
        .args(["run", "--runs", "2", "--output-root"])
        .arg(&root)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(stdout.contains("report:"), "{stdout}");
    let art = only_run(&root).join("formats");
    for f in [
        "BENCHMARK_REPORT.md",
        "report.html",
        "metrics.json",
        "analytics_results.json",
    ] {
        assert!(art.join(f).metadata().unwrap().len() > 500, "{f}");
    }
    let charts: Vec<String> = std::fs::read_dir(art.join("charts"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    for stem in [
        "accuracy_vs_tokens",
        "weighted_accuracy",
        "tokens_per_format",
        "category_heatmap",
    ] {
        for ext in ["svg", "png"] {
            let name = format!("{stem}.{ext}");
            assert!(charts.contains(&name), "{name} not in {charts:?}");
        }
    }
    let md = std::fs::read_to_string(art.join("BENCHMARK_REPORT.md")).unwrap();
    // The verdict comes first and says plainly that `reference` is no model.
    let verdict = md.find("## Verdict").unwrap();
    assert!(verdict < md.find("## Setup").unwrap());
    assert!(md[verdict..].contains("self-check, not a model"));
    // The reference answers every question right in every format: no difference is claimed.
    assert!(
        !md.contains("of the paired answers right than"),
        "no difference claimed"
    );
    assert!(md.contains("were graded exactly as `json_compact` on every paired answer"));
    let html = std::fs::read_to_string(art.join("report.html")).unwrap();
    assert!(html.contains("<svg") && !html.contains("<script src") && !html.contains("https://"));
    let results: serde_json::Value =
        serde_json::from_slice(&std::fs::read(art.join("analytics_results.json")).unwrap())
            .unwrap();
    let acc = results["accuracy"].as_array().unwrap();
    assert_eq!(acc.len(), 30, "8 formats, csv flat only, 2 variants");
    assert!(acc.iter().all(|r| r["accuracy"] == 1.0 && r["runs"] == 2));
    assert!(
        results["comparisons"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["significant"] == false)
    );
    // metrics.json joins each rendering's usage to its accuracy (2 runs: 2 measured calls).
    let metrics: serde_json::Value =
        serde_json::from_slice(&std::fs::read(art.join("metrics.json")).unwrap()).unwrap();
    let renderings = metrics["renderings"].as_array().unwrap();
    assert_eq!(renderings.len(), 30);
    assert!(
        renderings
            .iter()
            .all(|r| r["calls"] == 2 && r["failed_calls"] == 0),
        "{:?}",
        renderings[0]
    );
    // `bench run` writes its report from the DuckDB its ranking staged (before the summary
    // line, on two connections at once); `bench report` stages the finished log anew: the
    // files are the same, byte for byte.
    let files = [
        "BENCHMARK_REPORT.md",
        "report.html",
        "metrics.json",
        "analytics_results.json",
    ];
    let chart_files: Vec<String> = charts.iter().map(|c| format!("charts/{c}")).collect();
    let read_all = || -> Vec<Vec<u8>> {
        files
            .iter()
            .map(|f| f.to_string())
            .chain(chart_files.iter().cloned())
            .map(|f| std::fs::read(art.join(&f)).unwrap())
            .collect()
    };
    let from_run = read_all();
    bench(&tmp.path().join("cache"))
        .arg("report")
        .arg(only_run(&root))
        .assert()
        .success();
    let from_report = read_all();
    for (name, (a, b)) in files
        .iter()
        .map(|f| f.to_string())
        .chain(chart_files.iter().cloned())
        .zip(from_run.iter().zip(&from_report))
    {
        assert!(a == b, "{name} differs between bench run and bench report");
    }
}

#[test]
fn report_command_finds_runs_and_names_bad_input() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let cache = tmp.path().join("cache");
    bench(&cache)
        .args([
            "run",
            "--runs",
            "1",
            "--no-report",
            "--formats",
            "csv,json_compact,yaml",
        ])
        .args([
            "--structures",
            "flat",
            "--variants",
            "mandatory",
            "--output-root",
        ])
        .arg(&root)
        .assert()
        .success();
    let dir = only_run(&root);
    assert!(
        !dir.join("formats/BENCHMARK_REPORT.md").exists(),
        "--no-report"
    );
    bench(&cache)
        .args(["report", "latest", "--baseline", "yaml", "--root"])
        .arg(&root)
        .assert()
        .success();
    let results: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("formats/analytics_results.json")).unwrap())
            .unwrap();
    assert_eq!(results["baseline"], "yaml");
    assert!(
        results["comparisons"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["baseline"] == "yaml")
    );
    // A format the run does not have, a folder that is not a run, an empty root.
    let err = bench(&cache)
        .arg("report")
        .arg(&dir)
        .args(["--baseline", "tealeaf"])
        .assert()
        .code(2);
    let msg = String::from_utf8_lossy(&err.get_output().stderr).into_owned();
    assert!(
        msg.contains("tealeaf") && msg.contains("csv, json_compact, yaml"),
        "{msg}"
    );
    assert_eq!(msg.trim().lines().count(), 1, "{msg}");
    let err = bench(&cache).arg("report").arg(tmp.path()).assert().code(2);
    let msg = String::from_utf8_lossy(&err.get_output().stderr).into_owned();
    assert!(msg.contains("run log"), "{msg}");
    let err = bench(&cache)
        .args(["report", "latest", "--root"])
        .arg(tmp.path().join("nothing"))
        .assert()
        .code(2);
    assert!(String::from_utf8_lossy(&err.get_output().stderr).contains("no runs under"));
}
