//! The in-memory DuckDB a user's data file is read with.

use super::super::textcheck;
use crate::error::one_line;
use duckdb::Connection;
use std::ops::ControlFlow;

/// An in-memory DuckDB that neither installs nor loads extensions (JSON and Parquet are built
/// in), as `analytics` opens it.
pub(super) struct Db(Connection);

impl Db {
    /// A fresh in-memory database.
    pub(super) fn open() -> Result<Self, String> {
        crate::analytics::offline_connection()
            .map(Db)
            .map_err(|e| format!("opening DuckDB: {}", one_line(&e.to_string())))
    }

    /// Runs `sql`, statements and all.
    pub(super) fn exec(&self, sql: &str) -> duckdb::Result<()> {
        self.0.execute_batch(sql)
    }

    /// Every row of `sql`, each mapped by `f`.
    pub(super) fn rows<T>(
        &self,
        sql: &str,
        f: impl FnMut(&duckdb::Row<'_>) -> duckdb::Result<T>,
    ) -> duckdb::Result<Vec<T>> {
        let mut stmt = self.0.prepare(sql)?;
        stmt.query_map([], f)?.collect()
    }

    /// Streams the first column of every row as text with its index, until `f` breaks. The rows are fetched a
    /// batch at a time (`stream_arrow`): `query` would hold the whole result first, as large
    /// as the file's records in JSON.
    pub(super) fn for_each(
        &self,
        sql: &str,
        mut f: impl FnMut(usize, &str) -> Result<ControlFlow<()>, String>,
    ) -> Result<(), String> {
        use duckdb::arrow::array::{Array, StringArray};
        let mut stmt = self.0.prepare(sql).map_err(|e| textcheck::read_error(&e))?;
        let mut i = 0;
        for batch in stmt
            .stream_arrow([])
            .map_err(|e| textcheck::read_error(&e))?
        {
            let batch = batch.map_err(|e| textcheck::read_error(&e))?;
            let column = duckdb::arrow::compute::cast(
                batch.column(0),
                &duckdb::arrow::datatypes::DataType::Utf8,
            )
            .map_err(|e| format!("DuckDB gave no text: {e}"))?;
            let texts = column
                .as_any()
                .downcast_ref::<StringArray>()
                .ok_or("DuckDB gave no text")?;
            for k in 0..texts.len() {
                let text = if texts.is_null(k) {
                    "null"
                } else {
                    texts.value(k)
                };
                if f(i, text)?.is_break() {
                    return Ok(());
                }
                i += 1;
            }
        }
        Ok(())
    }
}
