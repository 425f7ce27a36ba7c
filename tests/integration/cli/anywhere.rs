//! The README's offline commands from an empty folder, as an installed binary is used: the
//! bundled task files, their data, the example data sets and the SQL reports come from the binary.

use crate::support::bench;
use std::path::Path;

/// Runs bench in `dir` with `args`; returns stdout, failing with stderr when the exit is not 0.
fn ok(dir: &Path, cache: &Path, args: &[&str]) -> String {
    let out = bench(cache).current_dir(dir).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "bench {args:?} in an empty folder failed:\n{stderr}"
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn readme_commands_run_from_an_empty_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, cache) = (tmp.path().join("empty"), tmp.path().join("cache"));
    std::fs::create_dir(&dir).unwrap();
    let run = [
        "--runs",
        "1",
        "--formats",
        "csv,json_compact",
        "--no-report",
    ];

    let listed = ok(
        &dir,
        &cache,
        &["list-tasks", "--data-source", "real", "--format", "csv"],
    );
    assert!(listed.lines().count() > 5, "{listed}");

    ok(
        &dir,
        &cache,
        &[
            &["run", "--suite", "tasks", "--output-root", "out"],
            &run[..],
        ]
        .concat(),
    );
    let log =
        std::fs::read_to_string(crate::support::run_dir(&dir.join("out")).join("tasks.jsonl"))
            .unwrap();
    // The run log names the task file as the user gave it, not the cache it was read from.
    assert!(log.contains("benchmarks/tasks/synthetic.json"));
    assert!(
        !log.contains(&cache.display().to_string()),
        "cache path leaked into the log"
    );
    let scores = ok(
        &dir,
        &cache,
        &[
            "query",
            "sql/task_scores.sql",
            "--root",
            "out",
            "--format",
            "csv",
        ],
    );
    assert!(
        scores.contains("csv") && scores.contains("json_compact"),
        "{scores}"
    );

    let data = "benchmarks/examples/earthquakes.json";
    let tokens = ok(&dir, &cache, &["tokens", "--data", data, "--format", "csv"]);
    assert!(tokens.contains("toon_default"), "{tokens}");
    ok(
        &dir,
        &cache,
        &[
            &[
                "run",
                "--data",
                "benchmarks/examples/airports.csv",
                "--output-root",
                "own",
            ],
            &run[..],
        ]
        .concat(),
    );
    let ranking = ok(
        &dir,
        &cache,
        &[
            "query",
            "sql/rankings.sql",
            "--root",
            "own",
            "--format",
            "csv",
        ],
    );
    assert!(ranking.contains("json_compact"), "{ranking}");

    // Nothing was written into the folder but the two output roots.
    let mut left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["out", "own"]);
}

#[test]
fn a_file_neither_on_disk_nor_bundled_is_named_in_the_error() {
    let tmp = tempfile::tempdir().unwrap();
    for args in [
        &[
            "run",
            "--suite",
            "tasks",
            "--tasks",
            "benchmarks/tasks/nope.json",
            "--dry-run",
        ][..],
        &["query", "sql/nope.sql"],
        &["tokens", "--data", "benchmarks/examples/nope.csv"],
    ] {
        let out = bench(&tmp.path().join("cache"))
            .current_dir(tmp.path())
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("nope."), "{args:?}: {err}");
    }
}
