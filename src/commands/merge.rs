//! `bench merge SHARD…`: the shards of one plan (`bench run --shard K/N`, run on several
//! machines or keys) put back together into one run folder, as if the plan had run whole: the
//! metadata of the plan without its shard, every result once, the artifact folders joined, a
//! summary and the report over all of them. Shards of different plans are refused; a missing or repeated shard, and a
//! sample held twice, are named.

use crate::UsageError;
use crate::cli::MergeArgs;
use crate::ops::rescore::{Source, read_run};
use crate::runlog::{JsonlWriter, Line};
use crate::runner::{SampleKey, create_run_dir, run_identity};
use anyhow::Result;
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};

/// `bench merge`.
pub fn execute(args: &MergeArgs) -> Result<()> {
    let out = merge(&args.shards, &args.output_root)?;
    crate::outln!("merged run: {}", out.display())?;
    if !args.no_report {
        crate::ops::reports::write_for_run(&out, None, None)?;
    }
    Ok(())
}

/// Merges the runs in `shards` into a new run folder under `root`; returns it.
pub fn merge(shards: &[PathBuf], root: &Path) -> Result<PathBuf> {
    let runs: Vec<(PathBuf, Source)> = shards
        .iter()
        .map(|d| Ok((d.clone(), read_run(d)?)))
        .collect::<Result<_>>()?;
    check(&runs)?;
    let first = &runs[0].1;
    let now = chrono::Utc::now();
    let (id, ts) = run_identity(now);
    let mut meta = first.metadata.clone();
    meta.shard = None;
    meta.benchmark_id = id.clone();
    meta.timestamp = ts.clone();
    let out = create_run_dir(root, &now.format("%Y-%m-%d_%H-%M-%S").to_string())?;
    let file = first.jsonl.file_name().expect("a log has a file name");
    let mut log = JsonlWriter::create(&out.join(file))?;
    log.append(&Line::Metadata(Box::new(meta.clone())))?;
    let mut seen: HashSet<SampleKey> = HashSet::new();
    let mut kept = Vec::new();
    for (dir, run) in &runs {
        for r in &run.results {
            if !seen.insert(SampleKey::of(r)) {
                drop(log);
                let _ = std::fs::remove_dir_all(&out);
                return Err(UsageError::new(format!(
                    "sample {} is in two shards (again in '{}'): shards of one plan are disjoint",
                    r.sample.tag,
                    dir.display()
                ))
                .into());
            }
            let mut r = r.clone();
            r.benchmark_id = id.clone();
            log.append(&Line::Result(Box::new(r.clone())))?;
            r.sample.input.clear();
            r.sample.output.content.clear();
            kept.push(r);
        }
    }
    let interrupted = runs
        .iter()
        .any(|(_, r)| r.summary.as_ref().is_none_or(|s| s.interrupted));
    let figures = crate::runlog::rankings::of_run(&out)?;
    let mut summary =
        crate::runlog::build_summary(&id, &ts, &meta.suite_name, &kept, figures, interrupted);
    summary.stop_reason = interrupted.then(|| {
        "a shard stopped early or has no summary line; `bench run --resume` it and merge again"
            .to_string()
    });
    log.append(&Line::Summary(Box::new(summary)))?;
    log.finish()?;
    let stem = first.jsonl.file_stem().expect("a log has a stem");
    if let Err(e) = artifacts(&runs, &out.join(stem)) {
        // No half-merged folder is left to be taken for a whole one.
        let _ = std::fs::remove_dir_all(&out);
        return Err(e);
    }
    Ok(out)
}

/// Puts the shards' artifact folders (`formats/` beside `formats.jsonl`) together: every
/// folder's files (renderings, questions, responses, results) once, a file two shards hold (the
/// questions of a size) the same in both, a rendering's results file whose runs two shards
/// share out holding the runs of both, and `metadata.json` listing the files of all shards.
/// The report's files (`charts/`, the other top-level files) are left to the merged report.
fn artifacts(runs: &[(PathBuf, Source)], to: &Path) -> Result<()> {
    let mut meta: Option<serde_json::Value> = None;
    for (_, run) in runs {
        let from = run.jsonl.with_extension("");
        let Ok(entries) = std::fs::read_dir(&from) else {
            continue;
        };
        for entry in entries {
            let entry = entry?;
            let name = entry.file_name();
            if entry.file_type()?.is_dir() && name != "charts" {
                copy_tree(&entry.path(), &to.join(&name))?;
            } else if name == "metadata.json" {
                let text = std::fs::read_to_string(entry.path())?;
                let shard: serde_json::Value = serde_json::from_str(&text)
                    .map_err(|e| anyhow::anyhow!("'{}': {e}", entry.path().display()))?;
                meta = Some(match meta {
                    None => shard,
                    Some(merged) => with_files_of(merged, &shard),
                });
            }
        }
    }
    if let Some(meta) = meta {
        std::fs::create_dir_all(to)?;
        std::fs::write(to.join("metadata.json"), serde_json::to_vec_pretty(&meta)?)?;
    }
    Ok(())
}

