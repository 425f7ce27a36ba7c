//! TOON (Token-Oriented Object Notation) spec v3 encoder and decoder.
//!
//! Output is byte-identical to the reference TypeScript encoder
//! (`@toon-format/toon` 2.1.0) except where the v3.3.2 fixtures demand
//! otherwise: empty arrays as `key: []`, `""` kept on empty-key array headers,
//! C0 control characters quoted as `\u00XX`, and numbers never in exponent
//! form (the reference prints `1e+21` / `1e-7`).
//!
//! Number policy: integers that fit `i64`/`u64` are written and read exactly;
//! everything else goes through `f64` (shortest round-trip digits, like JS).
//! Decoding turns integral values below 2^53 into integers (`2.5e2` → 250) and
//! keeps tokens outside `-?\d+(\.\d+)?(e[+-]?\d+)?`, with leading zeros, or
//! beyond `f64` range as strings.
//! Tabs in indentation are rejected in strict mode and ignored (not counted as
//! depth) in non-strict mode.
//!
//! The encoder walks any [`Node`] tree: `serde_json::Value`, or for large inputs
//! the compact [`Json`] tree ([`encode_json_text`]), which borrows strings from
//! the JSON text and needs about a sixth of `Value`'s memory.

mod decode;
mod encode;
mod error;
mod expand;
mod options;
mod text;
mod tree;

#[cfg(test)]
mod tests;

use serde_json::Value;

pub use error::ToonError;
pub use options::{DecodeOptions, Delimiter, EncodeOptions, KeyFolding, Spec};
pub use tree::{Json, Node, Object, Str, View};

/// How chunks of records join (see [`crate::formats::stream`]): the head is the
/// `key[N]…:` line, which states the count; rows have no line break after the last.
pub const SPLICE: crate::formats::encoder::Splice = crate::formats::encoder::Splice {
    counted: true,
    ..crate::formats::encoder::Splice::joined("\n")
};

/// Encodes a JSON value as a TOON document (no trailing newline).
pub fn encode(value: &Value, opts: &EncodeOptions) -> String {
    encode::encode(value, opts)
}

/// Encodes any [`Node`] tree, e.g. a [`Json`], exactly as [`encode`] would the equivalent `Value`.
pub fn encode_node<N: Node>(value: &N, opts: &EncodeOptions) -> String {
    encode::encode(value, opts)
}

/// Encodes JSON text through the compact [`Json`] tree, which needs a fraction of `Value`'s memory.
pub fn encode_json_text(json: &str, opts: &EncodeOptions) -> Result<String, serde_json::Error> {
    Ok(encode::encode(&Json::parse(json)?, opts))
}

/// Decodes a TOON document into a JSON value.
pub fn decode(text: &str, opts: &DecodeOptions) -> Result<Value, ToonError> {
    decode::decode(text, opts)
}
