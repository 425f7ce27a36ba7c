//! The `formats` suite: the generated product data set in every format, structure, variant
//! and size, and the 124 field-lookup questions about it. Its scorer, [`Lookups`], also grades
//! the `--data` suite's synthesised questions.

use super::plan::{Combo, Matrix, Plan, Size, Unit, units};
use super::{Entry, Scored, Scorer, Skip, Suite};
use crate::dataset::{self, Variant};
use crate::grading::{DataIndex, grade};
use crate::layout::{self, Writer, dataset_hash};
use crate::prompt::{Subject, extract_answers, extract_cut_answers};
use crate::questions::{self, Category, Question};
use anyhow::Result;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Name of the default suite.
pub const SUITE: &str = "formats";

/// Claims every metadata line no other suite claimed.
pub const ENTRY: Entry = Entry {
    kind: SUITE,
    from_metadata: |_| Ok(Some(super::product())),
};

/// The product questions over the generated data set.
#[derive(Debug, Clone, Copy)]
pub struct Formats;

impl Suite for Formats {
    fn name(&self) -> String {
        SUITE.into()
    }

    fn description(&self) -> &'static str {
        "Which data format does an LLM read best: same data, same questions, many formats."
    }

    fn categories(&self) -> &'static [Category] {
        &Category::ALL
    }

    fn renderings(&self, plan: &Plan) -> usize {
        plan.combinations().len() * plan.records.len() * plan.primers.len()
    }

    fn build(&self, plan: &Plan) -> Result<(Matrix, Vec<Skip>)> {
        Ok((build(plan)?, Vec::new()))
    }

    fn data_hashes(&self, matrix: &Matrix) -> Vec<String> {
        matrix
            .sizes
            .iter()
            .map(|s| dataset_hash(&s.dataset))
            .collect()
    }

    fn artifacts(&self, plan: &Plan, matrix: &Matrix, w: &mut Writer) -> Result<()> {
        for size in &matrix.sizes {
            for (&v, qs) in &size.questions {
                w.questions(v, size.dataset.mandatory.len(), qs)?;
            }
        }
        data_files(plan, matrix, w)
    }

    /// The largest data set generated.
    fn data_description(&self, sizes: &[Size]) -> Option<Value> {
        let largest = sizes.iter().max_by_key(|s| s.dataset.mandatory.len())?;
        Some(Writer::describe(&largest.dataset))
    }
}

/// The data files of the first primer setting (the rendering does not depend on it).
pub(super) fn data_files(plan: &Plan, matrix: &Matrix, w: &mut Writer) -> Result<()> {
    for c in matrix.combos.iter().filter(|c| c.primer == plan.primers[0]) {
        w.data(&c.rendering, c.records)?;
    }
    Ok(())
}

/// Renders every combination of the `formats` suite and its prompts.
pub fn build(plan: &Plan) -> Result<Matrix> {
    let mut sizes = Vec::new();
    let mut combos = Vec::new();
    for &n in &plan.records {
        let dataset = Arc::new(dataset::generate(n, plan.seed));
        let questions: BTreeMap<Variant, Vec<Question>> = plan
            .variants
            .iter()
            .map(|&v| (v, questions::generate(&dataset.records(v), plan.seed)))
            .collect();
        for &v in &plan.variants {
            let scorer: Arc<dyn Scorer> =
                Arc::new(Lookups::new(DataIndex::of_dataset(dataset.clone(), v)));
            for &s in &plan.structures {
                let doc = dataset.document(v, s);
                let formats: Vec<_> = plan
                    .formats
                    .iter()
                    .copied()
                    .filter(|f| f.supports(s))
                    .collect();
                let qs = &questions[&v];
                layout::render_each(&doc, &formats, s, v, &plan.tokenizers, |rendered| {
                    for &primer in &plan.primers {
                        let rendering = rendered.clone();
                        let units = units(plan, Subject::Products, &rendering, primer, qs, None);
                        combos.push(Combo {
                            records: n as usize,
                            primer,
                            rendering,
                            units,
                            scorer: scorer.clone(),
                        });
                    }
                    Ok(())
                })?;
            }
        }
        sizes.push(Size { dataset, questions });
    }
    Ok(Matrix { sizes, combos })
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

/// Weights are per category; the metadata line's `weights` object.
pub fn weights(categories: &[Category]) -> Value {
    categories
        .iter()
        .map(|c| (c.name().to_string(), json!(c.weight())))
        .collect::<Map<_, _>>()
        .into()
}
