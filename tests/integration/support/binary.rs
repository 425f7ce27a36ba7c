//! Running the `bench` binary and reading what it wrote: the one command builder, its run
//! folders, run logs and stdout, and the files under a folder.

use assert_cmd::Command;
use bench::runlog::{Line, ResultRecord};
use std::path::{Path, PathBuf};

/// The variables that would reach a real provider: never passed on to a test's binary.
const KEY_ENVS: [&str; 5] = [
    "ANTHROPIC_API_KEY",
    "OPENAI_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "OPENAI_BASE_URL",
];

/// `bench run` of one table: CSV, flat, mandatory (the smallest plan with real calls).
pub const ONE_TABLE_RUN: [&str; 7] = [
    "run",
    "--formats",
    "csv",
    "--structures",
    "flat",
    "--variants",
    "mandatory",
];

/// The `bench` binary as a user without keys runs it, caching under `cache`.
pub fn bench(cache: &Path) -> Command {
    let mut c = binary();
    c.env("BENCH_CACHE_DIR", cache);
    c
}

/// The `bench` binary as a user without keys runs it, with the user's own cache folder (for
/// commands that neither call a provider nor count tokens online).
pub fn binary() -> Command {
    let mut c = Command::cargo_bin("bench").unwrap();
    for k in KEY_ENVS {
        c.env_remove(k);
    }
    c
}

/// The newest run folder under `root/benchmarks`.
pub fn run_dir(root: &Path) -> PathBuf {
    let mut dirs: Vec<_> = std::fs::read_dir(root.join("benchmarks"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    dirs.pop().unwrap()
}

/// Every line of a run log.
pub fn parse(jsonl: &Path) -> Vec<Line> {
    std::fs::read_to_string(jsonl)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:.80}")))
        .collect()
}

/// The result lines of a run log.
pub fn results(lines: &[Line]) -> Vec<&ResultRecord> {
    lines
        .iter()
        .filter_map(|l| match l {
            Line::Result(r) => Some(r.as_ref()),
            _ => None,
        })
        .collect()
}

/// The stdout of a command that must have succeeded; its stderr is the failure message.
pub fn success_stdout(out: &std::process::Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Every file under `dir`, in path order (the folders walked, not listed).
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(files_under(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}
