//! Renderers: one file per format family behind the small [`Encoder`] trait, named by [`Format`].
//! Each encoder also decodes its own output, which is the round-trip proof and what the
//! reference provider reads.

mod csv;
mod encoder;
mod error;
mod html_table;
mod ini;
mod json;
mod jsonl;
mod kv_paths;
pub mod locate;
mod markdown_kv;
mod markdown_table;
mod shape;
pub mod stream;
mod tealeaf;
pub mod toon;
mod toon_v3;
mod toon_v4;
mod xml;
mod yaml;

pub use encoder::{Encoder, FormatSpec, Learned, Splice, framed, lines};
pub use error::{ErrorKind, FormatError};
pub use shape::{
    Records, depth, flat_chunk, flat_records, learn_columns, no_empty_strings, records,
    structure_of, structure_of_records, within_depth,
};

use crate::dataset::Structure;
use serde_json::{Map, Value};
use std::fmt;

/// Declares [`Format`]: one line per format, `Variant => module::SPEC`. The variant's
/// snake_case name is the format's name; adding a format is one file plus one line here.
macro_rules! formats {
    ($($(#[$doc:meta])* $variant:ident => $spec:path,)*) => {
        /// Every format bench can render. Names are part of file names, the CLI and JSONL.
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord,
            clap::ValueEnum, serde::Serialize, serde::Deserialize,
        )]
        #[serde(rename_all = "snake_case")]
        #[value(rename_all = "snake_case")]
        pub enum Format {
            $($(#[$doc])* $variant,)*
        }

        impl Format {
            /// Every registered format, in table order.
            pub const ALL: &'static [Format] = &[$(Format::$variant,)*];

            /// Static facts about the format: name, extension, fence language, encoder.
            pub fn spec(self) -> &'static FormatSpec {
                match self {
                    $(Format::$variant => &$spec,)*
                }
            }
        }
    };
}

formats! {
    /// Comma-separated values, one row per record (flat only).
    Csv => csv::CSV,
    /// Minified JSON.
    JsonCompact => json::JSON_COMPACT,
    /// JSON indented by 2 spaces.
    JsonPretty => json::JSON_PRETTY,
    /// TOON spec v3, key folding off.
    ToonDefault => toon_v3::TOON_DEFAULT,
    /// TOON spec v3, safe key folding.
    ToonKeyfold => toon_v3::TOON_KEYFOLD,
    /// XML without whitespace between elements.
    XmlCompact => xml::XML_COMPACT,
    /// XML indented by 2 spaces.
    XmlPretty => xml::XML_PRETTY,
    /// YAML block style.
    Yaml => yaml::YAML,
    /// GitHub Markdown table (flat only).
    MarkdownTable => markdown_table::MARKDOWN_TABLE,
    /// JSON Lines: one record per line.
    Jsonl => jsonl::JSONL,
    /// TeaLeaf: `@struct` schemas and `@table` positional tuples.
    Tealeaf => tealeaf::TEALEAF,
    /// TOON spec v4.0: nested field groups, keyed tables, no key folding.
    ToonV4 => toon_v4::TOON_V4,
    /// Tab-separated values, one row per record (flat only).
    Tsv => csv::TSV,
    /// Pipe-separated values, one row per record (flat only).
    Psv => csv::PSV,
    /// One HTML `<table>`, a row per record (flat only).
    HtmlTable => html_table::HTML_TABLE,
    /// Markdown key-value: a `## Record N` heading and a fenced block of `key: value` lines.
    MarkdownKv => markdown_kv::MARKDOWN_KV,
    /// INI: a `[Record N]` section of `key = value` lines per record.
    Ini => ini::INI,
}

impl Format {
    /// The default set of the `formats` suite: every format not marked extra.
    pub fn defaults() -> Vec<Format> {
        Format::ALL
            .iter()
            .copied()
            .filter(|f| !f.spec().extra)
            .collect()
    }

    /// Name used in file names, CLI and JSONL.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// Looks a format up by name.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.iter().copied().find(|f| f.name() == name)
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

    /// Parses a rendering back into the shape it was rendered from: a tabular format's bare
    /// array of records goes back under `root_key` (see [`Records::key`]).
    pub fn decode_as(self, text: &str, root_key: Option<&str>) -> Result<Value, FormatError> {
        let doc = self.decode(text)?;
        Ok(match (doc, root_key) {
            (Value::Array(items), Some(key)) => {
                let mut root = Map::new();
                root.insert(key.to_string(), Value::Array(items));
                Value::Object(root)
            }
            (doc, _) => doc,
        })
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
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
