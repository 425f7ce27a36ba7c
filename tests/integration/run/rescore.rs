//! `bench rescore`: re-grading a finished offline run with the unchanged grader reproduces every
//! score exactly, in a new run folder that names its source, for every suite (the product
//! questions, a `--data` file, analysis tasks); a reply changed in the log is graded again, not
//! copied; a folder that is not a run is a one-line error.

use crate::support::bench;
use bench::runlog::{Line, ResultRecord, SummaryRecord};
use std::path::{Path, PathBuf};

fn runs(root: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("benchmarks"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    dirs
}

/// The run log of a run folder (its one `.jsonl`).
fn log(dir: &Path) -> PathBuf {
    let logs = bench::runlog::run_logs(dir).unwrap();
    assert_eq!(logs.len(), 1, "{logs:?}");
    logs[0].clone()
}

fn lines(dir: &Path) -> Vec<Line> {
    std::fs::read_to_string(log(dir))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Replaces the reply of the first result line with text that answers nothing.
fn tamper_first_reply(dir: &Path) -> String {
    let path = log(dir);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut out = Vec::new();
    let mut tag = None;
    for l in text.lines() {
        let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
        if tag.is_none() && v["type"] == "result" && v["data"]["warmup"] == false {
            v["data"]["sample"]["output"]["content"] = "I cannot tell.".into();
            tag = Some(v["data"]["sample"]["tag"].as_str().unwrap().to_string());
        }
        out.push(serde_json::to_string(&v).unwrap());
    }
    std::fs::write(&path, out.join("\n") + "\n").unwrap();
    tag.expect("a result line")
}

/// Runs `args` offline, changes one stored reply, rescores: every other result's grades are
/// reproduced exactly and the changed one is graded again as answering nothing.
fn rescore_reproduces(args: &[&str], items: Option<usize>) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    bench(&tmp.path().join("cache"))
        .args(["run", "--runs", "1", "--no-report"])
        .args(args)
        .arg("--output-root")
        .arg(&root)
        .assert()
        .success();
    let source = runs(&root).pop().unwrap();
    let changed = tamper_first_reply(&source);
    let out = bench(&tmp.path().join("cache"))
        .args(["rescore", "--no-report"])
        .arg(&source)
        .output()
        .unwrap();
    crate::support::success_stdout(&out);
    let new = runs(&root).into_iter().find(|d| *d != source).unwrap();
    let (_, old, _) = split(lines(&source));
    let (_, rescored, _) = split(lines(&new));
    assert_eq!(old.len(), rescored.len());
    assert!(old.len() > 1, "{args:?}");
    for (a, b) in old.iter().zip(&rescored) {
        assert_eq!(a.sample.tag, b.sample.tag);
        match items {
            Some(n) => assert_eq!(a.metrics.len(), n, "{}", a.sample.tag),
            None => assert!(!a.metrics.is_empty(), "{}", a.sample.tag),
        }
        if a.sample.tag == changed {
            assert_eq!(a.summary.weighted_accuracy, 1.0, "{changed} as run");
            assert!(
                b.metrics.iter().all(|m| m.passed == 0),
                "{changed}: the changed reply is graded again: {:?}",
                b.metrics
            );
            assert_eq!(b.summary.weighted_accuracy, 0.0);
        } else {
            assert_eq!(a.metrics, b.metrics, "{}", a.sample.tag);
            assert_eq!(a.summary, b.summary, "{}", a.sample.tag);
            assert_eq!(a.payload, b.payload, "{}", a.sample.tag);
        }
    }
}

#[test]
fn rescore_regrades_the_product_suite() {
    rescore_reproduces(
        &[
            "--formats",
            "csv,toon_default",
            "--structures",
            "flat",
            "--variants",
            "optional",
        ],
        Some(124),
    );
}

#[test]
fn rescore_regrades_a_data_file_run() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("teams.json");
    let rows: Vec<String> = (0..12)
        .map(|i| {
            format!(
                r#"{{"team": "t{i}", "city": "c{}", "wins": {}}}"#,
                i % 4,
                i * 3
            )
        })
        .collect();
    std::fs::write(&file, format!("[{}]", rows.join(","))).unwrap();
    rescore_reproduces(
        &["--formats", "csv,yaml", "--data", file.to_str().unwrap()],
        None,
    );
}

#[test]
fn rescore_regrades_a_tasks_run() {
    let tasks = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benchmarks/tasks/synthetic.json"
    );
    rescore_reproduces(
        &[
            "--suite",
            "tasks",
            "--tasks",
            tasks,
            "--task-ids",
            "FIN-001,HR-002",
            "--formats",
            "csv,json_compact",
        ],
        None,
    );
}

