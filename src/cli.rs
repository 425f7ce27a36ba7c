//! Command-line definitions (clap derive only; handlers live in `commands`).

use crate::dataset::{DEFAULT_RECORDS, DEFAULT_SEED, RECORDS_RANGE, Structure, Variant};
use crate::formats::Format;
use crate::runner::QuestionMode;
use crate::tokens::Tokenizer;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

pub mod count;
pub mod help;

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
    /// Export results, answers and raw records as Parquet.
    Export(ExportArgs),
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
}

/// Which analysis tasks: shared by `run --suite tasks`, `list-tasks` and `dump-prompts`.
#[derive(Debug, Clone, Args)]
pub struct TaskArgs {
    /// Task file in the TeaLeaf schema; default: the bundled file of --data-source.
    #[arg(long, value_name = "FILE")]
    pub tasks: Option<PathBuf>,
    /// Bundled task file: synthetic (benchmarks/tasks/synthetic.json) or real (real.json).
    #[arg(long, value_enum, default_value = "synthetic")]
    pub data_source: crate::tasks::DataSource,
    /// Only these task ids, comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "IDS")]
    pub task_ids: Vec<String>,
    /// Only tasks of these categories (domains), comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub categories: Vec<String>,
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
    /// Suite whose prompts to write (as `bench run --suite`).
    #[arg(long, value_enum, default_value = "formats")]
    pub suite: Suite,
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
    /// Task selection (with --suite tasks).
    #[command(flatten)]
    pub select: TaskArgs,
    /// What the write suite asks for.
    #[command(flatten)]
    pub write: WriteArgs,
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

/// Which suite `bench run` runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Suite {
    /// Field lookups over the product data set (124 questions).
    Formats,
    /// Analysis tasks over task data files, scored against values computed from the data.
    Tasks,
    /// Documents written in each format, parsed strictly, repaired on request.
    Write,
    /// Damaged data (a record missing, duplicated or cut off, a field missing, a value of the
    /// wrong type) and an undamaged control: does the model notice?
    Corrupted,
}

/// What the `write` suite asks for (`bench run --suite write`).
#[derive(Debug, Clone, Args)]
pub struct WriteArgs {
    /// With --suite write: your own cases (JSON: `id`, `kind`, `gold`, optional `schema`,
    /// `instructions`, `source` + `edits`; docs/write.md) instead of the bundled ones.
    #[arg(long, value_name = "FILE")]
    pub cases: Option<PathBuf>,
    /// With --suite write: the input format of `transcode` cases.
    #[arg(long, value_name = "FMT", value_parser = parse_format, default_value = "json_compact")]
    pub write_from: Format,
    /// With --suite write: repair requests after a reply that does not parse (each sends the
    /// decoder's own error back).
    #[arg(long, value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(0..=10))]
    pub repairs: u32,
    /// With --suite write: the case kinds to ask, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',', default_values = ["compose", "transcode", "edit"])]
    pub kinds: Vec<crate::write::Kind>,
    /// With --suite write: leave out the structured-output baseline (JSON constrained to the
    /// case's schema by the provider).
    #[arg(long)]
    pub no_json_schema: bool,
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

/// `bench export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Folder to write Parquet into (results/ and answers/ hive-partitioned, benchmarks.parquet).
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

/// A DuckDB memory size: a number and a unit (`400MB`, `1.5GB`, `512MiB`).
pub fn parse_memory(s: &str) -> Result<String, String> {
    let t = s.trim();
    let unit_at = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (n, unit) = t.split_at(unit_at);
    let units = ["B", "KB", "MB", "GB", "TB", "KIB", "MIB", "GIB", "TIB"];
    if n.parse::<f64>().is_ok_and(|x| x > 0.0)
        && units.contains(&unit.trim().to_uppercase().as_str())
    {
        Ok(format!("{n}{}", unit.trim()))
    } else {
        Err(format!("'{s}' is not a size such as 400MB or 2GB"))
    }
}

/// `bench recommend`: the `bench run` options it takes, plus the rounds.
#[derive(Debug, Args)]
#[command(
    mut_args(help::recommend_arg),
    mut_arg("formats", |a| a.help(help::recommend_formats())),
    mut_arg("records", |a| a.help(help::recommend_records()))
)]
pub struct RecommendArgs {
    /// Rounds at most: each is one run of every surviving candidate; each look tests at
    /// α = 0.05 / this.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=50))]
    pub max_rounds: u32,
    /// The run options (one --provider; --runs, --resume and --suite do not apply: a round is
    /// one run, the formats suite or your --data).
    #[command(flatten)]
    pub run: RunArgs,
}

