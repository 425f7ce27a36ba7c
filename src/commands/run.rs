//! `bench run`: the benchmark itself (or its plan with `--dry-run`, or the rest of an
//! interrupted run with `--resume`).

use crate::UsageError;
use crate::cli::{RunArgs, TableFormat};
use crate::error::Stopped;
use crate::ops::setup::{build_models, model_configs, new_plan, options, with_served_windows};
use crate::providers::ModelConfig;
use crate::report;
use crate::runner::progress::Console;
use crate::runner::resume::{self, Resumed};
use crate::runner::{self, Model, Options, Plan, Stop, StopReason, estimate};
use anyhow::Result;
use std::sync::Arc;

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
    let dir = &crate::ops::runs::latest_or(dir, &args.output_root)?;
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
        let dir = runner::tokens::counter::CountCache::default_dir().filter(|_| !args.no_cache);
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
        crate::ops::reports::write_for_staged_run(
            run_dir,
            args.baseline,
            None,
            Some(&outcome.staged),
        )
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
