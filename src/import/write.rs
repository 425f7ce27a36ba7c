//! Writes imported runs as run folders: a metadata line marked `imported` with the provenance,
//! one `result` line per published answer (one question each, both grades kept), and the
//! summary that `bench run` writes, its ranking from `sql/rankings.sql`. Every run is checked
//! whole before the first folder is made, so a bad file leaves nothing behind.

use super::grade;
use super::source::{Published, bad};
use crate::grading::summarize;
use crate::layout::sha256_hex;
use crate::providers::Usage;
use crate::runlog::meta::{ImportedGrades, QuestionMode};
use crate::runlog::{
    JsonlWriter, Line, Metadata, Output, ProviderConfig, ResultRecord, Sample, Timing,
};
use crate::tokens::DataStats;
use anyhow::Result;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// The provider name of every imported answer: bench made none of these calls.
pub const PROVIDER: &str = "imported";

/// A run folder written.
pub struct Written {
    /// The folder.
    pub dir: PathBuf,
    /// Its provenance.
    pub about: crate::runlog::meta::Imported,
    /// Answers written.
    pub answers: usize,
    /// Answers both graders graded, and those on which they agree.
    pub graded_both: usize,
    /// Of those, the answers whose grades agree.
    pub agree: usize,
}

/// Refuses a run with two answers to one question of one model, format and run.
fn check_duplicates(p: &Published) -> Result<()> {
    let mut seen: HashMap<(&str, &str, &str, u32, String), &str> = HashMap::new();
    for a in &p.answers {
        let key = (
            a.model.as_str(),
            a.format.name(),
            a.question.as_str(),
            a.run,
            format!("{}/{}", a.structure, a.variant),
        );
        if let Some(first) = seen.insert(key, &a.place) {
            return Err(bad(
                Path::new(&a.place),
                "",
                format!(
                    "duplicate answer: {} in {} to {} (run {}) was already given at {first}",
                    a.model, a.format, a.question, a.run
                ),
            ));
        }
    }
    Ok(())
}

/// The metadata line of one imported run.
fn metadata(p: &Published, id: &str, ts: &str, records: usize) -> Metadata {
    let mut formats = Vec::new();
    let mut models = Vec::new();
    let mut structures = Vec::new();
    let mut variants = Vec::new();
    let mut categories = BTreeSet::new();
    for a in &p.answers {
        for (list, x) in [(&mut models, a.model.clone())] {
            if !list.contains(&x) {
                list.push(x);
            }
        }
        if !formats.contains(&a.format) {
            formats.push(a.format);
        }
        if !structures.contains(&a.structure) {
            structures.push(a.structure);
        }
        if !variants.contains(&a.variant) {
            variants.push(a.variant);
        }
        categories.insert(a.category.clone());
    }
    let questions: BTreeSet<&str> = p.answers.iter().map(|a| a.question.as_str()).collect();
    let question_hash = sha256_hex(
        questions
            .iter()
            .copied()
            .collect::<Vec<_>>()
            .join("\n")
            .as_bytes(),
    );
    let files_hash = sha256_hex(
        p.about
            .files
            .iter()
            .map(|f| f.sha256.as_str())
            .collect::<Vec<_>>()
            .join(",")
            .as_bytes(),
    );
    Metadata {
        benchmark_id: id.into(),
        timestamp: ts.into(),
        suite_name: "imported".into(),
        description: format!(
            "{}: answers imported from {}, not produced by bench",
            p.description, p.about.name
        ),
        tags: vec!["imported".into(), p.about.source.clone()],
        providers: models
            .iter()
            .map(|m| ProviderConfig {
                provider: PROVIDER.into(),
                model: m.clone(),
                model_params: json!({}),
                settings: None,
                notes: Vec::new(),
                token_basis: Some(json!({"basis": p.about.token_counter})),
            })
            .collect(),
        bench_version: env!("CARGO_PKG_VERSION").into(),
        seed: 0,
        records: vec![records],
        formats,
        structures,
        variants: variants.clone(),
        runs: p.answers.iter().map(|a| a.run).max().unwrap_or(1),
        weights: categories.iter().map(|c| (c.clone(), json!(1.0))).collect(),
        tokenizers: Vec::new(),
        dataset_hash: files_hash,
        question_mode: QuestionMode::PerQuestion,
        primers: vec![false],
        rescored_from: None,
        payload: Default::default(),
        questions_file: None,
        questions_sha256: None,
        question_sets: variants
            .iter()
            .map(|v| (format!("{records}/{v}"), question_hash.clone()))
            .collect(),
        prompt_variants: Vec::new(),
        shuffle: false,
        margin_pp: None,
        shard: None,
        imported: Some(p.about.clone()),
    }
}

