//! `bench run`: the benchmark itself (or its plan with `--dry-run`, or the rest of an
//! interrupted run with `--resume`).

use crate::UsageError;
use crate::cli::{RunArgs, TableFormat};
use crate::error::Stopped;
use crate::providers::config::ConfigFile;
use crate::providers::{self, ModelConfig, process_env};
use crate::report;
use crate::runner::progress::Console;
use crate::runner::resume::{self, Resumed};
use crate::runner::{
    self, Cache, Model, Options, Plan, RetryPolicy, Stop, StopReason, batch::BatchOptions, estimate,
};
use crate::suites::asked::unique;
use crate::tokens::Tokenizer;
use anyhow::Result;
use std::sync::Arc;
use std::time::Duration;

/// The models to run: from `--provider` specs and `--config`, else the reference.
pub(super) fn model_configs(args: &RunArgs) -> Result<Vec<ModelConfig>> {
    let file = match &args.config {
        Some(path) => ConfigFile::load(path)?,
        None => ConfigFile::default(),
    };
    let mut configs = file.resolve(&args.providers)?;
    if configs.is_empty() {
        if args.config.is_some() {
            return Err(UsageError::new("the config has no [[models]] entries").into());
        }
        eprintln!(
            "no --provider given: using the offline `reference` answerer (decodes each rendering and \
             answers from it; a ceiling and self-check, not an LLM result)"
        );
        configs.push(ModelConfig::from_spec("reference")?);
    }
    Ok(configs)
}

/// The chosen tokenizers with o200k_base first if missing: rankings and reports measure data
/// tokens with it.
fn with_o200k(chosen: &[Tokenizer]) -> Vec<Tokenizer> {
    let mut out = unique(chosen);
    if !out.contains(&Tokenizer::O200kBase) {
        out.insert(0, Tokenizer::O200kBase);
    }
    out
}

/// The same model twice would log every sample twice under one key.
fn check_unique(configs: &[ModelConfig]) -> Result<()> {
    for (i, c) in configs.iter().enumerate() {
        if configs[..i].iter().any(|d| d.spec() == c.spec()) {
            return Err(UsageError::new(format!(
                "{} is listed twice; give each model once (two settings of one model need two runs)",
                c.spec()
            ))
            .into());
        }
    }
    Ok(())
}

/// `--base-url` names one server: every model of the one provider kind that takes it goes there
/// (two models served by one vLLM, LM Studio or Ollama); refused when models of two kinds would
/// take it (a mixed run would send an Anthropic call to an OpenAI-compatible host); each model's
/// own `base_url` in a `--config` file is the way to point several kinds at their servers.
fn check_base_url(args: &RunArgs, configs: &[ModelConfig]) -> Result<()> {
    if args.base_url.is_none() {
        return Ok(());
    }
    let takers: Vec<&ModelConfig> = configs
        .iter()
        .filter(|c| c.wire().ok() != Some(providers::Wire::Reference))
        .filter(|c| c.base_url.is_none() || args.resume.is_some())
        .collect();
    let kinds = unique(
        &takers
            .iter()
            .map(|c| c.provider.as_str())
            .collect::<Vec<_>>(),
    );
    if kinds.len() > 1 {
        let specs: Vec<String> = takers.iter().map(|c| c.spec()).collect();
        return Err(UsageError::new(format!(
            "--base-url points one kind of provider at its server, but this run has {} kinds \
             that would take it ({}: {}); give each model its own base_url in a --config file \
             (`bench init-config` writes one), or run them one at a time",
            kinds.len(),
            kinds.join(", "),
            specs.join(", ")
        ))
        .into());
    }
    Ok(())
}