/// `merged` with the files `shard` lists that it does not, and `files_per_format` counted again.
fn with_files_of(mut merged: serde_json::Value, shard: &serde_json::Value) -> serde_json::Value {
    let path = |f: &serde_json::Value| f["path"].as_str().map(str::to_string);
    let mut files = merged["files"].as_array().cloned().unwrap_or_default();
    let known: HashSet<String> = files.iter().filter_map(path).collect();
    for f in shard["files"].as_array().into_iter().flatten() {
        if path(f).is_some_and(|p| !known.contains(&p)) {
            files.push(f.clone());
        }
    }
    let formats = files.iter().filter_map(|f| {
        f["format"]
            .as_str()
            .and_then(crate::formats::Format::from_name)
    });
    merged["files_per_format"] = serde_json::json!(crate::layout::files_per_format(formats));
    merged["files"] = serde_json::Value::Array(files);
    merged
}

/// Copies the files under `from` to `to`; a file already there must have the same bytes, but
/// for a rendering's results file, whose runs two shards may share out ([`joined_runs`]).
fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if entry.file_type()?.is_dir() {
            copy_tree(&src, &dst)?;
        } else if dst.exists() {
            let (theirs, ours) = (std::fs::read(&src)?, std::fs::read(&dst)?);
            if theirs == ours {
                continue;
            }
            // A rendering's results file lists its runs; with --shuffle or --prompt-variants
            // its runs are split across shards, and each shard lists its own.
            let joined = is_results_file(&dst)
                .then(|| joined_runs(&ours, &theirs))
                .flatten()
                .ok_or_else(|| {
                    UsageError::new(format!(
                        "'{}' differs from the same file of another shard",
                        src.display()
                    ))
                })?;
            std::fs::write(&dst, joined)
                .map_err(|e| anyhow::anyhow!("cannot write '{}': {e}", dst.display()))?;
        } else {
            std::fs::copy(&src, &dst)
                .map_err(|e| anyhow::anyhow!("cannot copy '{}': {e}", src.display()))?;
        }
    }
    Ok(())
}

/// Whether `path` is a rendering's results file (`results/…_validation.json`).
fn is_results_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with("_validation.json"))
        && path.components().any(|c| c.as_os_str() == "results")
}

/// Two shards' results files of one rendering as one: the same rendering and model (every field
/// but `runs` equal), the runs of both once each, by run and question. `None` when they are
/// not of one rendering or a run is in both.
fn joined_runs(a: &[u8], b: &[u8]) -> Option<Vec<u8>> {
    let mut a: serde_json::Value = serde_json::from_slice(a).ok()?;
    let mut b: serde_json::Value = serde_json::from_slice(b).ok()?;
    let ra = a.as_object_mut()?.remove("runs")?;
    let rb = b.as_object_mut()?.remove("runs")?;
    if a != b {
        return None;
    }
    let mut runs: Vec<serde_json::Value> = ra.as_array()?.clone();
    let key = |r: &serde_json::Value| {
        (
            r["run"].as_u64(),
            r["question"].as_str().map(str::to_string),
        )
    };
    let have: HashSet<_> = runs.iter().map(key).collect();
    for r in rb.as_array()? {
        if have.contains(&key(r)) {
            return None;
        }
        runs.push(r.clone());
    }
    runs.sort_by_key(key);
    a["runs"] = serde_json::Value::Array(runs);
    serde_json::to_vec_pretty(&a).ok()
}

/// Refuses shards that do not make one whole plan, naming what differs or is missing.
fn check(runs: &[(PathBuf, Source)]) -> Result<()> {
    let refuse = |why: String| -> Result<()> { Err(UsageError::new(why).into()) };
    let mut of = None;
    let mut plan: Option<String> = None;
    let mut have = BTreeSet::new();
    for (dir, run) in runs {
        let Some(s) = &run.metadata.shard else {
            return refuse(format!(
                "'{}' is not a shard (run with --shard K/N): merge puts the shards of one plan \
                 together",
                dir.display()
            ));
        };
        if let Some(p) = plan.as_ref().filter(|p| **p != s.plan_sha256) {
            return refuse(format!(
                "'{}' is a shard of another plan (plan sha256 {} against {}): merge puts the \
                 shards of one plan together",
                dir.display(),
                &s.plan_sha256[..12],
                &p[..12]
            ));
        }
        // The plan's hash leaves the shard out, so one split must be checked on its own: the
        // slices of 1/2 and 2/3 overlap and leave samples out.
        if let Some(n) = of.filter(|n| *n != s.of) {
            return refuse(format!(
                "'{}' is shard {}/{}, the others split the plan in {n}: merge needs the shards \
                 of one split",
                dir.display(),
                s.index,
                s.of
            ));
        }
        plan = Some(s.plan_sha256.clone());
        of = Some(s.of);
        if !have.insert(s.index) {
            return refuse(format!(
                "shard {}/{} is given twice (again as '{}')",
                s.index,
                s.of,
                dir.display()
            ));
        }
    }
    let of = of.expect("one shard at least");
    let missing: Vec<String> = (1..=of)
        .filter(|k| !have.contains(k))
        .map(|k| format!("{k}/{of}"))
        .collect();
    if !missing.is_empty() {
        return refuse(format!(
            "shard(s) {} missing: merge needs all {of} shards of the plan",
            missing.join(", ")
        ));
    }
    Ok(())
}
