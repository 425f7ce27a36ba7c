//! `bench sweep`: runs the steps of `crate::sweep` and prints, per model and data shape, the
//! accuracy of each size and the largest size at which each format holds.

use super::run;
use crate::UsageError;
use crate::cli::{Suite, SweepArgs};
use crate::runner::progress::Console;
use crate::runner::{Plan, Stop};
use crate::sweep::{self, Settings, Sweep};
use anyhow::Result;
use std::sync::Arc;

/// `bench sweep`.
pub fn execute(a: &SweepArgs) -> Result<()> {
    let args = &a.run;
    if args.resume.is_some() || args.suite != Suite::Formats || args.file.data_file.is_some() {
        return Err(UsageError::new(
            "bench sweep grows the product records in steps of one run folder: --resume, \
             --suite and --data do not apply (for your data, run sizes with --records N)",
        )
        .into());
    }
    let configs = run::model_configs(args)?;
    let mut plan = run::new_plan(args)?;
    let start = plan.records.first().copied().unwrap_or(31);
    let sizes = sweep::sizes(start, a.max_records);
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
    let models = || run::build_models(args, configs.clone());
    let warmup = args.warmup.forced();
    let batch = args.batch;
    let step_cost = |p: &Plan| Ok(super::plan_cost(p, &models()?, warmup, batch)?.1);
    if args.dry_run {
        let mut total = 0.0;
        for &n in &sizes {
            let mut p = plan.clone();
            p.records = vec![n];
            let c = step_cost(&p)?;
            total += c;
            println!("{n} records: at most ${c:.4} (all sizes up to here: ${total:.4})");
        }
        return Ok(());
    }
    let options = || run::options(args, warmup, false);
    let settings = Settings {
        until_pct: a.until,
        sizes,
        budget_usd: args.budget_usd,
        options: &options,
        step_cost: &step_cost,
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
    print(&s);
    if !args.no_report && !s.steps.is_empty() {
        super::report::write_for_run(&s.run_dir, None, None)?;
    }
    Ok(())
}

fn print(s: &Sweep) {
    println!("stopped at {}; spent ${:.4}", s.stopped, s.spent_usd);
    for st in &s.steps {
        println!(
            "{} · {} records: most accurate {} {:.1}%; non-inferior: {}",
            st.shape,
            st.records,
            st.best.0,
            st.best.1,
            st.noninferior.join(", ")
        );
    }
    let mut shape = String::new();
    for ((sh, format), n) in s.holds() {
        if sh != shape {
            println!("{sh}: the largest size at which each format is non-inferior to the best");
            shape = sh.clone();
        }
        match n {
            Some(n) => println!("  {format}: {n} records"),
            None => println!("  {format}: not shown non-inferior at any size"),
        }
    }
    if !s.run_dir.as_os_str().is_empty() {
        println!("run folder: {}", s.run_dir.display());
    }
}
