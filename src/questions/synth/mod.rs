//! Questions synthesised from a user's own records (`--data FILE`): the four categories of the
//! `formats` suite in its proportions, each question a query whose expected answer is computed
//! by SQL over the records in DuckDB ([`truth`]), never by the code that renders prompts or by
//! the query evaluator the reference answerer runs on each rendering.

mod drafts;
pub mod profile;
mod truth;

use super::{Category, Question, Validation};
use crate::dataset::Record;
use drafts::{Context, Draft, Rule};

/// The default question count: the `formats` suite's 124.
pub const DEFAULT_QUESTIONS: usize = 124;

/// What to synthesise.
#[derive(Debug, Clone)]
pub struct Options {
    /// Questions in all (split 55 : 27 : 21 : 21 like the `formats` suite).
    pub questions: usize,
    /// The identifying field or comma list of fields (`--id-field`), else picked from the data.
    pub id_field: Option<String>,
    /// Seed of every choice.
    pub seed: u64,
    /// A question file (`--questions FILE`) whose questions replace the synthesised ones; the
    /// synthesis still picks the identifier and profiles the fields.
    pub file: Option<std::path::PathBuf>,
}

/// The questions and how they came to be.
#[derive(Debug, Clone)]
pub struct Synthesis {
    /// The questions, ids `q001`…, expected answers from SQL.
    pub questions: Vec<Question>,
    /// How retrieval and order questions name a record.
    pub id: profile::Identifier,
    /// What could not be asked as requested (a category short of candidates, a field of
    /// mixed types), one line each.
    pub notices: Vec<String>,
    /// The fields of the records.
    pub profile: profile::Profile,
}

/// `total` split over the categories in the suite's proportions (largest remainder).
pub fn split(total: usize) -> [usize; 4] {
    let counts = Category::ALL.map(Category::count);
    let all: usize = counts.iter().sum();
    let mut out = counts.map(|c| c * total / all);
    let mut rest: Vec<(usize, usize)> = counts
        .iter()
        .enumerate()
        .map(|(i, c)| (i, c * total % all))
        .collect();
    rest.sort_by_key(|&(i, r)| (std::cmp::Reverse(r), i));
    let given: usize = out.iter().sum();
    for &(i, _) in rest.iter().take(total - given) {
        out[i] += 1;
    }
    out
}

/// Counts per category given what each can offer: a category short of candidates gives its
/// remainder to the others in proportion to their shares, as far as they can take it.
fn allocate(target: [usize; 4], capacity: [usize; 4]) -> [usize; 4] {
    let mut got = [0; 4];
    for i in 0..4 {
        got[i] = target[i].min(capacity[i]);
    }
    let mut left: usize = target.iter().sum::<usize>() - got.iter().sum::<usize>();
    while left > 0 {
        let open: Vec<usize> = (0..4).filter(|&i| got[i] < capacity[i]).collect();
        if open.is_empty() {
            break;
        }
        let weights: usize = open.iter().map(|&i| Category::ALL[i].count()).sum();
        let before = left;
        for &i in &open {
            let share = (before * Category::ALL[i].count()).div_ceil(weights);
            let take = share.min(capacity[i] - got[i]).min(left);
            got[i] += take;
            left -= take;
        }
    }
    got
}

/// Synthesises questions about `records`. Errors (a bad `--id-field`, nothing to ask) are
/// one line for the user.
pub fn synthesize(records: &[Record], opts: &Options) -> Result<Synthesis, String> {
    if records.is_empty() {
        return Err("no records to ask about".into());
    }
    let profile = profile::profile(records);
    let id = profile::identify(&profile, records, opts.id_field.as_deref())?;
    let cx = Context {
        records,
        profile: &profile,
        id: &id,
        seed: opts.seed,
    };
    let want = opts.questions;
    let pools: [Vec<Draft>; 4] = CATEGORY_DRAFTS.map(|draft| draft(&cx, want));
    let target = split(want);
    let capacity = [0, 1, 2, 3].map(|i| pools[i].len());
    let got = allocate(target, capacity);
    let mut notices = profile.mixed_notices();
    for i in 0..4 {
        if capacity[i] < target[i] {
            notices.push(format!(
                "{}: only {} distinct questions from these records ({} asked for); the other {} went to other categories{}",
                Category::ALL[i].name(),
                capacity[i],
                target[i],
                target[i] - capacity[i],
                key_cost(&cx, i, target[i], capacity[i])
            ));
        }
    }
    let asked: usize = got.iter().sum();
    if asked < want {
        notices.push(format!(
            "{asked} questions in all, not {want}: the records offer no more distinct ones"
        ));
    }
    let truth = truth::Truth::load(records)?;
    let mut questions = Vec::with_capacity(asked);
    for (pool, n) in pools.into_iter().zip(got) {
        for d in pool.into_iter().take(n) {
            let expected = truth
                .eval(&d.query)
                .map_err(|e| format!("computing the answer of '{}': {e}", d.text))?;
            let validation = validation(d.rule, &expected);
            questions.push(Question {
                id: format!("q{:03}", questions.len() + 1),
                category: d.category,
                text: d.text,
                expected,
                validation,
                query: d.query,
                position: d.position,
            });
        }
    }
    Ok(Synthesis {
        questions,
        id,
        notices,
        profile,
    })
}

/// The candidate questions of each category, in [`Category::ALL`] order.
const CATEGORY_DRAFTS: [fn(&Context, usize) -> Vec<Draft>; 4] = [
    drafts::retrieval,
    drafts::structure,
    drafts::filtering,
    drafts::aggregation,
];

/// What the identifier costs category `i`, short of its `target` at `got` questions: a key is
/// never asked about, so its fields feed no question. Empty when naming records by position
/// would not give the category more; else says how many more and names `--id-field`.
fn key_cost(cx: &Context, i: usize, target: usize, got: usize) -> String {
    if cx.id.fields().is_empty() {
        return String::new();
    }
    let keyless = Context {
        id: &profile::Identifier::Position,
        ..*cx
    };
    let more = CATEGORY_DRAFTS[i](&keyless, target)
        .len()
        .min(target)
        .saturating_sub(got);
    if more == 0 {
        return String::new();
    }
    format!(
        "; the identifier {} is never asked about and would give {more} more: name another \
         key with --id-field (one field, or up to three comma-separated)",
        cx.id.describe()
    )
}

/// The comparison rule of an answer; a null answer (a missing value) compares as text "null".
fn validation(rule: Rule, expected: &serde_json::Value) -> Validation {
    if expected.is_null() {
        return Validation::Exact;
    }
    match rule {
        Rule::Exact => Validation::Exact,
        Rule::Fuzzy => Validation::Fuzzy,
        Rule::Set => Validation::ArraySet,
        Rule::Count => Validation::Numeric { tolerance: 0.0 },
        // Float noise only: the validator adds a relative 1e-9 on top.
        Rule::Number => Validation::Numeric { tolerance: 1e-6 },
        // To the cent, as the formats suite; 1 % of the value when it is below 1.
        Rule::Average => {
            let x = expected.as_f64().unwrap_or(0.0).abs();
            Validation::Numeric {
                tolerance: if x >= 1.0 { 0.01 } else { (x * 0.01).max(1e-6) },
            }
        }
    }
}

#[cfg(test)]
mod tests;
