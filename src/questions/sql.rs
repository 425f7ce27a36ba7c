//! A question file's `sql`, run on records: the records become the DuckDB table `records` (one
//! row per record in order, one column per top-level field, nested objects as STRUCTs, types
//! as DuckDB's JSON reader infers them), and the query's one column is the answer. The answer
//! key runs it on the source records, the reference answerer on what it decoded from each
//! rendering: the same query on the same records gives the same answer.

use crate::dataset::Record;
use crate::error::one_line;
use crate::questions::numbers;
use duckdb::Connection;
use serde_json::Value;

/// The records as the table `records` in a fresh in-memory DuckDB.
pub struct Table(Connection);

/// A DuckDB error as one line.
pub(crate) fn db_err(e: duckdb::Error) -> String {
    format!("DuckDB: {}", one_line(&e.to_string()))
}

/// A fresh in-memory DuckDB holding `records` as `raw(pos BIGINT, txt JSON)`, `pos` the
/// 0-based index: what both SQL answer keys (this table and the synthesis's) start from.
pub(crate) fn raw_records(records: &[Record]) -> Result<Connection, String> {
    let c = crate::analytics::offline_connection().map_err(db_err)?;
    c.execute_batch("CREATE TABLE raw(pos BIGINT, txt JSON)")
        .map_err(db_err)?;
    {
        let mut app = c.appender("raw").map_err(db_err)?;
        for (i, r) in records.iter().enumerate() {
            let text = serde_json::to_string(r).expect("records serialize");
            app.append_row(duckdb::params![i as i64, text])
                .map_err(db_err)?;
        }
    }
    Ok(c)
}

impl Table {
    /// Loads `records` in order.
    pub fn load(records: &[Record]) -> Result<Self, String> {
        let c = raw_records(records)?;
        let structure: Option<String> = c
            .query_row(
                "SELECT json_group_structure(txt)::VARCHAR FROM raw",
                [],
                |r| r.get(0),
            )
            .map_err(db_err)?;
        let structure = structure
            .filter(|s| s.starts_with('{') && s != "{}")
            .ok_or("the records have no fields to query")?;
        // A field that is null in every record has the structure type NULL, which
        // json_transform cannot produce: such a column is read as JSON (all nulls).
        let structure = structure.replace("\"NULL\"", "\"JSON\"");
        c.execute_batch(&format!(
            "CREATE TABLE records AS SELECT unnest(json_transform(txt, {})) FROM raw ORDER BY pos;
             DROP TABLE raw",
            crate::analytics::sql_string(&structure)
        ))
        .map_err(db_err)?;
        Ok(Self(c))
    }

    /// Runs `sql`: its one column's values, in order (integral numbers as integers).
    pub fn rows(&self, sql: &str) -> Result<Vec<Value>, String> {
        let wrapped = format!("SELECT to_json(t)::VARCHAR FROM ({sql}) AS t");
        let mut stmt = self.0.prepare(&wrapped).map_err(db_err)?;
        let texts: Vec<String> = stmt
            .query_map([], |r| r.get::<_, String>(0))
            .and_then(|rows| rows.collect())
            .map_err(db_err)?;
        texts
            .iter()
            .map(|t| {
                let row: serde_json::Map<String, Value> =
                    serde_json::from_str(t).map_err(|e| format!("{e}: {t}"))?;
                if row.len() != 1 {
                    return Err(format!(
                        "the query returns {} columns ({}); a question's sql returns one",
                        row.len(),
                        row.keys().cloned().collect::<Vec<_>>().join(", ")
                    ));
                }
                Ok(integral(row.into_iter().next().expect("one column").1))
            })
            .collect()
    }

    /// The answer `sql` gives: the list of its rows' values when `list`, else its one value.
    pub fn answer(&self, sql: &str, list: bool) -> Result<Value, String> {
        let rows = self.rows(sql)?;
        if list {
            return Ok(Value::Array(rows));
        }
        match <[Value; 1]>::try_from(rows) {
            Ok([v]) => Ok(v),
            Err(rows) => Err(format!(
                "the query returns {} rows; a question with one answer needs one (or validation \
                 array_set for a list)",
                rows.len()
            )),
        }
    }
}

/// Integral floats as integers, as the synthesised questions' answers are printed.
pub(crate) fn integral(v: Value) -> Value {
    match v.as_f64() {
        Some(x) if v.is_f64() => numbers::integral(x),
        _ => v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn records() -> Vec<Record> {
        [
            json!({"id": "P-1", "price": 10.5, "rating": null, "pricing": {"cur": "EUR"}, "none": null}),
            json!({"id": "P-2", "price": 4, "rating": 3.5, "pricing": {"cur": "USD"}, "none": null}),
            json!({"id": "P-3", "price": 1.5, "pricing": {"cur": "EUR"}, "none": null}),
        ]
        .into_iter()
        .map(|v| v.as_object().unwrap().clone())
        .collect()
    }

    #[test]
    fn sql_sees_one_column_per_field_and_missing_values_as_null() {
        let t = Table::load(&records()).unwrap();
        assert_eq!(
            t.answer("SELECT sum(price) FROM records", false).unwrap(),
            json!(16)
        );
        assert_eq!(
            t.answer("SELECT min(rating) FROM records", false).unwrap(),
            json!(3.5)
        );
        assert_eq!(
            t.answer("SELECT count(*) FROM records WHERE rating IS NULL", false)
                .unwrap(),
            json!(2)
        );
        assert_eq!(
            t.answer("SELECT id FROM records WHERE pricing.cur = 'EUR'", true)
                .unwrap(),
            json!(["P-1", "P-3"])
        );
        assert_eq!(
            t.answer("SELECT count(none) FROM records", false).unwrap(),
            json!(0)
        );
        let e = t.answer("SELECT id, price FROM records", true).unwrap_err();
        assert!(e.contains("returns 2 columns (id, price)"), "{e}");
        let e = t.answer("SELECT id FROM records", false).unwrap_err();
        assert!(e.contains("returns 3 rows"), "{e}");
        let e = t.answer("SELECT nope FROM records", false).unwrap_err();
        assert!(e.starts_with("DuckDB: "), "{e}");
    }
}
