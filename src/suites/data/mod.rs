//! A run over the user's own records (`bench run --data FILE`): lookups about the file as
//! [`super::user_data`] plans it, one rendering per format. A format that cannot represent the
//! records is a [`Skip`] with its reason, on screen, in the metadata and in the report.

use super::lookup::{self, DataMeta, LookupScorer};
use super::plan::{Combo, Matrix, Plan, run_orders, worded_units};
use super::user_data::{DataPlan, render_in};
use super::{Entry, Skip, Suite};
use crate::dataset::Record;
use crate::dataset::user::{self, LoadOptions};
use crate::grading::DataIndex;
use crate::layout::Writer;
use crate::prompt::Subject;
use crate::questions::Category;
use crate::runlog::Metadata;
use anyhow::Result;
use std::sync::Arc;

/// The kind of a `--data` run (its run log is `formats.jsonl`: the formats suite over the file).
pub const KIND: &str = "data";

/// Claims a metadata line that names a data file; the file is loaded again and must be
/// unchanged.
pub const ENTRY: Entry = Entry {
    kind: KIND,
    from_metadata: |m| match DataMeta::of(m)? {
        Some(d) => Ok(Some(Arc::new(d.plan(m.seed)?) as Arc<dyn Suite>)),
        None => Ok(None),
    },
    items: false,
    ranked_by: "sql/rankings.sql",
    result_mode: None,
    check_own: |m| DataMeta::of(m).map(drop),
    // `--suite` does not name it: a `--data` run is the formats suite's (or the corrupted one's).
    select: None,
    panel: None,
    report: None,
};

impl Suite for DataPlan {
    fn name(&self) -> String {
        // The formats suite over the user's records (issue 54): the data set keeps its own
        // name in the metadata's `data.file` and the `dataset` column of the views.
        lookup::LOG.into()
    }

    fn description(&self) -> &'static str {
        "Which data format does an LLM read best for these records: the user's own data, questions synthesised from it with SQL answers, many formats."
    }

    fn categories(&self) -> &'static [Category] {
        self.categories
    }

    fn renderings(&self, plan: &Plan) -> usize {
        plan.formats.len() * plan.primers.len() * (1 + self.smaller.len())
    }

    fn build(&self, plan: &Plan) -> Result<(Matrix, Vec<Skip>)> {
        let mut matrix = Matrix {
            sizes: Vec::new(),
            combos: Vec::new(),
        };
        let mut skips: Vec<Skip> = Vec::new();
        for level in self.levels() {
            let (m, s) = build(plan, level)?;
            matrix.combos.extend(m.combos);
            // A format that cannot carry the records is said once, at the first size.
            for skip in s {
                if !skips.iter().any(|k| k.format == skip.format) {
                    skips.push(skip);
                }
            }
        }
        Ok((matrix, skips))
    }

    fn at_records(&self, records: u32) -> Result<Option<Arc<dyn Suite>>> {
        let load = LoadOptions {
            records: Some(records as usize),
            ..self.load.clone()
        };
        let plan = DataPlan::new(&self.file, load, self.synth.clone())?;
        Ok(Some(Arc::new(plan)))
    }

    fn at_sizes(&self, sizes: &[u32]) -> Result<Option<super::plan::AtSizes>> {
        let largest = self.at_sizes(sizes)?;
        let records = largest.sizes();
        Ok(Some((Arc::new(largest), records)))
    }

    fn records_held(&self) -> Option<u32> {
        Some(self.data.total as u32)
    }

    fn data_hashes(&self, _: &Matrix) -> Vec<String> {
        vec![self.data.sha256.clone()]
    }

    fn record(&self, meta: &mut Metadata, skipped: &[Skip]) {
        self.meta(skipped).set(meta);
    }

    fn artifacts(&self, plan: &Plan, matrix: &Matrix, w: &mut Writer) -> Result<()> {
        for level in self.levels() {
            w.questions(
                level.variant,
                level.data.records.len(),
                &level.synthesis.questions,
            )?;
        }
        lookup::data_files(plan, matrix, w)
    }

    fn data_description(&self, _: &[super::plan::Size]) -> Option<serde_json::Value> {
        Some(self.describe())
    }
}

/// Renders the records in every format of the plan with their prompts: in the file's order,
/// or with `--shuffle` in each run's own order.
pub fn build(plan: &Plan, dp: &DataPlan) -> Result<(Matrix, Vec<Skip>)> {
    let key: Arc<str> = Arc::from(user::root_name(&dp.data.name));
    let orders = run_orders(plan);
    let mut combos = Vec::new();
    let mut skips = Vec::new();
    for (k, (seed, slots)) in orders.into_iter().enumerate() {
        let records: Vec<Record> = match seed {
            Some(seed) => crate::dataset::shuffled_order(dp.data.records.len(), seed)
                .into_iter()
                .map(|i| dp.data.records[i].clone())
                .collect(),
            None => dp.data.records.clone(),
        };
        let questions = match seed {
            Some(_) => crate::questions::reordered(&dp.synthesis.questions, &records),
            None => dp.synthesis.questions.clone(),
        };
        let renderings = render_in(dp, &records, &plan.formats, &plan.tokenizers)?;
        let scorer = Arc::new(LookupScorer::new(DataIndex::with_id(
            records,
            &dp.synthesis.id.field_list(),
        )));
        for rendered in renderings {
            let rendered = match rendered {
                Ok(r) => r,
                Err(skip) => {
                    // Said once, not once per order.
                    if k == 0 {
                        skips.push(skip);
                    }
                    continue;
                }
            };
            for &primer in &plan.primers {
                for &(slot, wording) in &slots {
                    let rendering = rendered.clone();
                    let units = worded_units(
                        plan,
                        Subject::Records,
                        &rendering,
                        primer,
                        &questions,
                        Some(&key),
                        wording,
                    );
                    combos.push(Combo {
                        slot,
                        records: dp.data.records.len(),
                        primer,
                        rendering,
                        units,
                        scorer: scorer.clone(),
                    });
                }
            }
        }
    }
    Ok((
        Matrix {
            sizes: Vec::new(),
            combos,
        },
        skips,
    ))
}
