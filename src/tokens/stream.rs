//! Token counts of a text given in pieces, without holding the text: the pieces are gathered
//! until about [`FLUSH`] bytes, then counted up to the last place where the cut rules of
//! [`super::segments`] start a new pre-tokenizer piece, so the sum equals the count of the whole
//! text. A tokenizer outside [`Tokenizer::CUT`] keeps its whole text and counts it at the end.

use super::{Tokenizer, is_cut};
use std::collections::BTreeMap;

/// Text gathered before a count: large enough that a cut is always near, small enough to hold.
const FLUSH: usize = 1 << 20;

/// Counts a text piece by piece; [`Counter::finish`] gives the counts of the whole text.
pub struct Counter {
    /// Tokenizers whose pieces may be counted apart.
    cut: Vec<Tokenizer>,
    /// Tokenizers that count the whole text at the end.
    whole: Vec<Tokenizer>,
    /// Text not yet counted by the `cut` tokenizers.
    pending: String,
    /// The last cut in `pending` (a text without one is held until it has one).
    last_cut: Option<usize>,
    /// The whole text, for the `whole` tokenizers (empty when there are none).
    kept: String,
    /// Counts so far, per tokenizer name.
    tokens: BTreeMap<String, usize>,
    /// Unicode scalar values so far.
    chars: usize,
    /// UTF-8 bytes so far.
    bytes: usize,
}

impl Counter {
    /// A counter for `tokenizers`.
    pub fn new(tokenizers: &[Tokenizer]) -> Self {
        let (cut, whole) = tokenizers.iter().partition(|t| Tokenizer::CUT.contains(t));
        Self {
            cut,
            whole,
            pending: String::new(),
            last_cut: None,
            kept: String::new(),
            tokens: tokenizers
                .iter()
                .map(|t| (t.name().to_string(), 0))
                .collect(),
            chars: 0,
            bytes: 0,
        }
    }

    /// Adds the next piece of the text.
    pub fn push(&mut self, piece: &str) {
        self.chars += piece.chars().count();
        self.bytes += piece.len();
        if !self.whole.is_empty() {
            self.kept.push_str(piece);
        }
        if self.cut.is_empty() {
            return;
        }
        // Only the new bytes and the one before them are looked at: a rule looks one byte on
        // at most, so a cut found now is a cut of the whole text, and the last one found is
        // the last there is.
        let from = self.pending.len().saturating_sub(1).max(1);
        self.pending.push_str(piece);
        let b = self.pending.as_bytes();
        if let Some(p) = (from..b.len()).rev().find(|&p| is_cut(b, p)) {
            self.last_cut = Some(p);
        }
        if self.pending.len() >= FLUSH
            && let Some(end) = self.last_cut.take()
        {
            self.count(end);
        }
    }

    /// Counts `pending[..end]` with the `cut` tokenizers and drops it.
    fn count(&mut self, end: usize) {
        for t in &self.cut {
            *self.tokens.get_mut(t.name()).expect("every tokenizer") +=
                t.count(&self.pending[..end]);
        }
        self.pending.drain(..end);
    }

    /// The counts of the whole text, per tokenizer name, with its chars and bytes.
    pub fn finish(mut self) -> (BTreeMap<String, usize>, usize, usize) {
        self.count(self.pending.len());
        for t in &self.whole {
            *self.tokens.get_mut(t.name()).expect("every tokenizer") += t.count(&self.kept);
        }
        (self.tokens, self.chars, self.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_counted_in_pieces_counts_as_the_whole() {
        // Product-like text over two flushes, given in pieces of awkward sizes that cut
        // words, numbers and space runs in two.
        let line = "  - id: 42\n    name: \"Ünïcode  café 日本\"\n    price: 1234.5678\n\n";
        let text = line.repeat((5 * FLUSH / 2) / line.len());
        // DeepSeek-V3 takes seconds per megabyte of this text: it sees a shorter one.
        let short = &text[..line.len() * 50];
        for (text, piece) in [(text.as_str(), 7usize), (&text, 100_003), (short, 5)] {
            let tokenizers: &[Tokenizer] = if text.len() < FLUSH {
                &Tokenizer::ALL
            } else {
                &Tokenizer::CUT
            };
            let mut c = Counter::new(tokenizers);
            let mut rest = text;
            while !rest.is_empty() {
                let mut at = piece.min(rest.len());
                while !rest.is_char_boundary(at) {
                    at += 1;
                }
                c.push(&rest[..at]);
                rest = &rest[at..];
            }
            let (tokens, chars, bytes) = c.finish();
            assert_eq!((chars, bytes), (text.chars().count(), text.len()));
            assert_eq!(tokens.len(), tokenizers.len());
            for t in tokenizers {
                assert_eq!(
                    tokens[t.name()],
                    t.count_whole(text),
                    "{t} in pieces of {piece}"
                );
            }
        }
    }
}
