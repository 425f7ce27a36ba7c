//! Renderers: one file per format family behind the small [`Encoder`] trait, named by [`Format`].
//! Each encoder also decodes its own output, which is the round-trip proof and what the
//! reference provider reads.

mod csv;
mod json;
mod scalar;
pub mod toon;
mod toon_v3;
mod xml;
mod yaml;

use crate::dataset::Structure;
use serde_json::Value;
use std::fmt;

/// Renders a `{"products": [...]}` document as text and reads it back.
pub trait Encoder: Sync {
    /// Renders the document.
    fn encode(&self, doc: &Value) -> Result<String, FormatError>;
    /// Parses text this encoder produced back into a document.
    fn decode(&self, text: &str) -> Result<Value, FormatError>;
}

/// A format could not render or parse a document.
#[derive(Debug, thiserror::Error)]
#[error("{format}: {message}")]
pub struct FormatError {
    /// Format name.
    pub format: &'static str,
    /// What went wrong, with the line where known.
    pub message: String,
}

impl FormatError {
    /// Builds an error for `format`.
    pub fn new(format: &'static str, message: impl fmt::Display) -> Self {
        Self {
            format,
            message: message.to_string(),
        }
    }
}

/// Every format bench can render. Names are part of file names, the CLI and JSONL.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    clap::ValueEnum,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
#[value(rename_all = "snake_case")]
pub enum Format {
    /// Comma-separated values, one row per record (flat only).
    Csv,
    /// Minified JSON.
    JsonCompact,
    /// JSON indented by 2 spaces.
    JsonPretty,
    /// TOON spec v3, key folding off.
    ToonDefault,
    /// TOON spec v3, safe key folding.
    ToonKeyfold,
    /// XML without whitespace between elements.
    XmlCompact,
    /// XML indented by 2 spaces.
    XmlPretty,
    /// YAML block style.
    Yaml,
}

impl Format {
    /// The default set of the `formats` suite.
    pub const DEFAULT: [Format; 8] = [
        Format::Csv,
        Format::JsonCompact,
        Format::JsonPretty,
        Format::ToonDefault,
        Format::ToonKeyfold,
        Format::XmlCompact,
        Format::XmlPretty,
        Format::Yaml,
    ];

    /// Every registered format.
    pub const ALL: [Format; 8] = Format::DEFAULT;

    /// Static facts about the format: name, extension, fence language, encoder.
    pub fn spec(self) -> &'static FormatSpec {
        match self {
            Format::Csv => &csv::CSV,
            Format::JsonCompact => &json::JSON_COMPACT,
            Format::JsonPretty => &json::JSON_PRETTY,
            Format::ToonDefault => &toon_v3::TOON_DEFAULT,
            Format::ToonKeyfold => &toon_v3::TOON_KEYFOLD,
            Format::XmlCompact => &xml::XML_COMPACT,
            Format::XmlPretty => &xml::XML_PRETTY,
            Format::Yaml => &yaml::YAML,
        }
    }

    /// Name used in file names, CLI and JSONL.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// Looks a format up by name.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether the format can render `structure`.
    pub fn supports(self, structure: Structure) -> bool {
        structure == Structure::Flat || !self.spec().flat_only
    }

    /// Renders a document.
    pub fn encode(self, doc: &Value) -> Result<String, FormatError> {
        self.spec().encoder.encode(doc)
    }

    /// Parses a rendering back into a document.
    pub fn decode(self, text: &str) -> Result<Value, FormatError> {
        self.spec().encoder.decode(text)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Static description of one format.
pub struct FormatSpec {
    /// Name used in file names, CLI and JSONL.
    pub name: &'static str,
    /// Human name shown to the model ("TOON", "JSON").
    pub display: &'static str,
    /// File extension without the dot.
    pub extension: &'static str,
    /// Info string of the fenced code block in prompts.
    pub fence: &'static str,
    /// Only the flat structure can be rendered.
    pub flat_only: bool,
    /// The renderer.
    pub encoder: &'static dyn Encoder,
}

/// Semantic equality of decoded documents: numbers compare by value, so `20` equals `20.0`.
pub fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_value(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, va), (kb, vb))| ka == kb && same_value(va, vb))
        }
        _ => a == b,
    }
}
