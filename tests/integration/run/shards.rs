//! `bench run --shard K/N` and `bench merge`: a plan run whole and run as 3 shards then merged
//! gives the same samples, the same scores, the same report numbers and the same artifacts —
//! also for plans whose renderings' runs are split across shards (`--shuffle`,
//! `--prompt-variants`); shards of another plan, a missing shard and a run that is not a shard
//! are refused in one line.

use crate::support::{bench, parse, run_dir, run_in};
use bench::runlog::{Line, ResultRecord};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The plain plan's options: 2 runs, every run of a rendering in one shard.
const PLAIN: &[&str] = &["--runs", "2"];

/// `bench run` of three formats, without a report.
const RUN: [&str; 4] = ["run", "--formats", "csv,json_compact,yaml", "--no-report"];

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
    crate::support::success_stdout(&out);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs `plan` whole and as 3 shards, merges the shards, and holds the merged run to the
/// whole one: samples and scores, SQL rows, artifacts and metadata. Returns the whole run's
/// folder and the shards'.
fn merged_equals_whole(tmp: &Path, plan: &[&str]) -> (PathBuf, Vec<PathBuf>) {
    let whole = run_in(tmp, &RUN).args(plan).root(&tmp.join("whole"));
    let whole = whole.ok().dir();
    let shards: Vec<PathBuf> = (1..=3)
        .map(|k| {
            let shard = run_in(tmp, &RUN)
                .args(plan)
                .args(["--shard", &format!("{k}/3")]);
            shard.root(&tmp.join(format!("s{k}"))).ok().dir()
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

    let merged_root = tmp.join("merged");
    let out = bench(&tmp.join("cache"))
        .arg("merge")
        .args(&shards)
        .arg("--output-root")
        .arg(&merged_root)
        .output()
        .unwrap();
    crate::support::success_stdout(&out);
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
        "sql/prompt_wording.sql",
    ] {
        assert_eq!(
            query(tmp, &merged_root, sql),
            query(tmp, &tmp.join("whole"), sql),
            "{sql}"
        );
    }
    let report = std::fs::read_to_string(merged.join("formats/BENCHMARK_REPORT.md")).unwrap();
    assert!(report.contains("## Ranking"), "{report:.300}");
    // The artifacts: every file of the whole run's folder, with the same bytes, and a
    // metadata.json listing the same files.
    let whole_files = artifact_files(&whole.join("formats"));
    let merged_files = artifact_files(&merged.join("formats"));
    assert_eq!(
        merged_files.keys().collect::<Vec<_>>(),
        whole_files.keys().collect::<Vec<_>>()
    );
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
    (whole, shards)
}

#[test]
fn three_shards_merged_equal_the_whole_run() {
    let tmp = tempfile::tempdir().unwrap();
    let (whole, shards) = merged_equals_whole(tmp.path(), PLAIN);

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
    let other = run_in(tmp.path(), &RUN)
        .args(PLAIN)
        .args(["--shard", "2/3", "--seed", "7"]);
    let other = other.root(&tmp.path().join("other")).ok().dir();
    let err = merge(&[&shards[0], &other, &shards[2]]);
    assert!(err.contains("is a shard of another plan"), "{err}");
    let halves = run_in(tmp.path(), &RUN)
        .args(PLAIN)
        .args(["--shard", "1/2"]);
    let halves = halves.root(&tmp.path().join("half")).ok().dir();
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

/// The results files (`results/…_validation.json`) that more than one of `shards` holds.
fn shared_results_files(shards: &[PathBuf]) -> Vec<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for d in shards {
        for rel in artifact_files(&d.join("formats")).into_keys() {
            if rel.ends_with("_validation.json") {
                *seen.entry(rel).or_default() += 1;
            }
        }
    }
    seen.into_iter()
        .filter(|(_, n)| *n > 1)
        .map(|(rel, _)| rel)
        .collect()
}

/// `--shuffle`: each run its own record order, so a rendering's runs land in different shards,
/// each shard writing that rendering's results file with its own runs.
#[test]
fn shards_of_a_shuffled_plan_merge_to_the_whole_run() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, shards) = merged_equals_whole(tmp.path(), &["--runs", "3", "--shuffle"]);
    let split = shared_results_files(&shards);
    assert!(!split.is_empty(), "no rendering's runs were split");
}

/// `--prompt-variants 3`: each run in its own wording, split across shards the same way.
#[test]
fn shards_of_a_plan_with_prompt_variants_merge_to_the_whole_run() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, shards) = merged_equals_whole(tmp.path(), &["--runs", "3", "--prompt-variants", "3"]);
    let split = shared_results_files(&shards);
    assert!(!split.is_empty(), "no rendering's runs were split");
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
    crate::support::files_under(dir)
        .into_iter()
        .filter_map(|p| {
            let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            let kept = !rel.starts_with("charts/") && (rel.contains('/') || rel == "metadata.json");
            kept.then(|| (rel, std::fs::read(&p).unwrap()))
        })
        .collect()
}
