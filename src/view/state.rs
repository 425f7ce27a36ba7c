//! What the server holds: the root, its run folders, and a DuckDB in which the answers of every
//! log were materialised once at start (`v_answers`), so a page of a million answers is one
//! indexed query, never a scan of the logs.

use super::runs::{self, Run};
use crate::analytics::{Analytics, Table};
use anyhow::{Context, Result};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The answers of every log, one row per graded answer, with what a filter, a sort or a link
/// to the answer needs (the prompt and reply stay in the log; the answer page reads its line).
const MATERIALISE: &str = "
CREATE TABLE v_answers AS
SELECT row_number() OVER (ORDER BY ts DESC, suite, tag, metric) AS id, *
FROM (
    SELECT ts, suite, benchmark_id, provider, model, provider || ':' || model AS model_label,
           format, structure, variant, records, dataset, run, warmup, primer, wording, tag,
           call_error, task, m.metric AS metric,
           CASE WHEN task IS NULL THEN m.metric ELSE task || '/' || m.metric END AS question_id,
           m.category, m.validation, m.passed = 1 AS passed, m.score,
           CAST(m.expected AS VARCHAR) AS expected, CAST(m.actual AS VARCHAR) AS actual,
           m.reason, m.failure, array_to_string(m.normalization, ', ') AS normalization
    FROM (
        SELECT * EXCLUDE (r), coalesce(r.prompt_variant, 'default') AS wording,
               r.sample.tag AS tag, r.error AS call_error, r.task AS task,
               unnest(r.metrics) AS m
        FROM result_keys
    )
)";

/// The server's state, shared by every request.
pub struct State {
    /// The root folder, canonical (every served file must lie under it).
    pub root: PathBuf,
    /// The run folders, newest first.
    pub runs: Vec<Run>,
    /// DuckDB with `v_answers` (one connection; requests take turns).
    pub db: Mutex<Analytics>,
    /// The distinct values of each filterable column, for the filter menus.
    pub facets: HashMap<&'static str, Vec<String>>,
    /// Per log, the byte offset of each result line by its sample tag (built on first use).
    pub lines: Mutex<HashMap<PathBuf, HashMap<String, Vec<u64>>>>,
    /// Each run's report once computed (the logs do not change while the server runs).
    pub reports: Mutex<HashMap<String, String>>,
}

/// The columns the answers page filters on: (query parameter, column).
pub const FACETS: [(&str, &str); 10] = [
    ("run", "ts"),
    ("suite", "suite"),
    ("model", "model_label"),
    ("format", "format"),
    ("structure", "structure"),
    ("variant", "variant"),
    ("size", "records"),
    ("category", "category"),
    ("failure", "failure"),
    ("wording", "wording"),
];

impl State {
    /// Reads the run folders of `root` and materialises their answers.
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
        let db = Analytics::open(&root)?;
        let has_logs = runs.iter().any(|r| r.info.is_ok());
        if has_logs {
            db.query(MATERIALISE)
                .context("reading the answers of the run logs")?;
        } else {
            // No log to read (the views' glob would fail): the same columns, no rows.
            db.query("CREATE TABLE v_answers (id BIGINT, ts VARCHAR, suite VARCHAR, benchmark_id VARCHAR, provider VARCHAR, model VARCHAR, model_label VARCHAR, format VARCHAR, structure VARCHAR, variant VARCHAR, records INTEGER, dataset VARCHAR, run INTEGER, warmup BOOLEAN, primer BOOLEAN, wording VARCHAR, tag VARCHAR, call_error VARCHAR, task VARCHAR, metric VARCHAR, question_id VARCHAR, category VARCHAR, validation VARCHAR, passed BOOLEAN, score DOUBLE, expected VARCHAR, actual VARCHAR, reason VARCHAR, failure VARCHAR, normalization VARCHAR)")?;
        }
        let mut facets = HashMap::new();
        for (name, column) in FACETS {
            let t = db.query(&format!(
                "SELECT DISTINCT CAST({column} AS VARCHAR) FROM v_answers WHERE {column} IS NOT NULL ORDER BY {column}"
            ))?;
            facets.insert(name, column_strings(&t));
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

/// The first column of a table as text.
pub fn column_strings(t: &Table) -> Vec<String> {
    t.rows
        .iter()
        .filter_map(|r| r.first().and_then(|v| v.as_str()).map(str::to_string))
        .collect()
}
