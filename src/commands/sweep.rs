//! `bench sweep`: runs the steps of `crate::sweep` and prints, per model and data shape, the
//! accuracy of each size and the largest size at which each format holds.

use crate::UsageError;
use crate::cli::SweepArgs;
use crate::ops::setup;
use crate::runner::progress::Console;
use crate::runner::{Plan, Stop};
use crate::sweep::{self, Settings, Standing, Step, Sweep};
use anyhow::Result;
use std::collections::BTreeMap;
use std::sync::Arc;

/// `bench sweep`.
pub fn execute(a: &SweepArgs) -> Result<()> {
    let args = &a.run;
    super::refuse_run_only(args, "sweep", false)?;
    if args.data.records.len() > 1 {
        return Err(UsageError::new(
            "bench sweep takes one --records value, the first size (it doubles from there)",
        )
        .into());
    }
    let configs = setup::model_configs(args)?;
    // A real sweep plans its sizes within the windows the models' servers report too.
    let configs = if args.dry_run {
        configs
    } else {
        // Nothing is asked of a server before the output root is checked.
        crate::runner::check_output_root(&args.output_root)?;
        served(args, configs)?
    };
    let mut plan = setup::new_plan(args)?;
    let start = plan.records.first().copied().unwrap_or(31);
    if args.file.data_file.is_some() && args.data.records.is_empty() {
        return Err(UsageError::new(
            "bench sweep --data needs --records N, the first size (the file's records are all \
             of it)",
        )
        .into());
    }
    // A data file ends the sweep at its own size.
    plan = sweep::at_sizes(&plan, &[start])?;
    let largest = plan
        .suite
        .records_held()
        .map_or(a.max_records, |n| a.max_records.min(n));
    let sizes = sweep::sizes(start, largest);
    plan.records = vec![start];
    eprintln!(
        "sweep: sizes {} until the most accurate format is below {}%",
        sizes
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        a.until
    );
    let models = || setup::build_models(args, configs.clone());
    let warmup = args.warmup.forced();
    let batch = args.batch;
    let step_cost = |p: &Plan| Ok(super::plan_cost(p, &models()?, warmup, batch)?.1);
    let limit = max_prompt(a.max_tokens_in, &configs);
    if args.dry_run {
        return dry_run(&plan, &sizes, limit.as_ref(), &step_cost, &models()?);
    }
    let options = || setup::options(args, warmup, false);
    let settings = Settings {
        until_pct: a.until,
        sizes,
        budget_usd: args.budget_usd,
        options: &options,
        step_cost: &step_cost,
        max_prompt: limit,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let s = runtime.block_on(sweep::sweep(
        plan,
        &models,
        &settings,
        Arc::new(Console::new()),
        Arc::new(Stop::default()),
    ))?;
    runtime.shutdown_background();
    print(&s)?;
    if !args.no_report && !s.steps.is_empty() {
        crate::ops::reports::write_for_run(&s.run_dir, None, None)?;
    }
    Ok(())
}

/// `bench sweep --dry-run`: the notes, then each step's cost at most, up to the step the prompt
/// limit stops (as the sweep would).
fn dry_run(
    plan: &Plan,
    sizes: &[u32],
    limit: Option<&(u32, String)>,
    step_cost: &dyn Fn(&Plan) -> Result<f64>,
    models: &[crate::runner::Model],
) -> Result<()> {
    for n in crate::runner::model_notes(models, plan) {
        eprintln!("{n}");
    }
    let mut total = 0.0;
    for (k, &n) in sizes.iter().enumerate() {
        let p = sweep::at_sizes(plan, &[n])?;
        if let Some(limit) = limit
            && let Some(why) = sweep::over_limit(&p, n, k == 0, limit)?
        {
            crate::outln!("stopped: {why}")?;
            break;
        }
        let c = step_cost(&p)?;
        total += c;
        crate::outln!("{n} records: at most ${c:.4} (all sizes up to here: ${total:.4})")?;
    }
    Ok(())
}

/// `configs`, each whose window is unknown with the one its server reports, if any (asked once,
/// before the sizes are planned; every step keeps it).
fn served(
    args: &crate::cli::RunArgs,
    configs: Vec<crate::providers::ModelConfig>,
) -> Result<Vec<crate::providers::ModelConfig>> {
    let models = setup::with_served_windows(setup::build_models(args, configs)?)?;
    Ok(models.into_iter().map(|m| m.config).collect())
}

/// The largest prompt a step may send and what sets it: `--max-tokens-in`, or the smallest
/// context window of the models (the config's `context_tokens`, the window their server
/// reports, or the table's, less their output limit), whichever is smaller.
fn max_prompt(
    max_tokens_in: Option<u32>,
    configs: &[crate::providers::ModelConfig],
) -> Option<(u32, String)> {
    let flag = max_tokens_in.map(|n| (n, "--max-tokens-in".to_string()));
    let context = configs
        .iter()
        .filter_map(|c| {
            let w = crate::providers::windows::of(c)?;
            let out = c.max_tokens();
            Some((w.room(out), format!("{}'s {}", c.spec(), w.describe(out))))
        })
        .min_by_key(|(n, _)| *n);
    [flag, context]
        .into_iter()
        .flatten()
        .min_by_key(|(n, _)| *n)
}

fn print(s: &Sweep) -> Result<()> {
    crate::outln!("stopped: {}; spent ${:.4}", s.stopped, s.spent_usd)?;
    for st in &s.steps {
        crate::outln!("{} · {} records: {}", st.shape, st.records, step_line(st))?;
    }
    let holds = s.holds();
    let runs: BTreeMap<(&str, u32), i64> = s
        .steps
        .iter()
        .map(|st| ((st.shape.as_str(), st.records), st.runs))
        .collect();
    let mut shape = String::new();
    for ((sh, format), seen) in s.standings() {
        if sh != shape {
            crate::outln!(
                "{sh}: the largest size at which each format is non-inferior to the best"
            )?;
            shape = sh.clone();
        }
        let n = holds.get(&(sh.clone(), format.clone())).copied().flatten();
        let runs_at = |size: u32| runs.get(&(sh.as_str(), size)).copied().unwrap_or(0);
        crate::outln!("  {format}: {}", held(n, &seen, runs_at))?;
    }
    if !s.run_dir.as_os_str().is_empty() {
        crate::outln!("run folder: {}", s.run_dir.display())?;
    }
    Ok(())
}

/// One size in words: the most accurate format (a tie named as one), the formats shown
/// non-inferior, those the data cannot decide yet with the runs that would, those shown worse.
fn step_line(st: &Step) -> String {
    let mut out = if st.tied.is_empty() {
        format!("most accurate {} {:.1}%", st.best.0, st.best.1)
    } else {
        format!(
            "most accurate: a tie at {:.1}% between {}",
            st.best.1,
            st.tied.join(", ")
        )
    };
    out.push_str(&format!("; non-inferior: {}", st.noninferior.join(", ")));
    let undecided: Vec<(&String, Option<i64>)> = st
        .standing
        .iter()
        .filter_map(|(f, s)| match s {
            Standing::Undecided { more_runs, .. } => Some((f, *more_runs)),
            _ => None,
        })
        .collect();
    if !undecided.is_empty() {
        let names: Vec<&str> = undecided.iter().map(|(f, _)| f.as_str()).collect();
        out.push_str(&format!("; undecided: {}", names.join(", ")));
        if let Some(k) = undecided.iter().filter_map(|(_, k)| *k).max() {
            out.push_str(&format!(" ({})", more_runs(k, st.runs)));
        }
    }
    let worse: Vec<&str> = st
        .standing
        .iter()
        .filter(|(_, s)| **s == Standing::Worse)
        .map(|(f, _)| f.as_str())
        .collect();
    if !worse.is_empty() {
        out.push_str(&format!("; shown worse: {}", worse.join(", ")));
    }
    out
}

/// "about K more runs would decide: --runs R", R being the runs a sweep needs in all.
fn more_runs(k: i64, runs: i64) -> String {
    format!(
        "about {k} more run{} would decide: --runs {}",
        if k == 1 { "" } else { "s" },
        runs + k
    )
}

/// A format over every size: the largest at which it holds (`n`), the sizes the data cannot
/// decide (ties named) with the runs that would decide the largest of them, and the sizes at
/// which it is shown worse. `runs_at` gives a size's complete runs.
fn held(n: Option<u32>, seen: &[(u32, Standing)], runs_at: impl Fn(u32) -> i64) -> String {
    let sizes = |pick: &dyn Fn(&Standing) -> bool| -> Vec<u32> {
        seen.iter()
            .filter(|(_, s)| pick(s))
            .map(|(r, _)| *r)
            .collect()
    };
    let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
    let open = sizes(&|s| matches!(s, Standing::Undecided { .. }));
    let tied = sizes(&|s| matches!(s, Standing::Undecided { tied: true, .. }));
    let worse = sizes(&|s| *s == Standing::Worse);
    let mut parts = Vec::new();
    if let Some(n) = n {
        parts.push(format!("{n} records"));
    }
    if let Some(&last) = open.last() {
        let at = if n.is_none() && worse.is_empty() {
            "undecided at every size".to_string()
        } else {
            format!("undecided at {}", list(&open))
        };
        let tie = if tied.is_empty() {
            String::new()
        } else if tied.len() == seen.len() {
            " (tied with the most accurate at every size)".to_string()
        } else {
            format!(" (tied with the most accurate at {})", list(&tied))
        };
        let k = seen.iter().find_map(|(r, s)| match s {
            Standing::Undecided { more_runs, .. } if *r == last => *more_runs,
            _ => None,
        });
        let next = match k {
            Some(k) => format!("; at {last} records, {}", more_runs(k, runs_at(last))),
            None => "; no estimate of the runs that would decide".to_string(),
        };
        parts.push(format!("{at}{tie}{next}"));
    }
    if !worse.is_empty() {
        parts.push(if n.is_none() && open.is_empty() {
            "shown worse than the most accurate at every size".to_string()
        } else {
            format!("shown worse at {}", list(&worse))
        });
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use crate::providers::ModelConfig;

    #[test]
    fn the_smaller_of_the_flag_and_the_context_room_limits_the_prompt() {
        let small = ModelConfig {
            provider: "openai-compatible".into(),
            model: "small".into(),
            context_tokens: Some(20_000),
            max_tokens: Some(4_000),
            ..ModelConfig::default()
        };
        let big = ModelConfig {
            context_tokens: Some(1_000_000),
            ..small.clone()
        };
        let both = [small.clone(), big];
        assert_eq!(
            super::max_prompt(None, &both),
            Some((
                16_000,
                "openai-compatible:small's context window 20,000 less max_tokens 4,000".into()
            ))
        );
        assert_eq!(
            super::max_prompt(Some(9_000), &both),
            Some((9_000, "--max-tokens-in".into()))
        );
        assert_eq!(super::max_prompt(None, &[ModelConfig::default()]), None);
    }
}
