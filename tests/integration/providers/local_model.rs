//! `tools/local-model/run.sh` checks its arguments before it builds or serves anything, and builds
//! llama.cpp with one compiler per core (issue 41, item 9).

use std::path::Path;
use std::process::{Command, Output};

/// Runs the script with the given arguments and environment; nothing is built or downloaded,
/// because every case here stops before the build.
fn script(args: &[&str], env: &[(&str, &str)]) -> Output {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/local-model/run.sh");
    let mut cmd = Command::new("bash");
    cmd.arg(path).args(args);
    cmd.env_remove("MODES").env_remove("LLAMA_CPP_BUILD_JOBS");
    // A cache folder of its own: the script must not find (or touch) a real server build.
    let cache = tempfile::tempdir().unwrap();
    cmd.env("BENCH_LOCAL_CACHE", cache.path());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("bash runs")
}

#[test]
fn an_unknown_mode_is_refused_before_anything_runs() {
    for modes in ["batch", "one-prompt typo", " "] {
        let out = script(&[], &[("MODES", modes)]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "MODES={modes:?}: {err}");
        assert_eq!(
            err.lines().count(),
            1,
            "one line for MODES={modes:?}: {err}"
        );
        assert!(err.starts_with("local-model: MODES"), "{err}");
    }
    let out = script(&["--setup-onyl"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--setup-onyl"));
}

#[test]
fn the_build_runs_one_compiler_per_core() {
    // The machine's cores as the script sees them (nproc honours CPU affinity).
    let nproc = Command::new("nproc").output().expect("nproc runs");
    let cores = String::from_utf8_lossy(&nproc.stdout).trim().to_string();
    let out = script(&["--print-build"], &[]);
    let printed = crate::support::success_stdout(&out);
    // setup.py runs `cmake --build . -j$LLAMA_CPP_BUILD_JOBS`: unset, that is `-j` with no limit.
    assert!(
        printed
            .lines()
            .any(|l| l == format!("LLAMA_CPP_BUILD_JOBS={cores}")),
        "{printed}"
    );
    assert!(printed.contains("-DLLAMA_BUILD_TESTS=OFF"), "{printed}");
    let out = script(&["--print-build"], &[("LLAMA_CPP_BUILD_JOBS", "1")]);
    assert!(crate::support::success_stdout(&out).contains("LLAMA_CPP_BUILD_JOBS=1\n"));
    for bad in ["0", "all", "-j"] {
        let out = script(&["--print-build"], &[("LLAMA_CPP_BUILD_JOBS", bad)]);
        assert_eq!(out.status.code(), Some(2), "LLAMA_CPP_BUILD_JOBS={bad}");
    }
}
