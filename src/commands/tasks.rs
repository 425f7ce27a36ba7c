//! `bench list-tasks` and `bench dump-prompts`: what the `tasks` suite would ask, without
//! calling anything.

use crate::UsageError;
use crate::cli::{DumpPromptsArgs, ListTasksArgs, TaskArgs};
use crate::formats::Format;
use crate::report;
use crate::runner::tasks::{TaskPlan, render, structure_of};
use crate::tasks::{self, prompt};
use anyhow::{Context, Result};
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

/// `bench dump-prompts`.
pub fn dump_prompts(args: &DumpPromptsArgs) -> Result<()> {
    let plan = selected(&args.select)?;
    let formats = args
        .formats
        .as_ref()
        .map_or_else(Format::defaults, |f| f.0.clone());
    std::fs::create_dir_all(&args.output)
        .map_err(|e| UsageError::new(format!("cannot create '{}': {e}", args.output.display())))?;
    let (mut written, mut skipped) = (0, 0);
    for task in &plan.tasks {
        for &format in &formats {
            match render(task, format, &[])? {
                Ok(r) => {
                    let path = args
                        .output
                        .join(format!("{}-{}.txt", task.def.id, format.name()));
                    std::fs::write(&path, prompt::render(task, format, &r.text))
                        .with_context(|| format!("writing {}", path.display()))?;
                    written += 1;
                }
                Err(skip) => {
                    eprintln!("{skip}");
                    skipped += 1;
                }
            }
        }
    }
    crate::outln!(
        "{written} prompts written to {} ({skipped} skipped: the format cannot represent the data)",
        args.output.display()
    )?;
    Ok(())
}
