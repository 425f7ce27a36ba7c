//! `bench tokens --provider`: the options that count each prompt with a provider's own counter.

use crate::suites::{Entry, OwnFlags};
use clap::Args;
use std::path::PathBuf;

/// Counting with the provider (`bench tokens --provider`).
#[derive(Debug, Clone, Args)]
pub struct CountArgs {
    /// Count each rendering's prompt with this model's own token counter, NAME:MODEL
    /// (repeatable): Anthropic count_tokens, Gemini countTokens, OpenAI
    /// responses/input_tokens, /tokenize of an OpenAI-compatible server (llama.cpp, vLLM).
    #[arg(long = "provider", value_name = "NAME:MODEL")]
    pub providers: Vec<String>,
    /// With --provider: model settings file (see `bench init-config`).
    #[arg(long, requires = "providers")]
    pub config: Option<PathBuf>,
    /// With --provider: base URL for providers that have none in the config.
    #[arg(long, value_name = "URL", requires = "providers")]
    pub base_url: Option<String>,
    /// With --provider: the suite whose prompts to count (as `bench run --suite`)
    /// [default: formats].
    #[arg(long, value_parser = crate::suites::parser())]
    pub suite: Option<&'static Entry>,
    /// With --provider: each suite's own flags (`--tasks` selects --suite tasks, `--cases`
    /// the write suite, …), from the registry.
    #[command(flatten)]
    pub own: OwnFlags,
    /// With --provider: count again instead of reading earlier counts from the cache.
    #[arg(long, requires = "providers")]
    pub no_cache: bool,
}
