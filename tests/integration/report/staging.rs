//! `Analytics::open_run` (what `bench run`'s ranking and `bench report` read through) parses
//! the run log into tables once and computes the derived views every report builds on once;
//! every SQL file of sql/ still gives the rows it gives over the plain views of views.sql.

use super::analytics::{fixture, sql_file};
use bench::analytics::{Analytics, Table};
use serde_json::Value;
use std::path::Path;

/// Rows as comparable text, sorted (a file without a full ORDER BY may list ties either way),
/// with doubles to 12 significant digits (sums may run in another order).
fn canonical(t: &Table) -> Vec<String> {
    fn round(v: &Value) -> Value {
        match v {
            Value::Number(n) if n.is_f64() => {
                Value::String(format!("{:.12e}", n.as_f64().unwrap_or_default()))
            }
            Value::Array(xs) => Value::Array(xs.iter().map(round).collect()),
            Value::Object(m) => {
                Value::Object(m.iter().map(|(k, v)| (k.clone(), round(v))).collect())
            }
            other => other.clone(),
        }
    }
    let mut rows: Vec<String> = t
        .rows
        .iter()
        .map(|r| Value::Array(r.iter().map(round).collect()).to_string())
        .collect();
    rows.sort();
    rows
}

#[test]
fn a_staged_run_answers_every_sql_file_as_the_plain_views_do() {
    let tmp = tempfile::tempdir().unwrap();
    let jsonl = fixture(tmp.path());
    let plain = Analytics::open(tmp.path()).unwrap();
    let staged = Analytics::open_run(jsonl.parent().unwrap()).unwrap();

    // The derived views read tables computed when the run was opened.
    let tables = staged
        .query("SELECT table_name FROM duckdb_tables() ORDER BY table_name")
        .unwrap();
    let names: Vec<&str> = tables.rows.iter().filter_map(|r| r[0].as_str()).collect();
    for staged_view in [
        "complete_answers_staged",
        "run_categories_staged",
        "runs_staged",
    ] {
        assert!(
            names.contains(&staged_view),
            "{staged_view} not in {names:?}"
        );
    }

    let mut files: Vec<String> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("sql"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".sql") && n != "views.sql")
            .collect();
    files.sort();
    assert!(files.len() > 20, "{files:?}");
    for baseline in ["json_compact", "csv"] {
        for db in [&plain, &staged] {
            db.set_variable("bench_baseline", baseline).unwrap();
        }
        for name in &files {
            let (a, b) = (plain.query(&sql_file(name)), staged.query(&sql_file(name)));
            match (a, b) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a.columns, b.columns, "{name}");
                    assert_eq!(canonical(&a), canonical(&b), "{name} against {baseline}");
                }
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{name}"),
                (a, b) => panic!("{name}: plain {:?}, staged {:?}", a.err(), b.err()),
            }
        }
    }
}

#[test]
fn a_second_connection_to_a_staged_run_answers_as_the_first() {
    // `bench run`'s report asks its queries on two connections at once: the second must see
    // the staged tables (a TEMP table is seen by its own connection only) and get the same rows.
    let tmp = tempfile::tempdir().unwrap();
    let jsonl = fixture(tmp.path());
    let staged = Analytics::open_run(jsonl.parent().unwrap()).unwrap();
    let second = staged.try_clone().unwrap();
    for name in ["rankings.sql", "accuracy.sql", "paired_comparison.sql"] {
        let (a, b) = (staged.query(&sql_file(name)), second.query(&sql_file(name)));
        let (a, b) = (a.unwrap(), b.unwrap_or_else(|e| panic!("{name}: {e}")));
        assert!(!a.rows.is_empty(), "{name}");
        assert_eq!(
            (&a.columns, canonical(&a)),
            (&b.columns, canonical(&b)),
            "{name}"
        );
    }
    // Variables belong to a connection: the second one's baseline leaves the first's alone.
    second.set_variable("bench_baseline", "csv").unwrap();
    let baselines = |db: &Analytics| {
        let t = db.query(&sql_file("paired_comparison.sql")).unwrap();
        let i = t.columns.iter().position(|c| c == "baseline").unwrap();
        let mut names: Vec<String> = t.rows.iter().map(|r| r[i].to_string()).collect();
        names.dedup();
        names
    };
    assert_eq!(baselines(&staged), ["\"json_compact\""]);
    assert_eq!(baselines(&second), ["\"csv\""]);
}
