//! `bench list-tasks`: the analysis tasks of a task file, without calling anything.

use crate::cli::ListTasksArgs;
use crate::report;
use crate::runner::tasks::{selected, structure_of};
use anyhow::Result;
use serde_json::json;

/// `bench list-tasks`.
pub fn list(args: &ListTasksArgs) -> Result<()> {
    let (plan, warnings) = selected(&args.select)?;
    for w in &warnings {
        eprintln!("{w}");
    }
    let rows: Vec<Vec<serde_json::Value>> = plan
        .tasks
        .iter()
        .map(|t| {
            vec![
                json!(t.def.id),
                json!(t.def.category),
                json!(t.def.complexity.name()),
                json!(t.def.output_type.name()),
                json!(t.def.data_file),
                json!(t.def.data_file.as_ref().map(|_| structure_of(t).name())),
                json!(t.records()),
                json!(t.def.expected_elements.len()),
                json!(t.def.expected_values.len()),
            ]
        })
        .collect();
    let table = crate::analytics::Table {
        columns: [
            "id",
            "category",
            "complexity",
            "output_type",
            "data_file",
            "structure",
            "records",
            "elements",
            "facts",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    };
    crate::outln!("{}", report::render(&table, args.format)?)?;
    eprintln!("{} tasks from {}", plan.tasks.len(), plan.file.display());
    Ok(())
}