/// Command-line limits override every model's config.
fn apply_overrides(args: &RunArgs, configs: &mut [ModelConfig]) {
    for c in configs {
        // On --resume the recorded URL has no query string; --base-url may restore one.
        if c.base_url.is_none() || (args.resume.is_some() && args.base_url.is_some()) {
            c.base_url = args.base_url.clone().or(c.base_url.take());
        }
        if c.api_key_env.is_none() {
            c.api_key_env = args.api_key_env.clone();
        }
        if let Some(n) = args.concurrency {
            c.concurrency = Some(n as usize);
        }
        if args.rpm.is_some() {
            c.rpm = args.rpm;
        }
        if args.tpm.is_some() {
            c.tpm = args.tpm;
        }
    }
}

/// The settings each provider of a resumed log ran with.
fn resumed_configs(r: &Resumed) -> Result<Vec<ModelConfig>> {
    r.metadata
        .providers
        .iter()
        .map(|p| match &p.settings {
            Some(s) => serde_json::from_value(s.clone()).map_err(|e| {
                UsageError::new(format!("run log has unreadable provider settings: {e}")).into()
            }),
            None => Ok(ModelConfig {
                provider: p.provider.clone(),
                model: p.model.clone(),
                ..ModelConfig::default()
            }),
        })
        .collect()
}

/// Runs the plan, prints the ranking and the JSONL path: each step below, once.
pub fn execute(args: &RunArgs) -> Result<()> {
    let resumed = resumed(args)?;
    let (plan, configs) = match &resumed {
        Some(r) => (Plan::from_metadata(&r.metadata)?, resumed_configs(r)?),
        None => (new_plan(args)?, model_configs(args)?),
    };
    // The vocabularies load while the providers are set up and the data is rendered.
    crate::tokens::preload(&plan.tokenizers);
    let mut models = build_models(args, configs)?;
    let warmup = args.warmup.forced();
    if args.dry_run {
        if args.count_with_provider {
            // The dry run that may ask the provider asks its server's window too, as a run does.
            models = with_served_windows(models)?;
        }
        return dry_run(args, &plan, &models, warmup);
    }
    // A resumed batch run stays in batch mode, at this command's --batch-poll.
    let resumed_batch = resumed.as_ref().is_some_and(|r| {
        r.jsonl
            .parent()
            .is_some_and(|d| runner::ledger::path(d).exists())
    });
    if resumed_batch && !args.batch {
        eprintln!(
            "resume: this run was started with --batch (batches.json in its folder): it continues in batch mode"
        );
    }
    let opts = options(args, warmup, resumed_batch);
    let fresh = resumed.is_none();
    let outcome = launch(&plan, models, opts, resumed)?;
    if fresh && outcome.never_reached {
        return discard_unreached(&outcome);
    }
    let reported = print_outcome(args, &plan, &outcome)?;
    exit_status(&outcome, args.max_failed_share, reported)
}

/// `--resume DIR`: the interrupted run's log, its kept calls said on screen.
fn resumed(args: &RunArgs) -> Result<Option<Resumed>> {
    let Some(dir) = &args.resume else {
        return Ok(None);
    };
    let dir = &super::report::latest_or(dir, &args.output_root)?;
    let r = resume::load(dir, args.retry_errors)?;
    for n in &r.notices {
        eprintln!("resume: {n}");
    }
    eprintln!(
        "resume: {} finished calls kept in {}",
        r.kept.len(),
        r.jsonl.display()
    );
    Ok(Some(r))
}

/// The plan of a new run from the command line: the suite plans its part (its data, formats
/// and sizes, or a refusal of what it does not take), the rest is the command line's.
pub(super) fn new_plan(args: &RunArgs) -> Result<Plan> {
    if args.prompt_variants > args.runs {
        eprintln!(
            "note: --prompt-variants {} with --runs {}: only the first {} wording(s) are asked; \
             use --runs {} (or a multiple) to ask each",
            args.prompt_variants, args.runs, args.runs, args.prompt_variants
        );
    }
    let asked = args.asked();
    let (suite, chosen) = crate::suites::choose(args.suite, &asked)?;
    let planned = suite.plan(&asked)?;
    for n in chosen.iter().chain(&planned.notes) {
        eprintln!("{n}");
    }
    Ok(Plan {
        formats: unique(&planned.formats),
        structures: planned.structures,
        variants: planned.variants,
        records: planned.records,
        seed: args.data.seed,
        runs: args.runs,
        tokenizers: with_o200k(&args.data.tokenizers),
        output_root: args.output_root.clone(),
        question_mode: args.question_mode,
        prompt_variants: args.prompt_variants,
        shuffle: args.shuffle,
        shard: args.shard,
        primers: args.primer.primers(),
        suite: planned.suite,
    })
}

