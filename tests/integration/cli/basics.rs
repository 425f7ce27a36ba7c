//! The binary as a user runs it: bad input, determinism, and an end-to-end offline run.

use crate::support::binary;
use serde_json::Value;
use std::fs;
use std::path::Path;

/// Runs bench with `args`, expects exit 2 and a single error line containing every `needle`.
fn usage_error(args: &[&str], needles: &[&str]) {
    let out = binary().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: one line expected, got {err:?}"
    );
    for n in needles {
        assert!(err.contains(n), "{args:?}: {err:?} lacks {n:?}");
    }
}

#[test]
fn bad_flag_values_name_the_value_and_the_allowed_ones() {
    for cmd in ["run", "generate", "tokens"] {
        usage_error(
            &[cmd, "--formats", "csv,jsonx"],
            &["jsonx", "json_compact", "toon_keyfold", "yaml"],
        );
        usage_error(&[cmd, "--structures", "deep"], &["deep", "flat", "nested"]);
        usage_error(
            &[cmd, "--variants", "sparse"],
            &["sparse", "mandatory", "optional"],
        );
        usage_error(&[cmd, "--records", "0"], &["0", "1 to 100000"]);
        usage_error(&[cmd, "--records", "100001"], &["100001", "1 to 100000"]);
        usage_error(
            &[cmd, "--tokenizers", "gpt2"],
            &["gpt2", "o200k_base", "cl100k_base"],
        );
    }
    usage_error(&["run", "--provider", "nope"], &["nope", "reference"]);
    // Checked by the parser, so --dry-run cannot skip them.
    for bad in ["-1", "NaN", "inf", "ten"] {
        let flag = format!("--budget-usd={bad}");
        usage_error(&["run", "--dry-run", &flag], &[bad, "USD", "0 or more"]);
    }
    usage_error(&["run", "--batch-poll=0"], &["'0'", "86400"]);
    usage_error(
        &["run", "--primer", "maybe"],
        &["maybe", "off", "on", "both"],
    );
    usage_error(
        &["run", "--warmup", "always"],
        &["always", "auto", "on", "off"],
    );
    usage_error(
        &["run", "--question-mode", "each"],
        &["each", "one-prompt", "per-question"],
    );
    usage_error(
        &["run", "--formats", "csv", "--structures", "nested"],
        &["csv", "nested", "flat only"],
    );
}

#[test]
fn unwritable_output_directory_is_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("a-file");
    fs::write(&file, "x").unwrap();
    let below = file.join("sub");
    let below = below.to_str().unwrap();
    usage_error(
        &[
            "run",
            "--provider",
            "reference",
            "--runs",
            "1",
            "--formats",
            "csv",
            "--output-root",
            below,
        ],
        &[below],
    );
    usage_error(&["generate", "--output", below], &[below]);
}

