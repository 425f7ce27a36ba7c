//! Integration tests, one binary: each test binary links DuckDB, so one link instead of seven.

mod analytics;
mod cli;
mod documents;
mod grading;
mod pipeline;
mod providers;
mod report;
mod report_cli;
mod rescore;
mod roundtrip;
mod run_cli;
mod runs;
mod tasks;
mod tasks_run;
mod tealeaf;
mod tokens;
mod toon_fixtures;
mod toon_golden;
mod userdata;
mod userdata_run;
