//! What bench shows people: the CLI tables, and the report of a run (BENCHMARK_REPORT.md,
//! report.html, metrics.json, analytics_results.json and charts) written by `bench report`.
//!
//! It writes in [`crate::doc`] (the document model and the charts), which sits below it and
//! below the suites. Its layers are its folders, each importing only the ones before it
//! (`layers.rs` checks): `data/` (a run read into rows) → `decisions/` (what the numbers
//! decide) → `sections/` (the report's blocks and charts) → `renderers/` (the files, and the
//! CLI's tables). A suite's own sections live in its folder (`suites::<name>::report`),
//! reached through the registry ([`crate::suites::sections`]).

pub mod data;
pub mod decisions;
pub mod renderers;
mod sections;

#[cfg(test)]
mod layers;

pub use crate::doc::esc;
pub use renderers::cli_tables::{
    TableFormat, TokenRow, TokenSort, ranking_table, ranking_table_within, render, tokens_table,
};
pub use renderers::files::{Written, html_of, write_report, write_run_report, write_staged_report};
