//! "Damaged data": the `corrupted` track's detection per defect and the control's false
//! alarms (`sql/corrupted.sql`), with which defects a format states and which a reader must
//! infer.

use super::defects::DEFECTS;
use crate::doc::Block;
use crate::doc::table::generic_table;
use crate::suites::sections::{Facts, Sections};

/// The suite's part of its report: the section, over `sql/corrupted.sql`.
pub const SECTIONS: Sections = Sections {
    tables: &[("sql/corrupted.sql", crate::analytics::sql::CORRUPTED)],
    json_keys: &["corrupted"],
    json_in_every_run: true,
    evidence: Some(section),
    ..Sections::NONE
};

/// The section, for a run of the `corrupted` suite.
fn section(f: &Facts) -> Vec<Block> {
    let Some(corrupted) = f.tables.first().filter(|t| !t.rows.is_empty()) else {
        return Vec::new();
    };
    let defects: Vec<&str> = DEFECTS.iter().filter_map(|d| d.reported).collect();
    vec![
        Block::Heading(2, "Damaged data".into()),
        Block::Para(format!(
            "Per format, the share of damaged data sets whose defect was named (the defect's own \
             question answered right), each defect's detection, and the undamaged control's false \
             alarms: a defect claimed where there is none (`sql/corrupted.sql`). Each damaged set \
             has one defect: {}.",
            defects.join(", ")
        )),
        generic_table(corrupted),
        Block::Para(
            "Stated or inferred: TOON states its row count (`[N]`), so a cut-off TOON text \
             contradicts itself and a missing record shows as a count; a JSON, XML, HTML or \
             Markdown-KV text cut inside a record no longer parses; a CSV, TSV or PSV row cut short \
             has too few cells. YAML and INI texts cut inside a value are still valid: nothing in \
             them says a record is missing, so the reference answerer, which reads only what its \
             decoder sees, says \"complete\" there. A duplicated record, a missing field and a \
             wrong type are stated in no format: a reader must infer them."
                .into(),
        ),
    ]
}
