//! The commands that read run logs: query, export, report, compare, view, merge, rescore.

use super::parse::*;
use crate::formats::Format;
use crate::report::TableFormat;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// `bench query`.
#[derive(Debug, Args)]
pub struct QueryArgs {
    /// SQL file to run (one or more statements; the last result is printed).
    #[arg(required_unless_present_any = ["execute", "list"], conflicts_with = "execute")]
    pub file: Option<PathBuf>,
    /// List the built-in SQL files, one line each, and exit.
    #[arg(long, conflicts_with_all = ["file", "execute"])]
    pub list: bool,
    /// SQL text to run instead of a file.
    #[arg(short = 'e', long = "execute", value_name = "SQL")]
    pub execute: Option<String>,
    /// Root folder holding benchmarks/<timestamp>/*.jsonl.
    #[arg(long, default_value = "data")]
    pub root: PathBuf,
    /// Only this run: a run folder, its run log, `latest` or `latest~N` (under --root).
    #[arg(long, value_name = "RUN_DIR|latest", conflicts_with = "parquet")]
    pub run: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
    /// Write the result to this file instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Staging SQL to run first instead of the sql/views.sql compiled into bench.
    #[arg(long, value_name = "FILE")]
    pub views: Option<PathBuf>,
    /// DuckDB's memory limit (it spills to a temporary folder beyond it), e.g. `400MB`;
    /// default: DuckDB's (80 % of the machine's memory).
    #[arg(long, value_name = "SIZE", value_parser = parse_memory)]
    pub memory_limit: Option<String>,
    /// Read a `bench export --parquet` folder instead of the JSONL under --root.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["root", "views"])]
    pub parquet: Option<PathBuf>,
}

/// `bench sql`.
#[derive(Debug, Args)]
pub struct SqlArgs {
    /// SQL file that reads the staged views (a file of sql/ or your own).
    pub file: PathBuf,
    /// The SQL dialect to print.
    #[arg(long, value_enum, default_value_t = SqlDialect::Duckdb)]
    pub dialect: SqlDialect,
}

/// The SQL engines `bench sql` prints for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SqlDialect {
    /// DuckDB: the file as it is (after sql/views.sql).
    Duckdb,
    /// Apache Spark SQL 4: the derived views, macros and the file, over tables `results`,
    /// `answers` and `benchmarks` read from a `bench export --parquet` folder.
    Spark,
}

/// `bench export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Folder to write Parquet into or append to (results/, answers/ and benchmarks/,
    /// hive-partitioned by run, then suite and provider).
    #[arg(long, value_name = "DIR")]
    pub parquet: PathBuf,
    /// Root folder holding benchmarks/<timestamp>/*.jsonl.
    #[arg(long, default_value = "data")]
    pub root: PathBuf,
    /// Only this run: a run folder, its run log, `latest` or `latest~N` (under --root).
    #[arg(long, value_name = "RUN_DIR|latest")]
    pub run: Option<String>,
    /// Staging SQL to run first instead of the sql/views.sql compiled into bench.
    #[arg(long, value_name = "FILE")]
    pub views: Option<PathBuf>,
    /// DuckDB's memory limit for the export (it spills to a temporary folder beyond it where
    /// it can), e.g. `800MB`, `2GB`; default: DuckDB's (80 % of the machine's memory).
    #[arg(long, value_name = "SIZE", value_parser = parse_memory)]
    pub memory_limit: Option<String>,
}

/// `bench report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Run folder (data/benchmarks/<timestamp>), its run log, or `latest` (newest under --root).
    #[arg(default_value = "latest", value_name = "RUN_DIR|latest")]
    pub run: String,
    /// Root folder holding benchmarks/<timestamp>/ (for `latest`).
    #[arg(long, default_value = "data")]
    pub root: PathBuf,
    /// Baseline format of the paired comparisons (default json_compact, else the run's first).
    #[arg(long, value_parser = parse_format)]
    pub baseline: Option<Format>,
    /// Non-inferiority margin in percentage points (default: the run's `--margin`, else 2).
    #[arg(long, value_name = "PP", value_parser = parse_margin)]
    pub margin: Option<f64>,
}

