//! `bench rescore`: re-grading a finished offline run with the unchanged grader reproduces every
//! score exactly, in a new run folder that names its source; a folder that is not a run is a
//! one-line error.

use assert_cmd::Command;
use bench::records::{Line, ResultRecord, SummaryRecord};
use std::path::{Path, PathBuf};

fn bench(root: &Path) -> Command {
    super::run_cli::bench(&root.join("cache"))
}

fn runs(root: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("benchmarks"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    dirs
}

fn lines(dir: &Path) -> Vec<Line> {
    std::fs::read_to_string(dir.join("formats.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn split(lines: Vec<Line>) -> (bench::records::Metadata, Vec<ResultRecord>, SummaryRecord) {
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
    bench(tmp.path())
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
    let out = bench(tmp.path())
        .args(["rescore", "--no-report"])
        .arg(&source)
        .output()
        .unwrap();
    let stdout = crate::success_stdout(&out);
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
        let out = bench(tmp.path())
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