/// The result line of one answer; also returns bench's own grade.
fn result(
    a: &super::source::Answer,
    id: &str,
    records: usize,
    about: &crate::runlog::meta::Imported,
    by_source: bool,
) -> (ResultRecord, Option<bool>) {
    let (m, bench) = grade::metric(a, by_source);
    let metrics = vec![m];
    let latency = a.latency_ms.map_or(0, |l| l.max(0.0).round() as u64);
    let text = match &a.actual {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let r = ResultRecord {
        benchmark_id: id.into(),
        provider_config: ProviderConfig {
            provider: PROVIDER.into(),
            model: a.model.clone(),
            model_params: json!({}),
            settings: None,
            notes: Vec::new(),
            token_basis: None,
        },
        sample: Sample {
            duration_ms: latency,
            tag: format!(
                "{}_{}_{}_{records}_run{}",
                a.format, a.structure, a.variant, a.run
            ),
            input: Vec::new(),
            output: Output { content: text },
            model: a.model.clone(),
            model_params: json!({}),
            start_time_ms: 0,
            end_time_ms: latency,
            url: None,
        },
        summary: summarize(&metrics),
        metrics,
        timing: Timing {
            provider_latency_ms: latency,
            evaluation_time_ms: 0,
        },
        format: a.format,
        structure: a.structure,
        variant: a.variant,
        records,
        run: a.run,
        warmup: false,
        primer: false,
        question: Some(a.question.clone()),
        prompt_variant: None,
        order_seed: None,
        task: None,
        // The whole reply's rubric, on each of its elements' lines (`--from tealeaf`).
        payload: a
            .element
            .as_ref()
            .map(|e| crate::suites::task_rubric_payload(&e.rubric))
            .unwrap_or_default(),
        usage: Usage {
            input: a.input_tokens.unwrap_or(0),
            output: a.output_tokens.unwrap_or(0),
            ..Usage::default()
        },
        turns: Vec::new(),
        // bench's measure of the data file where the source publishes it (the seed's data
        // files): rankings then rest on its o200k_base count (views.sql, `ranked_tokens`).
        data_stats: a.data.as_deref().cloned().unwrap_or(DataStats {
            chars: 0,
            bytes: 0,
            values: 0,
            objects: 0,
            tokens: BTreeMap::new(),
        }),
        // The source's token count is what the ranking rests on, labelled with its basis.
        billed_data_tokens: a.input_tokens,
        token_basis: (a.input_tokens.is_some() || a.data.is_some())
            .then(|| about.token_counter.clone()),
        cost_usd: None,
        cached: false,
        attempts: 0,
        status: None,
        request_id: None,
        finish: None,
        finish_reason: None,
        served_model: None,
        server: None,
        batch_id: None,
        batch_matched_by: None,
        imported: Some(ImportedGrades {
            source_passed: a.source_passed,
            bench_passed: bench,
        }),
        error: None,
    };
    (r, bench)
}

/// Writes each run into its own folder under `root/benchmarks/`; `by_source` grades by the
/// source's grade (`--grade source`). Checks every run before writing any.
pub fn write_runs(root: &Path, runs: Vec<Published>, by_source: bool) -> Result<Vec<Written>> {
    for p in &runs {
        check_duplicates(p)?;
        if p.answers.is_empty() {
            anyhow::bail!(crate::UsageError::new(format!(
                "{}: no answers in it",
                p.about
                    .files
                    .first()
                    .map_or("the source".into(), |f| f.path.display().to_string())
            )));
        }
    }
    let mut written = Vec::new();
    for mut p in runs {
        p.about.grade = if by_source { "source" } else { "bench" }.into();
        let dir = write_one(root, &p, by_source)?;
        let (mut both, mut agree) = (0, 0);
        for a in &p.answers {
            if let (Some(s), (_, Some(b))) = (a.source_passed, grade::metric(a, false)) {
                both += 1;
                agree += usize::from(s == b);
            }
        }
        written.push(Written {
            dir,
            answers: p.answers.len(),
            about: p.about,
            graded_both: both,
            agree,
        });
    }
    Ok(written)
}

/// Writes one run folder; removes it again if any line cannot be written.
fn write_one(root: &Path, p: &Published, by_source: bool) -> Result<PathBuf> {
    let now = chrono::Utc::now();
    let (id, ts) = crate::runner::run_identity(now);
    let dir = crate::runner::create_run_dir(root, &now.format("%Y-%m-%d_%H-%M-%S").to_string())?;
    let out = (|| -> Result<()> {
        let records = p
            .answers
            .iter()
            .map(|a| a.question.as_str())
            .collect::<BTreeSet<_>>()
            .len();
        let meta = metadata(p, &id, &ts, records);
        let mut log = JsonlWriter::create(&dir.join("imported.jsonl"))?;
        log.append(&Line::Metadata(Box::new(meta)))?;
        let mut kept = Vec::with_capacity(p.answers.len());
        for a in &p.answers {
            let (r, _) = result(a, &id, records, &p.about, by_source);
            log.append(&Line::Result(Box::new(r.clone())))?;
            kept.push(r);
        }
        log.sync()?;
        let figures = crate::runlog::rankings::of_run(&dir)?;
        let summary = crate::runlog::build_summary(&id, &ts, "imported", &kept, figures, false);
        log.append(&Line::Summary(Box::new(summary)))?;
        log.finish()
    })();
    match out {
        Ok(()) => Ok(dir),
        Err(e) => {
            // A half-written folder would be read as a run by every reader under the root.
            let _ = std::fs::remove_dir_all(&dir);
            Err(e)
        }
    }
}
