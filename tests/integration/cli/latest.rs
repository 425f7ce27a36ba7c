//! Every argument that takes a run folder takes `latest` and `latest~N` too: `rescore` and
//! `run --resume` (issue 43, item 5), as `report`, `compare`, `query --run` and `export --run`.

use crate::support::{ONE_TABLE_RUN, bench};

#[test]
fn rescore_and_resume_take_latest() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    let r = root.to_str().unwrap();
    let cache = tmp.path();
    let run = [
        &ONE_TABLE_RUN[..],
        &["--runs", "1", "--no-report", "--output-root", r],
    ]
    .concat();
    crate::support::success_stdout(&bench(cache).args(run).output().unwrap());
    let runs = || std::fs::read_dir(root.join("benchmarks")).unwrap().count();
    assert_eq!(runs(), 1);

    let out = bench(cache)
        .args(["rescore", "latest", "--no-report", "--root", r])
        .output()
        .unwrap();
    assert!(crate::support::success_stdout(&out).contains("rescored run:"));
    assert_eq!(runs(), 2, "the rescore is a new run folder");

    let out = bench(cache)
        .args([
            "run",
            "--resume",
            "latest~1",
            "--no-report",
            "--output-root",
            r,
        ])
        .output()
        .unwrap();
    crate::support::success_stdout(&out);
    assert!(String::from_utf8_lossy(&out.stderr).contains("resume:"));

    let out = bench(cache)
        .args(["rescore", "latest~5", "--root", r])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("latest~5 needs 6 runs"), "{err}");
}
