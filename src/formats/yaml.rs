//! `yaml`, block style, via serde-saphyr.

use super::{Encoder, FormatError, FormatSpec, Splice};
use serde_json::Value;

/// YAML block style.
pub struct Yaml;

/// YAML block style.
pub static YAML: FormatSpec = FormatSpec {
    name: "yaml",
    display: "YAML",
    extension: "yaml",
    fence: "yaml",
    flat_only: false,
    extra: false,
    primer: "YAML: `products` is a list with one mapping per product (`- ` starts a product); null means no value.",
    encoder: &Yaml,
};

impl Encoder for Yaml {
    fn encode(&self, doc: &Value) -> Result<String, FormatError> {
        serde_saphyr::to_string(doc).map_err(|e| FormatError::new("yaml", e))
    }

    fn decode(&self, text: &str) -> Result<Value, FormatError> {
        serde_saphyr::from_str(text)
            .map_err(|e| FormatError::new("yaml", crate::error::one_line(&e.to_string())))
    }

    fn splice(&self) -> Option<Splice> {
        Some(Splice::joined(""))
    }

    fn frame(&self, text: &str, key: &str) -> Option<(usize, usize)> {
        super::framed(text, &format!("{key}:\n"), "")
    }
}