/// `bench sweep`: the `bench run` options it takes, plus where to stop.
#[derive(Debug, Args)]
#[command(
    mut_args(help::sweep_arg),
    mut_arg("records", |a| a.help(help::sweep_records()))
)]
pub struct SweepArgs {
    /// Stop once the most accurate format of every model and data shape is below this
    /// weighted accuracy, percent.
    #[arg(long, value_name = "PCT", default_value_t = 90.0)]
    pub until: f64,
    /// The largest record count to try (sizes double from --records, default 31).
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_records: u32,
    /// Stop before a size whose largest prompt is over N tokens (o200k_base counts). A model
    /// whose config sets `context_tokens` also stops the sweep before a prompt plus its output
    /// limit would pass its context window.
    #[arg(long, value_name = "N")]
    pub max_tokens_in: Option<u32>,
    /// The run options (the formats suite, on the product records or --data's; --resume does
    /// not apply: each size is one step of one run folder).
    #[command(flatten)]
    pub run: RunArgs,
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

/// What data to render: shared by every command.
#[derive(Debug, Clone, Args)]
pub struct DataArgs {
    /// Formats, comma-separated, `default` or `all` (the help text counts them).
    #[arg(long, value_parser = parse_formats, help = help::formats(false))]
    pub formats: Option<Formats>,
    /// Structures, comma-separated.
    #[arg(long, value_delimiter = ',', value_parser = parse_structure, default_values = ["flat", "nested"])]
    pub structures: Vec<Structure>,
    /// Variants, comma-separated.
    #[arg(long, value_delimiter = ',', value_parser = parse_variant, default_values = ["mandatory", "optional"])]
    pub variants: Vec<Variant>,
    /// Records in the dataset; a comma list runs each size.
    #[arg(long, value_delimiter = ',', value_parser = parse_records, default_values_t = [DEFAULT_RECORDS],
          help = help::records())]
    pub records: Vec<u32>,
    /// Seed of the dataset and question generators.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Tokenizers to count with, comma-separated, or `all` (the help text names them).
    #[arg(long, value_parser = parse_tokenizers, default_value = "o200k_base,cl100k_base",
          help = help::tokenizers())]
    pub tokenizers: Tokenizers,
}

impl DataArgs {
    /// The chosen formats, or `fallback` when `--formats` was not given.
    pub fn formats_or(&self, fallback: Vec<Format>) -> Vec<Format> {
        self.formats.as_ref().map_or(fallback, |f| f.0.clone())
    }
}

/// A user's data file instead of the product dataset: shared by `run`, `generate`, `tokens`.
#[derive(Debug, Clone, Args)]
pub struct DataFileArgs {
    /// Your own records instead of the product dataset (the help text names the extensions).
    #[arg(long = "data", value_name = "FILE", help = help::data_file())]
    pub data_file: Option<PathBuf>,
    /// With --data: the key of the array of records when a .json file's top-level object holds
    /// several arrays (default: the first).
    #[arg(long, value_name = "KEY", requires = "data_file")]
    pub root_key: Option<String>,
    /// With --data and --records: the first N records (default), or N drawn with --seed (kept
    /// in file order).
    #[arg(long, value_enum, requires = "data_file")]
    pub sample: Option<crate::dataset::user::Sample>,
}

/// The questions synthesised from a `--data` file: shared by `run` and `generate`.
#[derive(Debug, Clone, Args)]
pub struct SynthArgs {
    /// With --data: the field that identifies records (a dotted path may name a nested one),
    /// or a comma list of up to three that do together; default: the first unique, always-set
    /// string or integer field (`id` preferred), else the smallest unique combination of up to
    /// three, else the record's position.
    #[arg(long, value_name = "FIELD[,FIELD…]", requires = "data_file")]
    pub id_field: Option<String>,
    /// With --data: questions in all, split 55 : 27 : 21 : 21 over retrieval, structure,
    /// filtering and aggregation like the formats suite; or a question file (JSON, JSONL or
    /// CSV rows, or the original benchmark's questionnaire or answer key) asked instead, about
    /// --data's records or the product records; see docs/questions.md.
    #[arg(long, value_name = "N|FILE", default_value = "124", value_parser = parse_questions)]
    pub questions: QuestionsArg,
}

/// `--questions`: how many to synthesise, or the user's own question file.
#[derive(Debug, Clone, PartialEq)]
pub enum QuestionsArg {
    /// Synthesise this many.
    Count(usize),
    /// Ask the questions of this file.
    File(PathBuf),
}

