//! What turns the report into output: its files (BENCHMARK_REPORT.md, report.html, the JSON
//! files and the chart images) and the tables the CLI prints.

pub mod cli_tables;
pub mod files;
pub mod json;
