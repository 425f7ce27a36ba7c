//! What the field-lookup suites share (the product questions, a `--data` run, the corrupted
//! records): the scorer that grades lookups against the records asked about, the data files
//! they write beside the log, and the category weights of the metadata line. A leaf of
//! `suites/`, so those suites import it and not each other.

use super::plan::{Matrix, Plan, Scored, Scorer, Unit};
use crate::grading::{DataIndex, grade};
use crate::layout::Writer;
use crate::prompt::{extract_answers, extract_cut_answers};
use crate::questions::Category;
use anyhow::Result;
use serde_json::{Map, Value, json};

/// The log every lookup run writes (`formats.jsonl`): a `--data` run is the formats suite's.
pub const LOG: &str = "formats";

/// The data files of the first primer setting (the rendering does not depend on it).
pub fn data_files(plan: &Plan, matrix: &Matrix, w: &mut Writer) -> Result<()> {
    // The first slot's: every wording shares a rendering; with --shuffle, run 1's order.
    for c in matrix
        .combos
        .iter()
        .filter(|c| c.primer == plan.primers[0] && c.slot.index == 0)
    {
        w.data(&c.rendering, c.records)?;
    }
    Ok(())
}

/// Field-lookup questions graded against the records asked about, with the wrong-answer
/// taxonomy.
pub struct Lookups {
    data: DataIndex,
}

impl Lookups {
    /// Grades against `data`.
    pub fn new(data: DataIndex) -> Self {
        Self { data }
    }
}

impl Scorer for Lookups {
    fn score(&self, unit: &Unit, reply: Option<&str>, cut: bool) -> Scored {
        let parse = if cut {
            extract_cut_answers
        } else {
            extract_answers
        };
        let answers = reply.and_then(parse);
        Scored {
            write: None,
            metrics: grade(&unit.questions, answers.as_ref(), &self.data, cut),
            task_scores: None,
        }
    }

    fn answer_key(&self, unit: &Unit) -> String {
        let answers: Map<String, Value> = unit
            .questions
            .iter()
            .map(|q| (q.id.clone(), q.expected.clone()))
            .collect();
        Value::Object(answers).to_string()
    }
}

/// Weights are per category; the metadata line's `weights` object. A question file that names
/// a category of its own has every category weighted equally.
pub fn weights(categories: &[Category]) -> Value {
    let equal = categories.iter().any(|c| matches!(c, Category::Other(_)));
    categories
        .iter()
        .map(|c| {
            let w = if equal { 1.0 } else { c.weight() };
            (c.name().to_string(), json!(w))
        })
        .collect::<Map<_, _>>()
        .into()
}