/// `bench compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Run A (the reference side): a run folder, its run log, `latest` or `latest~N` (the
    /// N-th before the newest under --root).
    #[arg(value_name = "RUN_A")]
    pub run_a: String,
    /// Run B, compared against A.
    #[arg(value_name = "RUN_B")]
    pub run_b: String,
    /// Root folder holding benchmarks/<timestamp>/ (for `latest`).
    #[arg(long, default_value = "data")]
    pub root: PathBuf,
    /// Non-inferiority margin in percentage points (default: run A's `--margin`, else 2).
    #[arg(long, value_name = "PP", value_parser = parse_margin)]
    pub margin: Option<f64>,
    /// Output: an aligned table, markdown or json.
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
    /// Exit 1 when any rendering of B is significantly worse than A (`regression`, Holm) or
    /// not shown non-inferior to it (`not-noninferior`).
    #[arg(long, value_enum, value_name = "WHAT")]
    pub fail_on: Option<FailOn>,
}

/// What makes `bench compare` exit 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// A rendering of B significantly worse than A (exact McNemar, Holm-adjusted).
    Regression,
    /// A rendering of B not shown non-inferior to A within the margin.
    NotNoninferior,
}

/// `bench view`.
#[derive(Debug, Args)]
pub struct ViewArgs {
    /// Root folder holding benchmarks/<timestamp>/.
    #[arg(default_value = "data", value_name = "ROOT")]
    pub root: PathBuf,
    /// Port to listen on (0: any free port).
    #[arg(long, default_value_t = 8787)]
    pub port: u16,
    /// Address to listen on; anything but a loopback address shows the runs to the network.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: std::net::IpAddr,
    /// Open the viewer's URL in the default browser.
    #[arg(long)]
    pub open: bool,
}

/// `bench merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shards' run folders (or run logs).
    #[arg(value_name = "RUN_DIR", required = true, num_args = 1..)]
    pub shards: Vec<PathBuf>,
    /// Root folder the merged run is written under (benchmarks/<timestamp>/).
    #[arg(long, default_value = "data")]
    pub output_root: PathBuf,
    /// Write no report.
    #[arg(long)]
    pub no_report: bool,
}

/// `bench rescore`.
#[derive(Debug, Args)]
pub struct RescoreArgs {
    /// The run folder to re-grade: data/benchmarks/<timestamp>, its run log, `latest` or
    /// `latest~N` (under --root).
    #[arg(value_name = "RUN_DIR")]
    pub run_dir: PathBuf,
    /// Root folder `latest` is looked up under.
    #[arg(long, default_value = "data")]
    pub root: PathBuf,
    /// Do not write the report of the new run.
    #[arg(long)]
    pub no_report: bool,
    /// Baseline format of the report's paired comparisons (default json_compact).
    #[arg(long, value_parser = parse_format)]
    pub baseline: Option<Format>,
}

/// Whose grade an imported answer's verdict uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GradeBy {
    /// bench's own grader (both grades are kept).
    Bench,
    /// The source's grade as published.
    Source,
}

/// `bench import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The published files (or folders of them) to import.
    #[arg(value_name = "SOURCE", required = true)]
    pub sources: Vec<PathBuf>,
    /// Which benchmark published them: toon (the TOON benchmark's per-model answer files),
    /// hoeltig (the seed benchmark's *_validation.json runs, one run per benchmark_<model>),
    /// tealeaf (TeaLeaf's evidence folder: analysis.tl, responses/, and its task file), table
    /// (a CSV or JSONL of answers, with --map).
    #[arg(long, value_name = "NAME")]
    pub from: String,
    /// Root folder the run folders are written under (ROOT/benchmarks/<timestamp>).
    #[arg(long, default_value = "data")]
    pub output_root: PathBuf,
    /// Whose grade the rankings and verdicts use; both are kept either way.
    #[arg(long, value_enum, default_value_t = GradeBy::Bench)]
    pub grade: GradeBy,
    /// `--from table`: the column of each field, FIELD=COLUMN,… (question, format, model and
    /// correct or actual required; expected, input_tokens, output_tokens, latency_ms, run,
    /// category optional).
    #[arg(long, value_name = "FIELD=COLUMN,…")]
    pub map: Option<String>,
    /// Also write each run of several models pooled as one model (`all N models`), each
    /// model's answers a run of its own, for a verdict over every model at once.
    #[arg(long)]
    pub pool: bool,
}