/// The models with the command line's overrides, each once.
pub(super) fn build_models(args: &RunArgs, mut configs: Vec<ModelConfig>) -> Result<Vec<Model>> {
    check_base_url(args, &configs)?;
    apply_overrides(args, &mut configs);
    check_unique(&configs)?;
    let models: Vec<Model> = configs
        .into_iter()
        .map(|c| {
            Ok(Model {
                provider: providers::build(&c, &process_env)?,
                config: c,
            })
        })
        .collect::<Result<_, UsageError>>()?;
    Ok(models)
}

/// `models`, each whose window is unknown with the one its server reports, asked outside a run
/// (which asks on its own runtime): `--dry-run --count-with-provider` and `bench sweep`.
pub(super) fn with_served_windows(models: Vec<Model>) -> Result<Vec<Model>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    Ok(runtime.block_on(runner::fits::served(models)))
}

/// `--dry-run`: the batch check, the notes, the request bodies with `--show-requests`, and
/// the estimate.
fn dry_run(args: &RunArgs, plan: &Plan, models: &[Model], warmup: Option<bool>) -> Result<()> {
    // A real run has `runner::run` check this.
    if args.batch {
        runner::batch::check(models)?;
    }
    for n in runner::model_notes(models, plan) {
        eprintln!("{n}");
    }
    if args.show_requests {
        crate::out!("{}", estimate::requests(plan, models, args.full)?)?;
    }
    let counts = if args.count_with_provider {
        let dir = runner::billed::CountCache::default_dir().filter(|_| !args.no_cache);
        estimate::Counts::Provider(dir)
    } else {
        estimate::Counts::Offline
    };
    let e = estimate::estimate(plan, models, warmup, args.batch, &counts)?;
    crate::outln!("{}", report::render(&e.prompts, TableFormat::Table)?)?;
    crate::outln!("{}", report::render(&e.providers, TableFormat::Table)?)?;
    for n in &e.notes {
        crate::outln!("note: {n}")?;
    }
    Ok(())
}

/// The runner's options from the command line.
pub(super) fn options(args: &RunArgs, warmup: Option<bool>, resumed_batch: bool) -> Options {
    Options {
        warmup,
        cache: if args.no_cache {
            None
        } else {
            Cache::default_dir().map(Cache::new)
        },
        budget_usd: args.budget_usd,
        margin_pp: Some(args.margin),
        batch: (args.batch || args.cancel_batches || resumed_batch).then(|| BatchOptions {
            poll: Duration::from_secs_f64(args.batch_poll),
            cancel: args.cancel_batches,
        }),
        retry: RetryPolicy {
            max_retries: if args.no_retry { 0 } else { args.retries },
            base: Duration::from_millis(args.retry_base_ms.max(1)),
            ..RetryPolicy::default()
        },
    }
}

/// Waits for Ctrl-C or SIGTERM (what `kill`, a job scheduler or a container stop sends) and
/// says which; `None` when neither can be listened for.
async fn interrupt() -> Option<&'static str> {
    use tokio::signal::unix::{SignalKind, signal};
    let Ok(mut term) = signal(SignalKind::terminate()) else {
        return tokio::signal::ctrl_c().await.ok().map(|_| "Ctrl-C");
    };
    tokio::select! {
        c = tokio::signal::ctrl_c() => c.ok().map(|_| "Ctrl-C"),
        t = term.recv() => t.map(|_| "SIGTERM"),
    }
}

