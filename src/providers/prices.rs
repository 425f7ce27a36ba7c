//! Built-in list prices, USD per 1M tokens, for common models. Dated: prices change, so a
//! `price` in the config overrides them, and models not listed get no cost (null, not 0).

use super::Usage;
use serde::{Deserialize, Serialize};

/// Dollars per million tokens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    /// Uncached prompt tokens.
    pub input: f64,
    /// Generated tokens (reasoning included).
    pub output: f64,
    /// Prompt tokens read from cache (defaults to `input`).
    #[serde(default)]
    pub cache_read: Option<f64>,
    /// Prompt tokens written to cache (defaults to `input`).
    #[serde(default)]
    pub cache_write: Option<f64>,
    /// What a call through the batch API (`--batch`) costs, as a fraction of the prices
    /// above: 0.5 is half price. Unset: the provider's discount (`prices::batch_discount`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch: Option<f64>,
}

impl Price {
    /// Cost of one call in USD.
    pub fn cost(&self, u: &Usage) -> f64 {
        let uncached = u.input.saturating_sub(u.cache_read + u.cache_write);
        (uncached as f64 * self.input
            + u.cache_read as f64 * self.cache_read.unwrap_or(self.input)
            + u.cache_write as f64 * self.cache_write.unwrap_or(self.input)
            + u.output as f64 * self.output)
            / 1_000_000.0
    }

    /// Cost of one call made through the batch API.
    pub fn batch_cost(&self, u: &Usage) -> f64 {
        self.cost(u) * self.batch.unwrap_or(1.0)
    }
}

/// When these prices were last checked against the providers' price pages.
pub const AS_OF: &str = "2026-11-25";

/// Where the rows were read.
const ANTHROPIC_PAGE: &str = "https://platform.claude.com/docs/en/about-claude/pricing";
const OPENAI_PAGE: &str = "https://platform.openai.com/docs/pricing";
const GEMINI_PAGE: &str = "https://ai.google.dev/gemini-api/docs/pricing";

/// One row of the table: one model family on these wire APIs.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// Wire APIs the row applies to.
    pub providers: &'static [&'static str],
    /// Model ids of the family. Each matches itself and its dated snapshots
    /// (`claude-sonnet-4-20250514`), never a later version (`claude-opus-4` does not price
    /// `claude-opus-4-6`): a newer model at another price must get no price, not a wrong one.
    pub ids: &'static [&'static str],
    /// The price.
    pub price: Price,
    /// The price page it was read from.
    pub source: &'static str,
}

const ANTHROPIC: &[&str] = &["anthropic"];
const OPENAI: &[&str] = &["openai", "openai-responses"];
const GEMINI: &[&str] = &["gemini"];

const fn p(input: f64, output: f64, cache_read: f64, cache_write: f64) -> Price {
    Price {
        input,
        output,
        cache_read: Some(cache_read),
        cache_write: Some(cache_write),
        // Anthropic Message Batches, the OpenAI Batch API and Gemini batch mode all charge
        // half the live price.
        batch: Some(0.5),
    }
}

const fn e(
    providers: &'static [&'static str],
    ids: &'static [&'static str],
    price: Price,
    source: &'static str,
) -> Entry {
    Entry {
        providers,
        ids,
        price,
        source,
    }
}

