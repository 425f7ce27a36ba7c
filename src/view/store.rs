//! The viewer's answers on disk: a DuckDB database file holding `sql/views.sql`'s `answers`
//! (one row per graded answer, numbered in the order the Answers page lists them, stored in
//! that order) and the values of each filter menu. It is built once, at the first `bench view`
//! of a root, and built again when a log changes (its fingerprint: every log's name, size and
//! modification time, bench's version and the SQL). Pages then read it read-only, DuckDB's
//! memory capped, so a history larger than memory is paged from disk, never held.

use crate::analytics::{Analytics, VIEWS_SQL, sql_string};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

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

/// The folder in the root that holds the database (beside `benchmarks/`, which no glob of
/// `sql/views.sql` reaches).
pub const DIR: &str = ".bench-view";

/// DuckDB's memory while pages are served: beyond it, a sort or join spills to disk.
const SERVE_MEMORY: &str = "384MB";

/// DuckDB's memory while the database is built (reading logs, sorting one run's answers).
const BUILD_MEMORY: &str = "512MB";

/// One run log: its run folder, file name, size and modification time (ns).
type Log = (String, String, u64, u128);

/// One row per answer of the run folders views.sql reads (all, or the one its variable
/// `bench_run` names), numbered after the `?` answers before them: newest run first, then
/// suite, call and question. Every column comes from `sql/views.sql`'s `answers`.
const ROWS: &str = "
SELECT ? + row_number() OVER (ORDER BY ts DESC, suite, sample_tag, metric) AS id,
       ts, suite, benchmark_id, provider, model, provider || ':' || model AS model_label,
       format, structure, variant, records, dataset, run, warmup, primer,
       prompt_variant AS wording, sample_tag AS tag, error AS call_error, task, metric,
       question_id, category, validation, passed = 1 AS passed, score,
       CAST(expected AS VARCHAR) AS expected, CAST(actual AS VARCHAR) AS actual, reason,
       failure, array_to_string(normalization, ', ') AS normalization
FROM answers";

/// The database of `root`, opened read-only: the one on disk when its fingerprint matches
/// the logs, else a new one built first. Returns it and whether it was built.
pub fn open(root: &Path) -> Result<(Analytics, bool)> {
    let logs = logs(root);
    let print = fingerprint(&logs);
    let path = location(root)?;
    let spill = std::env::temp_dir().join(format!("bench-view-{}", std::process::id()));
    if path.is_file()
        && let Ok(db) = Analytics::open_read_only(&path, SERVE_MEMORY, &spill)
        && db
            .query("SELECT fingerprint FROM built")
            .ok()
            .and_then(|t| {
                t.rows
                    .first()
                    .and_then(|r| r[0].as_str().map(str::to_string))
            })
            .as_deref()
            == Some(print.as_str())
    {
        return Ok((db, false));
    }
    build(root, &logs, &print, &path)?;
    let db = Analytics::open_read_only(&path, SERVE_MEMORY, &spill)?;
    Ok((db, true))
}

