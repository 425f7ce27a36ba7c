//! The data layer: a run folder read into what a report shows ([`ReportData`]): the SQL files
//! of `sql/` over its views, typed as rows, plus the cluster-bootstrap intervals.

pub mod asked_records;
pub mod bootstrap;
pub mod gather;
pub mod rows;
pub mod run;
pub mod suite;

pub use bootstrap::paired_intervals;
pub use gather::{ReportData, WRONG_SHOWN};
pub use rows::{
    AccuracyRow, CategoryRow, ComparisonRow, Family, ParetoRow, TokenEfficiencyRow,
    best_per_family, shape_label,
};
pub use run::{RunInfo, run_info, run_log};

use crate::analytics::{Analytics, Table};
use anyhow::{Context, Result};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Rows of a table as typed structs (columns by name).
pub(crate) fn typed<T: DeserializeOwned>(t: &Table, what: &str) -> Result<Vec<T>> {
    t.objects()
        .map(|o| {
            serde_json::from_value(Value::Object(o))
                .with_context(|| format!("reading a row of {what}"))
        })
        .collect()
}

pub(crate) fn run_sql(a: &Analytics, sql: &str, what: &str) -> Result<Table> {
    a.query(sql).with_context(|| format!("running {what}"))
}
