//! `bench export --parquet DIR`.

use super::query::open_warned;
use crate::cli::ExportArgs;
use anyhow::Result;

/// Exports the views as Parquet and prints what was written.
pub fn execute(args: &ExportArgs) -> Result<()> {
    // A usage error (exit 2), said before the logs are read: the export writes a folder.
    if args.parquet.exists() && !args.parquet.is_dir() {
        anyhow::bail!(crate::UsageError::new(format!(
            "--parquet {}: that is a file; give a folder (bench writes results/, answers/ and benchmarks.parquet into it)",
            args.parquet.display()
        )));
    }
    let db = open_warned(&args.root, args.run.as_deref(), args.views.as_deref())?;
    db.limit_memory(args.memory_limit.as_deref(), true)?;
    for (view, rows) in db.export_parquet(&args.parquet)? {
        crate::outln!("{view}: {rows} rows")?;
    }
    crate::outln!("wrote {}", args.parquet.display())?;
    Ok(())
}
