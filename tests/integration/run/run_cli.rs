//! `bench run` as a user runs it: resume after a cut log, dry run without keys, init-config,
//! missing keys.

use crate::support::{ONE_TABLE_RUN, bench, parse, results, run_dir};
use assert_cmd::Command;
use bench::runlog::Line;
use bench::runner::SampleKey;
use std::collections::HashSet;
use std::path::Path;

#[test]
fn resume_completes_a_log_cut_mid_line_without_duplicates() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let cache = tmp.path().join("cache");
    bench(&cache)
        .args([
            "run",
            "--formats",
            "csv,json_compact,yaml",
            "--structures",
            "flat",
        ])
        .args(["--runs", "3", "--output-root"])
        .arg(&root)
        .assert()
        .success();
    let dir = run_dir(&root);
    let jsonl = dir.join("formats.jsonl");
    let full = std::fs::read_to_string(&jsonl).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    assert_eq!(lines.len(), 1 + 18 + 1, "metadata, 2×3×3 results, summary");
    // Keep metadata and 10 results, then half of the 11th, as if killed mid-write.
    let mut cut = lines[..11].join("\n");
    cut.push('\n');
    cut.push_str(&lines[11][..lines[11].len() / 2]);
    std::fs::write(&jsonl, cut).unwrap();

    let out = bench(&cache)
        .args(["run", "--resume"])
        .arg(&dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("cut mid-write"), "{stderr}");
    assert!(stderr.contains("10 finished calls kept"), "{stderr}");

    let lines = parse(&jsonl);
    assert!(matches!(lines.first(), Some(Line::Metadata(_))));
    let mut keys = HashSet::new();
    for l in &lines[1..lines.len() - 1] {
        match l {
            Line::Result(r) => assert!(
                keys.insert(SampleKey::of(r)),
                "duplicate {:?}",
                r.sample.tag
            ),
            _ => panic!("only results between metadata and summary"),
        }
    }
    assert_eq!(keys.len(), 18);
    match lines.last() {
        Some(Line::Summary(s)) => {
            assert_eq!(s.total_samples, 18);
            assert!(!s.interrupted);
            assert!(
                s.rankings
                    .iter()
                    .all(|r| r.runs == 3 && r.weighted_accuracy == 1.0)
            );
        }
        other => panic!("summary expected last, got {other:?}"),
    }

    // Resuming a complete run makes no call and changes no result.
    bench(&cache)
        .args(["run", "--resume"])
        .arg(&dir)
        .assert()
        .success();
    assert_eq!(parse(&jsonl).len(), 20);

    // A failed call is kept on resume, and run again (replaced) with --retry-errors.
    let text = std::fs::read_to_string(&jsonl).unwrap();
    let mut lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    lines[3]["data"]["error"] = "reference:reference: HTTP 503: simulated".into();
    let failed_tag = lines[3]["data"]["sample"]["tag"].clone();
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&jsonl, text).unwrap();
    bench(&cache)
        .args(["run", "--resume"])
        .arg(&dir)
        .assert()
        .success();
    let errors = |lines: &[Line]| {
        lines
            .iter()
            .filter(|l| matches!(l, Line::Result(r) if r.error.is_some()))
            .count()
    };
    assert_eq!(errors(&parse(&jsonl)), 1, "kept without --retry-errors");
    let out = bench(&cache)
        .args(["run", "--retry-errors", "--resume"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 failed calls will run again"));
    let lines = parse(&jsonl);
    assert_eq!(errors(&lines), 0);
    assert_eq!(
        lines.len(),
        20,
        "the failed line was replaced, not duplicated"
    );
    assert!(
        lines
            .iter()
            .any(|l| matches!(l, Line::Result(r) if r.sample.tag == failed_tag))
    );
}

#[test]
fn dry_run_plans_real_providers_without_network_or_keys() {
    let tmp = tempfile::tempdir().unwrap();
    let out = bench(tmp.path())
        .args([
            "run",
            "--dry-run",
            "--provider",
            "anthropic:claude-sonnet-4-5",
        ])
        .args([
            "--provider",
            "openai:gpt-4.1-mini",
            "--rpm",
            "60",
            "--concurrency",
            "100",
        ])
        .arg("--output-root")
        .arg(tmp.path().join("data"))
        .output()
        .unwrap();
    let stdout = crate::support::success_stdout(&out);
    for needle in [
        "anthropic:claude-sonnet-4-5",
        "openai:gpt-4.1-mini",
        "prompt_tokens_per_call",
        "est_usd",
        "est_wall_time",
        "rpm=60",
    ] {
        assert!(stdout.contains(needle), "{needle} missing:\n{stdout}");
    }
    // 30 renderings × (3 runs + 1 warm-up) = 120 calls; at 60 rpm that is 2 minutes.
    assert!(stdout.contains(" 120 "), "{stdout}");
    assert!(stdout.contains("2m00s"), "{stdout}");
    assert!(
        !tmp.path().join("data").exists(),
        "a dry run writes nothing"
    );
}

#[test]
fn init_config_writes_a_template_the_run_accepts() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("models.toml");
    bench(tmp.path())
        .args(["init-config", "-o"])
        .arg(&path)
        .assert()
        .success();
    let again = bench(tmp.path())
        .args(["init-config", "-o"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));
    let out = bench(tmp.path())
        .args(["run", "--dry-run", "--config"])
        .arg(&path)
        .output()
        .unwrap();
    let stdout = crate::support::success_stdout(&out);
    assert!(stdout.contains("reference"), "{stdout}");
    // Issue 54: the printed next step's real run works as written, with no key and no server
    // (it stopped at `ANTHROPIC_API_KEY is not set`).
    let out = bench(tmp.path())
        .args([
            "run",
            "--formats",
            "csv",
            "--runs",
            "1",
            "--no-report",
            "--config",
        ])
        .arg(&path)
        .arg("--output-root")
        .arg(tmp.path().join("data"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{stderr}");
    assert!(
        !stderr.contains("is not set") && !stderr.contains("unknown"),
        "{stderr}"
    );
    std::fs::write(&path, "[[models]]\nprovider = \"nope\"\nmodel = \"x\"\n").unwrap();
    let bad = bench(tmp.path())
        .args(["run", "--dry-run", "--config"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown provider 'nope'"));
}

#[test]
fn missing_keys_and_bad_combinations_are_one_line_errors() {
    let tmp = tempfile::tempdir().unwrap();
    for (args, needle) in [
        (
            vec!["run", "--provider", "anthropic:claude-x"],
            "anthropic:claude-x: ANTHROPIC_API_KEY is not set",
        ),
        (
            vec!["run", "--provider", "gemini:gemini-x"],
            "GEMINI_API_KEY is not set",
        ),
        (
            vec!["run", "--provider", "openai-compatible:m"],
            "needs a base URL",
        ),
        (vec!["run", "--provider", "claude"], "needs a model"),
        (
            vec!["run", "--provider", "foo:bar"],
            "unknown provider 'foo'",
        ),
    ] {
        let out = bench(tmp.path())
            .args(&args)
            .arg("--output-root")
            .arg(tmp.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    let out = bench(tmp.path())
        .args(["run", "--resume", "x", "--formats", "csv"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn per_question_mode_asks_one_question_per_call_and_ranks_by_run() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    bench(tmp.path())
        .args([
            "run",
            "--question-mode",
            "per-question",
            "--formats",
            "toon_default",
        ])
        .args([
            "--structures",
            "nested",
            "--variants",
            "optional",
            "--runs",
            "2",
        ])
        .args(["--records", "8", "--output-root"])
        .arg(&root)
        .assert()
        .success();
    let lines = parse(&run_dir(&root).join("formats.jsonl"));
    let results = results(&lines);
    assert_eq!(results.len(), 2 * 124, "one call per question per run");
    assert!(
        results
            .iter()
            .all(|r| r.metrics.len() == 1 && r.question.is_some())
    );
    match lines.last() {
        Some(Line::Summary(s)) => {
            assert_eq!(s.rankings.len(), 1);
            assert_eq!(s.rankings[0].runs, 2, "the calls of a run count as one run");
            assert_eq!(s.rankings[0].weighted_accuracy, 1.0);
        }
        other => panic!("{other:?}"),
    }
    let out = bench(tmp.path())
        .args(["query", "sql/rankings.sql", "--format", "csv", "--root"])
        .arg(&root)
        .output()
        .unwrap();
    let csv = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let row = csv.lines().nth(1).unwrap();
    assert!(row.contains(",100.0,") && row.contains(",2,0,"), "{row}");
}

/// A chat server answering `{}` after `delay`, with realistic usage.
async fn slow_chat_server(delay_ms: u64) -> wiremock::MockServer {
    let server = wiremock::MockServer::start().await;
    wiremock::Mock::given(wiremock::matchers::method("POST"))
        .respond_with(
            wiremock::ResponseTemplate::new(200)
                .set_body_json(serde_json::json!({
                    "choices": [{"message": {"role": "assistant", "content": "{}"}}],
                    "usage": {"prompt_tokens": 5000, "completion_tokens": 100}
                }))
                .set_delay(std::time::Duration::from_millis(delay_ms)),
        )
        .mount(&server)
        .await;
    server
}

fn write_config(path: &Path, base_url: &str, price: f64) {
    std::fs::write(
        path,
        format!(
            "[[models]]\nprovider = \"openai-compatible\"\nmodel = \"mock\"\nbase_url = \"{base_url}\"\n\
             concurrency = 1\nmax_tokens = 100\nprice = {{ input = {price}, output = {price} }}\n"
        ),
    )
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn budget_exits_3_and_ctrl_c_leaves_a_resumable_run() {
    let tmp = tempfile::tempdir().unwrap();
    let server = slow_chat_server(150).await;
    let config = tmp.path().join("models.toml");
    // ~5,100 tokens per call at $60 per 1M: about $0.31 per call; $1 allows three.
    write_config(&config, &format!("{}/v1", server.uri()), 60.0);
    let root = tmp.path().join("data");
    let base = |b: &mut Command| {
        b.args(ONE_TABLE_RUN)
            .arg("--config")
            .arg(&config)
            .arg("--output-root")
            .arg(&root)
            .arg("--no-cache");
    };
    let mut cmd = bench(tmp.path());
    base(&mut cmd);
    let out = cmd
        .args(["--runs", "10", "--budget-usd", "1"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("budget of $1.00 reached") && err.contains("--resume"),
        "{err}"
    );
    let dir = run_dir(&root);
    let lines = parse(&dir.join("formats.jsonl"));
    let n = lines
        .iter()
        .filter(|l| matches!(l, Line::Result(_)))
        .count();
    assert!((1..10).contains(&n), "{n} calls under the budget");
    assert!(matches!(lines.last(), Some(Line::Summary(s)) if s.interrupted));
    // Its report still comes, and says first that it covers part of the plan.
    let md = std::fs::read_to_string(dir.join("formats/BENCHMARK_REPORT.md")).unwrap();
    let verdict = md.find("## Verdict").unwrap();
    assert!(
        md[verdict..].starts_with("## Verdict\n\n**Incomplete run.**"),
        "{md:.600}"
    );
    assert!(md.contains("stopped early"));

    // Ctrl-C mid-run: in-flight calls finish, the summary is marked, exit 130.
    std::fs::remove_dir_all(&root).unwrap();
    let out = interrupted_run(tmp.path(), &config, &root, 30, "INT").await;
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupt (Ctrl-C)"), "{err}");
    let dir = run_dir(&root);
    let lines = parse(&dir.join("formats.jsonl"));
    let done = lines
        .iter()
        .filter(|l| matches!(l, Line::Result(_)))
        .count();
    assert!((1..30).contains(&done), "{done}");
    match lines.last() {
        Some(Line::Summary(s)) => {
            assert!(s.interrupted);
            assert!(s.stop_reason.as_deref().unwrap().contains("Ctrl-C"));
        }
        other => panic!("{other:?}"),
    }
    // Resume finishes exactly the rest, and its report is no longer marked incomplete.
    let out = bench(tmp.path())
        .args(["run", "--no-cache", "--resume"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let md = std::fs::read_to_string(dir.join("formats/BENCHMARK_REPORT.md")).unwrap();
    assert!(!md.contains("Incomplete run"), "{md:.600}");
    assert_each_sample_once(&dir, 30);
}

#[test]
fn size_sweep_and_primer_ablation_give_the_scaling_table() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    bench(tmp.path())
        .args([
            "run",
            "--records",
            "5,20,40",
            "--formats",
            "csv,json_compact,markdown_table,jsonl",
        ])
        .args([
            "--structures",
            "flat",
            "--variants",
            "optional",
            "--runs",
            "1",
        ])
        .args(["--primer", "both", "--output-root"])
        .arg(&root)
        .assert()
        .success();
    let query = |file: &str| {
        let out = bench(tmp.path())
            .args(["query", file, "--format", "json", "--root"])
            .arg(&root)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<Vec<serde_json::Value>>(&out.stdout).unwrap()
    };
    let rankings = query("sql/rankings.sql");
    assert_eq!(
        rankings.len(),
        4 * 3 * 2,
        "4 formats × 3 sizes × primer off/on"
    );
    assert!(rankings.iter().all(|r| r["weighted_accuracy_pct"] == 100.0));
    let scaling = query("sql/scaling.sql");
    assert_eq!(scaling.len(), 24);
    for row in &scaling {
        let slope = row["slope_tokens_per_record"].as_f64().unwrap();
        let r2 = row["r2"].as_f64().unwrap();
        assert!(slope > 10.0 && r2 > 0.999, "{row}");
    }
    let csv = scaling.iter().find(|r| r["format"] == "csv").unwrap()["slope_tokens_per_record"]
        .as_f64()
        .unwrap();
    let json = scaling
        .iter()
        .find(|r| r["format"] == "json_compact")
        .unwrap()["slope_tokens_per_record"]
        .as_f64()
        .unwrap();
    assert!(csv < json, "CSV costs fewer tokens per record than JSON");
    let positions = query("sql/position_effect.sql");
    assert_eq!(positions.len(), 24);
    assert!(
        positions
            .iter()
            .all(|r| r["start_pct"] == 100.0 && r["end_pct"] == 100.0)
    );
}

/// The ranking `bench run` prints, the summary line's `rankings` and `bench query
/// sql/rankings.sql` are the same rows in the same order with the same ranks, ties included
/// (toon_default and toon_keyfold render flat data with the same tokens, and the reference
/// answers everything: they share a rank).
#[test]
fn the_printed_ranking_is_rankings_sql_ties_included() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let out = bench(tmp.path())
        .args([
            "run",
            "--formats",
            "csv,toon_default,toon_keyfold,json_compact",
        ])
        .args(["--structures", "flat", "--runs", "1", "--no-report"])
        .arg("--output-root")
        .arg(&root)
        .output()
        .unwrap();
    let stdout = crate::support::success_stdout(&out);
    let printed: Vec<Vec<String>> = stdout
        .lines()
        .filter(|l| l.starts_with('│') && !l.contains(" # "))
        .map(|l| {
            l.split(['│', '┆'])
                .map(|c| c.trim().to_string())
                .filter(|c| !c.is_empty())
                .take(4)
                .collect()
        })
        .collect();
    let Some(Line::Summary(s)) = parse(&run_dir(&root).join("formats.jsonl")).pop() else {
        panic!("a summary line last")
    };
    let stored: Vec<Vec<String>> = s
        .rankings
        .iter()
        .map(|r| {
            vec![
                r.rank.to_string(),
                r.format.to_string(),
                r.structure.to_string(),
                r.variant.to_string(),
            ]
        })
        .collect();
    let q = bench(tmp.path())
        .args(["query", "sql/rankings.sql", "--format", "json", "--root"])
        .arg(&root)
        .output()
        .unwrap();
    let rows: Vec<serde_json::Value> =
        serde_json::from_str(&crate::support::success_stdout(&q)).unwrap();
    let queried: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            ["rank", "format", "structure", "variant"]
                .iter()
                .map(|k| {
                    r[k].as_str()
                        .map_or_else(|| r[k].to_string(), str::to_string)
                })
                .collect()
        })
        .collect();
    assert_eq!(printed.len(), 2 * 4, "{stdout}");
    assert_eq!(printed, queried, "printed vs rankings.sql");
    assert_eq!(stored, queried, "summary line vs rankings.sql");
    let shared = queried.windows(2).filter(|w| w[0][0] == w[1][0]).count();
    assert!(shared > 0, "a tie is in the table: {queried:?}");
    // The summary's per-model weighted accuracy is sql/provider_comparison.sql's.
    let q = bench(tmp.path())
        .args([
            "query",
            "sql/provider_comparison.sql",
            "--format",
            "json",
            "--root",
        ])
        .arg(&root)
        .output()
        .unwrap();
    let models: Vec<serde_json::Value> =
        serde_json::from_str(&crate::support::success_stdout(&q)).unwrap();
    assert_eq!(models.len(), 1);
    assert_eq!(
        s.provider_summaries["reference/reference"]["avg_weighted_accuracy"].as_f64(),
        models[0]["weighted_accuracy_pct"]
            .as_f64()
            .map(|p| p / 100.0)
    );
}

/// SIGTERM (a job scheduler's or a container's stop) behaves as Ctrl-C: the calls in flight
/// finish and are logged, the summary is marked, exit 130, and `--resume` completes the run
/// with every sample exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_like_ctrl_c_and_leaves_a_resumable_run() {
    let tmp = tempfile::tempdir().unwrap();
    let server = slow_chat_server(150).await;
    let config = tmp.path().join("models.toml");
    write_config(&config, &format!("{}/v1", server.uri()), 1.0);
    let root = tmp.path().join("data");
    let out = interrupted_run(tmp.path(), &config, &root, 20, "TERM").await;
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupt (SIGTERM)"), "{err}");
    let dir = run_dir(&root);
    let lines = parse(&dir.join("formats.jsonl"));
    assert!(matches!(lines.last(), Some(Line::Summary(s)) if s.interrupted));
    let out = bench(tmp.path())
        .args(["run", "--no-cache", "--no-report", "--resume"])
        .arg(&dir)
        .output()
        .unwrap();
    crate::support::success_stdout(&out);
    assert_each_sample_once(&dir, 20);
}

/// Starts `bench run` of `runs` runs against the models of `config`, sends `signal` (`INT`,
/// `TERM`) once the first call is logged (start-up time varies with machine load), and waits.
async fn interrupted_run(
    tmp: &Path,
    config: &Path,
    root: &Path,
    runs: u32,
    signal: &str,
) -> std::process::Output {
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("bench"))
        .env("BENCH_CACHE_DIR", tmp)
        .args(ONE_TABLE_RUN)
        .arg("--config")
        .arg(config)
        .arg("--output-root")
        .arg(root)
        .args(["--no-cache", "--runs", &runs.to_string()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let logged = || {
        std::fs::read_dir(root.join("benchmarks"))
            .ok()
            .and_then(|mut d| d.next())
            .and_then(|e| std::fs::read_to_string(e.ok()?.path().join("formats.jsonl")).ok())
            .is_some_and(|t| t.contains("\"type\":\"result\""))
    };
    for _ in 0..600 {
        if logged() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(logged(), "no call was logged within 30 s");
    let sent = std::process::Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    child.wait_with_output().unwrap()
}

/// The run log in `dir` holds `n` distinct samples, each once: metadata, `n` results, summary.
pub(super) fn assert_each_sample_once(dir: &Path, n: usize) {
    let lines = parse(&dir.join("formats.jsonl"));
    let keys: HashSet<SampleKey> = lines
        .iter()
        .filter_map(|l| match l {
            Line::Result(r) => Some(SampleKey::of(r)),
            _ => None,
        })
        .collect();
    assert_eq!(keys.len(), n);
    assert_eq!(lines.len(), n + 2, "metadata, {n} results, summary");
}
