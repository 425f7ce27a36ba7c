//! `bench import SOURCE… --from NAME`: reads published answers with the named importer, writes
//! one run folder per source run and says what it wrote: provenance, grade agreement, accuracy
//! per format, and bench's paired verdict per model against the source's baseline (`src/import`).

use crate::cli::{GradeBy, ImportArgs};
use crate::import;
use crate::report::{self, TableFormat};
use anyhow::Result;

/// Imports, then prints each run folder with its provenance, grade agreement and accuracy.
pub fn execute(args: &ImportArgs) -> Result<()> {
    let opts = import::Options {
        map: args.map.clone(),
    };
    let mut runs = import::importer(&args.from)?.read(&args.sources, &opts)?;
    if args.pool {
        let pooled: Vec<_> = runs.iter().filter_map(import::pooled).collect();
        runs.extend(pooled);
    }
    let written = import::write_runs(&args.output_root, runs, args.grade == GradeBy::Source)?;
    for w in &written {
        crate::outln!("imported run: {}", w.dir.display())?;
        for line in import::summary::lines(w) {
            crate::outln!("  {line}")?;
        }
        let table = import::summary::accuracy(w)?;
        crate::out!("{}", report::render(&table, TableFormat::Table)?)?;
        if let Some(replies) = import::summary::replies(w)? {
            crate::out!("{}", report::render(&replies, TableFormat::Table)?)?;
        }
        if let Some(baseline) = w.about.baseline {
            let verdicts = import::verdict::verdicts(&w.dir, baseline.name())?;
            crate::out!("{}", import::verdict::table(&verdicts))?;
        }
    }
    Ok(())
}
