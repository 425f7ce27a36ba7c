//! Executes a plan: the checks before anything is written or asked, the run folder and its
//! log, the calls (live or through batch APIs), and the summary line.

use super::batch;
use super::cache::Cache;
use super::call;
use super::fits;
use super::folder::{self, open_log, write_artifacts, write_metadata_files};
use super::full_disk::with_way_out;
use super::ledger;
use super::limits::Limits;
use super::model::{Model, model_notes, unserved};
use super::plan::{self, Plan, SampleKey};
use super::progress::{self, Observer};
use super::resume::Resumed;
use super::retry::RetryPolicy;
use super::shard;
use super::shortfall;
use super::state::{Budget, ProviderRun, Shared, Stop, StopReason};
use super::tokens::ranking_basis as basis;
use super::warnings;
use crate::UsageError;
use crate::analytics::Analytics;
use crate::providers::{ModelConfig, Provider};
use crate::runlog::{Line, Metadata, SummaryRecord};
use anyhow::Result;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// The share of failed measured calls above which `bench run` exits with status 1
/// (`--max-failed-share`): past it, the failures may bias the ranking.
pub const DEFAULT_MAX_FAILED_SHARE: f64 = 0.1;

/// How to run, beyond what to run.
#[derive(Default)]
pub struct Options {
    /// Warm-up call per combination: forced on or off, or (None) on for caching providers.
    pub warmup: Option<bool>,
    /// Response cache; None with `--no-cache`.
    pub cache: Option<Cache>,
    /// Stop scheduling before spending more than this.
    pub budget_usd: Option<f64>,
    /// Retry policy.
    pub retry: RetryPolicy,
    /// Send the calls through the providers' batch APIs (`--batch`). A resumed run that
    /// submitted batches continues in batch mode without it.
    pub batch: Option<batch::BatchOptions>,
    /// Non-inferiority margin in points (`--margin`), recorded in the metadata for the report
    /// (None: the report's default).
    pub margin_pp: Option<f64>,
}

/// Where a finished run went.
pub struct Outcome {
    /// The JSONL run log.
    pub jsonl: PathBuf,
    /// The artifacts folder.
    pub artifacts: PathBuf,
    /// The summary line that was written.
    pub summary: SummaryRecord,
    /// Why it stopped early, if it did.
    pub stopped: Option<StopReason>,
    /// Providers that failed for good (bad key, unknown model), with the message.
    pub fatal: Vec<String>,
    /// Planned samples with no result line.
    pub missing: usize,
    /// No provider's server ever answered and each was stopped for it (nothing listening,
    /// no such host): the run holds no answer.
    pub never_reached: bool,
    /// Measured calls that failed (warm-ups not counted).
    pub failed_calls: usize,
    /// Measured calls written, failed or not (warm-ups not counted).
    pub measured_calls: usize,
    /// Problems the replies show (cut at the output limit, a wrong chat template), one line
    /// each.
    pub warnings: Vec<String>,
    /// The run's log staged in DuckDB as the summary's ranking read it, every line but the
    /// summary line (no report query reads that one): `bench run` writes its report from it
    /// instead of parsing the log and binding the views again.
    pub staged: Analytics,
}

