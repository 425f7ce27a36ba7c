//! `bench init-config`: writes the commented models.toml template.

use crate::UsageError;
use crate::cli::InitConfigArgs;
use crate::providers::config::template;
use anyhow::Result;

/// Writes the template, refusing to overwrite without `--force`.
pub fn execute(args: &InitConfigArgs) -> Result<()> {
    if args.output.exists() && !args.force {
        return Err(UsageError::new(format!(
            "'{}' exists; pass --force to overwrite it",
            args.output.display()
        ))
        .into());
    }
    std::fs::write(&args.output, template())
        .map_err(|e| UsageError::new(format!("cannot write '{}': {e}", args.output.display())))?;
    crate::outln!(
        "wrote {} — as written it runs the offline reference answerer; uncomment your models \
         and set their keys, then: bench run --config {} --dry-run",
        args.output.display(),
        args.output.display()
    )?;
    Ok(())
}
