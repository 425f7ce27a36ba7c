//! `bench query`: SQL over the run logs.

use crate::UsageError;
use crate::analytics::{Analytics, Table, VIEWS_SQL, run_location, scan_logs};
use crate::cli::{QueryArgs, TableFormat};
use crate::report;
use anyhow::{Result, anyhow};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Stages the views on the root, warns about skipped lines, runs the SQL, prints the last result.
pub fn execute(args: &QueryArgs) -> Result<()> {
    if args.list {
        return list();
    }
    let (sql, origin) = match (&args.file, &args.execute) {
        (Some(file), _) => {
            let sql = crate::bundle::read_to_string(file).map_err(|e| {
                UsageError::new(format!(
                    "cannot read SQL file '{}': {e}{}",
                    file.display(),
                    did_you_mean(file)
                ))
            })?;
            (sql, file.display().to_string())
        }
        (None, Some(sql)) => (sql.clone(), "-e".to_string()),
        (None, None) => return Err(UsageError::new("give a SQL file or -e \"SQL\"").into()),
    };
    let db = match &args.parquet {
        Some(dir) => Analytics::open_parquet(dir)?,
        None => open_warned(&args.root, args.run.as_deref(), args.views.as_deref())?,
    };
    if args.memory_limit.is_some() {
        db.limit_memory(args.memory_limit.as_deref(), false)?;
    }
    let table = db.query(&sql).map_err(|e| anyhow!("{origin}: {e}"))?;
    if table.rows.is_empty() && !table.columns.is_empty() {
        // Which file ranks these runs, else that nothing matched: never a silent empty grid.
        let note = args
            .file
            .as_ref()
            .and_then(|_| ranked_elsewhere(&db, &origin))
            .unwrap_or_else(|| format!("{origin}: no rows: nothing in {} matches", read(args)));
        eprintln!("{note}");
        if args.format == TableFormat::Table && args.output.is_none() {
            return Ok(());
        }
    }
    let text = report::render(&table, args.format)?;
    match &args.output {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| UsageError::new(format!("cannot write '{}': {e}", path.display())))?,
        None => crate::out!("{text}")?,
    }
    Ok(())
}

/// What the query read, in words: the run, the Parquet folder or the root's run logs.
fn read(args: &QueryArgs) -> String {
    match (&args.parquet, &args.run) {
        (Some(dir), _) => format!("the Parquet export {}", dir.display()),
        (None, Some(run)) => format!("the run {run} (under {})", args.root.display()),
        (None, None) => format!("the run logs under {}", args.root.display()),
    }
}

/// `bench query --list`: each built-in SQL file with the first sentence of its header comment.
fn list() -> Result<()> {
    for (name, text) in crate::bundle::sql_files() {
        crate::outln!("{name:<28} {}", summary(text))?;
    }
    Ok(())
}

/// The first sentence of a SQL file's leading `--` comment, cut to one short line.
fn summary(sql: &str) -> String {
    let header: Vec<&str> = sql
        .lines()
        .map_while(|l| l.trim().strip_prefix("--"))
        .map(str::trim)
        .collect();
    let text = header.join(" ");
    let end = text
        .find(". ")
        .or_else(|| text.find(';'))
        .unwrap_or(text.len());
    let first = text[..end].trim_end_matches('.');
    match first.char_indices().nth(100) {
        Some((i, _)) => format!("{}…", &first[..i]),
        None => first.to_string(),
    }
}

/// For a SQL file that cannot be read: the built-in file of the nearest name, if one is close.
fn did_you_mean(file: &Path) -> String {
    let typed = file.to_string_lossy().trim_start_matches("./").to_string();
    let nearest = crate::bundle::sql_files()
        .into_iter()
        .map(|(name, _)| (strsim::levenshtein(&typed, &name), name))
        .min();
    match nearest {
        Some((d, name)) if d <= 3 => {
            format!(" (did you mean {name}? `bench query --list` lists the built-in files)")
        }
        _ => " (`bench query --list` lists the built-in files)".to_string(),
    }
}

/// When the SQL file `origin` found nothing and none of the runs it read is of a suite that file
/// ranks (`sql/rankings.sql` after only `tasks` runs): the files that do rank them. None too
/// when the views cannot say (staging SQL of the user's own without `benchmarks`).
fn ranked_elsewhere(db: &Analytics, origin: &str) -> Option<String> {
    let suites: Table = db
        .query(
            "SELECT DISTINCT suite FROM benchmarks WHERE type = 'metadata' AND suite IS NOT NULL
             ORDER BY suite",
        )
        .ok()?;
    let suites: Vec<String> = suites
        .rows
        .iter()
        .filter_map(|r| r.first()?.as_str().map(str::to_string))
        .collect();
    let file = Path::new(origin).file_name().and_then(|f| f.to_str());
    let mut by_file: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for s in &suites {
        by_file
            .entry(crate::suites::ranked_by(s))
            .or_default()
            .push(s);
    }
    if by_file.is_empty() || by_file.keys().any(|f| f.ends_with(file.unwrap_or("-"))) {
        return None;
    }
    let files: Vec<String> = by_file
        .iter()
        .map(|(f, s)| format!("`bench query {f}` ranks the {} runs", s.join(", ")))
        .collect();
    Some(format!(
        "{origin}: no rows: it does not rank the {} runs read; {}",
        suites.join(", "),
        files.join("; ")
    ))
}

/// Opens the views (compiled-in or from `views`) on `root`, or on the one run `run` names
/// (`latest`, `latest~N`, a run folder or its log), after printing one warning per line
/// DuckDB will skip.
pub fn open_warned(root: &Path, run: Option<&str>, views: Option<&Path>) -> Result<Analytics> {
    let run_dir = run
        .map(|spec| super::report::resolve_run(spec, root))
        .transpose()?;
    let (root, name): (PathBuf, Option<String>) = match &run_dir {
        Some(dir) => {
            let (root, name) = run_location(dir)?;
            (root.to_path_buf(), Some(name.to_string()))
        }
        None => (root.to_path_buf(), None),
    };
    let (logs, bad) = scan_logs(&root, name.as_deref())?;
    // An empty log among others is skipped with a warning; the one log asked for is an error.
    for e in logs.iter().filter_map(|l| crate::runlog::holds_no_lines(l)) {
        if name.is_some() {
            return Err(e.into());
        }
        eprintln!("warning: {e} (skipped)");
    }
    for b in &bad {
        eprintln!(
            "warning: {}:{}: truncated or corrupt line skipped",
            b.file.display(),
            b.line
        );
    }
    let (sql, origin) = match views {
        None => (VIEWS_SQL.to_string(), "sql/views.sql".to_string()),
        Some(path) => {
            let sql = crate::bundle::read_to_string(path).map_err(|e| {
                UsageError::new(format!("cannot read views file '{}': {e}", path.display()))
            })?;
            (sql, path.display().to_string())
        }
    };
    Analytics::open_scoped(&root, name.as_deref(), &sql, &origin)
}
