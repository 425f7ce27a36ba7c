//! Embedded DuckDB over the JSONL run logs: stages `sql/views.sql` on a root folder, runs SQL,
//! exports Parquet. Extension auto-install and auto-load are off: JSON and Parquet are built in,
//! and nothing is ever downloaded.

mod export;
mod scan;
pub mod spark;
pub mod sql;
mod value;

use anyhow::{Context, Result};
use duckdb::{Config, Connection};
pub use export::{RunPart, check_layout, run_parts};
pub use scan::{BadLine, scan_logs, scan_runs};
use serde_json::Value;
use std::path::Path;

/// The staging views, compiled in so `bench query` works from any directory.
pub const VIEWS_SQL: &str = include_str!("../../sql/views.sql");

/// The line in views.sql after which views use only `benchmarks`, `results` and `answers`.
const DERIVED_MARKER: &str = "-- Derived views:";

/// The derived views of views.sql that [`Analytics::open_runs`] computes once, in dependency
/// order: none reads a variable, so a table of each answers every later query alike.
const DERIVED_STAGED: [&str; 3] = ["run_categories", "runs", "complete_answers"];

/// The derived part of views.sql, which runs on a Parquet export too.
fn derived_views() -> &'static str {
    VIEWS_SQL
        .find(DERIVED_MARKER)
        .map_or("", |i| &VIEWS_SQL[i..])
}

/// The staging part of views.sql: the views that read the logs, before the derived ones.
fn staging_views() -> &'static str {
    &VIEWS_SQL[..VIEWS_SQL.len() - derived_views().len()]
}

/// The Spark SQL script of a SQL file of `sql/` that reads the staged views: the derived views
/// and macros of `sql/views.sql`, then the file, all in Spark's form (`bench sql --dialect spark`).
pub fn spark_script(file_sql: &str) -> Result<spark::Spark> {
    spark::script(derived_views(), file_sql)
}

/// A query result: column names and JSON-typed rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Column names.
    pub columns: Vec<String>,
    /// Rows, one JSON value per column.
    pub rows: Vec<Vec<Value>>,
}

impl Table {
    /// Each row as an object keyed by column name.
    pub fn objects(&self) -> impl Iterator<Item = serde_json::Map<String, Value>> + '_ {
        self.rows.iter().map(|r| {
            self.columns
                .iter()
                .cloned()
                .zip(r.iter().cloned())
                .collect()
        })
    }
}

/// An in-memory DuckDB with the views staged on one root folder.
pub struct Analytics {
    conn: Connection,
}

/// An in-memory DuckDB that never installs or loads extensions on its own (JSON and Parquet are
/// built in), so a missing one fails at once instead of downloading. Every DuckDB bench opens
/// (the views, the `--data` loader, the synthesis answer key) is one of these.
pub fn offline_connection() -> duckdb::Result<Connection> {
    let config = Config::default().enable_autoload_extension(false)?;
    Connection::open_in_memory_with_flags(config)
}

fn connect() -> Result<Connection> {
    offline_connection().context("opening DuckDB")
}

/// The root folder and the name of a run folder `<root>/benchmarks/<name>`.
pub fn run_location(run_dir: &Path) -> Result<(&Path, &str)> {
    let name = run_dir
        .file_name()
        .and_then(|n| n.to_str())
        .filter(|n| !n.contains(['*', '?', '[', ']', '{', '}', '\'']))
        .with_context(|| format!("'{}' is not a usable run folder name", run_dir.display()))?;
    let benchmarks = run_dir
        .parent()
        .filter(|p| p.file_name().is_some_and(|n| n == "benchmarks"));
    let Some(root) = benchmarks.map(|b| b.parent().unwrap_or(Path::new("."))) else {
        anyhow::bail!(crate::UsageError::new(format!(
            "'{}' is not a run folder: expected <root>/benchmarks/<timestamp>",
            run_dir.display()
        )));
    };
    let root = if root.as_os_str().is_empty() {
        Path::new(".")
    } else {
        root
    };
    Ok((root, name))
}

