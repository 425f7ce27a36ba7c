//! Command-line definitions (clap derive only; handlers live in `commands`).

use crate::dataset::{DEFAULT_RECORDS, DEFAULT_SEED, RECORDS_RANGE, Structure, Variant};
use crate::formats::Format;
use crate::tokens::Tokenizer;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Finds which data format an LLM reads best: renders one dataset in many formats, asks the same
/// questions about each, grades the answers, counts tokens, and logs every call as JSONL.
#[derive(Debug, Parser)]
#[command(name = "bench", version, about)]
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
    Run(RunArgs),
    /// Print token counts of every format × structure × variant.
    Tokens(TokensArgs),
    /// Run SQL over the run logs (after sql/views.sql) and print the last result.
    Query(QueryArgs),
    /// Export results, answers and raw records as Parquet.
    Export(ExportArgs),
}

/// `bench query`.
#[derive(Debug, Args)]
pub struct QueryArgs {
    /// SQL file to run (one or more statements; the last result is printed).
    #[arg(required_unless_present = "execute", conflicts_with = "execute")]
    pub file: Option<PathBuf>,
    /// SQL text to run instead of a file.
    #[arg(short = 'e', long = "execute", value_name = "SQL")]
    pub execute: Option<String>,
    /// Root folder holding benchmarks/<timestamp>/*.jsonl.
    #[arg(long, default_value = "data")]
    pub root: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
    /// Write the result to this file instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Staging SQL to run first instead of the sql/views.sql compiled into bench.
    #[arg(long, value_name = "FILE")]
    pub views: Option<PathBuf>,
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
    /// Staging SQL to run first instead of the sql/views.sql compiled into bench.
    #[arg(long, value_name = "FILE")]
    pub views: Option<PathBuf>,
}

/// What data to render: shared by every command.
#[derive(Debug, Clone, Args)]
pub struct DataArgs {
    /// Formats, comma-separated, or `all` (default: the 8 formats of the `formats` suite).
    #[arg(long, value_parser = parse_formats, default_value = "default")]
    pub formats: Formats,
    /// Structures, comma-separated.
    #[arg(long, value_delimiter = ',', value_parser = parse_structure, default_values = ["flat", "nested"])]
    pub structures: Vec<Structure>,
    /// Variants, comma-separated.
    #[arg(long, value_delimiter = ',', value_parser = parse_variant, default_values = ["mandatory", "optional"])]
    pub variants: Vec<Variant>,
    /// Records in the dataset (1 to 100000).
    #[arg(long, default_value_t = DEFAULT_RECORDS, value_parser = parse_records)]
    pub records: u32,
    /// Seed of the dataset and question generators.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Tokenizers to count with, comma-separated.
    #[arg(long, value_delimiter = ',', value_parser = parse_tokenizer, default_values = ["o200k_base", "cl100k_base"])]
    pub tokenizers: Vec<Tokenizer>,
}

/// `bench generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Folder to write the layout into.
    #[arg(long, short, default_value = "generated")]
    pub output: PathBuf,
    /// Data selection.
    #[command(flatten)]
    pub data: DataArgs,
}

/// `bench run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Provider to ask; may repeat. Default: the offline `reference` answerer.
    #[arg(long = "provider")]
    pub providers: Vec<String>,
    /// Full runs per format × structure × variant.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub runs: u32,
    /// Root folder of the run log (written to <root>/benchmarks/<timestamp>/).
    #[arg(long, default_value = "data")]
    pub output_root: PathBuf,
    /// Data selection.
    #[command(flatten)]
    pub data: DataArgs,
}

/// Output format of tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TableFormat {
    /// Aligned text table.
    Table,
    /// Comma-separated values.
    Csv,
    /// JSON array of rows.
    Json,
    /// Markdown (GitHub) table.
    Markdown,
}

/// Sort order of `bench tokens`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TokenSort {
    /// Fewest tokens first (first tokenizer).
    Tokens,
    /// Format, structure, variant.
    Format,
    /// Most characters per token first.
    CharsPerToken,
}

/// `bench tokens`.
#[derive(Debug, Args)]
pub struct TokensArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
    /// Sort order.
    #[arg(long, value_enum, default_value_t = TokenSort::Tokens)]
    pub sort: TokenSort,
    /// Data selection.
    #[command(flatten)]
    pub data: DataArgs,
}

fn one_of<T: Copy>(
    kind: &str,
    s: &str,
    all: &[T],
    name: impl Fn(T) -> &'static str,
) -> Result<T, String> {
    all.iter().copied().find(|&x| name(x) == s).ok_or_else(|| {
        let allowed: Vec<&str> = all.iter().map(|&x| name(x)).collect();
        format!("unknown {kind} '{s}' (allowed: {})", allowed.join(", "))
    })
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
        "default" => Ok(Formats(Format::DEFAULT.to_vec())),
        list => list
            .split(',')
            .map(|item| {
                one_of("format", item.trim(), &Format::ALL, Format::name)
                    .map_err(|e| e.replace(")", ", all)"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Formats),
    }
}

fn parse_structure(s: &str) -> Result<Structure, String> {
    one_of("structure", s, &Structure::ALL, Structure::name)
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    one_of("variant", s, &Variant::ALL, Variant::name)
}

fn parse_tokenizer(s: &str) -> Result<Tokenizer, String> {
    one_of("tokenizer", s, &Tokenizer::ALL, Tokenizer::name)
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
