//! `csv`: header row plus one row per record; flat structure only, null is an empty cell.

use super::{Encoder, FormatError, FormatSpec, scalar};
use serde_json::{Map, Value};

/// RFC 4180 CSV via the `csv` crate.
pub struct Csv;

/// CSV, flat only.
pub static CSV: FormatSpec = FormatSpec {
    name: "csv",
    display: "CSV",
    extension: "csv",
    fence: "csv",
    flat_only: true,
    extra: false,
    primer: "CSV: the first line names the columns, each further line is one product; an empty cell means null.",
    encoder: &Csv,
};

fn err(e: impl std::fmt::Display) -> FormatError {
    FormatError::new("csv", e)
}

impl Encoder for Csv {
    fn encode(&self, doc: &Value) -> Result<String, FormatError> {
        let products = doc
            .get("products")
            .and_then(Value::as_array)
            .ok_or_else(|| err("expected {\"products\": [...]}"))?;
        let mut w = csv::WriterBuilder::new()
            .terminator(csv::Terminator::Any(b'\n'))
            .from_writer(Vec::new());
        let header: Vec<&String> = match products.first().and_then(Value::as_object) {
            Some(first) => first.keys().collect(),
            None => Vec::new(),
        };
        w.write_record(&header).map_err(err)?;
        for (i, p) in products.iter().enumerate() {
            let obj = p
                .as_object()
                .ok_or_else(|| err(format!("product {i} is not an object")))?;
            let mut row = Vec::with_capacity(header.len());
            for key in &header {
                let v = obj.get(*key).unwrap_or(&Value::Null);
                row.push(scalar::to_text(v).ok_or_else(|| {
                    err(format!(
                        "product {i}: field '{key}' is nested; CSV renders the flat structure only"
                    ))
                })?);
            }
            w.write_record(&row).map_err(err)?;
        }
        let bytes = w.into_inner().map_err(err)?;
        String::from_utf8(bytes).map_err(err)
    }

    fn decode(&self, text: &str) -> Result<Value, FormatError> {
        let mut r = csv::ReaderBuilder::new().from_reader(text.as_bytes());
        let header = r.headers().map_err(err)?.clone();
        let mut products = Vec::new();
        for (i, row) in r.records().enumerate() {
            let row = row.map_err(|e| err(format!("line {}: {e}", i + 2)))?;
            let obj: Map<String, Value> = header
                .iter()
                .zip(row.iter())
                .map(|(k, v)| (k.to_string(), scalar::infer(v)))
                .collect();
            products.push(Value::Object(obj));
        }
        let mut root = Map::new();
        root.insert("products".into(), Value::Array(products));
        Ok(Value::Object(root))
    }
}
