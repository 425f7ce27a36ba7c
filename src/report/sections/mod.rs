//! The report's sections, one file each where they are large (the verdict, setup, ranking
//! and comparisons, prompt wording, wrong answers, figures); here the smaller ones after
//! them: token efficiency, categories, failure modes, cost, scaling, position, methodology.

pub mod figures;
pub mod prompt_wording;
pub mod ranking;
pub mod setup;
pub mod verdict;
pub mod wrong_answers;

use self::verdict::REFERENCE_NOTE;
use crate::doc::table::generic_table;
use crate::doc::{Block, Cell};
use crate::numfmt::{interval, percent, thousands as int};
use crate::report::data::ReportData;
use crate::report::decisions::family::{has_reference, varies};
use std::collections::BTreeMap;

/// Column names as owned strings.
pub(crate) fn cols(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

/// Token efficiency per tokenizer.
pub fn tokens(d: &ReportData) -> Vec<Block> {
    let sizes = d
        .tokens
        .iter()
        .any(|t| t.records != d.tokens.first().map_or(0, |f| f.records));
    let rows = d
        .tokens
        .iter()
        .map(|t| {
            let data = crate::report::data::shape_label(&t.structure, &t.variant, t.records, sizes);
            vec![
                Cell::text(format!("`{}`", t.format)),
                Cell::text(data),
                Cell::text(t.tokenizer.clone()),
                Cell::num(int(t.tokens), Some(t.tokens as f64)),
                Cell::num(format!("{:.2}", t.chars_per_token), Some(t.chars_per_token)),
                Cell::num(
                    format!("{:.3}", t.tokens_per_value),
                    Some(t.tokens_per_value),
                ),
                Cell::num(
                    t.tokens_per_object
                        .map_or("–".into(), |x| format!("{x:.1}")),
                    t.tokens_per_object,
                ),
            ]
        })
        .collect();
    vec![
        Block::Heading(2, "Token efficiency".into()),
        Block::Para(
            "Data tokens of each rendering counted with each tokenizer of the run (exact counts of the data \
             block, not the whole prompt): characters per token, tokens per non-null value and tokens per \
             object (records and nested objects)."
                .into(),
        ),
        Block::Table {
            columns: cols(&[
                "format",
                "data",
                "tokenizer",
                "tokens",
                "chars/token",
                "tokens/value",
                "tokens/object",
            ]),
            rows,
        },
    ]
}

/// Accuracy per category with Wilson intervals.
pub fn categories(d: &ReportData) -> Vec<Block> {
    let (sizes, primers) = varies(&d.accuracy);
    let mut names: Vec<String> = d.categories.iter().map(|c| c.category.clone()).collect();
    names.sort_by_key(|n| crate::questions::Category::rank(n));
    names.dedup();
    let mut grouped: BTreeMap<(String, String, String), BTreeMap<String, String>> = BTreeMap::new();
    for c in &d.categories {
        grouped
            .entry((
                c.family.model_label(),
                c.family.data_label(sizes, primers),
                c.format.clone(),
            ))
            .or_default()
            .insert(
                c.category.clone(),
                format!(
                    "{} {} n={}",
                    percent(Some(c.accuracy)),
                    interval(Some(c.wilson_low), Some(c.wilson_high)),
                    c.n_answers
                ),
            );
    }
    let rows = grouped
        .into_iter()
        .map(|((m, data, f), cats)| {
            let mut row = vec![
                Cell::text(m),
                Cell::text(data),
                Cell::text(format!("`{f}`")),
            ];
            row.extend(
                names
                    .iter()
                    .map(|n| Cell::text(cats.get(n).cloned().unwrap_or("–".into()))),
            );
            row
        })
        .collect();
    let mut columns = cols(&["model", "data", "format"]);
    columns.extend(names.iter().map(|n| n.replace('_', " ")));
    vec![
        Block::Heading(2, "Category breakdown".into()),
        Block::Para(
            "Plain accuracy per question category with its Wilson 95 % interval and n.".into(),
        ),
        Block::Table { columns, rows },
    ]
}

/// Failure modes, cost, scaling and position: SQL results shown as they come.
pub fn tables(d: &ReportData) -> Vec<Block> {
    let mut out = vec![
        Block::Heading(2, "Failure modes".into()),
        Block::Para(
            "Every wrong answer classified (`sql/failure_modes.sql`; the kinds are defined in docs/formats-suite.md, \
             wrong-answer taxonomy), and the share of right answers that needed a normalisation (right value, \
             other form)."
                .into(),
        ),
    ];
    if d.failure_modes.rows.is_empty() {
        out.push(Block::Para(
            "No wrong answers and no normalised ones.".into(),
        ));
    } else {
        out.push(generic_table(&d.failure_modes));
    }
    out.extend(key_check(d));
    out.push(Block::Heading(2, "Cost and latency".into()));
    out.push(Block::Para(
        "Usage as the APIs reported it, dollars from the price table (null when the model's price is unknown), \
         latency of measured calls; warm-ups counted separately."
            .into(),
    ));
    out.push(generic_table(&d.usage));
    if let Some(s) = &d.scaling {
        out.push(Block::Heading(2, "Scaling with record count".into()));
        out.push(Block::Para(
            "Tokens and accuracy against record count (`sql/scaling.sql`): least-squares tokens-per-record slope, \
             intercept and r², and the change of weighted accuracy per 1,000 records."
                .into(),
        ));
        out.push(generic_table(s));
    }
    if let Some(s) = &d.position {
        out.push(Block::Heading(2, "Position of the target record".into()));
        let shuffled = if d.run.metadata.shuffle {
            " The records were shuffled per run (`--shuffle`): each question's target sat at another \
             position in each run, the same in every format of a run, so a position effect here is \
             not a property of the questions, and a format difference is not one of position."
        } else {
            " The records kept one order in every run, so each question's target always sat at one \
             position: `--shuffle` separates the position from the question."
        };
        out.push(Block::Para(format!(
            "Field-retrieval accuracy by where the target record sits in the data \
             (`sql/position_effect.sql`).{shuffled}"
        )));
        out.push(generic_table(s));
    }
    out
}

/// Methodology: formulas, tests and what `reference` means.
pub fn methodology(d: &ReportData) -> Vec<Block> {
    let weights: Vec<String> = d
        .run
        .weights()
        .iter()
        .map(|(k, w)| format!("{w} · {k}"))
        .collect();
    let mut items = vec![
        format!(
            "Weighted accuracy = Σ weight · (right / asked) over the question categories, divided by the sum of \
             the weights: {}.",
            weights.join(" + ")
        ),
        "Plain accuracy: right answers / answers, over every answer of every successful, non-warm-up call. \
         Wilson score interval, 95 % (z = 1.96)."
            .into(),
        "Weighted-accuracy interval: cluster bootstrap over questions — question ids resampled with replacement \
         within each category, every run of a drawn question kept, 2,000 resamples, percentile interval; seeded from \
         the rendering's identity, so the same run gives the same interval."
            .into(),
        "Paired comparison: answers matched by (question, run); exact McNemar test = two-sided binomial test of the \
         discordant pairs at p = ½; Holm's step-down correction across the formats compared within one model and data \
         shape; Δ weighted with a paired cluster bootstrap (both formats resampled with the same question ids)."
            .into(),
        "The exact McNemar test counts every (question, run) pair as independent; when a model answers the same \
         question the same way in every run (temperature 0), repeated runs add pairs but no evidence. The key \
         findings therefore call a difference confirmed only when the question-clustered bootstrap interval of Δ \
         weighted accuracy excludes zero as well."
            .into(),
        "Power: the smallest detectable difference solves Connor's (1987) sample-size formula for paired proportions, \
         n = (z₀.₉₇₅·√p_d + z₀.₈·√(p_d − δ²))² / δ², at the observed discordance rate p_d; runs needed applies the same \
         formula to the observed difference. Both use α = 0.05 unadjusted for Holm, so they are optimistic when many \
         formats are compared."
            .into(),
        "Warm-up calls (cache priming) are excluded everywhere. Failed calls are counted; plain accuracy uses \
         every answered question, while weighted accuracy, the paired comparisons and the bootstrap use complete \
         runs only (in per-question mode one failed call leaves its run out). Answers are graded by the validators and normalisation policy of docs/formats-suite.md; \
         every wrong answer gets a failure kind."
            .into(),
        "Every number here comes from the SQL files in `sql/` over the run log (run them with `bench query`), except \
         the bootstrap intervals, which `bench report` computes."
            .into(),
    ];
    if has_reference(d) {
        items.push(REFERENCE_NOTE.into());
    }
    vec![
        Block::Heading(2, "Methodology".into()),
        Block::Bullets(items),
    ]
}

/// "Check the key": questions whose expected answer every answer contradicts in agreement.
/// Shown only when there are some: a key given in a question file may be wrong.
fn key_check(d: &ReportData) -> Vec<Block> {
    // Every answer wrong: the top of the report says so once, not once per question here.
    if d.key_check.rows.is_empty() || crate::report::decisions::family::all_wrong(d) {
        return Vec::new();
    }
    let mut out = vec![
        Block::Heading(2, "Check the key".into()),
        Block::Para(
            "Every answer to these questions (all models, formats and runs; the reference answerer left out) \
             states the same value, and the key says another (`sql/key_check.sql`). When all agree, the key \
             is the first suspect: a key given in a question file is not computed from the data."
                .into(),
        ),
    ];
    let lines: Vec<String> = d
        .key_check
        .objects()
        .map(|o| {
            format!(
                "check the key of {}: all {} answers say {}, the key says {}",
                o["question"].as_str().unwrap_or("?"),
                o["answers"],
                o["all_say"].as_str().unwrap_or("?"),
                o["key_says"].as_str().unwrap_or("?")
            )
        })
        .collect();
    out.push(Block::Bullets(lines));
    out
}
