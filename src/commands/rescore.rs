//! `bench rescore RUN_DIR`: re-grades the stored responses of a finished run with the current
//! grader and taxonomy, without any API call (no provider is built), into a new run folder
//! beside it whose metadata names the source (`rescored_from`).

use crate::cli::RescoreArgs;
use crate::ops::rescore::rescore;
use anyhow::Result;

/// Re-grades, prints the new folder, then writes its report (unless `--no-report`).
pub fn execute(args: &RescoreArgs) -> Result<()> {
    let out = rescore(&crate::ops::runs::latest_or(&args.run_dir, &args.root)?)?;
    crate::outln!("rescored run: {}", out.display())?;
    if !args.no_report {
        crate::ops::reports::write_for_run(&out, args.baseline, None)?;
    }
    Ok(())
}
