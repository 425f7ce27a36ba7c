//! Context windows and output limits, one row per group of models that share them, each with
//! the page it was read from (the capability table's companion: a capability family such as
//! "OpenAI chat models" spans gpt-4's 8,192 tokens and gpt-4.1's 1,047,576, so windows need
//! rows of their own). Ids match as in [`super::capabilities`]: an id matches itself and its
//! dated snapshots, an id ending in `*` is a prefix, the longest match wins. A `context_tokens`
//! in the config overrides the window; a model missing here (a local model, a newer version)
//! has no known window, which the run says in a note instead of checking.
//!
//! Windows are as the API serves them without opt-in headers: Claude Sonnet 4 / 4.5 take 1M
//! tokens only with a beta header bench does not send, so their row says 200,000.

use super::Wire;
use super::config::ModelConfig;
use super::matching::Api;
use crate::numfmt::thousands;

/// Where the rows were last checked against the providers' model pages.
pub const AS_OF: &str = "2026-11-25";

/// One group of models with the same window and output limit.
#[derive(Debug)]
pub struct Row {
    /// The provider family.
    pub api: Api,
    /// Model ids (matched as in the capability table).
    pub ids: &'static [&'static str],
    /// Tokens the model takes in one call: prompt plus output when `shared`, else the prompt.
    pub context: u32,
    /// The most output tokens one call may ask for (`max_tokens`).
    pub output: u32,
    /// Whether the output counts in `context` (Anthropic, OpenAI); Gemini lists an input
    /// limit and a separate output limit.
    pub shared: bool,
    /// The page the figures were read from.
    pub source: &'static str,
}

const CLAUDE: &str = "https://platform.claude.com/docs/en/about-claude/models/overview (model comparison: context window, max output)";
const GEMINI: &str =
    "https://ai.google.dev/gemini-api/docs/models (input token limit, output token limit)";

/// A row of Anthropic models: 200,000 tokens, prompt and output together.
const fn claude(ids: &'static [&'static str], output: u32) -> Row {
    Row {
        api: Api::Anthropic,
        ids,
        context: 200_000,
        output,
        shared: true,
        source: CLAUDE,
    }
}

/// A row of OpenAI models, read from `source` (the model's page).
const fn openai(
    ids: &'static [&'static str],
    context: u32,
    output: u32,
    source: &'static str,
) -> Row {
    Row {
        api: Api::OpenAi,
        ids,
        context,
        output,
        shared: true,
        source,
    }
}

/// A row of Gemini models: an input limit, and the output limit on top.
const fn gemini(ids: &'static [&'static str], input: u32, output: u32) -> Row {
    Row {
        api: Api::Gemini,
        ids,
        context: input,
        output,
        shared: false,
        source: GEMINI,
    }
}

