//! The tasks suite's part of its runs' report: each task × format after the ranking, so a
//! format's pooled score can be traced to its tasks, and its families counted in tasks.

use super::meta::TaskMeta;
use crate::analytics::sql;
use crate::doc::Block;
use crate::doc::table::generic_table;
use crate::runlog::Metadata;
use crate::suites::sections::{Counted, Facts, Sections, Setup};

/// Its families' data, counted in tasks (views.sql `result_keys` keys a task-set call
/// `structure = 'tasks'`, `records` = the tasks).
const COUNTED: Counted = Counted {
    structure: "tasks",
    one: "task",
    many: "tasks",
};

/// The tasks suite's sections, found through its registry entry.
pub const SECTIONS: Sections = Sections {
    tables: &[("sql/task_formats.sql", sql::TASK_FORMATS)],
    json_keys: &["task_formats"],
    after_ranking: Some(each_task),
    counted: Some(COUNTED),
    setup: Some(setup),
    items_not_sizes: true,
    ..Sections::NONE
};

/// Each task × format (sql/task_formats.sql), with what its two scores mean.
fn each_task(f: &Facts) -> Vec<Block> {
    let Some(t) = f.tables.first() else {
        return Vec::new();
    };
    vec![
        Block::Heading(2, "Each task (sql/task_formats.sql)".into()),
        Block::Para(
            "Fact accuracy is the share of a task's expected values the answer states \
             correctly, computed from the data; the composite is TeaLeaf's heuristic rubric \
             (length, keywords, structure), kept for comparison with TeaLeaf's tables and not a \
             check of correctness."
                .into(),
        ),
        generic_table(t),
    ]
}

/// The Setup lines of a tasks run: which tasks from which file, and the renderings not made.
fn setup(m: &Metadata) -> Option<Setup> {
    // `run_info` refused a metadata line whose suite fields do not read.
    let t = TaskMeta::of(m).ok().flatten()?;
    Some(Setup {
        data: format!(
            "Tasks: {} from `{}` ({}), one prompt per task and format; formats that rendered the \
             same tasks are compared on the same facts (data `N tasks`)",
            t.ids.len(),
            t.file.display(),
            t.ids.join(", ")
        ),
        skipped: t
            .skipped
            .iter()
            .map(|s| format!("{} in `{}`: {}", s.task, s.format, s.reason))
            .collect(),
        skipped_intro: "Renderings not made, because the format cannot represent the task's data \
                        (such a format is compared only with formats that rendered the same tasks):",
    })
}
