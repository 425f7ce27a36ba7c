//! `bench query`: SQL over the run logs.

use crate::UsageError;
use crate::analytics::{Analytics, Table};
use crate::cli::{QueryArgs, TableFormat};
use crate::ops::runs::open_warned;
use crate::report;
use anyhow::{Result, anyhow};
use std::collections::BTreeMap;
use std::path::Path;

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
