//! Values as the user wrote them (`--data FILE`): DuckDB reads a file into typed columns, and
//! the typed value's printing is not always the file's text (`2024-09-05T12:32:00Z` prints as
//! `2024-09-05 12:32:00+00`, `20` in a DOUBLE column as `20.0`, `yes` as `true`, a 20-digit
//! integer as a float). A cell whose text the typed value does not reproduce exactly stays as
//! its text, a string; one it does keeps its type. The choices are counted per field for the
//! notes, so the report says where a value could not be kept with its type.

use crate::scalar;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// One field's values kept as text: how many, a few examples, and why.
type KeptField = (usize, Vec<String>, &'static str);

/// Values kept as text instead of their typed form, per field: how many and a few examples.
#[derive(Debug, Default)]
pub struct Kept(Mutex<BTreeMap<String, KeptField>>);

impl Kept {
    /// Counts one value of `field` kept as `text`, because of `why`.
    fn add(&self, field: &str, text: &str, why: &'static str) {
        let mut map = self.0.lock().expect("kept lock");
        let (n, examples, _) = map.entry(field.to_string()).or_insert((0, Vec::new(), why));
        *n += 1;
        if examples.len() < 3 && !examples.iter().any(|e| e == text) {
            examples.push(text.to_string());
        }
    }

    /// One note per field whose values were kept as text, naming a few.
    pub fn notes(&self) -> Vec<String> {
        self.0
            .lock()
            .expect("kept lock")
            .iter()
            .map(|(field, (n, examples, why))| {
                let s = if *n == 1 { "" } else { "s" };
                format!(
                    "{field}: {n} value{s} kept as written, as text ({}): {why}",
                    examples.join(", ")
                )
            })
            .collect()
    }
}

/// Why a typed cell is kept as its text.
const TYPED: &str = "the type DuckDB read would print it otherwise";
/// Why a JSON number is kept as text.
const NUMBER: &str = "a number is written as JSON prints it, which would change its digits, \
                      so the renderings show it as a string";

/// The record of one row: `typed` (DuckDB's typed columns as JSON) with each top-level scalar
/// replaced by the cell's `text` (the same row read as text) where the typed value does not
/// print as that text. A cell without text (null, or a nested column) keeps its typed value.
pub fn reconcile(
    typed: Map<String, Value>,
    text: &Map<String, Value>,
    kept: &Kept,
) -> Map<String, Value> {
    typed
        .into_iter()
        .map(|(k, v)| {
            let Some(Value::String(s)) = text.get(&k) else {
                return (k, v);
            };
            let read = scalar::infer(s);
            let same = matches!(
                (&v, &read),
                (Value::Number(_), Value::Number(_))
                    | (Value::Bool(_), Value::Bool(_))
                    | (Value::Null, Value::Null)
            );
            match (same, &v) {
                (true, _) => (k, read),
                (false, Value::String(_)) => (k, Value::String(s.clone())),
                (false, _) => {
                    kept.add(&k, s, TYPED);
                    (k, Value::String(s.clone()))
                }
            }
        })
        .collect()
}

/// `json` with every number that would not print back as written (`20.50`, `1e5`, an integer
/// past 64 bits) turned into a string of its text, so parsing keeps its digits; each is
/// counted in `kept` under the key it is the value of.
pub fn numbers_as_text(json: &str, kept: &Kept) -> String {
    let bytes = json.as_bytes();
    let mut out = String::with_capacity(json.len());
    let (mut i, mut start) = (0, 0);
    // The last string seen and whether a `:` followed it: the key of the next value.
    let mut last = String::new();
    let mut key = String::new();
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let mut j = i + 1;
                while j < bytes.len() && bytes[j] != b'"' {
                    j += if bytes[j] == b'\\' { 2 } else { 1 };
                }
                last = serde_json::from_str(&json[i..=j.min(bytes.len() - 1)]).unwrap_or_default();
                i = j + 1;
            }
            b':' => {
                key = std::mem::take(&mut last);
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let mut j = i;
                while j < bytes.len()
                    && matches!(bytes[j], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    j += 1;
                }
                let token = &json[i..j];
                if !matches!(scalar::infer(token), Value::Number(_)) {
                    out.push_str(&json[start..i]);
                    out.push('"');
                    out.push_str(token);
                    out.push('"');
                    start = j;
                    kept.add(&key, token, NUMBER);
                }
                i = j;
            }
            _ => i += 1,
        }
    }
    out.push_str(&json[start..]);
    out
}

/// The rows of a CSV (a TSV when `tsv`) read again with every column as text, with the header
/// DuckDB's typed reading found (a file without one has columns `column0`, `column1`, …).
pub fn delimited_sql(file: &str, schema: &[(String, String)], tsv: bool) -> String {
    let header = !schema
        .iter()
        .enumerate()
        .all(|(i, (n, _))| *n == format!("column{i}"));
    let delim = if tsv { ", delim='\\t'" } else { "" };
    format!(
        "SELECT * FROM read_csv({file}, sample_size=-1, all_varchar=true, header={header}{delim})"
    )
}

