//! What bench shows people: the CLI tables, and the report of a run (BENCHMARK_REPORT.md,
//! report.html, metrics.json, analytics_results.json and charts) written by `bench report`.

pub mod charts;
pub mod data;
mod doc;
mod figures;
mod json;
mod sections;
pub mod tables;
mod tasks;
mod verdict;
mod write;

pub use tables::{TokenRow, ranking_table, render, tokens_table};
pub use write::{Written, write_report, write_run_report};

/// Whether the run's report compares formats against a baseline (the lookup report); a run
/// scored per analysis task ranks by its task scores instead.
pub fn has_baseline(run: &data::RunInfo) -> bool {
    !tasks::is_tasks_run(run)
}
