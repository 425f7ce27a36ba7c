//! `jsonl`: JSON Lines, one minified record per line (no root object).

use super::{Encoder, FormatError, FormatSpec};
use serde_json::{Map, Value};

/// One record per line.
pub struct Jsonl;

/// JSON Lines.
pub static JSONL: FormatSpec = FormatSpec {
    name: "jsonl",
    display: "JSON Lines",
    extension: "jsonl",
    fence: "jsonl",
    flat_only: false,
    extra: true,
    primer: "JSON Lines: each line is one product as a JSON object; null means no value.",
    encoder: &Jsonl,
};

fn err(e: impl std::fmt::Display) -> FormatError {
    FormatError::new("jsonl", e)
}

impl Encoder for Jsonl {
    fn encode(&self, doc: &Value) -> Result<String, FormatError> {
        let products = doc
            .get("products")
            .and_then(Value::as_array)
            .ok_or_else(|| err("expected {\"products\": [...]}"))?;
        let mut out = String::new();
        for p in products {
            out.push_str(&serde_json::to_string(p).map_err(err)?);
            out.push('\n');
        }
        Ok(out)
    }

    fn decode(&self, text: &str) -> Result<Value, FormatError> {
        let products = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| serde_json::from_str(l).map_err(|e| err(format!("line {}: {e}", i + 1))))
            .collect::<Result<Vec<Value>, _>>()?;
        let mut root = Map::new();
        root.insert("products".into(), Value::Array(products));
        Ok(Value::Object(root))
    }
}