/// Executes the plan against every model, or completes `resume`d run log: each step below, once.
pub async fn run(
    plan: &Plan,
    models: Vec<Model>,
    opts: Options,
    resume: Option<Resumed>,
    observer: Arc<dyn Observer>,
    stop: Arc<Stop>,
) -> Result<Outcome> {
    // What needs no network first (the output root, the plan, the windows known), then the
    // servers' own windows, then the counts, then the calls.
    preflight(plan, &models, resume.is_none())?;
    // Before a run folder exists; a resumed batch run (found from its folder) is checked below.
    if opts.batch.is_some() {
        batch::check(&models)?;
    }
    let (matrix, skipped) = fits::build(plan, &models)?;
    let models = fits::served(models).await;
    say_notes(plan, &models, observer.as_ref());
    fits::check(plan, &matrix, &models)?;
    for s in &skipped {
        observer.notice(&s.to_string());
    }
    notice_unserved(&matrix, &models, observer.as_ref());
    let suite = plan.suite.name();
    // Before the log is opened, so its metadata says what each model's ranking rests on.
    let bases = basis::of_plan(&models, &matrix, opts.cache.as_ref(), observer.as_ref()).await;
    let opened = open_log(
        plan,
        &models,
        &matrix,
        &skipped,
        resume,
        opts.margin_pp,
        &bases,
    )?;
    let matrix = shard::slice(plan, matrix);
    let artifacts = write_artifacts(plan, &matrix, &opened.dir.join(&suite))
        .map_err(|e| with_way_out(e, &opened.dir))?;
    let done: HashSet<SampleKey> = opened.kept.iter().map(SampleKey::of).collect();
    let batch_mode = batch_mode(opts.batch, &opened.dir, observer.as_ref(), &models)?;
    let runs = provider_runs(models, plan, &matrix, opts.warmup, bases)?;
    let shared = Arc::new(Shared {
        benchmark_id: opened.meta.benchmark_id.clone(),
        multi_provider: runs.len() > 1,
        log: Mutex::new(opened.log),
        artifacts: Mutex::new(artifacts),
        results: Mutex::new(opened.kept),
        cache: opts.cache,
        budget: Budget::new(opts.budget_usd),
        stop,
        observer,
        retry: opts.retry,
        signals: warnings::Signals::default(),
        run_dir: opened.dir.clone(),
        write_failed: AtomicBool::new(false),
    });
    let sizes = matrix.sizes;
    let combos: Vec<Arc<plan::Combo>> = matrix.combos.into_iter().map(Arc::new).collect();
    let dir = opened.dir;
    if batch_mode.is_some() && !ledger::path(&dir).exists() {
        // Marks the run as a batch run before anything is submitted, so `--resume` stays in
        // batch mode even if no batch was created.
        ledger::Ledger::default().save(&dir)?;
    }
    let planned = match &batch_mode {
        Some(b) => batch::schedule(&shared, &runs, &combos, plan.runs, &done, &dir, b).await?,
        None => call::schedule(&shared, &runs, &combos, plan.runs, &done).await,
    };
    if shared.write_failed.load(Ordering::SeqCst) {
        // Said in one line when it happened; the disk has no room for a summary either.
        shared.observer.finish();
        return Err(crate::error::Reported { code: 1 }.into());
    }
    let outcome = summarize(&shared, &runs, &planned, &opened.meta, &suite, &dir)
        .map_err(|e| with_way_out(e, &dir))?;
    write_metadata_files(plan, &sizes, &shared, &suite).map_err(|e| with_way_out(e, &dir))?;
    Ok(outcome)
}

/// Each model that leaves out the structured-output mode the plan asks for, said once.
fn notice_unserved(matrix: &plan::Matrix, models: &[Model], observer: &dyn Observer) {
    let structured = matrix
        .combos
        .iter()
        .find_map(|c| c.scorer.response_schema().and(c.scorer.mode()));
    if let Some(mode) = structured {
        for why in models
            .iter()
            .filter_map(|m| unserved(m.provider.as_ref(), mode))
        {
            observer.notice(&format!("skipped {why}"));
        }
    }
}

/// Before anything is written or asked: a plan with renderings, every provider ready (its key
/// set), and for a `new` run an output root it can write its folder into.
fn preflight(plan: &Plan, models: &[Model], new: bool) -> Result<()> {
    if plan.renderings() == 0 {
        return Err(UsageError::new(
            "nothing to run: no format supports the chosen structures (csv is flat only)",
        )
        .into());
    }
    if new {
        folder::check_output_root(&plan.output_root)?;
    }
    for m in models {
        if let Err(e) = m.provider.ready() {
            return Err(UsageError::new(format!(
                "{}:{}: {e}",
                m.provider.name(),
                m.provider.model()
            ))
            .into());
        }
    }
    Ok(())
}

/// Each model's notes and missing prices, said once.
fn say_notes(plan: &Plan, models: &[Model], observer: &dyn Observer) {
    for n in model_notes(models, plan) {
        observer.notice(&n);
    }
    for m in models.iter().filter(|m| m.config.unpriced()) {
        observer.notice(&format!(
            "note: no price known for {}; its cost_usd will be null (set `price` in the config)",
            m.config.spec()
        ));
    }
}

/// The batch options asked for, or the defaults when the run folder says it was a batch run
/// (then every model is checked for a batch API here: `--batch` was checked before).
fn batch_mode(
    asked: Option<batch::BatchOptions>,
    dir: &Path,
    observer: &dyn Observer,
    models: &[Model],
) -> Result<Option<batch::BatchOptions>> {
    Ok(match asked {
        Some(b) => Some(b),
        None if ledger::path(dir).exists() => {
            observer.notice(&format!(
                "batch: this run was started with --batch ({} in its folder): it continues in batch mode",
                ledger::FILE
            ));
            batch::check(models)?;
            Some(batch::BatchOptions::default())
        }
        None => None,
    })
}