/// `<root>/.bench-view/answers.duckdb`, its folder created; a root one cannot write to keeps
/// its database in the user's cache folder instead, under a hash of the root's path.
fn location(root: &Path) -> Result<PathBuf> {
    let here = root.join(DIR);
    if std::fs::create_dir_all(&here).is_ok() && writable(&here) {
        return Ok(here.join("answers.duckdb"));
    }
    let key = crate::layout::sha256_hex(root.to_string_lossy().as_bytes());
    let cache = std::env::var_os("BENCH_CACHE_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| dirs::cache_dir().map(|d| d.join("bench")))
        .unwrap_or_else(std::env::temp_dir)
        .join("view")
        .join(&key[..16]);
    std::fs::create_dir_all(&cache).with_context(|| {
        format!(
            "cannot create a folder for the viewer's database: neither '{}' nor '{}'",
            here.display(),
            cache.display()
        )
    })?;
    Ok(cache.join("answers.duckdb"))
}

/// Whether a file can be created in `dir` (a read-only mount says so only when one tries).
fn writable(dir: &Path) -> bool {
    let probe = dir.join(format!(".probe-{}", std::process::id()));
    let ok = std::fs::write(&probe, b"").is_ok();
    let _ = std::fs::remove_file(&probe);
    ok
}

/// Every run log `views.sql` reads (`<root>/benchmarks/*/*.jsonl`), run folders newest first
/// as the Runs page lists them.
fn logs(root: &Path) -> Vec<Log> {
    let mut out = Vec::new();
    let runs = std::fs::read_dir(root.join("benchmarks"))
        .into_iter()
        .flatten()
        .flatten();
    for run in runs.filter(|e| e.path().is_dir()) {
        let name = run.file_name().to_string_lossy().into_owned();
        for file in std::fs::read_dir(run.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let path = file.path();
            if path.extension().is_none_or(|e| e != "jsonl") {
                continue;
            }
            let meta = file.metadata().ok();
            let size = meta.as_ref().map_or(0, |m| m.len());
            let modified = meta
                .and_then(|m| m.modified().ok())
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            let file = file.file_name().to_string_lossy().into_owned();
            out.push((name.clone(), file, size, modified));
        }
    }
    out.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    out
}

/// What the database was built from: bench's version, the SQL, and every log's stamp.
fn fingerprint(logs: &[Log]) -> String {
    let sql = crate::layout::sha256_hex(format!("{VIEWS_SQL}{ROWS}").as_bytes());
    let mut out = format!("bench {} sql {sql}\n", env!("CARGO_PKG_VERSION"));
    for (run, file, size, modified) in logs {
        out.push_str(&format!("{run}/{file} {size} {modified}\n"));
    }
    out
}

/// Builds the database at `path`: into a file of its own first, renamed into place when
/// complete, so a stopped build leaves no half database and a running viewer keeps its own.
fn build(root: &Path, logs: &[Log], print: &str, path: &Path) -> Result<()> {
    let tmp = path.with_extension(format!("building-{}", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    // No log: the same columns from an empty one, so the table never needs a second definition.
    let empty = std::env::temp_dir().join(format!("bench-view-empty-{}", std::process::id()));
    let source = if logs.is_empty() {
        std::fs::create_dir_all(empty.join("benchmarks").join("none"))?;
        std::fs::write(
            empty.join("benchmarks").join("none").join("none.jsonl"),
            b"",
        )?;
        empty.as_path()
    } else {
        root
    };
    let built = fill(source, logs, print, &tmp);
    let _ = std::fs::remove_dir_all(&empty);
    if let Err(e) = built {
        let _ = std::fs::remove_file(&tmp);
        return Err(e.context(format!(
            "building the viewer's database '{}'",
            path.display()
        )));
    }
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write '{}'", path.display()))
}

/// Fills the new database file `tmp` from the logs under `source`, run folder by run folder.
fn fill(source: &Path, logs: &[Log], print: &str, tmp: &Path) -> Result<()> {
    let db = Analytics::open(source)?;
    db.limit_memory(Some(BUILD_MEMORY), false)?;
    db.query(&format!(
        "ATTACH {} AS store",
        sql_string(&tmp.to_string_lossy())
    ))?;
    // The table's columns are those of the rows it holds: defined once, by ROWS.
    db.query_with(
        &format!("CREATE TABLE store.v_answers AS SELECT * FROM ({ROWS}) LIMIT 0"),
        &[&0i64],
    )
    .context("reading the answers of the run logs")?;
    // Stored in id order: a page in that order reads a few blocks, not the table.
    let insert = format!("INSERT INTO store.v_answers SELECT * FROM ({ROWS}) ORDER BY id");
    let mut runs: Vec<&str> = logs.iter().map(|l| l.0.as_str()).collect();
    runs.dedup();
    // One run folder at a time (its answers sorted alone); a folder name that is a glob
    // pattern cannot narrow views.sql's glob, so then every log is read in one pass.
    let scoped = runs
        .iter()
        .all(|r| !r.contains(['*', '?', '[', ']', '{', '}', '\\']));
    let passes: Vec<Option<&str>> = if scoped && !runs.is_empty() {
        runs.iter().map(|r| Some(*r)).collect()
    } else {
        vec![None]
    };
    let mut before: i64 = 0;
    for run in passes {
        if let Some(run) = run {
            db.set_variable("bench_run", run)?;
        }
        db.query_with(&insert, &[&before])
            .with_context(|| format!("reading the answers of {}", run.unwrap_or("the run logs")))?;
        before = db
            .query("SELECT coalesce(max(id), 0) FROM store.v_answers")?
            .rows
            .first()
            .and_then(|r| r[0].as_i64())
            .unwrap_or(0);
    }
    db.query("CREATE TABLE store.facets (name VARCHAR, n BIGINT, value VARCHAR)")?;
    for (name, column) in FACETS {
        db.query_with(
            &format!(
                "INSERT INTO store.facets SELECT ?, row_number() OVER (ORDER BY v), CAST(v AS VARCHAR) \
                 FROM (SELECT DISTINCT {column} AS v FROM store.v_answers WHERE {column} IS NOT NULL)"
            ),
            &[&name],
        )?;
    }
    db.query_with(
        "CREATE TABLE store.built AS SELECT ?::VARCHAR AS fingerprint",
        &[&print],
    )?;
    db.query("DETACH store")?;
    Ok(())
}
