//! The tasks suite's part of its runs' report: each task × format after the ranking, so a
//! format's pooled score can be traced to its tasks, and its families counted in tasks.

use crate::analytics::sql;
use crate::doc::Block;
use crate::doc::table::generic_table;
use crate::suites::sections::{Counted, Facts, Sections};

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
