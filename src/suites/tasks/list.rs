//! `bench list-tasks`, the tasks suite's own command: the tasks its selection flags pick, one
//! row each, without calling anything. The command renders the table.

use super::{TaskArgs, selected, structure_of};
use crate::analytics::Table;
use anyhow::Result;
use serde_json::json;

/// The tasks `select` picks as a table, the warnings of the selection, and the closing line
/// (how many tasks, from which file).
pub fn listing(select: &TaskArgs) -> Result<(Table, Vec<String>, String)> {
    let (plan, warnings) = selected(select)?;
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
    let table = Table {
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
    let footer = format!("{} tasks from {}", plan.tasks.len(), plan.file.display());
    Ok((table, warnings, footer))
}