fn split(lines: Vec<Line>) -> (bench::runlog::Metadata, Vec<ResultRecord>, SummaryRecord) {
    let mut it = lines.into_iter();
    let Some(Line::Metadata(m)) = it.next() else {
        panic!("metadata first")
    };
    let mut results = Vec::new();
    let mut summary = None;
    for l in it {
        match l {
            Line::Result(r) => results.push(*r),
            Line::Summary(s) => summary = Some(*s),
            Line::Metadata(_) => panic!("one metadata line"),
        }
    }
    (*m, results, summary.expect("a summary line"))
}

#[test]
fn rescoring_a_finished_run_reproduces_every_score() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    bench(&tmp.path().join("cache"))
        .args(["run", "--runs", "1", "--formats", "csv,json_compact"])
        .args([
            "--variants",
            "mandatory",
            "--structures",
            "flat",
            "--no-report",
        ])
        .arg("--output-root")
        .arg(&root)
        .assert()
        .success();
    let source = runs(&root).pop().unwrap();
    let out = bench(&tmp.path().join("cache"))
        .args(["rescore", "--no-report"])
        .arg(&source)
        .output()
        .unwrap();
    let stdout = crate::support::success_stdout(&out);
    let all = runs(&root);
    assert_eq!(all.len(), 2, "a new run folder beside the source");
    let new = all.into_iter().find(|d| *d != source).unwrap();
    assert!(
        stdout.contains(&*new.file_name().unwrap().to_string_lossy()),
        "prints the new folder: {stdout}"
    );

    let (old_meta, old, old_summary) = split(lines(&source));
    let (meta, new_results, summary) = split(lines(&new));
    let from = meta.rescored_from.as_ref().expect("rescored_from");
    assert_eq!(from.benchmark_id, old_meta.benchmark_id);
    assert_eq!(from.run, source.file_name().unwrap().to_string_lossy());
    assert_ne!(meta.benchmark_id, old_meta.benchmark_id);
    assert_eq!(summary.benchmark_id, meta.benchmark_id);

    assert_eq!(old.len(), 2);
    assert_eq!(new_results.len(), old.len());
    for (a, b) in old.iter().zip(&new_results) {
        assert_eq!(b.benchmark_id, meta.benchmark_id);
        assert_eq!(a.sample.tag, b.sample.tag);
        assert_eq!(a.sample.output, b.sample.output);
        assert_eq!(a.finish, b.finish);
        assert_eq!(a.metrics.len(), 124);
        assert_eq!(a.metrics, b.metrics, "{}", a.sample.tag);
        for (x, y) in a.metrics.iter().zip(&b.metrics) {
            assert_eq!(
                (x.passed, x.score, x.failure),
                (y.passed, y.score, y.failure)
            );
        }
        assert_eq!(a.summary, b.summary);
        assert_eq!(a.summary.weighted_accuracy, 1.0);
    }
    assert_eq!(summary.total_samples, old_summary.total_samples);
    assert_eq!(summary.provider_summaries, old_summary.provider_summaries);
    assert_eq!(summary.metric_comparisons, old_summary.metric_comparisons);
    assert_eq!(
        serde_json::to_value(&summary.rankings).unwrap(),
        serde_json::to_value(&old_summary.rankings).unwrap()
    );
    assert_eq!(summary.interrupted, old_summary.interrupted);
}

#[test]
fn a_folder_that_is_not_a_run_is_a_one_line_error() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("benchmarks").join("nothing");
    std::fs::create_dir_all(&empty).unwrap();
    for dir in [empty, tmp.path().join("no-such-folder")] {
        let out = bench(&tmp.path().join("cache"))
            .args(["rescore", "--no-report"])
            .arg(&dir)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains("is not a run folder"), "{err}");
    }
}

/// A rescore that fails on a result (here: a prompt that no longer holds its rendering) leaves
/// no half-written run folder behind for the viewers to read as a run.
#[test]
fn a_failed_rescore_leaves_no_run_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let out = bench(&root.join("cache"))
        .args(["run", "--runs", "1", "--formats", "csv,yaml", "--no-report"])
        .arg("--output-root")
        .arg(root)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = runs(root).pop().unwrap();
    let path = log(&dir);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let last = lines
        .iter()
        .rposition(|l| l.contains("\"type\":\"result\""))
        .unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&lines[last]).unwrap();
    v["data"]["sample"]["input"][0]["content"] = "no data here".into();
    lines[last] = serde_json::to_string(&v).unwrap();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let out = bench(&root.join("cache"))
        .arg("rescore")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("does not hold the"), "{stderr}");
    assert_eq!(runs(root), vec![dir]);
}
