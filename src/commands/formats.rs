//! `bench formats`: every format id with its family, whether the default set has it and whether
//! it renders only flat records; from the format registry, so it cannot fall behind.

use crate::cli::FormatsArgs;
use crate::formats::Format;
use crate::report;
use anyhow::Result;
use serde_json::json;

/// `bench formats`.
pub fn list(args: &FormatsArgs) -> Result<()> {
    let rows = Format::ALL
        .iter()
        .map(|&f| {
            let spec = f.spec();
            vec![
                json!(spec.name),
                json!(spec.display),
                json!(if spec.extra { "no" } else { "yes" }),
                json!(if spec.flat_only { "yes" } else { "no" }),
                json!(spec.extension),
            ]
        })
        .collect();
    let table = crate::analytics::Table {
        columns: ["id", "family", "default", "flat only", "extension"]
            .map(String::from)
            .to_vec(),
        rows,
    };
    crate::outln!("{}", report::render(&table, args.format)?)?;
    eprintln!(
        "{} formats; `--formats all` runs every one, `--formats default` the {} marked default",
        Format::ALL.len(),
        Format::defaults().len()
    );
    Ok(())
}
