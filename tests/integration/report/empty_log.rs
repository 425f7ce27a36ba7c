//! A run log that holds no lines gets the same one line from `report`, `query` and `rescore`,
//! and a query that matches nothing says so instead of printing an empty grid.

use crate::support::bench;

#[test]
fn an_empty_run_log_gets_one_line_from_report_query_and_rescore() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let log = root.join("benchmarks/20260101T000000Z/formats.jsonl");
    std::fs::create_dir_all(log.parent().unwrap()).unwrap();
    std::fs::write(&log, b"").unwrap();
    let root_arg = root.to_str().unwrap();
    let commands: [&[&str]; 3] = [
        &["report", "latest", "--root", root_arg],
        &[
            "query",
            "sql/rankings.sql",
            "--run",
            "latest",
            "--root",
            root_arg,
        ],
        &["rescore", "latest", "--root", root_arg],
    ];
    let mut lines = Vec::new();
    for args in commands {
        let out = bench(tmp.path()).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains("formats.jsonl: holds no lines"),
            "{args:?}: {err}"
        );
        lines.push(err);
    }
    assert!(lines.iter().all(|l| *l == lines[0]), "{lines:?}");
    // Over the whole root it is a warning, and the query goes on.
    let out = bench(tmp.path())
        .args(["query", "sql/rankings.sql", "--root", root_arg])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning: ") && err.contains("holds no lines"),
        "{err}"
    );
}

#[test]
fn a_query_that_matches_nothing_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let out = bench(tmp.path())
        .args([
            "run",
            "--formats",
            "csv",
            "--runs",
            "1",
            "--structures",
            "flat",
        ])
        .args(["--variants", "mandatory", "--no-report", "--output-root"])
        .arg(&root)
        .output()
        .unwrap();
    crate::support::success_stdout(&out);
    let out = bench(tmp.path())
        .args([
            "query",
            "-e",
            "SELECT format FROM results WHERE format = 'nope'",
            "--root",
        ])
        .arg(&root)
        .output()
        .unwrap();
    let stdout = crate::support::success_stdout(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stdout, "", "no empty grid");
    assert!(
        err.contains("-e: no rows: nothing in the run logs under"),
        "{err}"
    );
    // Machine-readable output keeps its shape: an empty CSV header, so scripts still parse it.
    let out = bench(tmp.path())
        .args([
            "query",
            "-e",
            "SELECT format FROM results WHERE format = 'nope'",
        ])
        .args(["--format", "csv", "--root"])
        .arg(&root)
        .output()
        .unwrap();
    assert_eq!(crate::support::success_stdout(&out).trim(), "format");
}