/// Runs the plan on a tokio runtime; the first Ctrl-C or SIGTERM stops scheduling (the calls
/// in flight finish and are logged, the summary says so, `--resume` completes the run), the
/// second exits.
fn launch(
    plan: &Plan,
    models: Vec<Model>,
    opts: Options,
    resumed: Option<Resumed>,
) -> Result<runner::Outcome> {
    let stop = Arc::new(Stop::default());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let signal_stop = stop.clone();
    runtime.spawn(async move {
        if let Some(what) = interrupt().await {
            eprintln!(
                "\ninterrupt ({what}): no new calls; waiting for calls in flight (Ctrl-C again to \
                 abort now)"
            );
            signal_stop.request(StopReason::Interrupted);
            if interrupt().await.is_some() {
                eprintln!(
                    "aborted: every finished call is in the run log; `bench run --resume <its folder>` completes it"
                );
                std::process::exit(130);
            }
        }
    });
    let outcome = runtime.block_on(runner::run(
        plan,
        models,
        opts,
        resumed,
        Arc::new(Console::new()),
        stop,
    ))?;
    runtime.shutdown_background();
    Ok(outcome)
}

/// A new run none of whose servers ever answered: its folder holds no answer, so it is removed
/// and no report is written; the error says what was called.
fn discard_unreached(outcome: &runner::Outcome) -> Result<()> {
    let run_dir = outcome.jsonl.parent().unwrap_or(std::path::Path::new("."));
    let kept = match std::fs::remove_dir_all(run_dir) {
        Ok(()) => {
            // `benchmarks/` too when this run made it and nothing else is in it (remove_dir
            // refuses a folder that is not empty).
            if let Some(parent) = run_dir.parent() {
                let _ = std::fs::remove_dir(parent);
            }
            "no run folder or report is kept".to_string()
        }
        Err(e) => format!(
            "its folder '{}' could not be removed: {e}",
            run_dir.display()
        ),
    };
    Err(anyhow::anyhow!(
        "{}; no server was ever reached, so nothing was asked: {kept}",
        outcome.fatal.join("; ")
    ))
}

/// Said once on the terminal when every answer of the run was wrong: a broken set-up is
/// likelier than a wrong key, and no format is recommended.
pub const ALL_WRONG: &str = "every answer was wrong: a broken set-up (the endpoint, the model's \
     answer format, a prompt cut short) is likelier than a wrong answer key; no format is \
     recommended";

/// The ranking, warnings and paths on screen, then the report. A report failure must not hide
/// why the run stopped: it is returned for [`exit_status`] to use only when the run succeeded.
fn print_outcome(args: &RunArgs, plan: &Plan, outcome: &runner::Outcome) -> Result<Result<()>> {
    let run_dir = outcome.jsonl.parent().unwrap_or(std::path::Path::new("."));
    match plan.suite.ranking_sql() {
        // A suite that ranks by other columns than the lookup categories (tasks: their facts).
        Some(sql) => {
            let table = outcome.staged.query(sql)?;
            crate::outln!("{}", report::render(&table, TableFormat::Table)?)?;
        }
        None if outcome.summary.rankings.is_empty() => {}
        None => {
            let width = (!args.wide).then(crate::out::width).flatten();
            let table = report::ranking_table_within(&outcome.summary.rankings, width);
            crate::outln!("{table}")?;
            let answered: Vec<_> = outcome
                .summary
                .rankings
                .iter()
                .filter(|r| r.runs > 0)
                .collect();
            if !answered.is_empty() && answered.iter().all(|r| r.weighted_accuracy == 0.0) {
                eprintln!("warning: {ALL_WRONG}");
            }
        }
    }
    // A provider that never answered is not a row of zeros in the ranking: it is said here.
    // Why, unless the message that stopped the provider was just printed (and ends the run).
    for issue in &outcome.summary.provider_issues {
        let said = issue
            .reason
            .as_ref()
            .is_some_and(|r| outcome.fatal.contains(r));
        match said {
            true => eprintln!("{}", issue.headline()),
            false => eprintln!("{}", issue.describe()),
        }
    }
    for w in &outcome.warnings {
        eprintln!("{w}");
    }
    let errors = outcome.failed_calls;
    if errors > 0 {
        eprintln!("{errors} calls failed; see the `error` field of their result lines");
    }
    crate::outln!("run log:   {}", outcome.jsonl.display())?;
    crate::outln!("artifacts: {}", outcome.artifacts.display())?;
    Ok(if args.no_report || outcome.summary.total_samples == 0 {
        Ok(())
    } else {
        super::report::write_for_staged_run(run_dir, args.baseline, None, Some(&outcome.staged))
            .map_err(|e| {
                anyhow::anyhow!(
                    "the run finished, but its report failed: {e:#}; `bench report {}` tries again",
                    run_dir.display()
                )
            })
    })
}

