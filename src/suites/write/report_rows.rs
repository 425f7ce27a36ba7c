//! The row accessors a `write` run's report sections share: its verdict and its chart read the
//! rows of `sql/write_accuracy.sql` (the first of the tables in `report.rs`).

use crate::analytics::Table;
use serde_json::{Map, Value};

/// The number in column `k` of a row, if any.
pub fn num(o: &Map<String, Value>, k: &str) -> Option<f64> {
    o.get(k).and_then(Value::as_f64)
}

/// The text in column `k` of a row, empty if none.
pub fn text<'a>(o: &'a Map<String, Value>, k: &str) -> &'a str {
    o.get(k).and_then(Value::as_str).unwrap_or("")
}

/// The rows over every kind (`kind = 'all'`) of `sql/write_accuracy.sql`, per model.
pub fn overall(accuracy: &Table) -> Vec<Map<String, Value>> {
    accuracy
        .objects()
        .filter(|o| text(o, "kind") == "all")
        .collect()
}
