//! Command-line definitions (clap derive only; handlers live in `commands`).

use crate::runner::QuestionMode;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

pub mod analysis;
pub mod count;
pub mod data;
pub mod help;
pub mod parse;
pub mod run;

pub use analysis::*;
pub use data::*;
pub use parse::*;
pub use run::*;

/// Finds which data format an LLM reads best: renders one dataset in many formats, asks the same
/// questions about each, grades the answers, counts tokens, and logs every call as JSONL.
#[derive(Debug, Parser)]
// Help wraps to the terminal, at most 100 columns (docs/commands.md is generated at 100).
#[command(name = "bench", version, about, max_term_width = 100)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Write the dataset in every format, the questions, answer templates and answer keys.
    Generate(GenerateArgs),
    /// Run the benchmark and write data/benchmarks/<timestamp>/formats.jsonl.
    Run(Box<RunArgs>),
    /// Print token counts of every format × structure × variant.
    Tokens(TokensArgs),
    /// Run SQL over the run logs (after sql/views.sql) and print the last result.
    Query(QueryArgs),
    /// Export results, answers and raw records as Parquet, appending run by run.
    Export(ExportArgs),
    /// Print a SQL file of sql/ in a dialect: as it is (duckdb), or Spark SQL from the same
    /// source with the derived views and macros it reads (spark).
    Sql(SqlArgs),
    /// Write a run's report: BENCHMARK_REPORT.md, report.html, metrics.json,
    /// analytics_results.json and charts, into its artifact folder.
    Report(ReportArgs),
    /// Compare two runs of one suite on the same data, answer by answer: per rendering, Δ with
    /// its interval, McNemar with Holm and non-inferiority of B against A; a CI gate with
    /// --fail-on.
    Compare(CompareArgs),
    /// Find the cheapest format a model reads as well as json_compact: rounds of runs of the
    /// cheaper candidates, each look tested, stopping as soon as the answer is shown.
    Recommend(Box<RecommendArgs>),
    /// Where format starts to matter: grow the records (31, 62, 124, …) until the most
    /// accurate format falls below --until or the budget would be exceeded, and say per format
    /// the largest size at which it is non-inferior to the best.
    Sweep(Box<SweepArgs>),
    /// Put the shards of one plan (`bench run --shard K/N`, run on several machines or keys)
    /// back together into one run folder, refusing shards of different plans and naming
    /// missing or duplicated ones.
    Merge(MergeArgs),
    /// Write a commented models.toml template for `bench run --config`.
    InitConfig(InitConfigArgs),
    /// Measure bench itself (the runner against a local mock server).
    Perf(PerfArgs),
    /// Browse the runs under a root in a local web app: runs, every answer filtered and paged,
    /// one answer with the data as the model saw it, a run's report, two runs compared.
    View(ViewArgs),
    /// List the analysis tasks of a task file (id, domain, data, facts).
    ListTasks(ListTasksArgs),
    /// List every format id: its family, whether the default set has it, whether it renders
    /// only flat records.
    Formats(FormatsArgs),
    /// Write the prompts `bench run` would send for the same suite and flags, one file each
    /// (no API call): {task-id}-{format}.txt for tasks, {format}-{structure}-{variant}.txt for
    /// the formats suite.
    DumpPrompts(DumpPromptsArgs),
    /// Re-grade a run's stored responses with the current grader (no API calls) into a new
    /// run folder.
    Rescore(RescoreArgs),
    /// Import answers another benchmark published (the TOON benchmark's model files, …) as run
    /// folders marked imported, graded by bench too, which every reader then reads.
    Import(ImportArgs),
}

/// `bench list-tasks`.
#[derive(Debug, Args)]
pub struct ListTasksArgs {
    /// Task selection.
    #[command(flatten)]
    pub select: TaskArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: TableFormat,
}

/// `bench formats`.
#[derive(Debug, Args)]
pub struct FormatsArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: TableFormat,
}

/// `bench dump-prompts`: the plan options of `bench run`, and where to write.
#[derive(Debug, Args)]
#[command(mut_arg("records", |a| a.default_values(Vec::<&str>::new()).help(help::records())))]
pub struct DumpPromptsArgs {
    /// Folder to write the prompts into.
    #[arg(long, short)]
    pub output: PathBuf,
    /// Suite whose prompts to write (as `bench run --suite`) [default: formats, or the suite
    /// whose own flags are given].
    #[arg(long, value_parser = crate::suites::parser())]
    pub suite: Option<&'static crate::suites::Entry>,
    /// Write each prompt in the first K instruction wordings of the suite (as `bench run`).
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=4))]
    pub prompt_variants: u32,
    /// Prepend a one-line description of the format to the data block: off, on, or both.
    #[arg(long, value_enum, default_value_t = Primer::Off)]
    pub primer: Primer,
    /// All questions in one prompt or one prompt per question.
    #[arg(long, value_enum, default_value_t = QuestionMode::OnePrompt)]
    pub question_mode: QuestionMode,
    /// Each suite's own flags (`--tasks`, `--cases`, …), from the registry.
    #[command(flatten)]
    pub own: crate::suites::OwnFlags,
    /// Your own records.
    #[command(flatten)]
    pub file: DataFileArgs,
    /// Questions about them.
    #[command(flatten)]
    pub synth: SynthArgs,
    /// Data selection.
    #[command(flatten)]
    pub data: DataArgs,
}

