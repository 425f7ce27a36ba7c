//! `bench list-tasks`: the analysis tasks of a task file, without calling anything.

use crate::cli::{ListTasksArgs, TaskArgs};
use crate::report;
use crate::runner::tasks::{TaskPlan, structure_of};
use crate::tasks;
use anyhow::Result;
use serde_json::json;

/// Loads and selects the tasks the arguments name; prints the loader's warnings.
pub fn selected(args: &TaskArgs) -> Result<TaskPlan> {
    let loaded = tasks::load_source(args.tasks.as_deref(), args.data_source)?;
    for w in &loaded.warnings {
        eprintln!("warning: {w}");
    }
    let file = loaded.path.clone();
    let tasks = tasks::select(loaded, &args.task_ids, &args.categories)?;
    Ok(TaskPlan { file, tasks })
}

/// `bench list-tasks`.
pub fn list(args: &ListTasksArgs) -> Result<()> {
    let plan = selected(&args.select)?;
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
