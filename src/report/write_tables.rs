//! The tables a `write` run's report reads (`sql/write_accuracy.sql`,
//! `sql/write_failures.sql`) and the row accessors its verdict and chart share.

use crate::analytics::Table;
use serde_json::{Map, Value};

/// The two tables a write report reads.
#[derive(Debug, Clone)]
pub struct WriteTables {
    /// `sql/write_accuracy.sql`.
    pub accuracy: Table,
    /// `sql/write_failures.sql`.
    pub failures: Table,
}

/// The number in column `k` of a row, if any.
pub fn num(o: &Map<String, Value>, k: &str) -> Option<f64> {
    o.get(k).and_then(Value::as_f64)
}

/// The text in column `k` of a row, empty if none.
pub fn text<'a>(o: &'a Map<String, Value>, k: &str) -> &'a str {
    o.get(k).and_then(Value::as_str).unwrap_or("")
}

/// The rows over every kind (`kind = 'all'`), per model.
pub fn overall(t: &WriteTables) -> Vec<Map<String, Value>> {
    t.accuracy
        .objects()
        .filter(|o| text(o, "kind") == "all")
        .collect()
}