/// Digits are a count (1 to 100000), anything else a file (`./124` names a file called 124).
fn parse_questions(s: &str) -> Result<QuestionsArg, String> {
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        return match s.parse::<usize>() {
            Ok(n @ 1..=100_000) => Ok(QuestionsArg::Count(n)),
            _ => Err(format!(
                "{s} is not a count from 1 to 100000 (or a question file)"
            )),
        };
    }
    Ok(QuestionsArg::File(PathBuf::from(s)))
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

/// `bench run`.
#[derive(Debug, Args)]
#[command(
    mut_arg("records", |a| a
        .default_values(Vec::<&str>::new())
        .help(help::records())),
    mut_arg("seed", |a| a.help("Seed of the dataset and question generators (with --data: of \
                                 the questions and of --sample random)"))
)]
pub struct RunArgs {
    /// Provider to ask, NAME:MODEL or `reference` (the help text names the providers).
    #[arg(long = "provider", value_name = "NAME:MODEL", help = help::providers())]
    pub providers: Vec<String>,
    /// Model settings file (see `bench init-config`).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Base URL for providers that have none in the config (openai-compatible needs one).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// Environment variable holding the key, for providers without `api_key_env` in the config
    /// (openai-compatible servers get no key otherwise, unless OPENAI_BASE_URL names them).
    #[arg(long, value_name = "NAME")]
    pub api_key_env: Option<String>,
    /// Calls in flight per provider (overrides the config; default 4, ollama 1).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub concurrency: Option<u32>,
    /// Requests per minute per provider (overrides the config).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub rpm: Option<u32>,
    /// Tokens per minute per provider, prompt + max output (overrides the config).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub tpm: Option<u32>,
    /// Full runs per format × structure × variant.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub runs: u32,
    /// Ask with the first K instruction wordings of the suite (benchmarks/prompts/lookups.json,
    /// tasks.json, write.json: the same request in other words and layouts), one per run in
    /// turn, so every format of a run shares one wording; the report says whether the verdict
    /// holds under each. Use --runs K or a multiple. Formats, tasks and write suites, --data.
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=4))]
    pub prompt_variants: u32,
    /// Put the records in another order each run (seeded by the run's seed and index; every
    /// format of a run gets the same order, so pairs stay paired). Order questions are
    /// answered for that order, and each retrieval target's position is recorded. Formats
    /// suite and --data.
    #[arg(long)]
    pub shuffle: bool,
    /// Run only the K-th of N disjoint slices of the plan's renderings (the same slice for
    /// every provider), as its own run folder; `bench merge` puts the N folders back together.
    #[arg(long, value_name = "K/N", value_parser = crate::runner::shard::parse)]
    pub shard: Option<(u32, u32)>,
    /// Prepend a one-line description of the format to the data block: off, on, or both (an
    /// ablation: every rendering with and without).
    #[arg(long, value_enum, default_value_t = Primer::Off)]
    pub primer: Primer,
    /// All questions in one prompt (`one-prompt`; `batch` is its old name) or one prompt per
    /// question.
    #[arg(long, value_enum, default_value_t = QuestionMode::OnePrompt)]
    pub question_mode: QuestionMode,
    /// Warm-up call per rendering to prime the provider's prompt cache: auto (on for
    /// providers that cache prompts), on, off.
    #[arg(long, value_enum, default_value_t = Warmup::Auto)]
    pub warmup: Warmup,
    /// Print the plan (calls, prompt tokens, estimated $ and time) and exit; no network
    /// unless --count-with-provider.
    #[arg(long)]
    pub dry_run: bool,
    /// With --dry-run: count each rendering's prompt with the provider's own token counter
    /// (Anthropic count_tokens, Gemini countTokens, a server's /tokenize; free, cached), not an
    /// offline vocabulary.
    #[arg(long, requires = "dry_run")]
    pub count_with_provider: bool,
    /// With --dry-run: print the exact request body each model will receive for the first
    /// prompt (texts over 160 characters shortened unless --full; keys are never in a body).
    #[arg(long, requires = "dry_run")]
    pub show_requests: bool,
    /// With --show-requests: print each body whole, the data block included.
    #[arg(long, requires = "show_requests")]
    pub full: bool,
    /// Stop scheduling before spent + in-flight estimate passes this many USD; exit code 3.
    #[arg(long, value_name = "USD", value_parser = parse_budget)]
    pub budget_usd: Option<f64>,
    /// Non-inferiority margin in percentage points: a format is "as good" as the most accurate
    /// when shown to lose less than this (recorded in the run; `bench report --margin` overrides).
    #[arg(long, value_name = "PP", value_parser = parse_margin, default_value_t = crate::stats::DEFAULT_MARGIN_PP)]
    pub margin: f64,
    /// Exit with status 1 when more than this share of the measured calls failed (0 to 1; 0:
    /// any failed call). A provider with no successful call fails the run whatever this is.
    #[arg(long, value_name = "SHARE", value_parser = parse_share,
          default_value_t = crate::runner::DEFAULT_MAX_FAILED_SHARE)]
    pub max_failed_share: f64,
    /// Neither read nor write the response cache.
    #[arg(long)]
    pub no_cache: bool,
    /// Complete an interrupted run: data/benchmarks/<timestamp>, `latest` or `latest~N` (under
    /// --output-root; plan and providers come from its log).
    #[arg(long, value_name = "DIR", conflicts_with_all = [
        "providers", "config", "runs", "question_mode", "primer", "formats", "structures", "variants",
        "records", "seed", "tokenizers", "dry_run", "suite", "tasks", "task_ids", "categories",
        "data_file", "root_key", "sample", "id_field", "questions", "cases", "write_from",
        "repairs", "kinds", "no_json_schema"
    ])]
    pub resume: Option<PathBuf>,
    /// With --resume: run failed calls again (their old lines are replaced).
    #[arg(long, requires = "resume")]
    pub retry_errors: bool,
    /// Send the calls through the providers' batch APIs (anthropic, openai, openai-responses,
    /// gemini): half price, answers within 24 h, no warm-ups. Batch ids are kept in the run
    /// folder's batches.json, so `--resume` polls the same batches after Ctrl-C or a crash.
    #[arg(long)]
    pub batch: bool,
    /// With --batch: seconds before the first poll; the wait grows 1.5× per poll up to 30×
    /// this.
    #[arg(long, value_name = "SECS", default_value_t = 10.0, value_parser = parse_poll)]
    pub batch_poll: f64,
    /// With --resume: cancel the run's unfinished batches, log what they finished, and submit
    /// nothing new (cancelled requests are logged as errors; `--resume --retry-errors` runs
    /// them again).
    #[arg(long, requires = "resume")]
    pub cancel_batches: bool,
    /// Retries per call after the first attempt (with --batch: times an expired or failed
    /// request is submitted again).
    #[arg(long, default_value_t = 6)]
    pub retries: usize,
    /// No retries: the same as --retries 0 (a failed or expired batch request is logged as an
    /// error, not submitted again).
    #[arg(long, conflicts_with = "retries")]
    pub no_retry: bool,
    /// First backoff step in milliseconds (doubles each retry, full jitter, max 60 s).
    #[arg(long, default_value_t = 1000)]
    pub retry_base_ms: u64,
    /// Root folder of the run log (written to <root>/benchmarks/<timestamp>/).
    #[arg(long, default_value = "data")]
    pub output_root: PathBuf,
    /// Do not write the report (BENCHMARK_REPORT.md, report.html, …) at the end.
    #[arg(long)]
    pub no_report: bool,
    /// Print every column of the ranking; by default it leaves out the least needed columns
    /// (named under it) to fit the terminal's width or COLUMNS.
    #[arg(long)]
    pub wide: bool,
    /// Baseline format of the report's paired comparisons (default json_compact).
    #[arg(long, value_parser = parse_format)]
    pub baseline: Option<Format>,
    /// Suite to run.
    #[arg(long, value_enum, default_value = "formats")]
    pub suite: Suite,
    /// What the write suite asks for.
    #[command(flatten)]
    pub write: WriteArgs,
    /// Task selection (with --suite tasks).
    #[command(flatten)]
    pub task_select: TaskArgs,
    /// Your own records (not with --suite tasks).
    #[command(flatten)]
    pub file: DataFileArgs,
    /// Questions about them.
    #[command(flatten)]
    pub synth: SynthArgs,
    /// Data selection.
    #[command(flatten)]
    pub data: DataArgs,
}

