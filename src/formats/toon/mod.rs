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
mod expand;
mod text;
mod tree;

#[cfg(test)]
mod tests;

use serde_json::Value;

pub use tree::{Json, Node, Object, Str, View};

/// How chunks of records join (see [`crate::formats::stream`]): the head is the
/// `key[N]…:` line, which states the count; rows have no line break after the last.
pub const SPLICE: crate::formats::encoder::Splice = crate::formats::encoder::Splice {
    counted: true,
    ..crate::formats::encoder::Splice::joined("\n")
};

/// Whether the encoder collapses chains of single-key objects into dotted keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KeyFolding {
    /// Never fold; every object level gets its own line.
    #[default]
    Off,
    /// Fold chains whose segments are identifiers and whose result collides with no sibling.
    Safe,
}

/// Separator used for inline arrays and tabular rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Delimiter {
    /// `,` (the default; not marked in headers).
    #[default]
    Comma,
    /// Horizontal tab, marked as `[N\t]` in headers.
    Tab,
    /// `|`, marked as `[N|]` in headers.
    Pipe,
}

impl Delimiter {
    /// The delimiter as a single ASCII byte.
    pub fn as_byte(self) -> u8 {
        match self {
            Delimiter::Comma => b',',
            Delimiter::Tab => b'\t',
            Delimiter::Pipe => b'|',
        }
    }
}

/// Which TOON spec to follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Spec {
    /// v3.3: key folding and path expansion available; tables hold primitives only.
    #[default]
    V3,
    /// v4.0: nested field groups (`a{b,c}` columns), keyed tables (`key[N:]{…}:`), `#`
    /// comment lines; key folding and path expansion are gone (dotted keys are literal).
    V4,
}

/// Options for [`encode`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeOptions {
    /// Spec version (default v3).
    pub spec: Spec,
    /// Spaces per indentation level (default 2).
    pub indent: usize,
    /// Document delimiter for arrays and quoting decisions (default comma).
    pub delimiter: Delimiter,
    /// Key folding mode (default off).
    pub key_folding: KeyFolding,
    /// Maximum number of segments in one folded key (default `usize::MAX`, i.e. unlimited).
    pub flatten_depth: usize,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        Self {
            spec: Spec::V3,
            indent: 2,
            delimiter: Delimiter::Comma,
            key_folding: KeyFolding::Off,
            flatten_depth: usize::MAX,
        }
    }
}

/// Options for [`decode`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Spec version (default v3).
    pub spec: Spec,
    /// Spaces per indentation level (default 2).
    pub indent: usize,
    /// Enforce counts, indentation, blank-line and duplicate-key rules (default true).
    pub strict: bool,
    /// Expand unquoted dotted keys into nested objects, i.e. `expandPaths: "safe"` (default false).
    pub expand_paths: bool,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        Self {
            spec: Spec::V3,
            indent: 2,
            strict: true,
            expand_paths: false,
        }
    }
}

/// A decoding failure with the 1-based line number where it was detected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ToonError {
    /// 1-based line number of the offending line.
    pub line: usize,
    /// Human-readable description of the problem.
    pub message: String,
}

impl ToonError {
    pub(crate) fn new(line: usize, message: impl Into<String>) -> Self {
        Self {
            line,
            message: message.into(),
        }
    }
}

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
