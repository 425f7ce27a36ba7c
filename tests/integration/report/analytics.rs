//! The DuckDB layer on a fixture run log with two providers (a perfect one and a noisy one that
//! also fails some calls): every SQL file in sql/ returns the expected rows, SQL recomputes the
//! Rust weighted accuracy exactly, bad lines are skipped and named, Parquet reads back.

use bench::analytics::{Analytics, Table, scan_runs};
use bench::dataset::Variant;
use bench::formats::Format;
use bench::prompt::parse_data_block;
use bench::providers::{Provider, ProviderError, Reference, Request, Response};
use bench::runner::{Plan, sequential};
use bench::tokens::Tokenizer;
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Answers like the reference, but gets every fifth question wrong (shifted per format) and
/// fails every seventh call.
struct Noisy {
    calls: AtomicUsize,
}

#[async_trait::async_trait]
impl Provider for Noisy {
    fn name(&self) -> &str {
        "noisy"
    }
    fn model(&self) -> &str {
        "noisy-1"
    }
    fn params(&self) -> Value {
        json!({"temperature": 0.7})
    }
    fn url(&self) -> Option<String> {
        Some("http://127.0.0.1:9/v1".into())
    }
    fn caches_prompts(&self) -> bool {
        true
    }
    async fn complete(&self, req: &Request<'_>) -> Result<Response, ProviderError> {
        if self.calls.fetch_add(1, Ordering::SeqCst) % 7 == 6 {
            return Err(ProviderError::BadPrompt("simulated failure".into()));
        }
        let shift = parse_data_block(&req.messages[0].content).map_or(0, |(name, _)| name.len());
        let mut resp = Reference.complete(req).await?;
        let mut answers: Map<String, Value> = serde_json::from_str(&resp.output).unwrap();
        for (i, v) in answers.values_mut().enumerate() {
            if (i + shift).is_multiple_of(5) {
                *v = json!("wrong");
            }
        }
        resp.output = serde_json::to_string(&answers).unwrap();
        Ok(resp)
    }
}

pub(super) fn fixture(root: &Path) -> PathBuf {
    let plan = Plan {
        formats: vec![Format::Csv, Format::JsonCompact, Format::ToonKeyfold],
        variants: vec![Variant::Mandatory, Variant::Optional],
        records: vec![10],
        seed: 3,
        runs: 2,
        tokenizers: Tokenizer::ALL.to_vec(),
        ..crate::support::one_table_plan(root)
    };
    let providers: Vec<Box<dyn Provider>> = vec![
        Box::new(Reference),
        Box::new(Noisy {
            calls: AtomicUsize::new(0),
        }),
    ];
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    rt.block_on(sequential(&plan, providers)).unwrap().jsonl
}

fn col(t: &Table, name: &str) -> usize {
    t.columns
        .iter()
        .position(|c| c == name)
        .unwrap_or_else(|| panic!("no column {name} in {:?}", t.columns))
}

fn results_from_jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|l| l["type"] == "result")
        .map(|l| l["data"].clone())
        .collect()
}

pub(super) fn sql_file(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("sql").join(name)).unwrap()
}

