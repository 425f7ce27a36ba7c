//! "Damaged data": the `corrupted` track's detection per defect and the control's false
//! alarms (`sql/corrupted.sql`), with which defects a format states and which a reader must
//! infer.

use crate::doc::Block;
use crate::doc::table::generic_table;
use crate::report::data::ReportData;

/// The section, for a run of the `corrupted` suite.
pub fn section(d: &ReportData) -> Vec<Block> {
    if d.corrupted.rows.is_empty() {
        return Vec::new();
    }
    vec![
        Block::Heading(2, "Damaged data".into()),
        Block::Para(
            "Per format, the share of damaged data sets whose defect was named (the defect's own \
             question answered right), each defect's detection, and the undamaged control's false \
             alarms: a defect claimed where there is none (`sql/corrupted.sql`). Each damaged set \
             has one defect: a record removed from the middle (asked: how many records), a record \
             listed twice (which id), the text cut inside a record (complete or cut off), one \
             record without `price` (which id), one `price` that is text (which id)."
                .into(),
        ),
        generic_table(&d.corrupted),
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
