//! The `formats` suite: the generated product data set in every format, structure, variant
//! and size, and the 124 field-lookup questions about it. Its scorer, [`LookupScorer`], also grades
//! the `--data` suite's synthesised questions.

use super::asked::Entry;
use super::asked::{Asked, Planned, Select, check_selection};
use super::lookup::{self, LookupScorer, data_files};
use super::plan::{Combo, Matrix, Plan, Size, run_orders, worded_units};
use super::plan::{Scorer, Suite};
use super::render::Skip;
use crate::dataset::{self, Variant};
use crate::grading::DataIndex;
use crate::layout::{self, Writer, dataset_hash};
use crate::prompt::Subject;
use crate::questions::{self, Category, Question};
use anyhow::Result;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Name of the default suite.
pub const SUITE: &str = lookup::LOG;

/// Claims every metadata line no other suite claimed.
pub const ENTRY: Entry = Entry {
    kind: SUITE,
    from_metadata: |m| {
        let Some(file) = &m.questions_file else {
            return Ok(Some(product()));
        };
        if questions::file::sha256(file) != m.questions_sha256 {
            return Err(crate::UsageError::new(format!(
                "{}: the question file changed since the run started (or is gone); the \
                 questions would differ",
                file.display()
            ))
            .into());
        }
        Ok(Some(Arc::new(Formats::with_questions(file)?)))
    },
    items: false,
    ranked_by: "sql/rankings.sql",
    result_mode: None,
    check_own: |_| Ok(()),
    select: Some(Select {
        about: "Field lookups over the product data set (124 questions), or over --data's records",
        plan,
        group: None,
        flags: &[],
        given: |_| Vec::new(),
    }),
    panel: None,
    report: None,
};

/// `bench run` (`--suite formats`): the product records, or with `--data` the user's.
fn plan(a: &Asked) -> Result<Planned> {
    if a.data.is_some() {
        let (dp, notes) = super::user_data::from_asked(a)?;
        let dp = Arc::new(dp);
        return Ok(Planned::data(a, &dp, dp.clone(), notes));
    }
    check_selection(&a.formats_or_default(), &a.structures, &a.variants)?;
    let suite: Arc<dyn Suite> = match a.product_questions()? {
        Some(f) => Arc::new(Formats::with_questions(f)?),
        None => product(),
    };
    Ok(Planned::product(a, suite, Vec::new()))
}

/// The product questions over the generated data set: the default suite.
pub fn product() -> Arc<dyn Suite> {
    Arc::new(Formats::generated())
}

/// The product questions over the generated data set: the generated 124, or a question
/// file's about the logical (flat) records of each size and variant.
#[derive(Debug, Clone)]
pub struct Formats {
    /// `--questions FILE`, asked instead of the generated questions.
    questions_file: Option<PathBuf>,
    /// The categories asked: the four, and a question file's own names.
    categories: &'static [Category],
}

impl Formats {
    /// The generated questions.
    pub fn generated() -> Self {
        Self {
            questions_file: None,
            categories: &Category::ALL,
        }
    }

    /// The questions of `file`, checked for shape now (their answers per data set later).
    pub fn with_questions(file: &Path) -> Result<Self> {
        let asked = questions::file::categories(file).map_err(crate::UsageError::new)?;
        Ok(Self {
            questions_file: Some(file.to_path_buf()),
            categories: Category::with_others(asked),
        })
    }
}

impl Suite for Formats {
    fn name(&self) -> String {
        SUITE.into()
    }

    fn description(&self) -> &'static str {
        "Which data format does an LLM read best: same data, same questions, many formats."
    }

    fn categories(&self) -> &'static [Category] {
        self.categories
    }

    fn renderings(&self, plan: &Plan) -> usize {
        plan.combinations().len() * plan.records.len() * plan.primers.len()
    }

    fn build(&self, plan: &Plan) -> Result<(Matrix, Vec<Skip>)> {
        Ok((build(plan, self.questions_file.as_deref())?, Vec::new()))
    }

    fn record(&self, meta: &mut crate::runlog::Metadata, _: &[Skip]) {
        meta.questions_file = self.questions_file.clone();
        meta.questions_sha256 = self
            .questions_file
            .as_deref()
            .and_then(questions::file::sha256);
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

/// Renders every combination of the `formats` suite and its prompts, asking the generated
/// questions or those of `file`.
pub fn build(plan: &Plan, file: Option<&Path>) -> Result<Matrix> {
    let mut sizes = Vec::new();
    let mut combos = Vec::new();
    for &n in &plan.records {
        let dataset = Arc::new(dataset::generate(n, plan.seed));
        let questions: BTreeMap<Variant, Vec<Question>> = plan
            .variants
            .iter()
            .map(|&v| {
                let records = dataset.records(v);
                let qs = match file {
                    None => questions::generate(&records, plan.seed),
                    Some(f) => questions::file::load(f, &records, |r, e, a| {
                        crate::grading::validate(r, e, a).passed
                    })
                    .map_err(|e| crate::UsageError::new(format!("{e} ({n} {v} records)")))?,
                };
                Ok((v, qs))
            })
            .collect::<Result<_>>()?;
        // One record order for every run, or with --shuffle one per run (its own slot).
        let orders = run_orders(plan);
        for (seed, slots) in orders {
            let ds = match seed {
                Some(seed) => Arc::new(dataset.shuffled(seed)),
                None => dataset.clone(),
            };
            for &v in &plan.variants {
                let scorer: Arc<dyn Scorer> =
                    Arc::new(LookupScorer::new(DataIndex::of_dataset(ds.clone(), v)));
                let qs = match seed {
                    Some(_) => questions::reordered(&questions[&v], &ds.records(v)),
                    None => questions[&v].clone(),
                };
                for &s in &plan.structures {
                    let doc = ds.document(v, s);
                    let formats: Vec<_> = plan
                        .formats
                        .iter()
                        .copied()
                        .filter(|f| f.supports(s))
                        .collect();
                    layout::render_each(&doc, &formats, s, v, &plan.tokenizers, |rendered| {
                        for &primer in &plan.primers {
                            for &(slot, wording) in &slots {
                                let rendering = rendered.clone();
                                let units = worded_units(
                                    plan,
                                    Subject::Products,
                                    &rendering,
                                    primer,
                                    &qs,
                                    None,
                                    wording,
                                );
                                combos.push(Combo {
                                    slot,
                                    records: n as usize,
                                    primer,
                                    rendering,
                                    units,
                                    scorer: scorer.clone(),
                                });
                            }
                        }
                        Ok(())
                    })?;
                }
            }
        }
        sizes.push(Size { dataset, questions });
    }
    Ok(Matrix { sizes, combos })
}
