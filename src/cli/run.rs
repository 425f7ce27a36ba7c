//! `bench run` and the commands that take its options (`recommend`, `sweep`).

use super::data::{DataArgs, DataFileArgs, SynthArgs, asked_with};
use super::help;
use super::parse::*;
use crate::formats::Format;
use crate::runner::QuestionMode;
use crate::suites::{Asked, Entry, OwnFlags};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// `bench run`.
#[derive(Debug, Args)]
#[command(
    mut_arg("records", |a| a
        .default_values(Vec::<&str>::new())
        .help(help::records())),
    mut_arg("seed", |a| a.help("Seed of the dataset and question generators (with --data: of \
                                 the questions and of --sample random)")),
    mut_args(help::run_suite_order)
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
    /// (Anthropic count_tokens, Gemini countTokens, OpenAI responses/input_tokens, a server's
    /// /tokenize; free, cached), not an offline vocabulary; a local server is asked its context
    /// window too.
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
    /// Neither read nor write the response cache, nor the cache of provider token counts
    /// (the run's token basis and --count-with-provider ask the provider again).
    #[arg(long)]
    pub no_cache: bool,
    /// Complete an interrupted run: data/benchmarks/<timestamp>, `latest` or `latest~N` (under
    /// --output-root; plan and providers come from its log).
    #[arg(long, value_name = "DIR", conflicts_with_all = help::resume_conflicts())]
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
    /// Suite to run [default: formats, or the suite whose own flags are given (--tasks,
    /// --task-ids, --cases, …)].
    #[arg(long, value_parser = crate::suites::parser())]
    pub suite: Option<&'static Entry>,
    /// Each suite's own flags (`--tasks`, `--cases`, …), from the registry.
    #[command(flatten)]
    pub own: OwnFlags,
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

impl RunArgs {
    /// The plan options, as the suite reads them.
    pub fn asked(&self) -> Asked {
        Asked {
            question_mode: self.question_mode,
            primer: self.primer != Primer::Off,
            shuffle: self.shuffle,
            prompt_variants: self.prompt_variants,
            ..asked_with(&self.data, &self.file, Some(&self.synth), self.own.clone())
        }
    }
}

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