/// Output format of tables.
/// `bench run --primer`: whether a one-line description of the format precedes the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Primer {
    /// Never.
    Off,
    /// Always.
    On,
    /// Every rendering with and without (an ablation).
    Both,
}

impl Primer {
    /// The primer settings each rendering is run with.
    pub fn primers(self) -> Vec<bool> {
        match self {
            Self::Off => vec![false],
            Self::On => vec![true],
            Self::Both => vec![false, true],
        }
    }
}

/// `bench run --warmup`: a warm-up call per rendering to fill the provider's prompt cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Warmup {
    /// On for providers that cache prompts.
    Auto,
    /// Always.
    On,
    /// Never.
    Off,
}

impl Warmup {
    /// The setting forced on every provider, or None to ask each provider.
    pub fn forced(self) -> Option<bool> {
        match self {
            Self::Auto => None,
            Self::On => Some(true),
            Self::Off => Some(false),
        }
    }
}

pub use crate::report::tables::{TableFormat, TokenSort};

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

fn one_of<T: Copy>(
    kind: &str,
    s: &str,
    all: &[T],
    name: impl Fn(T) -> &'static str,
) -> Result<T, String> {
    all.iter().copied().find(|&x| name(x) == s).ok_or_else(|| {
        let allowed: Vec<&str> = all.iter().map(|&x| name(x)).collect();
        let hint = match likely(s, &allowed).as_slice() {
            [] => String::new(),
            [one] => format!(": did you mean {one}?"),
            [most @ .., last] => format!(": did you mean {} or {last}?", most.join(", ")),
        };
        format!(
            "unknown {kind} '{s}'{hint} (allowed: {})",
            allowed.join(", ")
        )
    })
}

