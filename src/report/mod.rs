//! What bench shows people: the CLI tables, and the report of a run (BENCHMARK_REPORT.md,
//! report.html, metrics.json, analytics_results.json and charts) written by `bench report`.

pub mod charts;
pub mod compare;
mod corrupted;
pub mod data;
mod decision;
mod doc;
mod figures;
pub mod gather;
mod generic;
mod json;
#[cfg(test)]
mod layers;
mod records;
mod sections;
pub mod tables;
mod verdict;
mod wording;
mod write;
mod write_tables;
mod writing;
mod wrong;

pub use doc::esc;
pub use tables::{TokenRow, ranking_table, ranking_table_within, render, tokens_table};
pub use write::{Written, html_of, write_report, write_run_report, write_staged_report};
