//! `bench export --parquet DIR`: appends the runs read to a Parquet table (see
//! `analytics::export`).

use crate::analytics::{check_layout, run_location, run_parts, scan_logs};
use crate::cli::ExportArgs;
use crate::ops::runs::open_warned;
use anyhow::Result;

/// Exports the views as Parquet and prints what was written.
pub fn execute(args: &ExportArgs) -> Result<()> {
    // A usage error (exit 2), said before the logs are read: the export writes a folder.
    if args.parquet.exists() && !args.parquet.is_dir() {
        anyhow::bail!(crate::UsageError::new(format!(
            "--parquet {}: that is a file; give a folder (bench writes results/, answers/ and benchmarks/ into it)",
            args.parquet.display()
        )));
    }
    check_layout(&args.parquet)?;
    let db = open_warned(&args.root, args.run.as_deref(), args.views.as_deref())?;
    db.limit_memory(args.memory_limit.as_deref(), true)?;
    let (root, name) = match args.run.as_deref() {
        Some(spec) => {
            let dir = crate::ops::runs::resolve_run(spec, &args.root)?;
            let (root, name) = run_location(&dir)?;
            (root.to_path_buf(), Some(name.to_string()))
        }
        None => (args.root.clone(), None),
    };
    let (logs, _) = scan_logs(&root, name.as_deref())?;
    let parts = run_parts(&logs)?;
    for (view, rows) in db.export_parquet(&args.parquet, &parts)? {
        crate::outln!("{view}: {rows} rows")?;
    }
    for p in &parts {
        let note = if p.writer == "run" {
            String::new()
        } else {
            format!(" ({} of {})", p.writer, p.folder)
        };
        crate::outln!("run {}{note}", p.run)?;
    }
    crate::outln!("wrote {}", args.parquet.display())?;
    Ok(())
}