/// The names a mistyped `s` most likely meant: those it is part of (`json` → json_compact,
/// json_pretty, jsonl), else those within two edits (`yml` → yaml).
fn likely<'a>(s: &str, names: &[&'a str]) -> Vec<&'a str> {
    let s = s.to_ascii_lowercase();
    if s.is_empty() {
        return Vec::new();
    }
    let part: Vec<&str> = names.iter().copied().filter(|n| n.contains(&s)).collect();
    if !part.is_empty() {
        return part;
    }
    names
        .iter()
        .copied()
        .filter(|n| strsim::levenshtein(&s, n) <= 2)
        .collect()
}

/// A `--formats` selection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Formats(pub Vec<Format>);

impl std::ops::Deref for Formats {
    type Target = [Format];
    fn deref(&self) -> &[Format] {
        &self.0
    }
}

fn parse_formats(s: &str) -> Result<Formats, String> {
    match s {
        "all" => Ok(Formats(Format::ALL.to_vec())),
        "default" => Ok(Formats(Format::defaults())),
        list => list
            .split(',')
            .map(|item| {
                one_of("format", item.trim(), Format::ALL, Format::name)
                    .map_err(|e| e.replace(")", ", all)"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Formats),
    }
}

fn parse_format(s: &str) -> Result<Format, String> {
    one_of("format", s, Format::ALL, Format::name)
}

fn parse_structure(s: &str) -> Result<Structure, String> {
    one_of("structure", s, &Structure::ALL, Structure::name)
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    one_of("variant", s, &Variant::ALL, Variant::name)
}

/// A `--tokenizers` selection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tokenizers(pub Vec<Tokenizer>);

impl std::ops::Deref for Tokenizers {
    type Target = [Tokenizer];
    fn deref(&self) -> &[Tokenizer] {
        &self.0
    }
}

fn parse_tokenizers(s: &str) -> Result<Tokenizers, String> {
    if s == "all" {
        return Ok(Tokenizers(Tokenizer::ALL.to_vec()));
    }
    let mut out: Vec<Tokenizer> = Vec::new();
    for item in s.split(',') {
        let t = one_of("tokenizer", item.trim(), &Tokenizer::ALL, Tokenizer::name)
            .map_err(|e| e.replace(")", ", all)"))?;
        if !out.contains(&t) {
            out.push(t);
        }
    }
    Ok(Tokenizers(out))
}

/// A budget in USD: a finite number, 0 or more (checked with `--dry-run` too).
/// A non-inferiority margin: percentage points above 0 and below 100.
fn parse_margin(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(m) if m.is_finite() && m > 0.0 && m < 100.0 => Ok(m),
        _ => Err(format!(
            "'{s}' is not a margin in percentage points (a number above 0 and below 100)"
        )),
    }
}

fn parse_share(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!(
            "'{s}' is not a share of the calls (a number from 0 to 1, such as 0.1)"
        )),
    }
}

fn parse_budget(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(b) if b.is_finite() && b >= 0.0 => Ok(b),
        _ => Err(format!(
            "'{s}' is not an amount of USD (a number, 0 or more)"
        )),
    }
}

/// A poll interval: seconds above 0 and at most a day.
fn parse_poll(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(p) if p.is_finite() && p > 0.0 && p <= 86_400.0 => Ok(p),
        _ => Err(format!(
            "'{s}' is not a number of seconds above 0 and at most 86400"
        )),
    }
}

fn parse_records(s: &str) -> Result<u32, String> {
    let n: u32 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a whole number (allowed: 1 to 100000)"))?;
    if RECORDS_RANGE.contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "{n} records is out of range (allowed: 1 to 100000)"
        ))
    }
}