/// The rows of the typed table `t` read from Parquet, each column as its text ([`text_expr`]).
pub fn parquet_sql(schema: &[(String, String)]) -> String {
    let cols: Vec<String> = schema.iter().map(|(n, ty)| text_expr(n, ty)).collect();
    format!("SELECT {} FROM t", cols.join(", "))
}

/// Refuses a text reading whose columns are not the typed reading's.
pub fn same_columns(names: &[String], schema: &[(String, String)]) -> Result<(), String> {
    if names.len() == schema.len() && names.iter().zip(schema).all(|(a, (b, _))| a == b) {
        return Ok(());
    }
    Err(format!(
        "read as text, the file has other columns ({}) than typed ({}): bench cannot keep its \
         values as written",
        names.join(", "),
        schema
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// The SQL expression of column `name` (quoted) of DuckDB type `ty` as the text a user would
/// have written: timestamps in ISO 8601 (`T`, and `Z` for UTC), other scalars as DuckDB
/// prints them, NULL for nested columns (they keep their typed value).
pub fn text_expr(name: &str, ty: &str) -> String {
    let col = format!("\"{}\"", name.replace('"', "\"\""));
    let t = ty.to_ascii_uppercase();
    if t.starts_with("STRUCT") || t.ends_with(']') || t.starts_with("MAP") || t.starts_with("UNION")
    {
        format!("NULL::VARCHAR AS {col}")
    } else if t == "TIMESTAMP WITH TIME ZONE" {
        format!("regexp_replace(replace(CAST({col} AS VARCHAR), ' ', 'T'), '\\+00$', 'Z') AS {col}")
    } else if t.starts_with("TIMESTAMP") {
        format!("replace(CAST({col} AS VARCHAR), ' ', 'T') AS {col}")
    } else {
        format!("CAST({col} AS VARCHAR) AS {col}")
    }
}

/// How a row's JSON text becomes a record.
pub struct Shape<'a> {
    /// `[typed, text]` pairs (CSV, TSV, Parquet), else the record's own JSON.
    pub paired: bool,
    /// Where values kept as text are counted.
    pub kept: &'a Kept,
}

impl Shape<'_> {
    /// Record `i` of its row's JSON text, its values as written.
    pub fn record(&self, i: usize, text: &str) -> Result<Map<String, Value>, String> {
        let bad = |e: serde_json::Error| format!("record {i}: DuckDB gave invalid JSON: {e}");
        if self.paired {
            let pair: (Value, Value) = serde_json::from_str(text).map_err(bad)?;
            return match pair {
                (Value::Object(typed), Value::Object(written)) => {
                    Ok(reconcile(typed, &written, self.kept))
                }
                _ => Err(format!("record {i} is not an object")),
            };
        }
        // A JSON number that would not print back as written keeps its text.
        match serde_json::from_str::<Value>(&numbers_as_text(text, self.kept)) {
            Ok(Value::Object(o)) => Ok(o),
            Ok(_) => Err(format!("record {i} is not an object")),
            Err(e) => Err(bad(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn cells_keep_their_text_unless_the_type_prints_it() {
        let typed = json!({"ts": "2024-09-05 12:32:00+00", "a": 20.0, "b": 20.5, "c": 7,
                           "d": true, "e": 9.876543210987654e19, "f": null, "g": "x", "h": 1})
        .as_object()
        .unwrap()
        .clone();
        let text = json!({"ts": "2024-09-05T12:32:00Z", "a": "20", "b": "20.50", "c": "007",
                          "d": "yes", "e": "98765432109876543210", "f": null, "g": "x", "h": "1"})
        .as_object()
        .unwrap()
        .clone();
        let kept = Kept::default();
        let out = reconcile(typed, &text, &kept);
        assert_eq!(
            Value::Object(out),
            json!({"ts": "2024-09-05T12:32:00Z", "a": 20, "b": "20.50", "c": "007", "d": "yes",
                   "e": "98765432109876543210", "f": null, "g": "x", "h": 1})
        );
        let notes = kept.notes();
        assert_eq!(notes.len(), 4, "{notes:?}");
        assert!(
            notes[0].starts_with("b: 1 value kept as written, as text (20.50)"),
            "{notes:?}"
        );
    }

    #[test]
    fn json_numbers_that_would_print_otherwise_become_their_text() {
        let kept = Kept::default();
        let text = numbers_as_text(
            r#"{"id": 98765432109876543210, "x": 20.50, "y": 20, "s": "1.50 \" 7", "z": [-1e5, 3]}"#,
            &kept,
        );
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            v,
            json!({"id": "98765432109876543210", "x": "20.50", "y": 20, "s": "1.50 \" 7", "z": ["-1e5", 3]})
        );
        let notes = kept.notes();
        assert!(
            notes.iter().any(|n| n.starts_with("id: 1 value")),
            "{notes:?}"
        );
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with("z: 1 value kept as written, as text (-1e5)")),
            "{notes:?}"
        );
    }
}