#[test]
fn every_report_returns_the_expected_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let jsonl = fixture(tmp.path());
    let rust = results_from_jsonl(&jsonl);
    let scored: Vec<&Value> = rust.iter().filter(|r| r["warmup"] == false).collect();
    assert_eq!(
        scored.len(),
        3 * 2 * 2 * 2,
        "3 formats × 2 variants × 2 providers × 2 runs"
    );
    let failed = scored.iter().filter(|r| !r["error"].is_null()).count();
    assert!(failed > 0, "the noisy provider must fail some calls");
    let db = Analytics::open(tmp.path()).unwrap();

    let mut files: Vec<String> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("sql"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".sql") && n != "views.sql")
            .collect();
    files.sort();
    for name in &files {
        let t = db
            .query(&sql_file(name))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        match name.as_str() {
            "rankings.sql" => {
                assert_eq!(t.rows.len(), 12, "{name}");
                let (acc, prov, runs, errors) = (
                    col(&t, "weighted_accuracy_pct"),
                    col(&t, "provider"),
                    col(&t, "runs"),
                    col(&t, "errors"),
                );
                assert_eq!(t.rows[0][prov], "reference/reference");
                assert_eq!(t.rows[0][acc], 100.0);
                let noisy: Vec<_> = t
                    .rows
                    .iter()
                    .filter(|r| r[prov] == "noisy/noisy-1")
                    .collect();
                assert!(noisy.iter().all(|r| r[acc].as_f64().unwrap() < 100.0));
                let total_errors: i64 = t.rows.iter().map(|r| r[errors].as_i64().unwrap()).sum();
                let total_runs: i64 = t.rows.iter().map(|r| r[runs].as_i64().unwrap()).sum();
                assert_eq!(total_errors as usize, failed);
                assert_eq!(total_runs as usize + failed, scored.len());
            }
            "weighted_accuracy.sql" => {
                assert_eq!(
                    t.rows.len(),
                    scored.len(),
                    "{name}: one row per non-warm-up call"
                );
                let (wa, fmt, run, prov) = (
                    col(&t, "weighted_accuracy"),
                    col(&t, "format"),
                    col(&t, "run"),
                    col(&t, "provider"),
                );
                let variant = col(&t, "variant");
                for row in &t.rows {
                    let r = scored
                        .iter()
                        .find(|r| {
                            r["format"] == row[fmt]
                                && r["run"] == row[run]
                                && r["variant"] == row[variant]
                                && r["provider_config"]["provider"] == row[prov]
                        })
                        .expect("matching Rust result");
                    let sql = row[wa].as_f64().unwrap();
                    let rust = r["summary"]["weighted_accuracy"].as_f64().unwrap();
                    assert!(
                        (sql - rust).abs() < 1e-9,
                        "SQL {sql} vs Rust {rust} for {row:?}"
                    );
                    assert_eq!(row[col(&t, "matches")], true);
                }
                let below = t
                    .rows
                    .iter()
                    .filter(|r| r[wa].as_f64().unwrap() < 0.99)
                    .count();
                assert!(
                    below >= 4,
                    "the noisy provider scores below 1 ({below} rows)"
                );
            }
            "tokens_per_value.sql" => {
                assert_eq!(t.rows.len(), 6, "{name}: 3 formats × 2 variants");
                let (fmt, variant) = (col(&t, "format"), col(&t, "variant"));
                for row in &t.rows {
                    let r = scored
                        .iter()
                        .find(|r| r["format"] == row[fmt] && r["variant"] == row[variant])
                        .unwrap();
                    for tok in ["o200k_base", "cl100k_base"] {
                        let want = r["data_stats"]["tokens"][tok].as_f64().unwrap()
                            / r["data_stats"]["values"].as_f64().unwrap();
                        assert!(
                            (row[col(&t, tok)].as_f64().unwrap() - want).abs() < 0.0006,
                            "{tok} {row:?}"
                        );
                    }
                }
            }
            "provider_comparison.sql" => {
                assert_eq!(t.rows.len(), 2);
                let errors = col(&t, "errors");
                let noisy = t
                    .rows
                    .iter()
                    .find(|r| r[col(&t, "provider")] == "noisy")
                    .unwrap();
                assert_eq!(noisy[errors].as_i64().unwrap() as usize, failed);
                assert_eq!(noisy[col(&t, "calls")], 12);
            }
            "format_comparison.sql" => {
                assert_eq!(t.rows.len(), 12);
                let (fmt, ratio, delta) = (
                    col(&t, "format"),
                    col(&t, "token_ratio_vs_json_compact"),
                    col(&t, "delta_accuracy_pp"),
                );
                for row in &t.rows {
                    if row[fmt] == "json_compact" {
                        assert_eq!(row[ratio], 1.0);
                        assert_eq!(row[delta], 0.0);
                    } else {
                        assert!(
                            row[ratio].as_f64().unwrap() < 1.0,
                            "csv and toon are smaller: {row:?}"
                        );
                    }
                }
            }
            "category_breakdown.sql" => {
                assert_eq!(t.rows.len(), 12);
                let reference = t
                    .rows
                    .iter()
                    .filter(|r| r[col(&t, "provider")] == "reference/reference");
                for r in reference {
                    for c in [
                        "field_retrieval_pct",
                        "structure_awareness_pct",
                        "filtering_pct",
                        "aggregation_pct",
                    ] {
                        assert_eq!(r[col(&t, c)], 100.0, "{c}");
                    }
                }
            }
            "scaling.sql" => {
                // One size in the fixture: one row per combination, no fit possible.
                assert_eq!(t.rows.len(), 12, "{name}");
                for row in &t.rows {
                    assert!(row[col(&t, "slope_tokens_per_record")].is_null());
                    assert_eq!(row[col(&t, "records")], 10);
                    let per = row[col(&t, "tokens_per_record")].as_f64().unwrap();
                    let total = row[col(&t, "data_tokens")].as_f64().unwrap();
                    assert!((per * 10.0 - total).abs() < 1.0, "{row:?}");
                }
            }
            "position_effect.sql" => {
                assert_eq!(t.rows.len(), 12, "{name}");
                for row in t
                    .rows
                    .iter()
                    .filter(|r| r[col(&t, "provider")] == "reference/reference")
                {
                    for c in ["start_pct", "middle_pct", "end_pct"] {
                        assert_eq!(row[col(&t, c)], 100.0, "{c}");
                    }
                    assert_eq!(row[col(&t, "answers")], 2 * 55, "2 runs × 55 retrievals");
                }
            }
            "wrong_answers.sql" => {
                // Only the noisy provider answers wrong; each rendering's wrong answers are
                // numbered 1..=wrong, by question then run.
                assert!(!t.rows.is_empty(), "{name}");
                let mut last: Option<(String, i64)> = None;
                for row in &t.rows {
                    assert_eq!(row[col(&t, "provider")], "noisy/noisy-1", "{row:?}");
                    assert_eq!(row[col(&t, "failure")], "hallucinated", "{row:?}");
                    let key = format!(
                        "{}/{}/{}",
                        row[col(&t, "format")],
                        row[col(&t, "structure")],
                        row[col(&t, "variant")]
                    );
                    let (nth, wrong) = (
                        row[col(&t, "nth")].as_i64().unwrap(),
                        row[col(&t, "wrong")].as_i64().unwrap(),
                    );
                    let expected_nth = match &last {
                        Some((k, n)) if *k == key => n + 1,
                        _ => 1,
                    };
                    assert_eq!(nth, expected_nth, "{row:?}");
                    assert!(nth <= wrong, "{row:?}");
                    last = Some((key, nth));
                }
            }
            "failure_modes.sql" => {
                // Per provider and rendering: the reference fails nothing (one row, no kind);
                // the noisy provider's "wrong" occurs nowhere in the data: hallucinated.
                assert_eq!(t.rows.len(), 12, "{name}");
                for row in &t.rows {
                    let (kind, failed) = (&row[col(&t, "failure")], &row[col(&t, "failed")]);
                    if row[col(&t, "provider")] == "reference/reference" {
                        assert_eq!((kind, failed), (&Value::Null, &json!(0)), "{row:?}");
                        assert_eq!(row[col(&t, "wrong_form_pct")], 0.0, "{row:?}");
                    } else {
                        assert_eq!(kind, "hallucinated", "{row:?}");
                        assert_eq!(row[col(&t, "pct_of_failures")], 100.0, "{row:?}");
                        assert!(row[col(&t, "pct_of_answers")].as_f64().unwrap() > 10.0);
                    }
                }
            }
            "bootstrap_clusters.sql" | "bootstrap_pairs.sql" => {
                // One cluster per rendering and question, over complete runs only (of 2).
                assert!(
                    !t.rows.is_empty() && t.rows.len().is_multiple_of(124),
                    "{name}: {}",
                    t.rows.len()
                );
                let paired = name == "bootstrap_pairs.sql";
                for row in &t.rows {
                    let n = |c: &str| row[col(&t, c)].as_i64().unwrap();
                    assert!((1..=2).contains(&n("total")), "{row:?}");
                    assert!(n("passed") <= n("total"), "{row:?}");
                    if paired {
                        assert!(n("baseline_passed") <= n("total"), "{row:?}");
                        assert_ne!(row[col(&t, "format")], "json_compact", "{row:?}");
                    }
                    if row[col(&t, "provider")] == "reference" {
                        assert_eq!(n("passed"), n("total"), "{row:?}");
                    }
                }
            }
            "accuracy.sql" => {
                assert_eq!(t.rows.len(), 12, "{name}");
                let mut failed_calls = 0;
                for row in &t.rows {
                    let get = |c: &str| row[col(&t, c)].as_f64();
                    let (acc, lo, hi) = (get("accuracy"), get("wilson_low"), get("wilson_high"));
                    let runs = row[col(&t, "runs")].as_i64().unwrap();
                    let failed = row[col(&t, "failed_calls")].as_i64().unwrap();
                    failed_calls += failed;
                    assert_eq!(runs + failed, 2, "{row:?}");
                    assert_eq!(row[col(&t, "n_answers")], json!(124 * runs), "{row:?}");
                    assert!(lo.unwrap() < acc.unwrap() || acc == Some(0.0), "{row:?}");
                    assert!(acc.unwrap() <= hi.unwrap(), "{row:?}");
                    if row[col(&t, "provider")] == "reference" {
                        assert_eq!((acc, hi), (Some(1.0), Some(1.0)), "{row:?}");
                        assert_eq!(get("weighted_min"), get("weighted_max"));
                        assert_eq!(get("weighted_stdev"), Some(0.0));
                    } else {
                        assert!(acc.unwrap() < 1.0, "{row:?}");
                    }
                    let eff = get("efficiency").unwrap();
                    let tokens = get("data_tokens").unwrap();
                    let wa = get("weighted_accuracy").unwrap();
                    assert!(
                        (eff - 100.0 * wa / (tokens / 1000.0)).abs() < 0.5,
                        "{row:?}"
                    );
                }
                assert_eq!(failed_calls as usize, failed);
            }
            "category_accuracy.sql" => {
                assert_eq!(t.rows.len(), 12 * 4, "{name}");
                for row in &t.rows {
                    let get = |c: &str| row[col(&t, c)].as_f64().unwrap();
                    assert!(
                        get("wilson_low") <= get("accuracy")
                            && get("accuracy") <= get("wilson_high")
                    );
                    let n = get("n_answers");
                    assert!(
                        (get("accuracy") * n - get("n_correct")).abs() < 1e-9,
                        "{row:?}"
                    );
                }
            }
            "paired_comparison.sql" => {
                // csv and toon_keyfold against json_compact, per provider and variant.
                assert_eq!(t.rows.len(), 8, "{name}");
                for row in &t.rows {
                    let get = |c: &str| row[col(&t, c)].as_f64().unwrap();
                    let (b, c) = (
                        get("discordant_format_only"),
                        get("discordant_baseline_only"),
                    );
                    assert!(get("p_holm") >= get("p_value"), "{row:?}");
                    assert!(
                        get("n_pairs") >= 124.0 && get("n_pairs") % 124.0 == 0.0,
                        "{row:?}"
                    );
                    let noisy = row[col(&t, "provider")] == "noisy";
                    // The noisy provider's wrong answers shift with the format name's length:
                    // toon_keyfold and json_compact (12 letters) err alike, csv does not.
                    if noisy && row[col(&t, "format")] == "csv" {
                        assert!(b > 0.0 && c > 0.0, "{row:?}");
                        assert!(
                            (get("delta_accuracy_pp") - 100.0 * (b - c) / get("n_pairs")).abs()
                                < 1e-9
                        );
                        assert!(get("mde_pp") > 0.0);
                    } else {
                        assert_eq!((b, c), (0.0, 0.0), "{row:?}");
                        assert_eq!(
                            (get("p_value"), row[col(&t, "significant")].clone()),
                            (1.0, json!(false))
                        );
                    }
                }
            }
            "pareto.sql" => {
                assert_eq!(t.rows.len(), 12, "{name}");
                // Every format of the reference is 100 % right: only the fewest tokens win.
                for variant in ["mandatory", "optional"] {
                    let family: Vec<_> = t
                        .rows
                        .iter()
                        .filter(|r| {
                            r[col(&t, "provider")] == "reference"
                                && r[col(&t, "variant")] == variant
                        })
                        .collect();
                    let on: Vec<_> = family
                        .iter()
                        .filter(|r| r[col(&t, "on_frontier")] == true)
                        .collect();
                    assert_eq!(on.len(), 1, "{family:?}");
                    let fewest = family
                        .iter()
                        .map(|r| r[col(&t, "data_tokens")].as_i64().unwrap())
                        .min();
                    assert_eq!(on[0][col(&t, "data_tokens")].as_i64(), fewest);
                }
            }
            "token_efficiency.sql" => {
                assert_eq!(t.rows.len(), 3 * 2 * Tokenizer::ALL.len(), "{name}");
                for row in &t.rows {
                    let get = |c: &str| row[col(&t, c)].as_f64().unwrap();
                    assert!(
                        get("chars_per_token") > 1.0 && get("tokens_per_value") > 0.0,
                        "{row:?}"
                    );
                    assert!(
                        get("tokens_per_object") > get("tokens_per_value"),
                        "{row:?}"
                    );
                }
            }
            "usage.sql" => {
                assert_eq!(t.rows.len(), 12, "{name}");
                let failed_calls: i64 = t
                    .rows
                    .iter()
                    .map(|r| r[col(&t, "failed_calls")].as_i64().unwrap())
                    .sum();
                assert_eq!(failed_calls as usize, failed);
                for row in &t.rows {
                    assert_eq!(row[col(&t, "calls")], 2, "{row:?}");
                    // The noisy provider caches prompts, so each rendering had a warm-up.
                    let warm = if row[col(&t, "provider")] == "noisy" {
                        1
                    } else {
                        0
                    };
                    assert_eq!(row[col(&t, "warmup_calls")], warm, "{row:?}");
                }
            }
            // Analysis tasks only: a `formats` run has no task rows (tests/integration/
            // suites/tasks_run.rs checks it on a `tasks` run).
            "task_scores.sql" | "task_formats.sql" => {
                assert!(t.rows.is_empty(), "{name}: {:?}", t.rows)
            }
            // Written documents only: a `formats` run has none (tests/integration/
            // suites/write_run.rs runs them on a `write` run through `bench run`'s ranking).
            "write_accuracy.sql" | "write_failures.sql" => {
                assert!(t.rows.is_empty(), "{name}: {:?}", t.rows)
            }
            // Two runs named by bench_a and bench_b only (tests/integration/report/compare.rs runs
            // them through `bench compare`): unset, nothing is paired.
            "compare.sql" | "compare_pairs.sql" | "compare_tasks.sql" => {
                assert!(t.rows.is_empty(), "{name}: {:?}", t.rows)
            }
            // Keys every answer contradicts in agreement (tests/integration/suites/question_file.rs
            // plants two and checks the report's lines): at least 2 answers, all saying one
            // value that is not the key's.
            "key_check.sql" => {
                for row in &t.rows {
                    assert!(row[col(&t, "answers")].as_i64().unwrap() >= 2, "{row:?}");
                    assert_ne!(row[col(&t, "all_say")], row[col(&t, "key_says")], "{row:?}");
                }
            }
            // Runs asked in several wordings only (tests/integration/run/prompt_wording.rs checks
            // the report built on it): this run asked one.
            // The corrupted track only (tests/integration/suites/corrupted.rs checks its rows).
            "corrupted.sql" => {
                assert!(t.rows.is_empty(), "{name}: {:?}", t.rows)
            }
            "prompt_wording.sql" => {
                assert!(t.rows.is_empty(), "{name}: {:?}", t.rows)
            }
            // Imported runs only (tests/integration/import/toon.rs checks both on the published
            // files): a run bench made has no imported answers.
            "imported.sql" | "imported_disagreements.sql" | "imported_replies.sql" => {
                assert!(t.rows.is_empty(), "{name}: {:?}", t.rows)
            }
            other => panic!("{other} has no expectations in tests/analytics.rs: add them"),
        }
    }
    assert!(files.len() >= 8, "{files:?}");
}

