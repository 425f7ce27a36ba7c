//! `bench compare` as a CI gate: two runs through the real runner with test doubles, one with
//! a planted regression in one format (exit 1 naming it), two identical runs (exit 0, every Δ
//! 0), and runs over different data refused with a one-line reason.

use crate::support::bench;
use crate::support::doubles::run_double as run;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// `bench compare A B --format json` plus `extra`: exit code, the parsed output, stderr.
fn compare(a: &Path, b: &Path, extra: &[&str]) -> (i32, Option<Value>, String) {
    let out = bench(&a.join("cache"))
        .args([
            "compare",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--format",
            "json",
        ])
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let json = serde_json::from_slice(&out.stdout).ok();
    (out.status.code().unwrap(), json, stderr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_planted_regression_fails_the_gate_and_names_its_format() {
    let tmp = tempfile::tempdir().unwrap();
    let a = run(tmp.path(), "old", &[], 31).await;
    let b = run(tmp.path(), "new", &[("csv", 15)], 31).await;
    let (code, json, stderr) = compare(&a, &b, &["--fail-on", "regression"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("significantly worse than A"), "{stderr}");
    assert!(
        stderr.contains("csv · flat · mandatory · 31 (Δ -12.1 pp)"),
        "{stderr}"
    );
    assert!(!stderr.contains("yaml"), "{stderr}");
    let json = json.expect("the table is printed before the gate fails");
    assert_eq!(json["a"]["model"], "old");
    assert_eq!(json["b"]["model"], "new");
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    for r in rows {
        let csv = r["format"] == "csv";
        assert_eq!(r["regression"], csv, "{r}");
        assert_eq!(r["n_pairs"], 124);
        let (b_only, a_only) = (r["b_only"].as_i64().unwrap(), r["a_only"].as_i64().unwrap());
        assert_eq!((b_only, a_only), if csv { (0, 15) } else { (0, 0) });
        if csv {
            // Exact McNemar on (0, 15), Holm ×4: 4 · 2 · 2⁻¹⁵.
            let p = r["p_holm"].as_f64().unwrap();
            assert!((p - 8.0 * 0.5f64.powi(15)).abs() < 1e-15, "{p}");
            assert!(r["delta_high_pp"].as_f64().unwrap() < 0.0);
            assert_eq!(r["noninferior"], false);
        }
    }
    // Without --fail-on the same comparison exits 0; --fail-on not-noninferior fails too.
    assert_eq!(compare(&a, &b, &[]).0, 0);
    assert_eq!(compare(&a, &b, &["--fail-on", "not-noninferior"]).0, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn identical_runs_pass_with_every_delta_zero() {
    let tmp = tempfile::tempdir().unwrap();
    let a = run(tmp.path(), "same", &[("yaml", 3)], 31).await;
    let b = run(tmp.path(), "same", &[("yaml", 3)], 31).await;
    let (code, json, stderr) = compare(&a, &b, &["--fail-on", "regression"]);
    assert_eq!(code, 0, "{stderr}");
    for r in json.unwrap()["rows"].as_array().unwrap() {
        assert_eq!(r["delta_accuracy_pp"], 0.0, "{r}");
        assert_eq!(r["delta_weighted_pp"], 0.0, "{r}");
        assert_eq!(
            (r["b_only"].as_i64(), r["a_only"].as_i64()),
            (Some(0), Some(0))
        );
        assert_eq!(r["p_value"], 1.0);
    }
    // `latest~1 latest` names the same two runs.
    let out = bench(&tmp.path().join("cache"))
        .args(["compare", "latest~1", "latest", "--root"])
        .arg(tmp.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("same answers"), "{stdout}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn runs_over_different_data_are_refused_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let a = run(tmp.path(), "m", &[], 31).await;
    let b = run(tmp.path(), "m", &[], 10).await;
    let (code, json, stderr) = compare(&a, &b, &[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(json.is_none());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(
            "ran on different data (RUN_A asked 31 records and RUN_B 10, no size in common)"
        ),
        "{stderr}"
    );
    let (code, _, stderr) = compare(&a, &a, &[]);
    assert_eq!(code, 2);
    assert!(stderr.contains("are the same run"), "{stderr}");
}

/// A write run of the one-case file against a mock model whose first reply is `first` and
/// whose repair reply is `later`, under `root`; its run folder.
async fn write_run(root: &Path, first: &str, later: &str) -> PathBuf {
    use wiremock::{Mock, MockServer, matchers::method};
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(crate::support::mocks::FirstThenLater {
            first: first.into(),
            later: later.into(),
        })
        .mount(&server)
        .await;
    let cases = root.join("cases.json");
    std::fs::write(&cases, crate::support::mocks::WRITE_CASE).unwrap();
    let (uri, root) = (format!("{}/v1", server.uri()), root.to_path_buf());
    tokio::task::spawn_blocking(move || {
        let out = bench(&root.join("cache"))
            .args([
                "run",
                "--suite",
                "write",
                "--provider",
                "openai-compatible:m",
            ])
            .args([
                "--base-url",
                &uri,
                "--formats",
                "json_compact",
                "--no-json-schema",
            ])
            .args(["--repairs", "1", "--runs", "1", "--no-report", "--no-cache"])
            .arg("--cases")
            .arg(&cases)
            .arg("--output-root")
            .arg(root.join("data"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        crate::support::run_dir(&root.join("data"))
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn write_runs_compare_the_first_shot_beside_the_final_outcome() {
    let tmp = tempfile::tempdir().unwrap();
    let good = "```json\n{\"pair\":[{\"id\":1,\"name\":\"Ann\"},{\"id\":2,\"name\":\"Bo\"}]}\n```";
    let broken = "```json\n{\"pair\":[{\"id\":1,\"name\":\"Ann\"},\n```";
    let a = write_run(tmp.path(), good, good).await;
    // Run folders are named by the second they start in.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let b = write_run(tmp.path(), broken, good).await;
    assert_ne!(a, b);
    let (code, json, stderr) = compare(&a, &b, &["--fail-on", "regression"]);
    assert_eq!(code, 0, "{stderr}");
    let json = json.unwrap();
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(json["suite"], "write");
    assert!(!rows.is_empty());
    for r in rows {
        // Both end exact; B needed its repair.
        assert_eq!(
            (r["a_accuracy"].as_f64(), r["b_accuracy"].as_f64()),
            (Some(1.0), Some(1.0)),
            "{r}"
        );
        assert_eq!(r["a_first_exact"], 1.0, "{r}");
        assert_eq!(r["b_first_exact"], 0.0, "{r}");
        assert_eq!(r["delta_first_exact_pp"], -100.0, "{r}");
    }
    let out = bench(&tmp.path().join("cache"))
        .args(["compare", a.to_str().unwrap(), b.to_str().unwrap()])
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains("first shot A → B") && table.contains("100.0 % → 0.0 %"),
        "{table}"
    );
}

#[test]
fn tasks_runs_compare_per_format_and_per_task() {
    let tmp = tempfile::tempdir().unwrap();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks/tasks/synthetic.json");
    let mut dirs = Vec::new();
    for _ in 0..2 {
        let out = bench(&tmp.path().join("cache"))
            .args(["run", "--suite", "tasks", "--tasks"])
            .arg(&manifest)
            .args([
                "--formats",
                "csv,json_compact",
                "--runs",
                "1",
                "--no-report",
            ])
            .arg("--output-root")
            .arg(tmp.path().join("data"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        dirs.push(crate::support::run_dir(&tmp.path().join("data")));
        std::thread::sleep(std::time::Duration::from_millis(1100));
    }
    let (code, json, stderr) = compare(&dirs[0], &dirs[1], &["--fail-on", "regression"]);
    assert_eq!(code, 0, "{stderr}");
    let json = json.unwrap();
    assert_eq!(json["suite"], "tasks");
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "one row per format: {rows:?}");
    let tasks = json["tasks"].as_array().unwrap();
    assert!(tasks.len() >= 2 * 3, "{tasks:?}");
    for t in tasks {
        assert_eq!(t["delta_pp"], 0.0, "{t}");
        assert!(t["facts"].as_i64().unwrap() > 0);
    }
    // The bootstrap over whole tasks gives an interval (of zero width here).
    for r in rows {
        assert_eq!(
            (r["delta_low_pp"].as_f64(), r["delta_high_pp"].as_f64()),
            (Some(0.0), Some(0.0)),
            "{r}"
        );
    }
}

/// Runs asked in other wordings or record orders (`--prompt-variants`, `--shuffle`): compare
/// says what each asked and which pairs compare two wordings or two orders; the same options
/// on both sides pair like with like.
#[test]
fn compare_names_the_wordings_and_orders_its_pairs_compare() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let run = |extra: &[&str]| {
        let out = bench(&tmp.path().join("cache"))
            .args([
                "run",
                "--formats",
                "csv,json_compact",
                "--runs",
                "3",
                "--no-report",
            ])
            .args(extra)
            .arg("--output-root")
            .arg(&root)
            .output()
            .unwrap();
        crate::support::success_stdout(&out);
        crate::support::run_dir(&root)
    };
    let plain = run(&[]);
    let worded = run(&["--prompt-variants", "3", "--shuffle"]);
    let again = run(&["--prompt-variants", "3", "--shuffle"]);
    assert!(plain != worded && worded != again);
    let text = |a: &Path, b: &Path| {
        let out = bench(&tmp.path().join("cache"))
            .arg("compare")
            .args([a, b])
            .output()
            .unwrap();
        crate::support::success_stdout(&out);
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let mixed = text(&plain, &worded);
    assert!(
        mixed.contains(
            "A asked in wording default · records in the data's order; B in wordings default, \
             numbered, role_first (one per run in turn) · records shuffled per run (seed 42)."
        ),
        "{mixed}"
    );
    assert!(
        mixed.contains("so Δ includes the prompt change: run 2: default → numbered, run 3: default → role_first."),
        "{mixed}"
    );
    assert!(mixed.contains("so Δ includes the order change"), "{mixed}");
    let same = text(&worded, &again);
    assert!(
        same.contains(
            "Both asked in wordings default, numbered, role_first (one per run in turn) \
                       · records shuffled per run (seed 42): each pair shares its wording and \
                       record order."
        ),
        "{same}"
    );
    assert!(!same.contains("includes"), "{same}");
    let (code, json, _) = compare(&plain, &worded, &[]);
    assert_eq!(code, 0);
    let json = json.unwrap();
    assert_eq!(json["a"]["prompt_variants"], serde_json::json!(["default"]));
    assert_eq!(
        json["b"]["prompt_variants"],
        serde_json::json!(["default", "numbered", "role_first"])
    );
    assert_eq!(
        (
            json["a"]["shuffle"].as_bool(),
            json["b"]["shuffle"].as_bool()
        ),
        (Some(false), Some(true))
    );
}

/// Runs of different plans are compared on what both asked, and the printed table says what it
/// left out (issue 43: 8 formats × 3 runs against 2 formats × 1 run).
#[test]
fn compare_names_what_only_one_run_asked() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let run = |formats: &str, runs: &str| {
        let out = bench(&tmp.path().join("cache"))
            .args([
                "run",
                "--formats",
                formats,
                "--runs",
                runs,
                "--structures",
                "flat",
            ])
            .args(["--variants", "mandatory", "--no-report", "--output-root"])
            .arg(&root)
            .output()
            .unwrap();
        crate::support::success_stdout(&out);
        crate::support::run_dir(&root)
    };
    let big = run("csv,json_compact,yaml", "3");
    // Run ids and folders are named by the second.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let small = run("csv,json_compact", "1");
    let out = bench(&tmp.path().join("cache"))
        .arg("compare")
        .args([&big, &small])
        .output()
        .unwrap();
    let text = crate::support::success_stdout(&out);
    assert!(
        text.contains(
            "Left out, asked in one run only: formats yaml only in A; runs 2–3 only in A (the \
             other has 1). Only what both asked is compared."
        ),
        "{text}"
    );
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let again = run("csv,json_compact", "1");
    let out = bench(&tmp.path().join("cache"))
        .arg("compare")
        .args([&small, &again])
        .output()
        .unwrap();
    assert!(!crate::support::success_stdout(&out).contains("Left out"));
}

/// `--records 31` against `--records 31,62` (issue 54): the stored hashes are one per size and
/// share the 31-record one, so the runs are compared at 31 records with the 62 left out; they
/// were refused as "different data (dataset hash f3c7e7a7e60b against f3c7e7a7e60b)".
#[test]
fn runs_sharing_a_size_compare_on_it_and_leave_out_the_other() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let run = |records: &str| {
        let out = bench(&tmp.path().join("cache"))
            .args([
                "run",
                "--records",
                records,
                "--formats",
                "csv",
                "--runs",
                "1",
            ])
            .args([
                "--structures",
                "flat",
                "--variants",
                "mandatory",
                "--no-report",
            ])
            .arg("--output-root")
            .arg(&root)
            .output()
            .unwrap();
        crate::support::success_stdout(&out);
        crate::support::run_dir(&root)
    };
    let one = run("31");
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let two = run("31,62");
    let out = bench(&tmp.path().join("cache"))
        .arg("compare")
        .args([&one, &two])
        .output()
        .unwrap();
    let text = crate::support::success_stdout(&out);
    assert!(
        text.contains("Left out, asked in one run only: records 62 only in B."),
        "{text}"
    );
    assert!(text.contains("csv · flat · mandatory · 31"), "{text}");
    assert!(!text.contains("· 62"), "{text}");
}

/// Two identical runs fail `--fail-on not-noninferior` (too few answers to rule out a loss):
/// the message says why, how many agreeing runs would pass, and names the regression gate
/// (issue 54; it only said "not shown non-inferior … (Δ +0.0 pp)").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_noninferiority_gate_says_why_two_identical_runs_fail_it() {
    let tmp = tempfile::tempdir().unwrap();
    let a = run(tmp.path(), "same", &[], 31).await;
    let b = run(tmp.path(), "same", &[], 31).await;
    let (code, _, stderr) = compare(&a, &b, &["--fail-on", "not-noninferior"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("Why: a loss of 2 pp is not ruled out"),
        "{stderr}"
    );
    assert!(
        stderr.contains("no answer differs, so this is too few answers"),
        "{stderr}"
    );
    assert!(stderr.contains("`bench run --runs "), "{stderr}");
    assert!(stderr.contains("use `--fail-on regression`"), "{stderr}");
    let (code, _, stderr) = compare(&a, &b, &["--fail-on", "regression"]);
    assert_eq!(code, 0, "{stderr}");
}