/// Escapes a string for a single-quoted SQL literal.
pub fn sql_string(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

impl Analytics {
    /// Opens DuckDB and creates the views over `root/benchmarks/*/*.jsonl` with the compiled-in
    /// `sql/views.sql`.
    pub fn open(root: &Path) -> Result<Self> {
        Self::open_with(root, VIEWS_SQL, "sql/views.sql")
    }

    /// Like [`Analytics::open`] with other staging SQL (`origin` names it in errors).
    pub fn open_with(root: &Path, views_sql: &str, origin: &str) -> Result<Self> {
        Self::open_scoped(root, None, views_sql, origin)
    }

    /// Like [`Analytics::open_with`], the views narrowed to the run folder of `root` named
    /// `run` when given (views.sql's `bench_run`), so nothing of another run is read.
    pub fn open_scoped(
        root: &Path,
        run: Option<&str>,
        views_sql: &str,
        origin: &str,
    ) -> Result<Self> {
        let conn = connect()?;
        let root_text = root.to_string_lossy().trim_end_matches('/').to_string();
        conn.execute_batch(&format!(
            "SET VARIABLE bench_root = {};",
            sql_string(&root_text)
        ))?;
        if let Some(run) = run {
            conn.execute_batch(&format!("SET VARIABLE bench_run = {};", sql_string(run)))?;
        }
        conn.execute_batch(views_sql)
            .with_context(|| origin.to_string())?;
        Ok(Self { conn })
    }

    /// Opens DuckDB with the views over one run folder, `<root>/benchmarks/<name>` (the
    /// `bench_run` variable of views.sql narrows the glob to it).
    pub fn open_run(run_dir: &Path) -> Result<Self> {
        Self::open_runs(&[run_dir])
    }

    /// Opens DuckDB with the views over several run folders (each `<root>/benchmarks/<name>`,
    /// roots may differ): each run's log is parsed once into in-memory tables and the staged
    /// views read their union (the derived views bind by name).
    pub fn open_runs(run_dirs: &[&Path]) -> Result<Self> {
        let this = Self { conn: connect()? };
        // result_keys too: write_results and other views read it directly.
        const STAGED: [&str; 4] = ["benchmarks", "result_keys", "results", "answers"];
        for (i, run_dir) in run_dirs.iter().enumerate() {
            this.load_run(i, run_dir)?;
        }
        for view in STAGED {
            let union = (0..run_dirs.len())
                .map(|i| format!("SELECT * FROM {view}_loaded_{i}"))
                .collect::<Vec<_>>()
                .join(" UNION ALL BY NAME ");
            this.conn
                .execute_batch(&format!("CREATE OR REPLACE VIEW {view} AS {union};"))?;
        }
        this.conn
            .execute_batch(derived_views())
            .context("sql/views.sql (derived views)")?;
        this.stage_derived()?;
        Ok(this)
    }

    /// Parses the log of `run_dir` into the tables `{view}_loaded_{i}` of the staged views
    /// and points each view at its table.
    fn load_run(&self, i: usize, run_dir: &Path) -> Result<()> {
        let (root, name) = run_location(run_dir)?;
        let variables = format!(
            "SET VARIABLE bench_root = {}; SET VARIABLE bench_run = {};",
            sql_string(root.to_string_lossy().trim_end_matches('/')),
            sql_string(name)
        );
        self.conn.execute_batch(&variables)?;
        // The derived views come once the staged tables exist: DuckDB binds a view when
        // it is created, and over the logs that binding cost more than the queries.
        self.conn
            .execute_batch(staging_views())
            .context("sql/views.sql")?;
        let load = |db: &Self, view: &str| {
            // Each staged view is pointed at its table at once, so the next ones (results
            // and answers build on result_keys) read the table instead of parsing the log
            // again: one pass over the log per view, not ten.
            // Not TEMP: a temporary table is seen by its own connection only, and the
            // report queries from a second one ([`Analytics::try_clone`]).
            db.conn
                .execute_batch(&format!(
                    "CREATE TABLE {view}_loaded_{i} AS SELECT * FROM {view};
                     CREATE OR REPLACE VIEW {view} AS SELECT * FROM {view}_loaded_{i};"
                ))
                .with_context(|| format!("reading the run log of '{}'", run_dir.display()))
        };
        // `benchmarks` (every line, its payload as JSON) builds on no other view: a second
        // connection reads it on another thread while this one reads the other three (DuckDB
        // plans a statement on the thread that runs it).
        let side = self.try_clone()?;
        side.conn.execute_batch(&variables)?;
        std::thread::scope(|s| {
            let lines = s.spawn(move || load(&side, "benchmarks"));
            for view in ["result_keys", "results", "answers"] {
                load(self, view)?;
            }
            lines
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        })
    }

    /// Computes the derived views every report query builds on (`run_categories`, `runs`,
    /// `complete_answers`: no variable changes them) once into tables and points the views at
    /// them. DuckDB plans a view anew in every query that names it, and planning, not reading,
    /// was most of a report's time: `paired_comparison.sql` alone names `runs` in four places.
    fn stage_derived(&self) -> Result<()> {
        for view in DERIVED_STAGED {
            self.conn
                .execute_batch(&format!(
                    "CREATE TABLE {view}_staged AS SELECT * FROM {view};
                     CREATE OR REPLACE VIEW {view} AS SELECT * FROM {view}_staged;"
                ))
                .with_context(|| format!("staging the view {view} of sql/views.sql"))?;
        }
        Ok(())
    }

    /// Another connection to the same database, for queries on another thread (a connection
    /// runs one query at a time, and DuckDB binds a query on the thread that runs it): it sees
    /// the same views, macros and staged tables, but none of this one's variables
    /// ([`Analytics::set_variable`]).
    pub fn try_clone(&self) -> Result<Self> {
        let conn = self
            .conn
            .try_clone()
            .context("opening a second connection to DuckDB")?;
        Ok(Self { conn })
    }

    /// Caps DuckDB's memory at `limit` (a size `cli::parse_memory` accepted), if any; beyond
    /// it, operators that can spill write to a temporary folder. With `any_order`, results need
    /// not keep their input order (lets `COPY` stream without buffering for order).
    /// Either way glibc is told to give freed memory back at once (`return_freed_memory`).
    pub fn limit_memory(&self, limit: Option<&str>, any_order: bool) -> Result<()> {
        return_freed_memory();
        if let Some(limit) = limit {
            let tmp = std::env::temp_dir().join(format!("bench-duckdb-{}", std::process::id()));
            self.conn.execute_batch(&format!(
                "SET memory_limit = {}; SET temp_directory = {};",
                sql_string(limit),
                sql_string(&tmp.to_string_lossy()),
            ))?;
        }
        if any_order {
            self.conn
                .execute_batch("SET preserve_insertion_order = false;")?;
        }
        Ok(())
    }

    /// Sets a DuckDB variable that SQL files read with `getvariable` (e.g. `bench_baseline`).
    pub fn set_variable(&self, name: &str, value: &str) -> Result<()> {
        anyhow::ensure!(
            name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'),
            "bad variable name '{name}'"
        );
        self.conn
            .execute_batch(&format!("SET VARIABLE {name} = {};", sql_string(value)))?;
        Ok(())
    }

    /// Opens DuckDB with `results`, `answers` and `benchmarks` read from a `bench export
    /// --parquet` folder (each hive-partitioned by run), so reports run on Parquet unchanged.
    pub fn open_parquet(dir: &Path) -> Result<Self> {
        let conn = connect()?;
        for view in ["results", "answers", "benchmarks"] {
            let path = dir.join(view).join("**/*.parquet");
            // The partition values stay text (`ts=2026-01-02_03-04-05` is no date), as in the
            // views over the logs.
            let sql = format!(
                "CREATE VIEW {view} AS SELECT * FROM read_parquet({}, hive_partitioning = true, \
                 hive_types_autocast = false)",
                sql_string(&path.to_string_lossy())
            );
            conn.execute_batch(&sql)
                .with_context(|| format!("reading {}", path.display()))?;
        }
        conn.execute_batch(derived_views())
            .context("sql/views.sql (derived views)")?;
        Ok(Self { conn })
    }

    /// Opens the DuckDB database file `path` read-only (one bench wrote, e.g. the viewer's
    /// answers), DuckDB's memory capped at `memory_limit`; beyond it, sorts and joins spill to
    /// `spill`. No views are created: the file holds its own tables.
    pub fn open_read_only(path: &Path, memory_limit: &str, spill: &Path) -> Result<Self> {
        let config = Config::default()
            .enable_autoload_extension(false)?
            .access_mode(duckdb::AccessMode::ReadOnly)?
            .max_memory(memory_limit)?
            .with("temp_directory", spill.to_string_lossy())?;
        let conn = Connection::open_with_flags(path, config)
            .with_context(|| format!("opening '{}'", path.display()))?;
        return_freed_memory();
        Ok(Self { conn })
    }

    /// Runs SQL (one or more statements) and returns the result of the last one.
    pub fn query(&self, sql: &str) -> Result<Table, duckdb::Error> {
        self.query_with(sql, &[])
    }

    /// Runs one statement with `?` placeholders bound to `params` (values from a user, e.g. the
    /// viewer's filters, never spliced into the SQL text).
    pub fn query_with(
        &self,
        sql: &str,
        params: &[&dyn duckdb::ToSql],
    ) -> Result<Table, duckdb::Error> {
        let mut stmt = self.conn.prepare(sql)?;
        let mut rows = stmt.query(params)?;
        let mut out = Vec::new();
        let mut columns = Vec::new();
        while let Some(row) = rows.next()? {
            if columns.is_empty() {
                columns = row.as_ref().column_names();
            }
            let n = row.as_ref().column_count();
            let mut values = Vec::with_capacity(n);
            for i in 0..n {
                values.push(value::to_json(row.get::<_, duckdb::types::Value>(i)?));
            }
            out.push(values);
        }
        drop(rows);
        if columns.is_empty() {
            columns = stmt.column_names();
        }
        Ok(Table { columns, rows: out })
    }

    /// Runs one `COPY` and returns the rows it wrote (DuckDB's own count: counting the view
    /// again would read every log once more).
    fn copy(&self, sql: &str, view: &str) -> Result<u64> {
        let rows = self
            .conn
            .execute(sql, [])
            .with_context(|| format!("exporting {view}"))?;
        Ok(rows as u64)
    }
}

/// Fixes glibc's thresholds for handing memory back to the system. By default glibc raises its
/// mmap threshold to the largest block freed (up to 32 MiB) and keeps that much freed memory in
/// its heaps for reuse: DuckDB's JSON reader frees 32 MiB buffers and per-chunk strings of 100 kB
/// log lines, so the resident size of an export grew with the log's length (750 MB against
/// 470 MB for the `benchmarks` copy of a log of 2M answers; issue 28). The cost is time spent
/// mapping fresh pages (about a third more on that copy). A no-op off glibc.
fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets allocator tunables; it takes the allocator's own locks.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1024 * 1024);
    }
}

#[cfg(test)]
mod tests;