/// The table. Cache writes: Anthropic's 5-minute write price; OpenAI and Gemini cache
/// implicitly and charge nothing extra to write (the write price is the input price).
pub const TABLE: &[Entry] = &[
    // Opus 4.5 and later: a third of Opus 4 / 4.1.
    e(
        ANTHROPIC,
        &[
            "claude-opus-4-5",
            "claude-opus-4-6",
            "claude-opus-4-7",
            "claude-opus-4-8",
        ],
        p(5.0, 25.0, 0.5, 6.25),
        ANTHROPIC_PAGE,
    ),
    e(
        ANTHROPIC,
        &["claude-opus-4", "claude-opus-4-0", "claude-opus-4-1"],
        p(15.0, 75.0, 1.5, 18.75),
        ANTHROPIC_PAGE,
    ),
    e(
        ANTHROPIC,
        &[
            "claude-sonnet-4",
            "claude-sonnet-4-0",
            "claude-sonnet-4-5",
            "claude-sonnet-4-6",
            "claude-3-7-sonnet",
        ],
        p(3.0, 15.0, 0.3, 3.75),
        ANTHROPIC_PAGE,
    ),
    e(
        ANTHROPIC,
        &["claude-haiku-4-5"],
        p(1.0, 5.0, 0.1, 1.25),
        ANTHROPIC_PAGE,
    ),
    e(
        ANTHROPIC,
        &["claude-3-5-haiku"],
        p(0.8, 4.0, 0.08, 1.0),
        ANTHROPIC_PAGE,
    ),
    e(
        ANTHROPIC,
        &["claude-3-haiku"],
        p(0.25, 1.25, 0.03, 0.3),
        ANTHROPIC_PAGE,
    ),
    e(
        OPENAI,
        &["gpt-5-nano"],
        p(0.05, 0.4, 0.005, 0.05),
        OPENAI_PAGE,
    ),
    e(
        OPENAI,
        &["gpt-5-mini"],
        p(0.25, 2.0, 0.025, 0.25),
        OPENAI_PAGE,
    ),
    e(
        OPENAI,
        &[
            "gpt-5",
            "gpt-5.1",
            "gpt-5-chat-latest",
            "gpt-5.1-chat-latest",
            "gpt-5-codex",
        ],
        p(1.25, 10.0, 0.125, 1.25),
        OPENAI_PAGE,
    ),
    // No cached-input discount on the pro models: a cache hit costs the input price.
    e(
        OPENAI,
        &["gpt-5-pro"],
        p(15.0, 120.0, 15.0, 15.0),
        OPENAI_PAGE,
    ),
    e(OPENAI, &["o3-pro"], p(20.0, 80.0, 20.0, 20.0), OPENAI_PAGE),
    e(
        OPENAI,
        &["o1-pro"],
        p(150.0, 600.0, 150.0, 150.0),
        OPENAI_PAGE,
    ),
    e(OPENAI, &["o1"], p(15.0, 60.0, 7.5, 15.0), OPENAI_PAGE),
    e(OPENAI, &["o1-mini"], p(1.1, 4.4, 0.55, 1.1), OPENAI_PAGE),
    // The models before GPT-4o have no cached-input discount.
    e(OPENAI, &["gpt-4"], p(30.0, 60.0, 30.0, 30.0), OPENAI_PAGE),
    e(
        OPENAI,
        &["gpt-4-turbo"],
        p(10.0, 30.0, 10.0, 10.0),
        OPENAI_PAGE,
    ),
    e(
        OPENAI,
        &["gpt-3.5-turbo"],
        p(0.5, 1.5, 0.5, 0.5),
        OPENAI_PAGE,
    ),
    e(
        OPENAI,
        &["chatgpt-4o-latest"],
        p(5.0, 15.0, 5.0, 5.0),
        OPENAI_PAGE,
    ),
    e(
        OPENAI,
        &["gpt-4.1-nano"],
        p(0.1, 0.4, 0.025, 0.1),
        OPENAI_PAGE,
    ),
    e(
        OPENAI,
        &["gpt-4.1-mini"],
        p(0.4, 1.6, 0.1, 0.4),
        OPENAI_PAGE,
    ),
    e(OPENAI, &["gpt-4.1"], p(2.0, 8.0, 0.5, 2.0), OPENAI_PAGE),
    e(
        OPENAI,
        &["gpt-4o-mini"],
        p(0.15, 0.6, 0.075, 0.15),
        OPENAI_PAGE,
    ),
    e(OPENAI, &["gpt-4o"], p(2.5, 10.0, 1.25, 2.5), OPENAI_PAGE),
    e(OPENAI, &["o4-mini"], p(1.1, 4.4, 0.275, 1.1), OPENAI_PAGE),
    e(OPENAI, &["o3-mini"], p(1.1, 4.4, 0.55, 1.1), OPENAI_PAGE),
    e(OPENAI, &["o3"], p(2.0, 8.0, 0.5, 2.0), OPENAI_PAGE),
    // Gemini 2.5 Pro: the rate for prompts up to 200k tokens (bench's prompts are far smaller).
    e(
        GEMINI,
        &["gemini-2.5-pro"],
        p(1.25, 10.0, 0.125, 1.25),
        GEMINI_PAGE,
    ),
    e(
        GEMINI,
        &["gemini-2.5-flash-lite"],
        p(0.1, 0.4, 0.01, 0.1),
        GEMINI_PAGE,
    ),
    e(
        GEMINI,
        &["gemini-2.5-flash"],
        p(0.3, 2.5, 0.03, 0.3),
        GEMINI_PAGE,
    ),
    e(
        GEMINI,
        &["gemini-2.0-flash"],
        p(0.1, 0.4, 0.025, 0.1),
        GEMINI_PAGE,
    ),
    e(
        GEMINI,
        &["gemini-2.0-flash-lite"],
        p(0.075, 0.3, 0.075, 0.075),
        GEMINI_PAGE,
    ),
];

