//! `jsonl`: JSON Lines, one minified record per line (no root object): a document that is, or
//! holds under one key, an array of records; decoding gives the bare array back.

use super::encoder::{Encoder, FormatSpec, Splice};
use super::error::FormatError;
use super::shape::records;
use serde_json::Value;

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
        let mut out = String::new();
        for (i, p) in records("jsonl", doc)?.items.into_iter().enumerate() {
            let deep = 1 + p.values().map(super::shape::depth).max().unwrap_or(0);
            if deep > super::json::MAX_DEPTH {
                return Err(FormatError::cannot_represent(
                    "jsonl",
                    format!(
                        "record {i} nests lists and objects {deep} deep; its reader stops at {}",
                        super::json::MAX_DEPTH
                    ),
                ));
            }
            out.push_str(&serde_json::to_string(p).map_err(err)?);
            out.push('\n');
        }
        Ok(out)
    }

    fn decode(&self, text: &str) -> Result<Value, FormatError> {
        let records = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| serde_json::from_str(l).map_err(|e| err(format!("line {}: {e}", i + 1))))
            .collect::<Result<Vec<Value>, _>>()?;
        Ok(Value::Array(records))
    }

    fn splice(&self) -> Option<Splice> {
        Some(Splice::joined(""))
    }

    fn frame(&self, _text: &str, _key: &str) -> Option<(usize, usize)> {
        Some((0, 0))
    }
}