fn read_tree(root: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((
                    p.strip_prefix(root).unwrap().display().to_string(),
                    fs::read(&p).unwrap(),
                ));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn same_seed_gives_byte_identical_files_and_another_seed_does_not() {
    let tmp = tempfile::tempdir().unwrap();
    let dirs: Vec<_> = ["a", "b", "c"].iter().map(|d| tmp.path().join(d)).collect();
    for (dir, seed) in dirs.iter().zip(["7", "7", "8"]) {
        binary()
            .args([
                "generate",
                "--seed",
                seed,
                "--output",
                dir.to_str().unwrap(),
            ])
            .assert()
            .success();
    }
    let (a, b, c) = (
        read_tree(&dirs[0]),
        read_tree(&dirs[1]),
        read_tree(&dirs[2]),
    );
    assert_eq!(
        a.len(),
        30 + 6 + 1,
        "30 data files, 3 files per variant, metadata.json"
    );
    assert!(a == b, "same seed must give identical bytes");
    let differing = a.iter().zip(&c).filter(|(x, y)| x.1 != y.1).count();
    assert!(
        differing >= 30,
        "another seed changes the data ({differing} files differ)"
    );
}

#[test]
fn offline_run_writes_the_jsonl_contract_and_scores_100_percent() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let out = binary()
        .args([
            "run",
            "--runs",
            "2",
            "--output-root",
            root.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("reference"),
        "says which provider it used: {stderr}"
    );
    assert!(
        stdout.contains("toon_keyfold") && stdout.contains("formats.jsonl"),
        "{stdout}"
    );

    let runs: Vec<_> = fs::read_dir(root.join("benchmarks"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(runs.len(), 1);
    let text = fs::read_to_string(runs[0].join("formats.jsonl")).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.first().unwrap()["type"], "metadata");
    assert_eq!(lines.last().unwrap()["type"], "summary");
    let results: Vec<&Value> = lines.iter().filter(|l| l["type"] == "result").collect();
    assert_eq!(results.len(), 30 * 2, "30 combinations × 2 runs");
    assert_eq!(lines.len(), results.len() + 2);
    let meta = &lines[0]["data"];
    for key in [
        "benchmark_id",
        "timestamp",
        "suite_name",
        "providers",
        "seed",
        "records",
        "weights",
        "tokenizers",
        "dataset_hash",
    ] {
        assert!(!meta[key].is_null(), "metadata.{key}");
    }
    let mut combos = std::collections::BTreeSet::new();
    for r in &results {
        let d = &r["data"];
        assert!(d["error"].is_null(), "{}", d["error"]);
        assert_eq!(
            d["summary"]["weighted_accuracy"], 1.0,
            "{}",
            d["sample"]["tag"]
        );
        assert_eq!(d["metrics"].as_array().unwrap().len(), 124);
        assert_eq!(d["provider_config"]["provider"], "reference");
        assert!(d["data_stats"]["tokens"]["o200k_base"].as_u64().unwrap() > 1000);
        assert!(
            d["usage"]["input"].as_u64().unwrap()
                > d["data_stats"]["tokens"]["o200k_base"].as_u64().unwrap()
        );
        for key in [
            "duration_ms",
            "tag",
            "input",
            "output",
            "model",
            "start_time_ms",
            "end_time_ms",
        ] {
            assert!(d["sample"].get(key).is_some(), "sample.{key}");
        }
        combos.insert((
            d["format"].to_string(),
            d["structure"].to_string(),
            d["variant"].to_string(),
        ));
    }
    assert_eq!(combos.len(), 30);
    let summary = &lines.last().unwrap()["data"];
    assert_eq!(summary["total_samples"], 60);
    assert_eq!(summary["rankings"].as_array().unwrap().len(), 30);
    assert_eq!(
        summary["provider_summaries"]["reference/reference"]["avg_weighted_accuracy"],
        1.0
    );

    let art = runs[0].join("formats");
    for rel in [
        "metadata.json",
        "data/csv/csv_with_optional_31_flat_records.csv",
        "data/toon_keyfold/toon_keyfold_with_mandatory_31_nested_records.toon",
        "questions/questions_with_optional_31_records.json",
        "answers_template/answers_with_mandatory_31_records_template.json",
        "answers_validation/questions_and_answers_with_optional_31_records.json",
        "results/yaml_nested_optional_31_validation.json",
        "responses/xml_pretty/answers_for_flat_mandatory_31_records_2.json",
    ] {
        assert!(art.join(rel).is_file(), "missing artifact {rel}");
    }
}

#[test]
fn query_prints_reports_and_reports_bad_input() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let root_s = root.to_str().unwrap();
    let rankings = concat!(env!("CARGO_MANIFEST_DIR"), "/sql/rankings.sql");

    let out = binary()
        .args(["query", rankings, "--root", root_s])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("no runs under") && err.contains("bench run"),
        "{err}"
    );

    binary()
        .args([
            "run",
            "--provider",
            "reference",
            "--runs",
            "1",
            "--formats",
            "csv,yaml",
            "--variants",
            "mandatory",
            "--output-root",
            root_s,
        ])
        .assert()
        .success();
    let out = binary()
        .args(["query", rankings, "--root", root_s, "--format", "csv"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = String::from_utf8(out.stdout).unwrap();
    assert!(
        csv.starts_with("rank,format,structure,variant,provider"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 1 + 3, "csv flat, yaml flat and nested");

    let md = binary()
        .args([
            "query",
            "-e",
            "SELECT format, count(*) AS n FROM answers GROUP BY 1 ORDER BY 1",
            "--root",
            root_s,
            "--format",
            "markdown",
        ])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(md.stdout).unwrap(),
        "| format | n |\n| --- | --- |\n| csv | 124 |\n| yaml | 248 |\n"
    );

    let file = tmp.path().join("out.json");
    binary()
        .args([
            "query",
            "-e",
            "SELECT 1 AS one; SELECT 2 AS two",
            "--root",
            root_s,
            "--format",
            "json",
            "-o",
            file.to_str().unwrap(),
        ])
        .assert()
        .success();
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(
        json,
        serde_json::json!([{"two": 2}]),
        "the last statement's result"
    );

    let missing = tmp.path().join("missing.sql");
    usage_error(
        &["query", missing.to_str().unwrap(), "--root", root_s],
        &["missing.sql"],
    );

    let bad = tmp.path().join("bad.sql");
    fs::write(&bad, "SELECT nope\nFROM results;").unwrap();
    let out = binary()
        .args(["query", bad.to_str().unwrap(), "--root", root_s])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("bad.sql") && err.contains("nope"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    let out = binary()
        .args(["query", "-e", "SELEC 1", "--root", root_s])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("-e: Parser Error")
    );

    // A crash left half a line: the query still answers, and the warning names file and line.
    let run_dir = fs::read_dir(root.join("benchmarks"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let log = run_dir.join("formats.jsonl");
    let text = fs::read_to_string(&log).unwrap();
    let lines = text.lines().count();
    fs::write(
        &log,
        format!("{text}{{\"type\": \"result\", \"data\": {{\"prov"),
    )
    .unwrap();
    let out = binary()
        .args([
            "query",
            "-e",
            "SELECT count(*) AS n FROM results",
            "--root",
            root_s,
            "--format",
            "csv",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "n\n3\n");
    let err = String::from_utf8(out.stderr).unwrap();
    let want = format!(
        "{}:{}: truncated or corrupt line skipped",
        log.display(),
        lines + 1
    );
    assert!(err.contains(&want), "{err}");
}

#[test]
fn a_broken_views_file_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    binary()
        .args([
            "run",
            "--provider",
            "reference",
            "--runs",
            "1",
            "--formats",
            "csv",
            "--variants",
            "optional",
            "--output-root",
            root.to_str().unwrap(),
        ])
        .assert()
        .success();
    let views = tmp.path().join("my_views.sql");
    fs::write(
        &views,
        "CREATE VIEW results AS SELECT * FROM nowhere_at_all;",
    )
    .unwrap();
    let out = binary()
        .args([
            "query",
            "-e",
            "SELECT 1",
            "--root",
            root.to_str().unwrap(),
            "--views",
            views.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("my_views.sql") && err.contains("nowhere_at_all"),
        "{err}"
    );
    let out = binary()
        .args([
            "export",
            "--parquet",
            tmp.path().join("pq").to_str().unwrap(),
            "--root",
            root.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("results: 1 rows") && stdout.contains("answers: 124 rows"),
        "{stdout}"
    );
}

/// `--memory-limit` reaches DuckDB for `bench query` (and `bench export`); a size it cannot
/// read is refused by the argument parser.
#[test]
fn query_and_export_take_a_memory_limit() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let out = crate::support::bench(&tmp.path().join("cache"))
        .args([
            "run",
            "--formats",
            "csv",
            "--structures",
            "flat",
            "--runs",
            "1",
            "--no-report",
        ])
        .arg("--output-root")
        .arg(&root)
        .output()
        .unwrap();
    crate::support::success_stdout(&out);
    let out = crate::support::bench(&tmp.path().join("cache"))
        .args([
            "query",
            "--format",
            "csv",
            "--memory-limit",
            "64MB",
            "--root",
        ])
        .arg(&root)
        .args(["-e", "SELECT current_setting('memory_limit') AS m"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    crate::support::success_stdout(&out);
    assert!(
        stdout.contains("61.0 MiB") || stdout.contains("64.0 MB"),
        "{stdout}"
    );
    let out = crate::support::bench(&tmp.path().join("cache"))
        .args(["export", "--memory-limit", "256MB", "--parquet"])
        .arg(tmp.path().join("pq"))
        .arg("--root")
        .arg(&root)
        .output()
        .unwrap();
    crate::support::success_stdout(&out);
    assert!(tmp.path().join("pq/benchmarks").is_dir());
    let out = crate::support::bench(&tmp.path().join("cache"))
        .args(["query", "--memory-limit", "lots", "-e", "SELECT 1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("'lots' is not a size such as 400MB or 2GB")
    );
}
