//! What a `tasks` call adds to its answer's page in `bench view`: which task a fact belongs
//! to (the task's data is its prompt's first fenced block, which the page shows for any
//! prompt without a data header).

use super::meta::TaskMeta;
use crate::runlog::Metadata;
use crate::suites::panel::Panel;

/// The tasks suite's panel.
pub struct TasksPanel;

impl Panel for TasksPanel {
    fn asked_about(&self, task: &str, fact: &str) -> Option<String> {
        Some(format!(
            "Fact {fact} of task {task}: every fact of the task is in the table below."
        ))
    }

    fn runs_line(&self, m: &Metadata) -> Option<String> {
        // `run_info` refused a metadata line whose suite fields do not read.
        let t = TaskMeta::of(m).ok().flatten()?;
        let file = t.file.file_name().unwrap_or_default().to_string_lossy();
        Some(format!("{file} · {} tasks", t.ids.len()))
    }
}
