//! What `bench import` says about a run it wrote: where the answers came from, how far bench's
//! grade agrees with the source's, and the accuracy per format by both (`sql/imported.sql`).

use super::Written;
use crate::analytics::{Analytics, Table, sql};
use anyhow::{Context, Result};

/// The provenance and agreement lines of a written run.
pub fn lines(w: &Written) -> Vec<String> {
    let a = &w.about;
    let at = a
        .commit
        .as_deref()
        .map(|c| format!(" @ {}", &c[..c.len().min(12)]))
        .unwrap_or_default();
    let mut out = vec![
        format!(
            "answers imported from {} ({}{at}, licence {}), not produced by bench",
            a.name, a.url, a.licence
        ),
        format!(
            "{} answers from {} files; tokens: {}",
            crate::numfmt::thousands(w.answers as i64),
            a.files.len(),
            a.token_counter
        ),
    ];
    out.extend(a.notes.iter().cloned());
    out.push(if w.graded_both == 0 && !a.notes.is_empty() {
        format!(
            "grades: {}'s (the notes above say how they were made)",
            a.grade
        )
    } else if w.graded_both == 0 {
        "grades: the source published no expected values; its grade is the grade".into()
    } else {
        format!(
            "grades: bench agrees with the source on {} of {} answers ({:.1} %); verdicts use \
             {}'s grade (`bench query sql/imported_disagreements.sql` lists the others)",
            crate::numfmt::thousands(w.agree as i64),
            crate::numfmt::thousands(w.graded_both as i64),
            100.0 * w.agree as f64 / w.graded_both as f64,
            a.grade
        )
    });
    out.extend(a.skipped.iter().map(|s| format!("skipped: {s}")));
    out
}

/// The run's accuracy per format by both grades.
pub fn accuracy(w: &Written) -> Result<Table> {
    Analytics::open_run(&w.dir)?
        .query(sql::IMPORTED)
        .context("running sql/imported.sql")
}

/// The run's replies per model and format by the rubric, when its questions are the expected
/// elements of analysis tasks (`--from tealeaf`); None for a run of single answers.
pub fn replies(w: &Written) -> Result<Option<Table>> {
    let t = Analytics::open_run(&w.dir)?
        .query(sql::IMPORTED_REPLIES)
        .context("running sql/imported_replies.sql")?;
    Ok((!t.rows.is_empty()).then_some(t))
}
