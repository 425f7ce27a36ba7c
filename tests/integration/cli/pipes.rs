//! Every command that prints ends quietly when its reader has gone (`bench … | head -1`), as
//! `rg … | head` does: no "failed printing to stdout: Broken pipe" panic (exit 101), and the
//! work goes on (a run still writes its whole log). Issue 43, item 1.

use std::os::fd::{FromRawFd, OwnedFd};
use std::path::Path;
use std::process::{Command, Stdio};

/// A pipe whose reading end is already closed: the first write to it fails with EPIPE, every
/// time, where `| head -1` fails only once its small buffer is full.
fn closed_pipe() -> Stdio {
    let mut fds = [0; 2];
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0, "pipe(2)");
    unsafe { libc::close(fds[0]) };
    Stdio::from(unsafe { OwnedFd::from_raw_fd(fds[1]) })
}

/// Runs bench with stdout into a closed pipe and asserts it ended well and quietly.
fn quiet(cache: &Path, cwd: &Path, args: &[&str]) {
    let out = Command::new(assert_cmd::cargo::cargo_bin("bench"))
        .args(args)
        .current_dir(cwd)
        .env("BENCH_CACHE_DIR", cache)
        .env_remove("OPENAI_API_KEY")
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("GEMINI_API_KEY")
        .stdin(Stdio::null())
        .stdout(closed_pipe())
        .stderr(Stdio::piped())
        .output()
        .expect("bench starts");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "bench {args:?} panicked: {err}");
    assert!(
        out.status.success(),
        "bench {args:?}: {:?}: {err}",
        out.status
    );
}

#[test]
fn every_printing_command_ends_quietly_on_a_closed_pipe() {
    let tmp = tempfile::tempdir().unwrap();
    let (cache, dir) = (tmp.path().join("cache"), tmp.path());
    let root = dir.join("root");
    let r = root.to_str().unwrap();
    // `bench run` of one table (run_cli's plan without its "run"), one run, under the root.
    let one_table: Vec<&str> = [
        &crate::support::ONE_TABLE_RUN[1..],
        &["--runs", "1", "--output-root", r],
    ]
    .concat();
    // The run goes on when its reader has gone: its log is complete and the query reads it.
    quiet(&cache, dir, &[&["run"][..], &one_table].concat());
    let runs = root.join("benchmarks");
    let first = std::fs::read_dir(&runs)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let log = std::fs::read_to_string(first.join("formats.jsonl")).unwrap();
    assert!(log.lines().last().unwrap().contains("\"summary\""), "{log}");
    quiet(
        &cache,
        dir,
        &[&["run", "--no-report"][..], &one_table].concat(),
    );
    quiet(
        &cache,
        dir,
        &[&["run", "--dry-run"][..], &one_table].concat(),
    );
    quiet(
        &cache,
        dir,
        &["sweep", "--dry-run", "--formats", "csv,json_compact"],
    );
    quiet(&cache, dir, &["query", "sql/rankings.sql", "--root", r]);
    quiet(&cache, dir, &["report", first.to_str().unwrap()]);
    quiet(&cache, dir, &["compare", "latest~1", "latest", "--root", r]);
    quiet(&cache, dir, &["rescore", first.to_str().unwrap()]);
    let parquet = dir.join("parquet");
    quiet(
        &cache,
        dir,
        &[
            "export",
            "--parquet",
            parquet.to_str().unwrap(),
            "--root",
            r,
        ],
    );
    let shards: Vec<String> = (1..=2)
        .map(|k| {
            let out = dir.join(format!("shard{k}"));
            let s = out.to_str().unwrap();
            let shard = format!("{k}/2");
            quiet(
                &cache,
                dir,
                &[
                    &["run", "--no-report", "--shard", &shard][..],
                    &one_table[..one_table.len() - 2],
                    &["--output-root", s],
                ]
                .concat(),
            );
            let runs = out.join("benchmarks");
            let d = std::fs::read_dir(runs)
                .unwrap()
                .next()
                .unwrap()
                .unwrap()
                .path();
            d.to_str().unwrap().to_string()
        })
        .collect();
    let merged = dir.join("merged");
    quiet(
        &cache,
        dir,
        &[
            "merge",
            &shards[0],
            &shards[1],
            "--no-report",
            "--output-root",
            merged.to_str().unwrap(),
        ],
    );
    quiet(&cache, dir, &["tokens"]);
    quiet(
        &cache,
        dir,
        &["generate", "--output", dir.join("gen").to_str().unwrap()],
    );
    quiet(&cache, dir, &["init-config"]);
    quiet(&cache, dir, &["list-tasks"]);
    quiet(
        &cache,
        dir,
        &[
            "dump-prompts",
            "--output",
            dir.join("prompts").to_str().unwrap(),
        ],
    );
    quiet(
        &cache,
        dir,
        &["perf", "harness", "--calls", "20", "--latency-ms", "1"],
    );
    quiet(&cache, dir, &["run", "--help"]);
}
