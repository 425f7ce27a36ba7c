//! The report of a `write` run: its verdict (the cheapest output to ask for that is not
//! significantly worse than the best, counting repair tokens), the table of
//! `sql/write_accuracy.sql`, the outcomes of `sql/write_failures.sql` and a chart of exact
//! rates against output tokens per exact document. Significance comes from the report's
//! paired comparisons against the best output (exact McNemar + Holm on final exactness);
//! nothing here recomputes a test.

use super::report_rows::{num, overall, text};
use crate::analytics::{Table, sql};
use crate::doc::Block;
use crate::doc::table::generic_table;
use crate::suites::sections::{Facts, Sections};
use serde_json::{Map, Value};

/// The suite's part of its report: the verdict section (with its chart) over
/// `sql/write_accuracy.sql` and `sql/write_failures.sql`, in place of the formats' verdict.
pub const SECTIONS: Sections = Sections {
    tables: &[
        ("sql/write_accuracy.sql", sql::WRITE_ACCURACY),
        ("sql/write_failures.sql", sql::WRITE_FAILURES),
    ],
    json_keys: &["write_accuracy", "write_failures"],
    verdict: Some(section),
    figures: Some(super::chart::figures),
    items_not_sizes: true,
    ..Sections::NONE
};

/// One verdict line per model: the best output by final exact rate, the outputs not
/// significantly worse (covering every case), and the cheapest of those by output tokens per
/// exact document.
fn verdicts(f: &Facts, accuracy: &Table) -> Vec<String> {
    let rows = overall(accuracy);
    let mut models: Vec<(String, String)> = rows
        .iter()
        .map(|o| {
            (
                text(o, "provider").to_string(),
                text(o, "model").to_string(),
            )
        })
        .collect();
    models.dedup();
    let mut out = Vec::new();
    for (provider, model) in models {
        let mine: Vec<&Map<String, Value>> = rows
            .iter()
            .filter(|o| text(o, "provider") == provider && text(o, "model") == model)
            .collect();
        let all_cases = mine
            .iter()
            .filter_map(|o| num(o, "cases"))
            .fold(0.0, f64::max);
        // The first of the most exact that holds every case: rows come fewest output tokens
        // first among equals.
        let Some(best) = mine
            .iter()
            .filter(|o| num(o, "cases") == Some(all_cases))
            .fold(None::<&&Map<String, Value>>, |best, o| match best {
                Some(b) if num(b, "final_exact_pct") >= num(o, "final_exact_pct") => Some(b),
                _ => Some(o),
            })
        else {
            continue;
        };
        let best_name = text(best, "output");
        let worse = |output: &str| f.worse(&provider, &model, output);
        let mut fine: Vec<&&Map<String, Value>> = mine
            .iter()
            .filter(|o| num(o, "cases") == Some(all_cases) && !worse(text(o, "output")))
            .filter(|o| num(o, "output_tokens_per_exact").is_some())
            .collect();
        fine.sort_by(|a, b| {
            num(a, "output_tokens_per_exact")
                .unwrap_or(f64::MAX)
                .total_cmp(&num(b, "output_tokens_per_exact").unwrap_or(f64::MAX))
        });
        let partial: Vec<String> = mine
            .iter()
            .filter(|o| num(o, "cases") != Some(all_cases))
            .map(|o| {
                format!(
                    "`{}` ({} of {all_cases} cases)",
                    text(o, "output"),
                    num(o, "cases").unwrap_or(0.0)
                )
            })
            .collect();
        let mut line = format!(
            "**{provider}/{model}**: most exact after repairs `{best_name}` ({:.1} % [{:.1}, {:.1}], \
             first shot {:.1} %).",
            num(best, "final_exact_pct").unwrap_or(0.0),
            num(best, "final_low").unwrap_or(0.0),
            num(best, "final_high").unwrap_or(0.0),
            num(best, "first_exact_pct").unwrap_or(0.0),
        );
        match fine.first() {
            Some(c) => line.push_str(&format!(
                " Cheapest to ask for with no significant loss: **`{}`**, {:.0} output tokens per \
                 exact document (repairs counted) against {:.0} for `{best_name}`; not \
                 significantly worse: {}.",
                text(c, "output"),
                num(c, "output_tokens_per_exact").unwrap_or(0.0),
                num(best, "output_tokens_per_exact").unwrap_or(0.0),
                fine.iter()
                    .map(|o| format!("`{}`", text(o, "output")))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            None => line.push_str(" No output wrote an exact document."),
        }
        if !partial.is_empty() {
            line.push_str(&format!(
                " Not in the choice because they cannot hold every case (compare them on theirs \
                 in the paired comparisons): {}.",
                partial.join(", ")
            ));
        }
        out.push(line);
    }
    out
}

/// The write sections: verdict, its chart, accuracy table, outcomes.
fn section(f: &Facts, chart: Vec<Block>) -> Vec<Block> {
    let [accuracy, failures] = f.tables else {
        return Vec::new();
    };
    let mut out = vec![
        Block::Heading(2, "Verdict: which format to ask a model to write".into()),
        Block::Para(
            "Exact = the decoded reply equals the gold document (key order ignored, record order \
             ignored unless the case fixes it, numbers within 1e-9 relative, a null optional \
             field equal to a missing one). First shot = the first reply; final = after up to \
             the run's repair requests, each sending the decoder's own error back. Output tokens \
             per exact document sum every turn's output. `json_schema` is JSON under the \
             provider's structured output (constrained decoding). Significance: exact McNemar on \
             final exactness against the most exact output on the same cases and runs, \
             Holm-adjusted, α = 0.05 (the paired comparisons below)."
                .into(),
        ),
        Block::Bullets(verdicts(f, accuracy)),
    ];
    out.extend(chart);
    out.push(Block::Heading(
        2,
        "Write accuracy (sql/write_accuracy.sql)".into(),
    ));
    out.push(generic_table(accuracy));
    out.push(Block::Heading(
        2,
        "Outcomes, first shot and final (sql/write_failures.sql)".into(),
    ));
    out.push(Block::Para(
        "Failure kinds: unparseable, declared_count_mismatch (a count the document declares, \
         such as TOON's [N], that its rows break), missing_field, extra_field, wrong_type, \
         wrong_value, missing_record, extra_record, truncated (cut at the output limit), \
         no_document (prose only); docs/write.md says how each is decided."
            .into(),
    ));
    out.push(generic_table(failures));
    out
}
