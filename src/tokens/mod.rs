//! Tokenizer registry and token metrics. Counts use `encode_ordinary` semantics: special-token
//! text such as `<|endoftext|>` is counted as plain text, exactly like python `tiktoken`'s
//! `encode_ordinary`.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use tiktoken_rs::CoreBPE;

/// A tokenizer bench can count with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[derive(clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
#[value(rename_all = "snake_case")]
pub enum Tokenizer {
    /// GPT-4o, GPT-4.1, GPT-5, o-series.
    O200kBase,
    /// GPT-4, GPT-3.5-turbo, text-embedding-3.
    Cl100kBase,
}

impl Tokenizer {
    /// Every tokenizer, in display order.
    pub const ALL: [Tokenizer; 2] = [Tokenizer::O200kBase, Tokenizer::Cl100kBase];

    /// Name used in the CLI, JSONL and SQL.
    pub fn name(self) -> &'static str {
        match self {
            Tokenizer::O200kBase => "o200k_base",
            Tokenizer::Cl100kBase => "cl100k_base",
        }
    }

    fn bpe(self) -> &'static CoreBPE {
        match self {
            Tokenizer::O200kBase => tiktoken_rs::o200k_base_singleton(),
            Tokenizer::Cl100kBase => tiktoken_rs::cl100k_base_singleton(),
        }
    }

    /// Number of tokens in `text`.
    pub fn count(self, text: &str) -> usize {
        self.bpe().encode_ordinary(text).len()
    }
}

impl fmt::Display for Tokenizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Counts `text` with each tokenizer, one thread per tokenizer.
pub fn count_all(text: &str, tokenizers: &[Tokenizer]) -> BTreeMap<String, usize> {
    std::thread::scope(|s| {
        let handles: Vec<_> = tokenizers.iter().map(|&t| (t, s.spawn(move || t.count(text)))).collect();
        handles
            .into_iter()
            .map(|(t, h)| (t.name().to_string(), h.join().expect("tokenizer thread panicked")))
            .collect()
    })
}

/// Size figures of one rendered file, the `data_stats` of a result.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct DataStats {
    /// Unicode scalar values.
    pub chars: usize,
    /// UTF-8 bytes.
    pub bytes: usize,
    /// Non-null leaf values in the document.
    pub values: usize,
    /// Records (objects in the products array).
    pub objects: usize,
    /// Token count per tokenizer name.
    pub tokens: BTreeMap<String, usize>,
}

impl DataStats {
    /// Measures `text`, which renders a document with `values` leaves and `objects` records.
    pub fn measure(text: &str, values: usize, objects: usize, tokenizers: &[Tokenizer]) -> Self {
        Self { chars: text.chars().count(), bytes: text.len(), values, objects, tokens: count_all(text, tokenizers) }
    }

    /// Tokens of one tokenizer (0 if it was not counted).
    pub fn tokens_of(&self, t: Tokenizer) -> usize {
        self.tokens.get(t.name()).copied().unwrap_or(0)
    }

    /// Characters per token.
    pub fn chars_per_token(&self, t: Tokenizer) -> f64 {
        ratio(self.chars, self.tokens_of(t))
    }

    /// Tokens per non-null leaf value.
    pub fn tokens_per_value(&self, t: Tokenizer) -> f64 {
        ratio(self.tokens_of(t), self.values)
    }

    /// Tokens per record.
    pub fn tokens_per_object(&self, t: Tokenizer) -> f64 {
        ratio(self.tokens_of(t), self.objects)
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}
