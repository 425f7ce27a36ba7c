//! The run's suite as the report reads it: its own part of the report (found in the registry
//! by the run log's name, never by matching a suite's name here), the SQL tables that part
//! reads, and the plain data its sections are handed (`ReportData::facts`, in gather.rs, so the two files do not import each other).

use super::{RunInfo, run_sql};
use crate::analytics::{Analytics, Table};
use crate::suites::sections::Sections;
use anyhow::Result;
use serde_json::Value;

/// The run's suite's own part of the report, if it has one.
pub fn sections(run: &RunInfo) -> Option<&'static Sections> {
    crate::suites::of_log(&run.suite).report.as_ref()
}

/// The tables the run's suite's sections read, in its order.
pub fn own_tables(a: &Analytics, run: &RunInfo) -> Result<Vec<Table>> {
    sections(run)
        .map_or(&[][..], |s| s.tables)
        .iter()
        .map(|(name, sql)| run_sql(a, sql, name))
        .collect()
}

/// Every suite's tables in analytics_results.json ([`Sections::json_keys`]), the suites in
/// the order of their names: the rows of `own` (the run's suite's tables) under its keys,
/// `null` under the others'.
pub fn json_tables(run: &RunInfo, own: &[Table]) -> Vec<(&'static str, Value)> {
    let mine = crate::suites::of_log(&run.suite);
    let mut suites: Vec<_> = crate::suites::REGISTRY.iter().collect();
    suites.sort_by_key(|e| e.kind);
    let mut out = Vec::new();
    for e in suites {
        let Some(s) = &e.report else { continue };
        for (i, key) in s.json_keys.iter().enumerate() {
            let rows = match own.get(i) {
                Some(t) if e.kind == mine.kind => {
                    Value::Array(t.objects().map(Value::Object).collect())
                }
                _ if s.json_in_every_run => Value::Array(Vec::new()),
                _ => Value::Null,
            };
            out.push((*key, rows));
        }
    }
    out
}
