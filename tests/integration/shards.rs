//! `bench run --shard K/N` and `bench merge`: a plan run whole and run as 3 shards then merged
//! gives the same samples, the same scores and the same report numbers; shards of another plan,
//! a missing shard and a run that is not a shard are refused in one line.

use super::run_cli::{bench, parse, run_dir};
use bench::runlog::{Line, ResultRecord};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn run(tmp: &Path, root: &str, extra: &[&str]) -> PathBuf {
    let root = tmp.join(root);
    let out = bench(&tmp.join("cache"))
        .args([
            "run",
            "--formats",
            "csv,json_compact,yaml",
            "--runs",
            "2",
            "--no-report",
        ])
        .args(extra)
        .arg("--output-root")
        .arg(&root)
        .output()
        .unwrap();
    super::success_stdout(&out);
    run_dir(&root)
}

/// Per sample tag: its weighted accuracy and its answers' pass marks.
fn scores(dir: &Path) -> BTreeMap<String, (f64, Vec<u8>)> {
    parse(&dir.join("formats.jsonl"))
        .into_iter()
        .filter_map(|l| match l {
            Line::Result(r) => Some(r),
            _ => None,
        })
        .map(|r: Box<ResultRecord>| {
            let passed = r.metrics.iter().map(|m| m.passed).collect();
            (r.sample.tag.clone(), (r.summary.weighted_accuracy, passed))
        })
        .collect()
}

fn query(tmp: &Path, root: &Path, sql: &str) -> String {
    let out = bench(&tmp.join("cache"))
        .args(["query", "--format", "csv", "--root"])
        .arg(root)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(sql))
        .output()
        .unwrap();
    super::success_stdout(&out);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn three_shards_merged_equal_the_whole_run() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = run(tmp.path(), "whole", &[]);
    let shards: Vec<PathBuf> = (1..=3)
        .map(|k| {
            run(
                tmp.path(),
                &format!("s{k}"),
                &["--shard", &format!("{k}/3")],
            )
        })
        .collect();
    // Disjoint, and none empty at this size.
    let parts: Vec<_> = shards.iter().map(|d| scores(d)).collect();
    assert!(parts.iter().all(|p| !p.is_empty()));
    assert_eq!(
        parts.iter().map(BTreeMap::len).sum::<usize>(),
        scores(&whole).len()
    );
    let lines = parse(&shards[0].join("formats.jsonl"));
    let Line::Metadata(meta) = &lines[0] else {
        panic!("metadata first")
    };
    let shard = meta.shard.as_ref().unwrap();
    assert_eq!((shard.index, shard.of), (1, 3));

    let merged_root = tmp.path().join("merged");
    let out = bench(&tmp.path().join("cache"))
        .arg("merge")
        .args(&shards)
        .arg("--output-root")
        .arg(&merged_root)
        .output()
        .unwrap();
    super::success_stdout(&out);
    let merged = run_dir(&merged_root);
    assert_eq!(scores(&merged), scores(&whole));
    let lines = parse(&merged.join("formats.jsonl"));
    let Line::Metadata(meta) = &lines[0] else {
        panic!("metadata first")
    };
    assert!(meta.shard.is_none());
    assert!(matches!(lines.last(), Some(Line::Summary(s)) if !s.interrupted));
    for sql in [
        "sql/rankings.sql",
        "sql/paired_comparison.sql",
        "sql/token_efficiency.sql",
    ] {
        assert_eq!(
            query(tmp.path(), &merged_root, sql),
            query(tmp.path(), &tmp.path().join("whole"), sql),
            "{sql}"
        );
    }
    let report = std::fs::read_to_string(merged.join("formats/BENCHMARK_REPORT.md")).unwrap();
    assert!(report.contains("## Ranking"), "{report:.300}");
    // The artifacts: every file of the whole run's folder, with the same bytes, and a
    // metadata.json listing the same files.
    let whole_files = artifact_files(&whole.join("formats"));
    let merged_files = artifact_files(&merged.join("formats"));
    for (rel, bytes) in &whole_files {
        if rel != "metadata.json" {
            let merged = merged_files.get(rel).map(|b| comparable(rel, b));
            assert_eq!(merged, Some(comparable(rel, bytes)), "{rel}");
        }
    }
    let listed = |files: &BTreeMap<String, Vec<u8>>| {
        let meta: serde_json::Value = serde_json::from_slice(&files["metadata.json"]).unwrap();
        let mut paths: Vec<String> = meta["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["path"].as_str().unwrap().to_string())
            .collect();
        paths.sort();
        (paths, meta["files_per_format"].clone())
    };
    assert_eq!(listed(&merged_files), listed(&whole_files));

    // Refusals, each one line.
    let merge = |dirs: &[&Path]| {
        let out = bench(&tmp.path().join("cache"))
            .arg("merge")
            .args(dirs)
            .arg("--output-root")
            .arg(tmp.path().join("refused"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8_lossy(&out.stderr).trim().to_string()
    };
    let err = merge(&[&shards[0], &shards[1]]);
    assert_eq!(
        err,
        "error: shard(s) 3/3 missing: merge needs all 3 shards of the plan"
    );
    let err = merge(&[&shards[0], &whole]);
    assert!(
        err.contains("is not a shard (run with --shard K/N)"),
        "{err}"
    );
    let other = run(tmp.path(), "other", &["--shard", "2/3", "--seed", "7"]);
    let err = merge(&[&shards[0], &other, &shards[2]]);
    assert!(err.contains("is a shard of another plan"), "{err}");
    let halves = run(tmp.path(), "half", &["--shard", "1/2"]);
    let err = merge(&[&shards[0], &shards[1], &halves]);
    assert!(
        err.contains("is shard 1/2, the others split the plan in 3"),
        "{err}"
    );
    let err = merge(&[&shards[0], &shards[0], &shards[1], &shards[2]]);
    assert!(err.contains("shard 1/3 is given twice"), "{err}");
    // A file two shards hold must be the same in both.
    let questions = std::fs::read_dir(shards[1].join("formats/questions"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::write(&questions, "[]").unwrap();
    let err = merge(&[&shards[0], &shards[1], &shards[2]]);
    assert!(
        err.contains("differs from the same file of another shard"),
        "{err}"
    );
    assert!(
        !tmp.path()
            .join("refused/benchmarks")
            .read_dir()
            .unwrap()
            .any(|_| true)
    );
}

/// A file's bytes, or for JSON with a `runs` list (a sample's results) the value with the
/// runs in order: concurrent runs of one sample finish in either order.
fn comparable(rel: &str, bytes: &[u8]) -> serde_json::Value {
    if !rel.ends_with(".json") {
        return serde_json::Value::String(String::from_utf8_lossy(bytes).into_owned());
    }
    let mut v: serde_json::Value = serde_json::from_slice(bytes).unwrap();
    if let Some(runs) = v.get_mut("runs").and_then(|r| r.as_array_mut()) {
        runs.sort_by_key(|r| r["run"].as_u64());
    }
    v
}

/// Every file under `dir` but the report's, by path relative to it, with its bytes.
fn artifact_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            if p.is_dir() {
                if rel != "charts" {
                    walk(root, &p, out);
                }
            } else if rel.contains('/') || rel == "metadata.json" {
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}
