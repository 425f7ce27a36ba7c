//! `bench import`: the TOON benchmark's four shipped model files become one run folder marked
//! imported, whose accuracy per format reproduces the TOON README table (5,316 answers), and
//! which `bench query`, `compare` and `report` read; bad input is one line naming the file and
//! the place, exit 2, nothing written; `--resume` and `rescore` refuse an imported run.

use crate::support::binary;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn shipped() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks/published/toon")
}

fn import(root: &Path, extra: &[&str]) -> String {
    let out = binary()
        .arg("import")
        .arg(shipped())
        .args(["--from", "toon", "--output-root"])
        .arg(root)
        .args(extra)
        .output()
        .unwrap();
    crate::support::success_stdout(&out)
}

fn query(root: &Path, file: &str) -> Vec<Value> {
    let out = binary()
        .args([
            "query", file, "--run", "latest", "--format", "json", "--root",
        ])
        .arg(root)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    serde_json::from_str(&crate::support::success_stdout(&out)).unwrap()
}

#[test]
fn the_toon_files_reproduce_the_toon_readme_table_and_every_reader_reads_them() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let said = import(&root, &[]);
    assert!(
        said.contains("answers imported from the TOON benchmark")
            && said.contains("not produced by bench")
            && said.contains("f06ddca16c8a")
            && said.contains("5,316 answers from 4 files"),
        "{said}"
    );

    // The README's table: accuracy per format by the source's grade, over the 4 models.
    let rows = query(&root, "sql/imported.sql");
    let pct = |f: &str| {
        rows.iter()
            .find(|r| r["format"] == f)
            .unwrap_or_else(|| panic!("{f} in {rows:?}"))["source_pct"]
            .as_f64()
            .unwrap()
    };
    for (format, published) in [
        ("toon_v4", 72.2),
        ("json_pretty", 71.4),
        ("xml_pretty", 70.7),
        ("yaml", 70.1),
        ("json_compact", 69.0),
        ("csv", 62.2),
    ] {
        assert_eq!(pct(format), published, "{format}");
    }
    let answers: u64 = rows.iter().map(|r| r["answers"].as_u64().unwrap()).sum();
    assert_eq!(answers, 5316);
    let csv = rows.iter().find(|r| r["format"] == "csv").unwrap();
    assert_eq!(csv["questions"], 109, "CSV answers only the flat questions");
    assert_eq!(csv["models"], 4);
    // bench graded every answer too, and the two grades mostly agree.
    let agree: u64 = rows
        .iter()
        .map(|r| r["grades_agree"].as_u64().unwrap())
        .sum();
    assert!(agree > 5000 && agree < 5316, "agreement {agree}");
    assert!(rows.iter().all(|r| r["bench_pct"].as_f64().is_some()));
    let differ = query(&root, "sql/imported_disagreements.sql");
    assert_eq!(differ.len() as u64, 5316 - agree);

    // The ranking reads it, says whose answers they are, and ranks by the billed tokens.
    let ranking = query(&root, "sql/rankings.sql");
    assert_eq!(ranking.len(), 6 * 4, "6 formats × 4 models");
    assert!(
        ranking.iter().all(|r| r["dataset"]
            .as_str()
            .unwrap()
            .starts_with("answers imported from the TOON benchmark, not produced by bench")),
        "{ranking:?}"
    );

    // The report reads it and says so; its baseline is the source's (JSON pretty).
    let out = binary()
        .args(["report", "latest", "--root"])
        .arg(&root)
        .output()
        .unwrap();
    crate::support::success_stdout(&out);
    let run = crate::support::run_dir(&root);
    let md = crate::support::files_under(&run)
        .into_iter()
        .find(|p| p.ends_with("BENCHMARK_REPORT.md"))
        .expect("a report");
    let text = std::fs::read_to_string(md).unwrap();
    assert!(
        text.contains("Answers imported from the TOON benchmark, not produced by bench"),
        "{}",
        &text[..2000.min(text.len())]
    );
    assert!(text.contains("Baseline of the paired comparisons: `json_pretty`"));

    // compare (one model per run): grok-4.5's answers by bench's grade, then by the source's.
    let root = tmp.path().join("one-model");
    for grade in ["bench", "source"] {
        let out = binary()
            .arg("import")
            .arg(shipped().join("grok-4.5"))
            .args(["--from", "toon", "--grade", grade, "--output-root"])
            .arg(&root)
            .output()
            .unwrap();
        crate::support::success_stdout(&out);
    }
    let out = binary()
        .args([
            "compare", "latest~1", "latest", "--format", "json", "--root",
        ])
        .arg(&root)
        .output()
        .unwrap();
    let table: Value = serde_json::from_str(&crate::support::success_stdout(&out)).unwrap();
    assert!(
        table["rows"].as_array().is_some_and(|rows| rows.len() >= 6),
        "{table}"
    );
}

