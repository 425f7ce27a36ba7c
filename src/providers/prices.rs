//! Built-in list prices, USD per 1M tokens, for common models. Dated: prices change, so a
//! `price` in the config overrides them, and models not listed get no cost (null, not 0).

use super::Price;

/// When these prices were copied from the providers' price pages.
pub const AS_OF: &str = "2025-11-01";

/// One row of the table: models whose id starts with `prefix` on these wire APIs.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// Wire APIs the row applies to.
    pub providers: &'static [&'static str],
    /// Model id prefix (dated snapshots share their family's price).
    pub prefix: &'static str,
    /// The price.
    pub price: Price,
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

const fn e(providers: &'static [&'static str], prefix: &'static str, price: Price) -> Entry {
    Entry {
        providers,
        prefix,
        price,
    }
}

/// The table. Cache writes: Anthropic's 5-minute write price; OpenAI and Gemini cache
/// implicitly and charge nothing extra to write.
pub const TABLE: &[Entry] = &[
    e(ANTHROPIC, "claude-opus-4-5", p(5.0, 25.0, 0.5, 6.25)),
    e(ANTHROPIC, "claude-opus-4", p(15.0, 75.0, 1.5, 18.75)),
    e(ANTHROPIC, "claude-sonnet-4", p(3.0, 15.0, 0.3, 3.75)),
    e(ANTHROPIC, "claude-3-7-sonnet", p(3.0, 15.0, 0.3, 3.75)),
    e(ANTHROPIC, "claude-haiku-4-5", p(1.0, 5.0, 0.1, 1.25)),
    e(ANTHROPIC, "claude-3-5-haiku", p(0.8, 4.0, 0.08, 1.0)),
    e(OPENAI, "gpt-5-nano", p(0.05, 0.4, 0.005, 0.05)),
    e(OPENAI, "gpt-5-mini", p(0.25, 2.0, 0.025, 0.25)),
    e(OPENAI, "gpt-5", p(1.25, 10.0, 0.125, 1.25)),
    e(OPENAI, "gpt-4.1-nano", p(0.1, 0.4, 0.025, 0.1)),
    e(OPENAI, "gpt-4.1-mini", p(0.4, 1.6, 0.1, 0.4)),
    e(OPENAI, "gpt-4.1", p(2.0, 8.0, 0.5, 2.0)),
    e(OPENAI, "gpt-4o-mini", p(0.15, 0.6, 0.075, 0.15)),
    e(OPENAI, "gpt-4o", p(2.5, 10.0, 1.25, 2.5)),
    e(OPENAI, "o4-mini", p(1.1, 4.4, 0.275, 1.1)),
    e(OPENAI, "o3-mini", p(1.1, 4.4, 0.55, 1.1)),
    e(OPENAI, "o3", p(2.0, 8.0, 0.5, 2.0)),
    e(GEMINI, "gemini-2.5-pro", p(1.25, 10.0, 0.125, 1.25)),
    e(GEMINI, "gemini-2.5-flash-lite", p(0.1, 0.4, 0.01, 0.1)),
    e(GEMINI, "gemini-2.5-flash", p(0.3, 2.5, 0.03, 0.3)),
    e(GEMINI, "gemini-2.0-flash", p(0.1, 0.4, 0.025, 0.1)),
];

/// The fraction of the live price the provider's batch API charges, for providers that have
/// one (all three halve it).
pub fn batch_discount(provider: &str) -> Option<f64> {
    matches!(
        provider,
        "anthropic" | "openai" | "openai-responses" | "gemini"
    )
    .then_some(0.5)
}

/// The row for `model` on `provider`: the longest matching prefix.
pub fn lookup(provider: &str, model: &str) -> Option<&'static Entry> {
    TABLE
        .iter()
        .filter(|e| e.providers.contains(&provider) && model.starts_with(e.prefix))
        .max_by_key(|e| e.prefix.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_prefix_wins_and_families_stay_apart() {
        assert_eq!(
            lookup("openai", "gpt-4o-mini-2024-07-18").unwrap().prefix,
            "gpt-4o-mini"
        );
        assert_eq!(
            lookup("openai", "gpt-4o-2024-08-06").unwrap().prefix,
            "gpt-4o"
        );
        assert_eq!(
            lookup("anthropic", "claude-sonnet-4-5-20250929")
                .unwrap()
                .price
                .input,
            3.0
        );
        assert_eq!(
            lookup("anthropic", "claude-opus-4-5").unwrap().price.input,
            5.0
        );
        assert!(lookup("openai-compatible", "gpt-4o").is_none());
        assert!(lookup("gemini", "gpt-4o").is_none());
    }
}
