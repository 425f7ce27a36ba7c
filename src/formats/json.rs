//! `json_compact` and `json_pretty`.

use super::{Encoder, FormatError, FormatSpec, Splice};
use serde_json::Value;

/// JSON, minified or indented by 2 spaces.
pub struct Json {
    name: &'static str,
    pretty: bool,
}

/// Minified JSON.
pub static JSON_COMPACT: FormatSpec = FormatSpec {
    name: "json_compact",
    display: "JSON",
    extension: "json",
    fence: "json",
    flat_only: false,
    extra: false,
    primer: "JSON: an object whose \"products\" array holds one object per product; null means no value.",
    encoder: &Json {
        name: "json_compact",
        pretty: false,
    },
};

/// JSON indented by 2 spaces.
pub static JSON_PRETTY: FormatSpec = FormatSpec {
    name: "json_pretty",
    display: "JSON",
    extension: "json",
    fence: "json",
    flat_only: false,
    extra: false,
    primer: "JSON: an object whose \"products\" array holds one object per product; null means no value.",
    encoder: &Json {
        name: "json_pretty",
        pretty: true,
    },
};

impl Encoder for Json {
    fn encode(&self, doc: &Value) -> Result<String, FormatError> {
        let out = if self.pretty {
            serde_json::to_string_pretty(doc)
        } else {
            serde_json::to_string(doc)
        };
        out.map_err(|e| FormatError::new(self.name, e))
    }

    fn decode(&self, text: &str) -> Result<Value, FormatError> {
        serde_json::from_str(text).map_err(|e| FormatError::new(self.name, e))
    }

    fn splice(&self) -> Option<Splice> {
        Some(Splice::joined(if self.pretty { ",\n" } else { "," }))
    }

    fn frame(&self, text: &str, key: &str) -> Option<(usize, usize)> {
        let key = serde_json::to_string(key).ok()?;
        if self.pretty {
            super::framed(text, &format!("{{\n  {key}: [\n"), "\n  ]\n}")
        } else {
            super::framed(text, &format!("{{{key}:["), "]}")
        }
    }
}
