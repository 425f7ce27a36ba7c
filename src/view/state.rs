//! What the server holds: the root, its run folders, and the viewer's DuckDB database of
//! every answer (`v_answers`, built on disk from `sql/views.sql`'s `answers` by
//! [`super::store`]), so a page of ten million answers is a query over a file, never a scan of
//! the logs nor a copy in memory.

use super::run_list::{self as runs, Run};
use crate::analytics::{Analytics, Table};
use anyhow::{Context, Result};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The server's state, shared by every request.
pub struct State {
    /// The root folder, canonical (every served file must lie under it).
    pub root: PathBuf,
    /// The run folders, newest first.
    pub runs: Vec<Run>,
    /// The viewer's database, read-only, with `v_answers` and `facets` (one connection;
    /// requests take turns).
    pub db: Mutex<Analytics>,
    /// The distinct values of each filterable column, for the filter menus.
    pub facets: HashMap<&'static str, Vec<String>>,
    /// Per log, the byte offset of each result line by its sample tag (built on first use).
    pub lines: Mutex<HashMap<PathBuf, HashMap<String, Vec<u64>>>>,
    /// Each run's report once computed (the logs do not change while the server runs).
    pub reports: Mutex<HashMap<String, String>>,
}

impl State {
    /// Reads the run folders of `root` and opens the database of their answers (built first
    /// when the logs changed since).
    pub fn load(root: &Path) -> Result<Self> {
        let root = root.canonicalize().map_err(|e| {
            // A first `bench view` in a fresh folder: say what a root is and how to make one.
            let hint = if e.kind() == std::io::ErrorKind::NotFound {
                ": no runs yet? `bench run` writes them under data/, or name the folder `bench run --output-root` wrote (`bench view DIR`)"
            } else {
                ""
            };
            crate::UsageError::new(format!(
                "cannot open the root folder '{}': {e}{hint}",
                root.display()
            ))
        })?;
        anyhow::ensure!(
            root.join("benchmarks").is_dir(),
            crate::UsageError::new(format!(
                "'{}' has no benchmarks/ folder: give the root that `bench run --output-root` wrote",
                root.display()
            ))
        );
        let runs = runs::scan(&root);
        let (db, _built) = super::store::open(&root)?;
        let mut facets: HashMap<&'static str, Vec<String>> = HashMap::new();
        let t = db.query("SELECT name, value FROM facets ORDER BY name, n")?;
        for row in &t.rows {
            let (Some(name), Some(value)) = (row[0].as_str(), row[1].as_str()) else {
                continue;
            };
            if let Some((key, _)) = super::store::FACETS.iter().find(|(n, _)| *n == name) {
                facets.entry(*key).or_default().push(value.to_string());
            }
        }
        Ok(Self {
            root,
            runs,
            db: Mutex::new(db),
            facets,
            lines: Mutex::new(HashMap::new()),
            reports: Mutex::new(HashMap::new()),
        })
    }

    /// The run folder named `name`, if the root has it (names from a URL are looked up here,
    /// never joined onto a path).
    pub fn run(&self, name: &str) -> Option<&Run> {
        self.runs.iter().find(|r| r.name == name)
    }

    /// Runs `sql` with bound parameters.
    pub fn query(&self, sql: &str, params: &[&dyn duckdb::ToSql]) -> Result<Table> {
        let db = self.db.lock().unwrap_or_else(|e| e.into_inner());
        db.query_with(sql, params)
            .with_context(|| "querying the answers".to_string())
    }
}
