//! The shape of a document as the formats see it: its records (for the tabular formats),
//! whether they are flat, and how deep it nests.

use super::encoder::Learned;
use super::error::FormatError;
use crate::dataset::Structure;
use serde_json::{Map, Value};

/// The columns of all the records, learned chunk by chunk by the table formats, in order and
/// as a set (a record's keys are looked up, not searched for).
#[derive(Default)]
struct Columns(Vec<String>, std::collections::HashSet<String>);

/// [`Encoder::learn`](super::Encoder::learn) of a table: every key of the chunk's records not seen before, in order.
pub fn learn_columns(chunk: &Value, learned: &mut Option<Learned>) {
    let learned = learned.get_or_insert_with(|| Box::new(Columns::default()));
    let (Some(Columns(columns, seen)), Ok(chunk)) =
        (learned.downcast_mut::<Columns>(), records("", chunk))
    else {
        return;
    };
    for r in &chunk.items {
        for k in r.keys() {
            if !seen.contains(k) {
                seen.insert(k.clone());
                columns.push(k.clone());
            }
        }
    }
}

/// [`flat_records`] of a chunk, with the columns [`learn_columns`] learned of all records.
pub fn flat_chunk<'a>(
    format: &'static str,
    chunk: &'a Value,
    learned: &'a Learned,
) -> Result<Records<'a>, FormatError> {
    let mut records = flat_records(format, chunk)?;
    records.all_columns = learned
        .downcast_ref::<Columns>()
        .map(|Columns(c, _)| c.as_slice());
    Ok(records)
}

/// The array of records a tabular format renders: the document itself when it is an array, or
/// the array under the only key of a root object (`{"products": [...]}`), with that key.
pub struct Records<'a> {
    /// Root key the array sits under, `None` for a bare array.
    pub key: Option<&'a str>,
    /// The records, each checked to be an object.
    pub items: Vec<&'a Map<String, Value>>,
    /// The columns of all the records when these are a chunk of them (see [`learn_columns`]).
    pub all_columns: Option<&'a [String]>,
}

impl<'a> Records<'a> {
    /// Every key of any record, in first-seen order: the columns of a table, so sparse records
    /// keep every field (a missing key is an empty cell). For a chunk, those of all records.
    pub fn columns(&self) -> Vec<&'a String> {
        if let Some(all) = self.all_columns {
            return all.iter().collect();
        }
        let mut columns: Vec<&'a String> = Vec::new();
        for r in &self.items {
            for k in r.keys() {
                if !columns.contains(&k) {
                    columns.push(k);
                }
            }
        }
        columns
    }
}

/// Finds the records of `doc` for a tabular format named `format`, or says why there are none.
pub fn records<'a>(format: &'static str, doc: &'a Value) -> Result<Records<'a>, FormatError> {
    let cannot = |why: String| FormatError::cannot_represent(format, why);
    let (key, array) = match doc {
        Value::Array(a) => (None, a),
        Value::Object(o) if o.len() == 1 => {
            let (k, v) = o.iter().next().expect("one key");
            match v {
                Value::Array(a) => (Some(k.as_str()), a),
                _ => {
                    return Err(cannot(format!(
                        "the root key '{k}' holds no array of records"
                    )));
                }
            }
        }
        Value::Object(o) => {
            let keys: Vec<&str> = o.keys().map(String::as_str).collect();
            return Err(cannot(format!(
                "the root object has {} keys ({}); a table needs one array of records",
                keys.len(),
                keys.join(", ")
            )));
        }
        _ => return Err(cannot("the document is a single value, not records".into())),
    };
    let items = array
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.as_object()
                .ok_or_else(|| cannot(format!("record {i} is not an object")))
        })
        .collect::<Result<_, _>>()?;
    Ok(Records {
        key,
        items,
        all_columns: None,
    })
}

/// [`records`] for formats with one flat row per record: also rejects nested values, naming
/// the first record and field that holds one.
pub fn flat_records<'a>(format: &'static str, doc: &'a Value) -> Result<Records<'a>, FormatError> {
    let records = records(format, doc)?;
    for (i, r) in records.items.iter().enumerate() {
        if let Some((k, v)) = nested_field(r) {
            let what = if v.is_object() {
                "an object"
            } else {
                "an array"
            };
            return Err(FormatError::cannot_represent(
                format,
                format!("record {i}: field '{k}' holds {what}; rows hold flat values only"),
            ));
        }
    }
    Ok(records)
}

/// Refuses records a table cannot hold, for the table formats (CSV, TSV, PSV, Markdown and
/// HTML tables): records with no field at all (a table needs a column), and an empty string,
/// which an empty cell (null) would read back as null, so a question about either is unfair.
/// Text spelling a number or a boolean reads back as one (docs/formats.md): answers compare by
/// value, so no question tells them apart.
/// Kept out of [`flat_records`] because it says nothing about a document's structure.
pub fn no_empty_strings(format: &'static str, records: &Records<'_>) -> Result<(), FormatError> {
    if !records.items.is_empty() && records.columns().is_empty() {
        return Err(FormatError::cannot_represent(
            format,
            "the records have no fields, and a table needs a column",
        ));
    }
    for (i, r) in records.items.iter().enumerate() {
        if let Some((k, _)) = r.iter().find(|(_, v)| v.as_str() == Some("")) {
            return Err(FormatError::cannot_represent(
                format,
                format!(
                    "record {i}: field '{k}' holds an empty string, which an empty cell would \
                     read back as null"
                ),
            ));
        }
    }
    Ok(())
}

/// The structure of a document: flat when it is, or holds under one key, records of scalars
/// only (what CSV can render), else nested.
pub fn structure_of(doc: &Value) -> Structure {
    if flat_records("csv", doc).is_ok() {
        Structure::Flat
    } else {
        Structure::Nested
    }
}

/// [`structure_of`] the document `{key: records}`: flat when no record holds an object or
/// an array.
pub fn structure_of_records(records: &[serde_json::Map<String, Value>]) -> Structure {
    if records.iter().all(|r| nested_field(r).is_none()) {
        Structure::Flat
    } else {
        Structure::Nested
    }
}

/// How deep `v` nests lists and objects: a scalar is 0, `{"a": [1]}` is 2.
pub fn depth(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(depth).max().unwrap_or(0),
        Value::Object(o) => 1 + o.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// Refuses, as "cannot represent", a document nested deeper than `format`'s decoder reads
/// (`max` lists and objects): rendered, it would be sent and then fail to read back.
pub fn within_depth(format: &'static str, doc: &Value, max: usize) -> Result<(), FormatError> {
    let deep = depth(doc);
    if deep > max {
        return Err(FormatError::cannot_represent(
            format,
            format!("the document nests lists and objects {deep} deep; its reader stops at {max}"),
        ));
    }
    Ok(())
}

/// The first field of `record` that holds an object or an array: what a flat row cannot hold.
fn nested_field(record: &serde_json::Map<String, Value>) -> Option<(&String, &Value)> {
    record.iter().find(|(_, v)| v.is_object() || v.is_array())
}
