//! Reports, comparisons and the DuckDB layer over run logs: the verdict's statistics, `bench
//! report`, `compare`, Spark.

mod analytics;
mod compare;
mod decisions;
mod empty_log;
mod experiments;
mod report_cli;
mod spark;
mod staging;
mod statistics;
mod views;