/// Each model with its limits (sized for the largest prompt), price, warm-up setting and the
/// data tokens its provider counted (`bases`, in the order of `models`).
fn provider_runs(
    models: Vec<Model>,
    plan: &Plan,
    matrix: &plan::Matrix,
    warmup: Option<bool>,
    bases: Vec<basis::Basis>,
) -> Result<Vec<Arc<ProviderRun>>> {
    let largest = matrix
        .combos
        .iter()
        .flat_map(|c| &c.units)
        .map(|u| u.tokens)
        .max()
        .unwrap_or(0);
    let mut runs = Vec::new();
    for (idx, (m, basis)) in models.into_iter().zip(bases).enumerate() {
        let max_tokens = m.config.max_tokens();
        let limits = Limits::new(
            m.config.concurrency(),
            m.config.rpm,
            m.config.tpm,
            largest + max_tokens,
        )
        .map_err(|e| UsageError::new(format!("{}: {e}", m.config.spec())))?;
        runs.push(Arc::new(ProviderRun {
            idx,
            price: m.config.price(),
            max_tokens,
            warmup: plan.warmup(warmup, m.provider.caches_prompts()),
            limits,
            provider: m.provider,
            fatal: OnceLock::new(),
            billed: basis.billed(),
            answered: AtomicBool::new(false),
        }));
    }
    Ok(runs)
}

/// The summary line written and synced, and the outcome: what is missing and why it stopped.
fn summarize(
    shared: &Shared,
    runs: &[Arc<ProviderRun>],
    planned: &[SampleKey],
    meta: &Metadata,
    suite: &str,
    dir: &Path,
) -> Result<Outcome> {
    let results = std::mem::take(&mut *shared.results.lock().expect("results lock"));
    let have: HashSet<SampleKey> = results.iter().map(SampleKey::of).collect();
    let missing = planned.iter().filter(|k| !have.contains(k)).count();
    let stopped = shared.stop.reason();
    let fatal: Vec<String> = runs.iter().filter_map(|r| r.fatal.get().cloned()).collect();
    let never_reached = !runs.is_empty()
        && runs.iter().all(|r| {
            r.fatal.get().is_some() && !r.answered.load(std::sync::atomic::Ordering::Relaxed)
        });
    let failed_calls = results
        .iter()
        .filter(|r| !r.warmup && r.error.is_some())
        .count();
    let measured_calls = results.iter().filter(|r| !r.warmup).count();
    // The ranking is sql/rankings.sql over the result lines written (each line is on disk
    // once appended); the summary line follows them.
    shared.log.lock().expect("log lock").sync()?;
    let staged = Analytics::open_run(dir)?;
    let mut figures = crate::runlog::rankings::of_staged(&staged)?;
    let why_stopped = stopped.as_ref().map(StopReason::describe);
    let issues = shortfall::issues(runs, planned, &have, &results, why_stopped.as_deref());
    figures.rankings = shortfall::ranked(figures.rankings, &issues);
    let mut summary = crate::runlog::build_summary(
        &meta.benchmark_id,
        &meta.timestamp,
        suite,
        &results,
        figures,
        missing > 0,
    );
    summary.provider_issues = issues;
    summary.stop_reason = why_stopped
        .or_else(|| fatal.first().cloned())
        .or_else(|| (missing > 0).then(|| format!("{missing} planned calls not made")));
    shared.observer.finish();
    let mut log = shared.log.lock().expect("log lock");
    log.append(&Line::Summary(Box::new(summary.clone())))?;
    log.sync()?;
    let jsonl = log.path().to_path_buf();
    drop(log);
    Ok(Outcome {
        jsonl,
        artifacts: dir.join(suite),
        summary,
        stopped,
        fatal,
        missing,
        never_reached,
        failed_calls,
        measured_calls,
        warnings: shared.signals.warnings(),
        staged,
    })
}

/// Runs `plan` one call at a time per provider, without cache or progress output: the simple
/// entry point for library users and tests.
pub async fn sequential(plan: &Plan, providers: Vec<Box<dyn Provider>>) -> Result<Outcome> {
    let models = providers
        .into_iter()
        .map(|p| Model {
            config: ModelConfig {
                provider: p.name().into(),
                model: p.model().into(),
                concurrency: Some(1),
                ..ModelConfig::default()
            },
            provider: p,
        })
        .collect();
    run(
        plan,
        models,
        Options::default(),
        None,
        Arc::new(progress::Silent),
        Arc::new(Stop::default()),
    )
    .await
}