#[test]
fn views_expose_the_documented_columns() {
    let tmp = tempfile::tempdir().unwrap();
    fixture(tmp.path());
    let db = Analytics::open(tmp.path()).unwrap();
    let cols = |view: &str| {
        db.query(&format!("SELECT * FROM {view} LIMIT 1"))
            .unwrap()
            .columns
    };
    for c in [
        "ts",
        "suite",
        "type",
        "benchmark_id",
        "benchmark_timestamp",
        "provider",
        "model",
        "sample_tag",
        "avg_score",
        "pass_rate",
        "data",
    ] {
        assert!(
            cols("benchmarks").contains(&c.to_string()),
            "benchmarks.{c}"
        );
    }
    for c in [
        "records",
        "run",
        "warmup",
        "error",
        "weighted_accuracy",
        "acc_field_retrieval",
        "input_tokens",
        "cache_write_tokens",
        "data_tokens_o200k",
        "data_values",
        "latency_ms",
        "cost_usd",
    ] {
        assert!(cols("results").contains(&c.to_string()), "results.{c}");
    }
    for c in [
        "question_id",
        "category",
        "validation",
        "passed",
        "score",
        "expected",
        "actual",
        "reason",
        "failure",
        "off_by",
        "normalization",
        "format",
        "provider",
    ] {
        assert!(cols("answers").contains(&c.to_string()), "answers.{c}");
    }
    assert!(cols("results").contains(&"finish".to_string()));
    assert!(cols("results").contains(&"batch_id".to_string()));
    let live = db
        .query("SELECT count(*) FROM results WHERE batch_id IS NOT NULL")
        .unwrap();
    assert_eq!(
        live.rows,
        vec![vec![serde_json::json!(0)]],
        "a live run has no batch ids"
    );
    let finish = db
        .query("SELECT DISTINCT finish FROM results WHERE error IS NULL")
        .unwrap();
    assert_eq!(
        finish.rows,
        vec![vec![json!("stop")]],
        "the reference stops"
    );
    let n = db
        .query("SELECT count(*) FROM answers WHERE NOT warmup")
        .unwrap();
    assert_eq!(n.rows[0][0], 24 * 124);
    let warm = db
        .query("SELECT count(*) FROM results WHERE warmup")
        .unwrap();
    assert_eq!(
        warm.rows[0][0], 6,
        "one warm-up per combination for the caching provider"
    );
}