/// Model ids of the capability table that have no row here, each with the reason: a
/// capability row must have a price or say why not (tested), so a dry run's `–` is explained.
pub const UNPRICED: &[(&str, &str)] = &[
    (
        "claude-opus-5",
        "no public price when the table was checked",
    ),
    (
        "claude-sonnet-5",
        "no public price when the table was checked",
    ),
    (
        "claude-mythos-5",
        "no public price when the table was checked",
    ),
    (
        "claude-fable-5",
        "no public price when the table was checked",
    ),
    (
        "claude-mythos-preview",
        "an invitation-only research preview with no public price",
    ),
    ("claude-3-sonnet", "retired: the API no longer serves it"),
    ("claude-3-opus", "retired: the API no longer serves it"),
    ("claude-3-5-sonnet", "retired: the API no longer serves it"),
    ("gemini-1.5-pro", "retired: the API no longer serves it"),
    ("gemini-1.5-flash", "retired: the API no longer serves it"),
    (
        "gemini-1.5-flash-8b",
        "retired: the API no longer serves it",
    ),
    (
        "gpt-5.*",
        "a pattern: each GPT-5.x is priced by its own row (gpt-5.1), a later one by none",
    ),
    (
        "gemini-3*",
        "a pattern: Gemini 3 models are priced by their own rows once listed, by none before",
    ),
];

/// Why `model` on `provider` has no price, when the table says.
pub fn unpriced_reason(model: &str) -> Option<&'static str> {
    super::matching::longest(UNPRICED.iter(), |(id, _)| std::slice::from_ref(id), model)
        .map(|(_, why)| *why)
}

/// The fraction of the live price the provider's batch API charges, for providers that have
/// one (all three halve it).
pub fn batch_discount(provider: &str) -> Option<f64> {
    matches!(
        provider,
        "anthropic" | "openai" | "openai-responses" | "gemini"
    )
    .then_some(0.5)
}

/// The row for `model` on `provider`: the family whose id it is, or a dated snapshot of;
/// none for a model not listed (its cost is then unknown, never a neighbour's).
pub fn lookup(provider: &str, model: &str) -> Option<&'static Entry> {
    super::matching::longest(
        TABLE.iter().filter(|e| e.providers.contains(&provider)),
        |e| e.ids,
        model,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(provider: &str, model: &str) -> Option<f64> {
        lookup(provider, model).map(|e| e.price.input)
    }

    #[test]
    fn a_family_prices_its_snapshots_and_never_a_later_version() {
        assert_eq!(input("openai", "gpt-4o-mini-2024-07-18"), Some(0.15));
        assert_eq!(input("openai", "gpt-4o-2024-08-06"), Some(2.5));
        assert_eq!(input("anthropic", "claude-sonnet-4-5-20250929"), Some(3.0));
        assert_eq!(input("anthropic", "claude-sonnet-4-20250514"), Some(3.0));
        // The bug this table fixes: Opus 4.6 was priced as Opus 4 by prefix, 3x too high.
        assert_eq!(input("anthropic", "claude-opus-4-6"), Some(5.0));
        assert_eq!(input("anthropic", "claude-opus-4-1"), Some(15.0));
        assert_eq!(input("anthropic", "claude-opus-4-1-20250805"), Some(15.0));
        let opus = lookup("anthropic", "claude-opus-4-5").unwrap().price;
        assert_eq!(
            (opus.output, opus.cache_write, opus.cache_read),
            (25.0, Some(6.25), Some(0.5))
        );
        // Not listed: no price rather than a neighbour's.
        assert_eq!(input("anthropic", "claude-opus-4-9"), None);
        assert_eq!(input("anthropic", "claude-sonnet-4-6"), Some(3.0));
        assert_eq!(input("anthropic", "claude-sonnet-4-7"), None);
        assert_eq!(input("openai", "gpt-5.5"), None);
        assert_eq!(input("openai", "o3-deep-research"), None);
        assert_eq!(input("openai", "gpt-5-pro"), Some(15.0));
        assert_eq!(input("openai", "o3-pro-2025-06-10"), Some(20.0));
        assert_eq!(input("gemini", "models/gemini-2.5-flash-lite"), Some(0.1));
        assert_eq!(
            input("gemini", "gemini-2.5-flash-preview-09-2025"),
            Some(0.3)
        );
        assert!(lookup("openai-compatible", "gpt-4o").is_none());
        assert!(lookup("gemini", "gpt-4o").is_none());
    }

    /// Every model the capability table names has a price here, or a stated reason in
    /// [`UNPRICED`] (never both: a reason beside a price would be stale).
    #[test]
    fn every_capability_model_has_a_price_or_a_reason() {
        use crate::providers::capabilities::{Api, TABLE as CAPS};
        let mut missing = Vec::new();
        for row in CAPS {
            let provider = match row.api {
                Api::Anthropic => "anthropic",
                Api::OpenAi => "openai",
                Api::Gemini => "gemini",
            };
            for id in row.ids {
                let priced = !id.ends_with('*') && lookup(provider, id).is_some();
                let reason = UNPRICED.iter().any(|(u, _)| u == id);
                assert!(!(priced && reason), "{id} has a price and a reason");
                if !priced && !reason {
                    missing.push(*id);
                }
            }
        }
        assert!(missing.is_empty(), "no price and no reason: {missing:?}");
        assert_eq!(
            unpriced_reason("claude-3-opus-20240229"),
            Some("retired: the API no longer serves it")
        );
        assert_eq!(unpriced_reason("claude-sonnet-4-6"), None);
    }
}
