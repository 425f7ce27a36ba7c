//! The delimited family: a header row plus one row per record, flat records only, null is an
//! empty cell. `csv` separates cells with commas, `tsv` with tabs, `psv` with pipes. All three
//! follow RFC 4180's quoting with their own separator: a cell holding the separator, a double
//! quote, a carriage return or a newline is written in double quotes, its quotes doubled, so
//! any text reads back exactly (Python's `csv` module with `delimiter="\t"` or `"|"` reads them
//! the same way). Decoding gives the bare array of records (no root key).

use super::encoder::{Encoder, FormatSpec, Learned, Splice};
use super::error::FormatError;
use super::shape::{Records, flat_records, no_empty_strings};
use crate::scalar;
use serde_json::{Map, Value};

/// Delimited text via the `csv` crate, with `delimiter` between cells.
pub struct Delimited {
    /// Format name, for errors.
    format: &'static str,
    /// The cell separator.
    delimiter: u8,
}

/// CSV, flat only.
pub static CSV: FormatSpec = FormatSpec {
    name: "csv",
    display: "CSV",
    extension: "csv",
    fence: "csv",
    flat_only: true,
    extra: false,
    primer: "CSV: the first line names the columns, each further line is one product; an empty cell means null.",
    encoder: &Delimited {
        format: "csv",
        delimiter: b',',
    },
};

/// Tab-separated values, flat only.
pub static TSV: FormatSpec = FormatSpec {
    name: "tsv",
    display: "TSV (tab-separated values)",
    extension: "tsv",
    fence: "tsv",
    flat_only: true,
    extra: true,
    primer: "TSV: the first line names the columns, each further line is one product; cells are separated by tabs, a cell in double quotes may hold tabs or line breaks, and an empty cell means null.",
    encoder: &Delimited {
        format: "tsv",
        delimiter: b'\t',
    },
};

/// Pipe-separated values, flat only.
pub static PSV: FormatSpec = FormatSpec {
    name: "psv",
    display: "pipe-separated values",
    extension: "psv",
    fence: "psv",
    flat_only: true,
    extra: true,
    primer: "Pipe-separated values: the first line names the columns, each further line is one product; cells are separated by |, a cell in double quotes may hold | or line breaks, and an empty cell means null.",
    encoder: &Delimited {
        format: "psv",
        delimiter: b'|',
    },
};

impl Delimited {
    fn err(&self, e: impl std::fmt::Display) -> FormatError {
        FormatError::new(self.format, e)
    }

    /// The table of `records`: a header row of their columns, then one row each.
    fn table(&self, records: &Records<'_>) -> Result<String, FormatError> {
        no_empty_strings(self.format, records)?;
        let mut w = csv::WriterBuilder::new()
            .delimiter(self.delimiter)
            .terminator(csv::Terminator::Any(b'\n'))
            .from_writer(Vec::new());
        // A missing key is an empty cell, read back as null.
        let header = records.columns();
        w.write_record(&header).map_err(|e| self.err(e))?;
        for r in &records.items {
            let row = header.iter().map(|key| {
                scalar::to_text(r.get(*key).unwrap_or(&Value::Null)).expect("flat_records")
            });
            w.write_record(row).map_err(|e| self.err(e))?;
        }
        let bytes = w.into_inner().map_err(|e| self.err(e))?;
        String::from_utf8(bytes).map_err(|e| self.err(e))
    }
}

impl Encoder for Delimited {
    fn encode(&self, doc: &Value) -> Result<String, FormatError> {
        self.table(&flat_records(self.format, doc)?)
    }

    fn learns(&self) -> bool {
        true
    }

    fn learn(&self, chunk: &Value, learned: &mut Option<Learned>) {
        super::shape::learn_columns(chunk, learned);
    }

    fn encode_learned(&self, chunk: &Value, learned: &Learned) -> Result<String, FormatError> {
        self.table(&super::shape::flat_chunk(self.format, chunk, learned)?)
    }

    fn decode(&self, text: &str) -> Result<Value, FormatError> {
        let mut r = csv::ReaderBuilder::new()
            .delimiter(self.delimiter)
            .from_reader(text.as_bytes());
        let header = r.headers().map_err(|e| self.err(e))?.clone();
        let mut records = Vec::new();
        for (i, row) in r.records().enumerate() {
            let row = row.map_err(|e| self.err(format!("line {}: {e}", i + 2)))?;
            let obj: Map<String, Value> = header
                .iter()
                .zip(row.iter())
                .map(|(k, v)| (k.to_string(), scalar::infer(v)))
                .collect();
            records.push(Value::Object(obj));
        }
        Ok(Value::Array(records))
    }

    fn splice(&self) -> Option<Splice> {
        Some(Splice::joined(""))
    }

    fn frame(&self, text: &str, _key: &str) -> Option<(usize, usize)> {
        // The header row may span lines (a quoted name with a line break): the reader finds
        // where it ends.
        let mut r = csv::ReaderBuilder::new()
            .delimiter(self.delimiter)
            .from_reader(text.as_bytes());
        r.headers().ok()?;
        Some((usize::try_from(r.position().byte()).ok()?, 0))
    }
}
