//! Command handlers: turn parsed arguments into library calls and print the results.

pub mod compare;
pub mod export;
pub mod formats;
pub mod generate;
pub mod import;
pub mod init_config;
pub mod merge;
pub mod perf;
pub mod prompts;
pub mod query;
pub mod recommend;
pub mod report;
pub mod rescore;
pub mod run;
pub mod sql;
pub mod sweep;
pub mod tasks;
pub mod tokens;
mod tokens_billed;
mod tokens_data;
pub mod view;

use crate::cli::DataArgs;
use crate::dataset::Dataset;
use crate::formats::Format;
use crate::layout::{self, Rendering};
pub use crate::suites::asked::check_selection;
use anyhow::Result;

/// Renders every supported combination of the selection, one at a time, handing each to `each`
/// so large datasets never hold more than one rendering in memory.
pub fn for_each_rendering(
    ds: &Dataset,
    data: &DataArgs,
    formats: &[Format],
    mut each: impl FnMut(Rendering) -> Result<()>,
) -> Result<()> {
    for &v in &data.variants {
        for &s in &data.structures {
            let doc = ds.document(v, s);
            let shown: Vec<Format> = formats.iter().copied().filter(|f| f.supports(s)).collect();
            layout::render_each(&doc, &shown, s, v, &data.tokenizers, &mut each)?;
        }
    }
    Ok(())
}

/// What `plan` costs for `models`, from the dry-run estimate: expected and at most, USD,
/// summed over the models (batch prices with `batch`; the most a batch costs is the live
/// maximum scaled by the batch discount).
pub(crate) fn plan_cost(
    plan: &crate::runner::Plan,
    models: &[crate::runner::Model],
    warmup: Option<bool>,
    batch: bool,
) -> Result<(f64, f64)> {
    use crate::providers::{self, process_env};
    let fresh: Vec<crate::runner::Model> = models
        .iter()
        .map(|m| {
            Ok(crate::runner::Model {
                config: m.config.clone(),
                provider: providers::build(&m.config, &process_env)?,
            })
        })
        .collect::<Result<_>>()?;
    let offline = crate::runner::estimate::Counts::Offline;
    let e = crate::runner::estimate::estimate(plan, &fresh, warmup, batch, &offline)?;
    let t = &e.providers;
    let col = |name: &str| t.columns.iter().position(|c| c == name);
    let num = |row: &[serde_json::Value], name: &str| -> f64 {
        col(name)
            .map(|i| &row[i])
            .and_then(|v| v.as_str().and_then(|s| s.parse().ok()).or(v.as_f64()))
            .unwrap_or(0.0)
    };
    let (mut est, mut max) = (0.0, 0.0);
    for row in &t.rows {
        let live = num(row, "est_usd");
        let e = num(row, if batch { "batch_usd" } else { "est_usd" });
        let m = num(row, "max_usd");
        est += e;
        max += if batch {
            m * e / live.max(f64::MIN_POSITIVE)
        } else {
            m
        };
    }
    Ok((est, max))
}

/// Refuses the `bench run` flags that `command` (sweep, recommend) does not take, naming each
/// one given (their help leaves them out: `cli::help::sweep_arg`): the run-only ones, another
/// suite and the other suites' own flags; `runs` when `--runs` is one of them.
pub(crate) fn refuse_run_only(
    args: &crate::cli::RunArgs,
    command: &str,
    runs: bool,
) -> Result<(), crate::UsageError> {
    let given = [
        ("--resume", args.resume.is_some()),
        ("--retry-errors", args.retry_errors),
        ("--cancel-batches", args.cancel_batches),
        ("--suite", args.suite.is_some_and(|s| !s.is_default())),
        (
            "--max-failed-share",
            args.max_failed_share != crate::runner::DEFAULT_MAX_FAILED_SHARE,
        ),
        ("--runs", runs && args.runs != 3),
        ("--wide", args.wide),
        ("--show-requests", args.show_requests),
        ("--full", args.full),
        ("--count-with-provider", args.count_with_provider),
    ];
    let mut named: Vec<String> = crate::suites::asked::set_flags(given)
        .into_iter()
        .map(String::from)
        .collect();
    named.extend(crate::suites::own_flags_given(&args.asked()));
    if named.is_empty() {
        return Ok(());
    }
    Err(crate::UsageError::new(format!(
        "bench {command} runs its own steps of the formats suite (the product records or \
         --data's) into one run folder: {} {} not apply",
        named.join(", "),
        if named.len() == 1 { "does" } else { "do" }
    )))
}
