//! `csv`: header row plus one row per record; flat records only, null is an empty cell.
//! Decoding gives the bare array of records (CSV has no root key).

use super::{Encoder, FormatError, FormatSpec, flat_records, no_empty_strings, scalar};
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
        let records = flat_records("csv", doc)?;
        no_empty_strings("csv", &records)?;
        let mut w = csv::WriterBuilder::new()
            .terminator(csv::Terminator::Any(b'\n'))
            .from_writer(Vec::new());
        // A missing key is an empty cell, read back as null.
        let header = records.columns();
        w.write_record(&header).map_err(err)?;
        for r in &records.items {
            let row = header.iter().map(|key| {
                scalar::to_text(r.get(*key).unwrap_or(&Value::Null)).expect("flat_records")
            });
            w.write_record(row).map_err(err)?;
        }
        let bytes = w.into_inner().map_err(err)?;
        String::from_utf8(bytes).map_err(err)
    }

    fn decode(&self, text: &str) -> Result<Value, FormatError> {
        let mut r = csv::ReaderBuilder::new().from_reader(text.as_bytes());
        let header = r.headers().map_err(err)?.clone();
        let mut records = Vec::new();
        for (i, row) in r.records().enumerate() {
            let row = row.map_err(|e| err(format!("line {}: {e}", i + 2)))?;
            let obj: Map<String, Value> = header
                .iter()
                .zip(row.iter())
                .map(|(k, v)| (k.to_string(), scalar::infer(v)))
                .collect();
            records.push(Value::Object(obj));
        }
        Ok(Value::Array(records))
    }
}
