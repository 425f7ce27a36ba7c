//! A SQL result shown as it comes, as a document table.

use super::doc::{Block, Cell};
use crate::analytics::Table;
use crate::numfmt::thousands as int;
use serde_json::Value;

/// Columns a run's report leaves out of its tables: the SQL files key and name the data of
/// every row (`experiment`, `dataset`) so that rows of different data never pool, but a report
/// is one run, whose data its header names (and `records` tells the sizes of a sweep apart).
const DATA_KEY_COLUMNS: [&str; 2] = ["experiment", "dataset"];

/// A SQL result as a document table: numbers right-aligned and rounded for reading.
pub fn generic_table(t: &Table) -> Block {
    let shown: Vec<usize> = (0..t.columns.len())
        .filter(|&i| !DATA_KEY_COLUMNS.contains(&t.columns[i].as_str()))
        .collect();
    let rows = t
        .rows
        .iter()
        .map(|r| {
            shown
                .iter()
                .map(|&i| match &r[i] {
                    Value::Number(n) if n.is_f64() => {
                        let x = n.as_f64().unwrap_or(0.0);
                        Cell::num(
                            if x.abs() >= 100.0 {
                                format!("{x:.1}")
                            } else {
                                format!("{x:.3}")
                            },
                            Some(x),
                        )
                    }
                    Value::Number(n) => {
                        Cell::num(n.as_i64().map_or(n.to_string(), int), n.as_f64())
                    }
                    Value::Null => Cell::text("–"),
                    Value::String(s) => Cell::text(s.clone()),
                    other => Cell::text(other.to_string()),
                })
                .collect()
        })
        .collect();
    Block::Table {
        columns: shown.iter().map(|&i| t.columns[i].clone()).collect(),
        rows,
    }
}