/// Writes `text` as a model file and imports it: exit 2, one line naming the file and
/// `place`, and no run folder.
fn refused(text: &str, needles: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("some-model");
    std::fs::write(&file, text).unwrap();
    let root = tmp.path().join("data");
    let out = binary()
        .arg("import")
        .arg(&file)
        .args(["--from", "toon", "--output-root"])
        .arg(&root)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains(&file.display().to_string()), "{err}");
    for n in needles {
        assert!(err.contains(n), "{n} not in {err}");
    }
    assert!(!root.join("benchmarks").exists(), "nothing written");
}

const GOOD: &str = r#"{"questionId":"q1","format":"toon","model":"m","expected":"5","actual":"5","isCorrect":true,"inputTokens":10,"outputTokens":1,"latencyMs":3.5}"#;

#[test]
fn bad_files_are_one_line_naming_the_place_and_write_nothing() {
    refused("[{\"questionId\": ", &["line 1", "not a JSON array"]);
    refused(
        &format!("[{GOOD}, {}]", GOOD.replace("\"toon\"", "\"toml\"")),
        &["answer 2 (questionId q1)", "unknown format 'toml'"],
    );
    refused(
        &format!("[{GOOD}, {GOOD}]"),
        &["answer 2", "duplicate answer", "answer 1"],
    );
    refused(
        &format!("[{}]", GOOD.replace("\"expected\":\"5\",", "")),
        &["answer 1", "missing field `expected`"],
    );
    refused("[]", &["no answers"]);
}

#[test]
fn an_imported_run_cannot_be_resumed_or_rescored() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("m");
    std::fs::write(&file, format!("[{GOOD}]")).unwrap();
    let root = tmp.path().join("data");
    let out = binary()
        .arg("import")
        .arg(&file)
        .args(["--from", "toon", "--output-root"])
        .arg(&root)
        .output()
        .unwrap();
    crate::support::success_stdout(&out);
    let run = crate::support::run_dir(&root);
    let log = run.join("imported.jsonl");
    let before = std::fs::read(&log).unwrap();
    for args in [vec!["run", "--resume"], vec!["rescore"]] {
        let out = binary()
            .args(&args)
            .arg(&run)
            .env("BENCH_CACHE_DIR", tmp.path().join("cache"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("imported from the TOON benchmark")
                && err.contains("not produced by bench"),
            "{err}"
        );
    }
    assert_eq!(std::fs::read(&log).unwrap(), before, "the log is untouched");
}

/// The seed's Sonnet 4.6 runs (`$BENCH_SHARED_DIR/published/hoeltig`): bench's grade agrees
/// with the seed's validator on every answer of the two runs whose raw answers are published
/// (csv and json_compact, flat optional: 744 answers), and the run reads as imported.
#[test]
fn the_seed_runs_import_and_bench_agrees_with_its_validator() {
    let Some(shared) = std::env::var_os("BENCH_SHARED_DIR") else {
        eprintln!("skipping: BENCH_SHARED_DIR not set");
        return;
    };
    let results = Path::new(&shared).join(
        "published/hoeltig/benchmark_sonnet_4_6/results_flat_all_formats_and_variants_off/results",
    );
    assert!(results.is_dir(), "{} missing", results.display());
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let out = binary()
        .arg("import")
        .arg(results.join("csv_flat_optional_31_validation.json"))
        .arg(results.join("json_compact_flat_optional_31_validation.json"))
        .args(["--from", "hoeltig", "--output-root"])
        .arg(&root)
        .output()
        .unwrap();
    let said = crate::support::success_stdout(&out);
    assert!(
        said.contains("grades: bench agrees with the source on 744 of 744 answers (100.0 %)"),
        "{said}"
    );
    let rows = query(&root, "sql/imported.sql");
    assert_eq!(rows.len(), 2, "{rows:?}");
    for r in &rows {
        assert_eq!(r["answers"], 372);
        assert_eq!(r["bench_pct"], r["source_pct"], "{r}");
    }
}

