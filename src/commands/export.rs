//! `bench export --parquet DIR`.

use super::query::open_warned;
use crate::cli::ExportArgs;
use anyhow::Result;

/// Exports the views as Parquet and prints what was written.
pub fn execute(args: &ExportArgs) -> Result<()> {
    let db = open_warned(&args.root, args.run.as_deref(), args.views.as_deref())?;
    db.limit_memory(args.memory_limit.as_deref(), true)?;
    for (view, rows) in db.export_parquet(&args.parquet)? {
        println!("{view}: {rows} rows");
    }
    println!("wrote {}", args.parquet.display());
    Ok(())
}