/// Every row.
pub static TABLE: &[Row] = &[
    claude(&["claude-opus-4-6"], 128_000),
    claude(
        &[
            "claude-sonnet-4-6",
            "claude-opus-4-5",
            "claude-sonnet-4-5",
            "claude-haiku-4-5",
            "claude-sonnet-4",
            "claude-sonnet-4-0",
            "claude-3-7-sonnet",
        ],
        64_000,
    ),
    claude(
        &["claude-opus-4", "claude-opus-4-0", "claude-opus-4-1"],
        32_000,
    ),
    claude(&["claude-3-5-sonnet", "claude-3-5-haiku"], 8_192),
    claude(
        &["claude-3-opus", "claude-3-sonnet", "claude-3-haiku"],
        4_096,
    ),
    openai(
        &["gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-5-codex"],
        400_000,
        128_000,
        "https://platform.openai.com/docs/models/gpt-5",
    ),
    openai(
        &[
            "gpt-5.1",
            "gpt-5.1-codex",
            "gpt-5.1-codex-mini",
            "gpt-5.1-codex-max",
            "gpt-5.2",
        ],
        400_000,
        128_000,
        "https://platform.openai.com/docs/models/gpt-5.1",
    ),
    openai(
        &["gpt-5-pro"],
        400_000,
        272_000,
        "https://platform.openai.com/docs/models/gpt-5-pro",
    ),
    openai(
        &[
            "gpt-5-chat-latest",
            "gpt-5.1-chat-latest",
            "gpt-5.2-chat-latest",
        ],
        128_000,
        16_384,
        "https://platform.openai.com/docs/models/gpt-5-chat-latest",
    ),
    openai(
        &["o1", "o1-pro", "o3", "o3-mini", "o3-pro", "o4-mini"],
        200_000,
        100_000,
        "https://platform.openai.com/docs/models/o3",
    ),
    openai(
        &["o1-mini"],
        128_000,
        65_536,
        "https://platform.openai.com/docs/models/o1-mini",
    ),
    openai(
        &["gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano"],
        1_047_576,
        32_768,
        "https://platform.openai.com/docs/models/gpt-4.1",
    ),
    openai(
        &["gpt-4o", "gpt-4o-mini", "chatgpt-4o-latest"],
        128_000,
        16_384,
        "https://platform.openai.com/docs/models/gpt-4o",
    ),
    openai(
        &["gpt-4-turbo"],
        128_000,
        4_096,
        "https://platform.openai.com/docs/models/gpt-4-turbo",
    ),
    openai(
        &["gpt-4"],
        8_192,
        8_192,
        "https://platform.openai.com/docs/models/gpt-4",
    ),
    openai(
        &["gpt-3.5-turbo"],
        16_385,
        4_096,
        "https://platform.openai.com/docs/models/gpt-3.5-turbo",
    ),
    gemini(
        &[
            "gemini-3-pro",
            "gemini-3-flash",
            "gemini-2.5-pro",
            "gemini-2.5-flash",
            "gemini-2.5-flash-lite",
        ],
        1_048_576,
        65_536,
    ),
    gemini(
        &[
            "gemini-2.0-flash",
            "gemini-2.0-flash-lite",
            "gemini-1.5-flash",
            "gemini-1.5-flash-8b",
        ],
        1_048_576,
        8_192,
    ),
    gemini(&["gemini-1.5-pro"], 2_097_152, 8_192),
];

/// The row for `model` behind `wire`: the longest matching id wins.
pub fn lookup(wire: Wire, model: &str) -> Option<&'static Row> {
    let api = wire.family()?;
    super::matching::longest(TABLE.iter().filter(|r| r.api == api), |r| r.ids, model)
}

/// A model's window as a run checks it.
#[derive(Debug, Clone, PartialEq)]
pub struct Window {
    /// Tokens one call may take: prompt plus output when `shared`, else the prompt.
    pub context: u32,
    /// The most output tokens a call may ask for, when known.
    pub output: Option<u32>,
    /// Whether the output counts in `context`.
    pub shared: bool,
    /// Where the figure comes from: the config, or the table row's page.
    pub source: String,
}

impl Window {
    /// The most prompt tokens a call that may write `out` tokens can send.
    pub fn room(&self, out: u32) -> u32 {
        if self.shared {
            self.context.saturating_sub(out)
        } else {
            self.context
        }
    }

    /// What the room is, in words: `context window 400,000 less max_tokens 4,096`.
    pub fn describe(&self, out: u32) -> String {
        if self.shared {
            format!(
                "context window {} less max_tokens {}",
                thousands(i64::from(self.context)),
                thousands(i64::from(out))
            )
        } else {
            format!("input limit {}", thousands(i64::from(self.context)))
        }
    }
}

/// The window of `cfg.model`: `context_tokens` from the config (prompt plus output), else what
/// its server reported, else the table's row; None when none knows it (and for the offline
/// reference, which has none).
pub fn of(cfg: &ModelConfig) -> Option<Window> {
    let wire = cfg.wire().ok()?;
    let row = lookup(wire, &cfg.model);
    if let Some(n) = cfg.context_tokens {
        return Some(Window {
            context: n,
            output: row.map(|r| r.output),
            shared: true,
            source: "context_tokens in the config".into(),
        });
    }
    if let Some(w) = &cfg.served_context {
        return Some(Window {
            context: w.context,
            output: row.map(|r| r.output),
            shared: w.shared,
            source: w.source.clone(),
        });
    }
    let r = row?;
    Some(Window {
        context: r.context,
        output: Some(r.output),
        shared: r.shared,
        source: r.source.into(),
    })
}