#[test]
fn a_table_maps_its_columns_and_a_missing_one_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let csv = tmp.path().join("answers.csv");
    std::fs::write(
        &csv,
        "qid,fmt,llm,ok,prompt_tokens,answer,gold\n\
         q1,json_compact,m,1,100,5,5\n\
         q1,csv,m,0,60,6,5\n\
         q2,json_compact,m,1,100,yes,true\n\
         q2,csv,m,1,60,true,true\n",
    )
    .unwrap();
    let root = tmp.path().join("data");
    let map = "question=qid,format=fmt,model=llm,correct=ok,input_tokens=prompt_tokens,actual=answer,expected=gold";
    let out = binary()
        .arg("import")
        .arg(&csv)
        .args(["--from", "table", "--map", map, "--output-root"])
        .arg(&root)
        .output()
        .unwrap();
    let said = crate::support::success_stdout(&out);
    assert!(said.contains("4 answers from 1 files"), "{said}");
    let rows = query(&root, "sql/imported.sql");
    let csv_row = rows.iter().find(|r| r["format"] == "csv").unwrap();
    assert_eq!(
        (
            csv_row["source_pct"].as_f64(),
            csv_row["bench_pct"].as_f64()
        ),
        (Some(50.0), Some(50.0))
    );

    // A column the map names that the file lacks: one line naming the file, the column and
    // the field, exit 2, nothing written.
    let root2 = tmp.path().join("data2");
    let out = binary()
        .arg("import")
        .arg(&csv)
        .args([
            "--from",
            "table",
            "--map",
            "question=qid,format=fmt,model=model,correct=ok",
        ])
        .arg("--output-root")
        .arg(&root2)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("answers.csv") && err.contains("no column 'model' (mapped to model)"),
        "{err}"
    );
    assert!(!root2.exists());
    // An unknown field in the map.
    let out = binary()
        .arg("import")
        .arg(&csv)
        .args([
            "--from",
            "table",
            "--map",
            "question=qid,format=fmt,model=llm,grade=ok",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("unknown field 'grade'"), "{err}");
}

/// docs/published.md is what tools/published.sh makes from benchmarks/published/ now.
#[test]
fn docs_published_md_is_current() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("published.md");
    let status = std::process::Command::new("sh")
        .arg("tools/published.sh")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("BENCH", assert_cmd::cargo::cargo_bin("bench"))
        .env("OUT", &out)
        .status()
        .unwrap();
    assert!(status.success());
    let made = std::fs::read_to_string(&out).unwrap();
    let committed =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/published.md"))
            .unwrap();
    assert!(
        made == committed,
        "docs/published.md is not current: run BENCH=target/debug/bench tools/published.sh"
    );
}

/// The seed's Haiku 4.5 runs (shipped): its `toon_unsafe` files, a format bench has none of,
/// are named as skipped with their answers, never dropped silently; formats ran 3 to 9 times,
/// and every verdict's Δ lies inside its own bootstrap interval (both weighted, over the runs
/// both formats have: the plain Δ of all runs once sat outside it, -14.0 against [-12.9, -4.5]).
#[test]
fn the_haiku_runs_name_what_they_skip_and_each_delta_lies_in_its_interval() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let out = binary()
        .arg("import")
        .arg(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("benchmarks/published/hoeltig/benchmark_haiku_4_5"),
        )
        .args(["--from", "hoeltig", "--output-root"])
        .arg(&root)
        .output()
        .unwrap();
    let said = crate::support::success_stdout(&out);
    assert!(said.contains("8,804 answers from 16 files"), "{said}");
    let skipped: Vec<&str> = said.lines().filter(|l| l.contains("skipped:")).collect();
    assert_eq!(skipped.len(), 2, "{said}");
    assert!(
        skipped
            .iter()
            .all(|l| l.contains("toon_unsafe_flat_")
                && l.contains("its 372 answers are not imported")),
        "{skipped:?}"
    );
    let run = crate::support::run_dir(&root);
    let verdicts = bench::import::verdict::verdicts(&run, "json_compact").unwrap();
    assert_eq!(verdicts.len(), 14, "7 formats × 2 variants: {verdicts:?}");
    for v in &verdicts {
        let (d, lo, hi) = (
            v.delta_pp.unwrap(),
            v.delta_low_pp.unwrap(),
            v.delta_high_pp.unwrap(),
        );
        assert!(lo - 1e-9 <= d && d <= hi + 1e-9, "{v:?}");
    }
}

/// `--pool` writes the four TOON models as one more run, `all 4 models`; in both runs every
/// verdict's Δ lies in its own interval, CSV included, which was asked only the 109 flat
/// questions (its Δ over all of JSON's 244 questions once read -11.4 against [-4.4, 4.8]).
#[test]
fn pooled_toon_models_get_one_verdict_and_each_delta_lies_in_its_interval() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let said = import(&root, &["--pool"]);
    assert_eq!(said.matches("imported run: ").count(), 2, "{said}");
    assert!(
        said.contains("\nall 4 models (against json_pretty"),
        "{said}"
    );
    let mut runs: Vec<PathBuf> = std::fs::read_dir(root.join("benchmarks"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    runs.sort();
    let mut pooled = 0;
    for run in &runs {
        for v in bench::import::verdict::verdicts(run, "json_pretty").unwrap() {
            let (d, lo, hi) = (
                v.delta_pp.unwrap(),
                v.delta_low_pp.unwrap(),
                v.delta_high_pp.unwrap(),
            );
            assert!(lo - 1e-9 <= d && d <= hi + 1e-9, "{v:?}");
            if v.model == "all 4 models" {
                pooled += 1;
                let pairs = if v.format == "csv" { 436 } else { 976 };
                assert_eq!(v.pairs, pairs, "{v:?}");
            }
        }
    }
    assert_eq!(pooled, 5, "{said}");
}
