//! The run folder: its name and identity, the log's metadata line, opening the log (new or
//! resumed), and the artifacts written beside it.

use super::model::{Model, unserved};
use super::resume::{self, Resumed};
use super::state::Shared;
use super::tokens::ranking_basis as basis;
use super::{plan, shard};
use crate::UsageError;
use crate::layout::Writer;
use crate::providers::ModelConfig;
use crate::runlog::meta::Skip;
use crate::runlog::{JsonlWriter, Line, Metadata, ProviderConfig, ResultRecord};
use crate::suites::plan::Plan;
use anyhow::Result;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// Refuses an output root the run could not write its folder into, before anything is asked
/// of a server and without leaving anything (a refused plan leaves no folder behind): a folder
/// must be creatable in the nearest existing folder on the way to `root/benchmarks`.
pub fn check_output_root(root: &Path) -> Result<(), UsageError> {
    let target = root.join("benchmarks");
    let existing = target
        .ancestors()
        .find(|p| p.as_os_str().is_empty() || p.exists())
        .map(|p| {
            if p.as_os_str().is_empty() {
                Path::new(".")
            } else {
                p
            }
        })
        .unwrap_or(Path::new("."));
    let refuse = |why: String| {
        UsageError::new(if existing == root {
            format!("cannot write to output root '{}': {why}", root.display())
        } else {
            format!(
                "cannot write to '{}' (on the way to output root '{}'): {why}",
                existing.display(),
                root.display()
            )
        })
    };
    if !existing.is_dir() {
        return Err(refuse("it is a file, not a folder".into()));
    }
    // A folder made and removed at once is the only honest test: access(2) says yes to root on
    // /proc or a read-only mount, where the run's own mkdir then fails after the counting.
    let probe = existing.join(format!(".bench-write-check-{}", std::process::id()));
    std::fs::create_dir(&probe).map_err(|e| refuse(e.to_string()))?;
    let _ = std::fs::remove_dir(&probe);
    Ok(())
}

/// Creates `root/benchmarks/<timestamp>/`, unique even for two runs in the same second.
pub(crate) fn create_run_dir(root: &Path, stamp: &str) -> Result<PathBuf, UsageError> {
    let parent = root.join("benchmarks");
    std::fs::create_dir_all(&parent).map_err(|e| {
        UsageError::new(format!(
            "cannot write to output root '{}': {e}",
            root.display()
        ))
    })?;
    for i in 1.. {
        let name = if i == 1 {
            stamp.to_string()
        } else {
            format!("{stamp}_{i}")
        };
        let dir = parent.join(name);
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                return Err(UsageError::new(format!(
                    "cannot write to '{}': {e}",
                    dir.display()
                )));
            }
        }
    }
    unreachable!("the loop returns")
}