/// Why the run stopped (budget: exit 3, interrupt: 130, a fatal provider error, calls left),
/// else exit 1 when a provider gave no answer or more than `max_failed` of the measured calls
/// failed, else how the report went.
fn exit_status(outcome: &runner::Outcome, max_failed: f64, reported: Result<()>) -> Result<()> {
    let run_dir = outcome.jsonl.parent().unwrap_or(std::path::Path::new("."));
    let dir = run_dir.display().to_string();
    let resume_hint = format!(
        "{} planned calls not made; `bench run --resume {dir}` completes the run",
        outcome.missing
    );
    match outcome.stopped {
        Some(StopReason::Budget(b)) => Err(Stopped {
            code: 3,
            message: format!("budget of ${b:.2} reached; {resume_hint}"),
        }
        .into()),
        Some(StopReason::Interrupted) => Err(Stopped {
            code: 130,
            message: format!("interrupted; {resume_hint}"),
        }
        .into()),
        // A 404 comes back on resume (same URL, same model): no `--resume` advice for it.
        None if !outcome.fatal.is_empty()
            && outcome
                .fatal
                .iter()
                .all(|f| f.contains(runner::SAME_ON_RESUME)) =>
        {
            Err(anyhow::anyhow!(
                "{}; {} planned calls not made",
                outcome.fatal.join("; "),
                outcome.missing
            ))
        }
        None if !outcome.fatal.is_empty() => Err(anyhow::anyhow!(
            "{}; {resume_hint}",
            outcome.fatal.join("; ")
        )),
        None if outcome.missing > 0 => Err(anyhow::anyhow!(resume_hint)),
        None => failures(outcome, max_failed, &dir).map_or(reported, |m| Err(anyhow::anyhow!(m))),
    }
}

/// Why a finished run must not pass as a success: a provider with no answer, or a share of
/// failed calls above `max_failed` (`--max-failed-share`).
fn failures(outcome: &runner::Outcome, max_failed: f64, dir: &str) -> Option<String> {
    let silent: Vec<&str> = outcome
        .summary
        .provider_issues
        .iter()
        .filter(|i| i.no_answers)
        .map(|i| i.provider.as_str())
        .collect();
    let retry = format!("`bench run --resume {dir} --retry-errors` asks them again");
    if !silent.is_empty() {
        return Some(format!(
            "no answers from {}: every call failed; {retry}",
            silent.join(", ")
        ));
    }
    let (failed, calls) = (outcome.failed_calls, outcome.measured_calls);
    let share = failed as f64 / calls.max(1) as f64;
    (failed > 0 && share > max_failed).then(|| {
        format!(
            "{failed} of {calls} calls failed ({:.1} %, more than --max-failed-share {max_failed}); \
             the ranking leaves their runs out; {retry}",
            100.0 * share
        )
    })
}