#[test]
fn corrupt_lines_are_skipped_and_named() {
    let tmp = tempfile::tempdir().unwrap();
    let jsonl = fixture(tmp.path());
    let before = Analytics::open(tmp.path())
        .unwrap()
        .query("SELECT count(*) FROM results")
        .unwrap();
    let text = std::fs::read_to_string(&jsonl).unwrap();
    let lines = text.lines().count();
    // A crash mid-write: half a result line, then (after a resume) more lines.
    let half = &text.lines().nth(1).unwrap()[..500];
    std::fs::write(
        &jsonl,
        format!("{text}{half}\n{{\"type\": \"result\", \"data\": nope}}\n"),
    )
    .unwrap();
    let (_, bad) = scan_runs(tmp.path()).unwrap();
    assert_eq!(
        bad.iter().map(|b| b.line).collect::<Vec<_>>(),
        vec![lines + 1, lines + 2]
    );
    assert_eq!(bad[0].file, jsonl);
    let after = Analytics::open(tmp.path())
        .unwrap()
        .query("SELECT count(*) FROM results")
        .unwrap();
    assert_eq!(before, after);
}

#[test]
fn no_runs_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let err = scan_runs(tmp.path()).unwrap_err().to_string();
    assert!(
        err.contains("no runs under") && err.contains("run `bench run` first"),
        "{err}"
    );
}