/// The benchmark_id and RFC 3339 timestamp of a run started at `now`.
pub(crate) fn run_identity(now: chrono::DateTime<chrono::Utc>) -> (String, String) {
    let id = format!(
        "bench_{}_{:06x}",
        now.format("%Y%m%d_%H%M%S"),
        now.timestamp_subsec_micros() ^ std::process::id()
    );
    (id, now.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
}

/// A model's settings as recorded: the base URL without query string or user info, which can
/// carry keys (so a resumed run needs the key from the environment again).
fn recorded_settings(c: &ModelConfig) -> Value {
    let mut c = c.clone();
    c.base_url = c
        .base_url
        .as_deref()
        .map(crate::providers::http::public_url);
    serde_json::to_value(&c).expect("config serializes")
}

/// The metadata line of a new run.
fn metadata(
    plan: &Plan,
    models: &[Model],
    id: &str,
    timestamp: &str,
    matrix: &plan::Matrix,
    skipped: &[Skip],
) -> Result<Metadata> {
    let mut meta = Metadata {
        benchmark_id: id.to_string(),
        timestamp: timestamp.to_string(),
        suite_name: plan.suite.name(),
        description: plan.suite.description().into(),
        tags: vec![],
        providers: models
            .iter()
            .map(|m| ProviderConfig {
                provider: m.provider.name().into(),
                model: m.provider.model().into(),
                model_params: m.provider.params(),
                settings: Some(recorded_settings(&m.config)),
                notes: crate::providers::capabilities::notes(
                    &m.config,
                    plan.suite.own_call_settings(),
                ),
                token_basis: None,
            })
            .collect(),
        bench_version: env!("CARGO_PKG_VERSION").into(),
        seed: plan.seed,
        records: plan.records.iter().map(|&n| n as usize).collect(),
        formats: plan.formats.clone(),
        structures: plan.structures.clone(),
        variants: plan.variants.clone(),
        runs: plan.runs,
        weights: crate::suites::weights(plan.suite.categories()),
        tokenizers: plan
            .tokenizers
            .iter()
            .map(|t| t.name().to_string())
            .collect(),
        dataset_hash: plan.suite.data_hashes(matrix).join(","),
        question_sets: matrix.question_sets(),
        question_mode: plan.question_mode,
        primers: plan.primers.clone(),
        rescored_from: None,
        imported: None,
        payload: Default::default(),
        questions_file: None,
        questions_sha256: None,
        shuffle: plan.shuffle,
        prompt_variants: crate::suites::plan::worded_slots(
            plan,
            plan.suite.wording_ids().into_iter(),
        )
        .into_iter()
        .filter_map(|s| s.wording.map(str::to_string))
        .collect(),
        margin_pp: None,
        shard: None,
    };
    plan.suite.record(&mut meta, skipped);
    if let Some((index, of)) = plan.shard {
        let plan_sha256 = shard::plan_sha256(&meta);
        meta.shard = Some(crate::runlog::Shard {
            index,
            of,
            plan_sha256,
        });
    }
    if let Some(mode) = plan.suite.structured_mode() {
        let why = models
            .iter()
            .filter_map(|m| unserved(m.provider.as_ref(), mode))
            .collect();
        plan.suite.record_unserved(&mut meta, why)?;
    }
    Ok(meta)
}

/// A run log opened for writing: the run's folder, the writer, its metadata and the calls a
/// resumed log already holds.
pub(super) struct Opened {
    pub(super) dir: PathBuf,
    pub(super) log: JsonlWriter,
    pub(super) meta: Metadata,
    pub(super) kept: Vec<ResultRecord>,
}

/// The resumed log, appended to; or a new run folder whose log starts with the metadata line,
/// which records each model's token basis (`bases`, in the order of `models`).
pub(super) fn open_log(
    plan: &Plan,
    models: &[Model],
    matrix: &plan::Matrix,
    skipped: &[Skip],
    resume: Option<Resumed>,
    margin_pp: Option<f64>,
    bases: &[basis::Basis],
) -> Result<Opened> {
    if let Some(r) = resume {
        let dir = r.jsonl.parent().expect("log has a folder").to_path_buf();
        // A sweep or recommend step asks more sizes or runs: the metadata says so first.
        let old = &r.metadata;
        let sizes: Vec<usize> = plan.records.iter().map(|&n| n as usize).collect();
        let meta = if old.records != sizes || old.runs != plan.runs {
            let mut m = metadata(
                plan,
                models,
                &old.benchmark_id,
                &old.timestamp,
                matrix,
                skipped,
            )?;
            m.margin_pp = old.margin_pp;
            basis::record(&mut m, bases);
            resume::rewrite_metadata(&r.jsonl, &m)?;
            m
        } else {
            r.metadata
        };
        let log = JsonlWriter::append_to(&r.jsonl)?;
        return Ok(Opened {
            dir,
            log,
            meta,
            kept: r.kept,
        });
    }
    let now = chrono::Utc::now();
    let dir = create_run_dir(
        &plan.output_root,
        &now.format("%Y-%m-%d_%H-%M-%S").to_string(),
    )?;
    let (id, ts) = run_identity(now);
    let mut meta = metadata(plan, models, &id, &ts, matrix, skipped)?;
    meta.margin_pp = margin_pp;
    basis::record(&mut meta, bases);
    let mut log = JsonlWriter::create(&dir.join(format!("{}.jsonl", plan.suite.name())))?;
    log.append(&Line::Metadata(Box::new(meta.clone())))?;
    Ok(Opened {
        dir,
        log,
        meta,
        kept: Vec::new(),
    })
}

/// The artifacts folder with the suite's questions and data files.
pub(super) fn write_artifacts(plan: &Plan, matrix: &plan::Matrix, at: &Path) -> Result<Writer> {
    let mut artifacts = Writer::create(at)?;
    plan.suite.artifacts(plan, matrix, &mut artifacts)?;
    Ok(artifacts)
}

/// The artifacts' metadata.json: the suite's data set, the run's settings, every file.
pub(super) fn write_metadata_files(
    plan: &Plan,
    sizes: &[plan::Size],
    shared: &Shared,
    suite: &str,
) -> Result<()> {
    let Some(data) = plan.suite.data_description(sizes) else {
        return Ok(());
    };
    shared
        .artifacts
        .lock()
        .expect("artifacts lock")
        .metadata_of(
            data,
            json!({"seed": plan.seed, "records": plan.records, "runs": plan.runs, "suite": suite,
               "question_mode": plan.question_mode.name(), "primers": plan.primers}),
        )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_output_root;

    #[test]
    fn a_root_nothing_can_be_made_in_is_refused_even_for_root_and_a_good_one_is_left_empty() {
        // /proc takes no new folders, though access(2) tells root it is writable.
        let err = check_output_root(std::path::Path::new("/proc/bench-out")).unwrap_err();
        assert!(err.to_string().contains("'/proc'"), "{err}");
        let tmp = tempfile::tempdir().unwrap();
        check_output_root(&tmp.path().join("out")).unwrap();
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
    }
}
