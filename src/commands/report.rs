//! `bench report`: writes the report of a run (BENCHMARK_REPORT.md, report.html, metrics.json,
//! analytics_results.json, charts) into its artifact folder; `bench run` and `bench rescore`
//! write theirs through the same library call (`ops::reports`).

use crate::cli::ReportArgs;
use crate::ops::{reports::write_for_run, runs::resolve_run};
use anyhow::Result;

/// `bench report [RUN_DIR|latest]`.
pub fn execute(args: &ReportArgs) -> Result<()> {
    let dir = resolve_run(&args.run, &args.root)?;
    write_for_run(&dir, args.baseline, args.margin)
}