/// The note for a model whose window its server reported, or is unknown (said once, kept in
/// the run's metadata).
pub fn note(cfg: &ModelConfig) -> Option<String> {
    let wire = cfg.wire().ok()?;
    if let Some(w) = cfg
        .served_context
        .as_ref()
        .filter(|_| cfg.context_tokens.is_none())
    {
        return Some(format!(
            "context window {} as its server reports it ({}): prompts are checked against it",
            thousands(i64::from(w.context)),
            w.source
        ));
    }
    (!wire.offline() && of(cfg).is_none()).then(|| {
        format!(
            "context window unknown ({} is not in bench's window table, docs/providers.md \
             \"Context windows\"): prompts are not checked against it; set `context_tokens` in \
             the model's config entry to check them",
            cfg.model
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(spec: &str) -> Option<(u32, u32, bool)> {
        let cfg = ModelConfig::from_spec(spec).unwrap();
        of(&cfg).map(|w| (w.context, w.output.unwrap_or(0), w.shared))
    }

    #[test]
    fn rows_match_models_and_their_snapshots_only() {
        assert_eq!(window("openai:gpt-5-mini"), Some((400_000, 128_000, true)));
        assert_eq!(
            window("openai-responses:gpt-5-mini-2025-08-07"),
            Some((400_000, 128_000, true))
        );
        assert_eq!(window("openai:gpt-4.1"), Some((1_047_576, 32_768, true)));
        assert_eq!(window("openai:gpt-4o-mini"), Some((128_000, 16_384, true)));
        assert_eq!(window("openai:gpt-4"), Some((8_192, 8_192, true)));
        assert_eq!(
            window("anthropic:claude-opus-4-1-20250805"),
            Some((200_000, 32_000, true))
        );
        assert_eq!(
            window("anthropic:claude-sonnet-4-5"),
            Some((200_000, 64_000, true))
        );
        assert_eq!(
            window("gemini:models/gemini-2.5-flash"),
            Some((1_048_576, 65_536, false))
        );
        // A version the table does not list is unknown, not its neighbour's.
        assert_eq!(window("anthropic:claude-opus-4-9"), None);
        assert_eq!(window("openai:gpt-5.9"), None);
        // Local servers: unknown whatever the model is called.
        assert_eq!(window("openai-compatible:gpt-5"), None);
        assert_eq!(window("ollama:llama3.1:8b"), None);
        assert_eq!(window("reference"), None);
    }

    #[test]
    fn every_row_has_a_source_and_an_output_within_its_window() {
        for r in TABLE {
            assert!(r.source.starts_with("https://"), "{:?}", r.ids);
            assert!(r.output <= r.context, "{:?}", r.ids);
        }
    }

    #[test]
    fn the_config_overrides_the_table_and_unknown_models_get_a_note() {
        let mut cfg = ModelConfig::from_spec("openai:gpt-5-mini").unwrap();
        cfg.context_tokens = Some(32_000);
        let w = of(&cfg).unwrap();
        assert_eq!((w.context, w.output), (32_000, Some(128_000)));
        assert_eq!(w.room(4_096), 27_904);
        assert_eq!(w.source, "context_tokens in the config");
        assert!(note(&cfg).is_none());
        let local = ModelConfig::from_spec("ollama:llama3.1:8b").unwrap();
        let n = note(&local).unwrap();
        assert!(n.starts_with("context window unknown (llama3.1:8b"), "{n}");
        assert!(note(&ModelConfig::from_spec("reference").unwrap()).is_none());
        let gemini = of(&ModelConfig::from_spec("gemini:gemini-2.5-pro").unwrap()).unwrap();
        assert_eq!(gemini.room(65_536), 1_048_576, "Gemini's output is on top");
    }
}
