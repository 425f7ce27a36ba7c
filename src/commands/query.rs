//! `bench query`: SQL over the run logs.

use crate::UsageError;
use crate::analytics::{Analytics, scan_runs};
use crate::cli::QueryArgs;
use crate::report;
use anyhow::{Result, anyhow};
use std::path::Path;

/// Stages the views on the root, warns about skipped lines, runs the SQL, prints the last result.
pub fn execute(args: &QueryArgs) -> Result<()> {
    let (sql, origin) = match (&args.file, &args.execute) {
        (Some(file), _) => {
            let sql = crate::bundle::read_to_string(file).map_err(|e| {
                UsageError::new(format!("cannot read SQL file '{}': {e}", file.display()))
            })?;
            (sql, file.display().to_string())
        }
        (None, Some(sql)) => (sql.clone(), "-e".to_string()),
        (None, None) => return Err(UsageError::new("give a SQL file or -e \"SQL\"").into()),
    };
    let db = match &args.parquet {
        Some(dir) => Analytics::open_parquet(dir)?,
        None => open_warned(&args.root, args.views.as_deref())?,
    };
    if args.memory_limit.is_some() {
        db.limit_memory(args.memory_limit.as_deref(), false)?;
    }
    let table = db.query(&sql).map_err(|e| anyhow!("{origin}: {e}"))?;
    let text = report::render(&table, args.format)?;
    match &args.output {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| UsageError::new(format!("cannot write '{}': {e}", path.display())))?,
        None => crate::out!("{text}")?,
    }
    Ok(())
}

/// Opens the views (compiled-in or from `views`) on `root` after printing one warning per line
/// DuckDB will skip.
pub fn open_warned(root: &Path, views: Option<&Path>) -> Result<Analytics> {
    let (_, bad) = scan_runs(root)?;
    for b in &bad {
        eprintln!(
            "warning: {}:{}: truncated or corrupt line skipped",
            b.file.display(),
            b.line
        );
    }
    match views {
        None => Analytics::open(root),
        Some(path) => {
            let sql = crate::bundle::read_to_string(path).map_err(|e| {
                UsageError::new(format!("cannot read views file '{}': {e}", path.display()))
            })?;
            Analytics::open_with(root, &sql, &path.display().to_string())
        }
    }
}
