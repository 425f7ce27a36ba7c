//! `bench list-tasks`: the analysis tasks of a task file, without calling anything.

use crate::cli::ListTasksArgs;
use crate::report;
use crate::suites::task_listing;
use anyhow::Result;

/// `bench list-tasks`.
pub fn list(args: &ListTasksArgs) -> Result<()> {
    let (table, warnings, footer) = task_listing(&args.select)?;
    for w in &warnings {
        eprintln!("{w}");
    }
    crate::outln!("{}", report::render(&table, args.format)?)?;
    eprintln!("{footer}");
    Ok(())
}