/// `bench init-config`.
#[derive(Debug, Args)]
pub struct InitConfigArgs {
    /// File to write.
    #[arg(long, short, default_value = "models.toml")]
    pub output: PathBuf,
    /// Overwrite an existing file.
    #[arg(long)]
    pub force: bool,
}

/// `bench perf`.
#[derive(Debug, Args)]
pub struct PerfArgs {
    /// What to measure.
    #[command(subcommand)]
    pub what: PerfCommand,
}

/// `bench perf` subcommands.
#[derive(Debug, Subcommand)]
pub enum PerfCommand {
    /// Run N calls through the real runner against an in-process mock OpenAI-compatible
    /// server; print wall time, the ideal bound and their ratio.
    Harness(HarnessArgs),
    /// Count the tokens of FILE with each tokenizer and print MB/s (one core and every core),
    /// next to python tiktoken on the same file with --python.
    Tokens(PerfTokensArgs),
}

/// `bench perf tokens`.
#[derive(Debug, Clone, Args)]
pub struct PerfTokensArgs {
    /// The text file to count (UTF-8).
    pub file: PathBuf,
    /// Tokenizers, comma-separated, or `all`.
    #[arg(long, value_parser = parse_tokenizers, default_value = "o200k_base,cl100k_base")]
    pub tokenizers: Tokenizers,
    /// Timed counts per tokenizer; the best is reported.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub repeat: u32,
    /// Python with `tiktoken` installed: also time python tiktoken on the same file
    /// (tools/perf_tokens.py, offline) and print the ratio.
    #[arg(long, value_name = "PYTHON")]
    pub python: Option<PathBuf>,
}

/// `bench perf harness`.
#[derive(Debug, Clone, Args)]
pub struct HarnessArgs {
    /// Calls to make.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub calls: u32,
    /// Latency of every mock answer, milliseconds.
    #[arg(long, default_value_t = 200)]
    pub latency_ms: u64,
    /// Calls in flight.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub concurrency: u32,
    /// Requests per minute the mock allows (answers 429 with Retry-After beyond it); the
    /// runner is given the same limit.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub rpm: Option<u32>,
}

/// `bench generate`.
#[derive(Debug, Args)]
#[command(mut_arg("records", |a| a
    .default_values(Vec::<&str>::new())
    .help(help::records())))]
pub struct GenerateArgs {
    /// Folder to write the layout into.
    #[arg(long, short, default_value = "generated")]
    pub output: PathBuf,
    /// Your own records.
    #[command(flatten)]
    pub file: DataFileArgs,
    /// Questions about them.
    #[command(flatten)]
    pub synth: SynthArgs,
    /// Data selection.
    #[command(flatten)]
    pub data: DataArgs,
}

pub use crate::report::{TableFormat, TokenSort};

/// `bench tokens`.
#[derive(Debug, Args)]
// `--records` (shared with DataArgs) has no default here: the product dataset falls back to 31
// in `commands::tokens`, while `--data FILE` keeps every record unless told otherwise.
#[command(
    mut_arg("records", |a| a
        .default_values(Vec::<&str>::new())
        .help(help::records())),
    mut_arg("seed", |a| a.help("Seed of the dataset generator, or with --data of --sample random")),
    mut_arg("formats", |a| a.help(help::formats(true)))
)]
pub struct TokensArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
    /// Sort order.
    #[arg(long, value_enum, default_value_t = TokenSort::Tokens)]
    pub sort: TokenSort,
    /// Your own records.
    #[command(flatten)]
    pub file: DataFileArgs,
    /// Data selection.
    #[command(flatten)]
    pub data: DataArgs,
    /// Counting with the provider's own counter.
    #[command(flatten)]
    pub count: count::CountArgs,
    /// With --data: records rendered and counted at a time (tests set it small to exercise
    /// the joins).
    #[arg(long, default_value_t = crate::formats::stream::CHUNK_RECORDS, hide = true, requires = "data_file")]
    pub chunk_records: usize,
}