#[test]
fn parquet_export_reads_back_with_the_same_rows_and_values() {
    let tmp = tempfile::tempdir().unwrap();
    fixture(tmp.path());
    let db = Analytics::open(tmp.path()).unwrap();
    let out = tmp.path().join("parquet");
    let (logs, _) = scan_runs(tmp.path()).unwrap();
    let counts = db
        .export_parquet(&out, &bench::analytics::run_parts(&logs).unwrap())
        .unwrap();
    assert_eq!(
        counts.iter().map(|c| c.0.as_str()).collect::<Vec<_>>(),
        ["results", "answers", "benchmarks"]
    );
    let dir = out.to_string_lossy();
    let check = |view: &str, parquet: String, cols: &str| {
        let a = db
            .query(&format!("SELECT {cols} FROM {view} ORDER BY ALL"))
            .unwrap();
        let b = db
            .query(&format!("SELECT {cols} FROM {parquet} ORDER BY ALL"))
            .unwrap();
        assert!(!a.rows.is_empty());
        assert_eq!(a, b, "{view} round trip");
    };
    let hive =
        |v: &str| format!("read_parquet('{dir}/{v}/**/*.parquet', hive_partitioning = true)");
    check(
        "results",
        hive("results"),
        "suite, provider, model, format, variant, run, warmup, error, weighted_accuracy, data_tokens_o200k, cost_usd",
    );
    check(
        "answers",
        hive("answers"),
        "suite, provider, format, variant, run, question_id, passed, score, reason, CAST(expected AS VARCHAR)",
    );
    check(
        "benchmarks",
        format!("read_parquet('{dir}/benchmarks/**/*.parquet')"),
        "type, benchmark_id, provider, CAST(data AS VARCHAR)",
    );
    // Every report runs unchanged on the Parquet export and gives the same rows.
    let pq = Analytics::open_parquet(&out).unwrap();
    for name in [
        "rankings.sql",
        "category_breakdown.sql",
        "format_comparison.sql",
        "tokens_per_value.sql",
        "weighted_accuracy.sql",
        "provider_comparison.sql",
    ] {
        assert_eq!(
            db.query(&sql_file(name)).unwrap(),
            pq.query(&sql_file(name)).unwrap(),
            "{name} on Parquet"
        );
    }
    let run = logs[0]
        .parent()
        .unwrap()
        .file_name()
        .unwrap()
        .to_string_lossy();
    assert!(
        out.join(format!("results/ts={run}/suite=formats/provider=noisy"))
            .is_dir(),
        "hive partitions by run, suite and provider"
    );
}
