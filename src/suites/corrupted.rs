//! The `corrupted` suite: does the model notice damaged data? From the product records (flat,
//! mandatory), data sets with one defect each — a record missing from the middle, a record
//! duplicated, the text cut off inside a record, one record lacking a field, one value of the
//! wrong type — and the same records undamaged as the control, each in every format that can
//! hold them (the cut is made in the text, so it applies to all). Five questions per data set,
//! one for each defect, each with its deterministic answer, the control's included ("none",
//! "complete"); a cut-off text is asked only whether it is complete.

use super::formats::Lookups;
use super::plan::{Combo, Matrix, Plan, units};
use super::{Entry, Scored, Scorer, Skip, Suite};
use crate::dataset::{self, Record, Structure, Variant};
use crate::grading::DataIndex;
use crate::layout::Rendering;
use crate::prompt::Subject;
use crate::questions::{Category, Query, Question, Validation};
use crate::tokens::DataStats;
use anyhow::Result;
use serde_json::{Value, json};
use std::sync::Arc;

/// Name of the suite.
pub const SUITE: &str = "corrupted";

/// Claims a metadata line of this suite.
pub const ENTRY: Entry = Entry {
    kind: SUITE,
    from_metadata: |m| Ok((m.suite_name == SUITE).then(|| Arc::new(Corrupted) as Arc<dyn Suite>)),
};

/// The defects, the control first.
pub const DEFECTS: [&str; 6] = [
    "control",
    "missing_record",
    "duplicate",
    "truncated",
    "missing_field",
    "wrong_type",
];

/// The field a record lacks (`missing_field`) and the one holding text (`wrong_type`).
const FIELD: &str = "price";

/// The corrupted-data track.
#[derive(Debug, Clone, Copy)]
pub struct Corrupted;

impl Suite for Corrupted {
    fn name(&self) -> String {
        SUITE.into()
    }

    fn description(&self) -> &'static str {
        "Does the model notice damaged data: a missing, duplicated or cut-off record, a missing field, a value of the wrong type, and an undamaged control, in every format."
    }

    fn categories(&self) -> &'static [Category] {
        &[Category::StructureAwareness]
    }

    fn renderings(&self, plan: &Plan) -> usize {
        plan.formats.len() * DEFECTS.len() * plan.records.len()
    }

    fn build(&self, plan: &Plan) -> Result<(Matrix, Vec<Skip>)> {
        let mut combos = Vec::new();
        let mut skips = Vec::new();
        for &n in &plan.records {
            let clean = dataset::generate(n, plan.seed)
                .records(Variant::Mandatory)
                .into_owned();
            for defect in DEFECTS {
                let (records, questions) = damaged(&clean, defect);
                let doc = json!({"products": records.iter().cloned().map(Value::Object).collect::<Vec<_>>()});
                let scorer: Arc<dyn Scorer> = Arc::new(Defect {
                    lookups: Lookups::new(DataIndex::with_id(records.clone(), "id")),
                    defect,
                });
                for &format in &plan.formats {
                    let rendering = match render(&doc, format, defect, &plan.tokenizers) {
                        Ok(r) => r,
                        Err(e) => {
                            skips.push(Skip {
                                task: format!("{defect}-{n}"),
                                format,
                                reason: format!("{e:#}"),
                            });
                            continue;
                        }
                    };
                    let root: Arc<str> = Arc::from("products");
                    let units = units(
                        plan,
                        Subject::Products,
                        &rendering,
                        false,
                        &questions,
                        Some(&root),
                    );
                    combos.push(Combo {
                        slot: Default::default(),
                        records: n as usize,
                        primer: false,
                        rendering,
                        units,
                        scorer: scorer.clone(),
                    });
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

    fn ranking_sql(&self) -> Option<&'static str> {
        Some(crate::analytics::sql::CORRUPTED)
    }

    fn data_hashes(&self, matrix: &Matrix) -> Vec<String> {
        matrix
            .combos
            .iter()
            .filter(|c| c.scorer.item() == Some("control"))
            .map(|c| crate::layout::sha256_hex(c.rendering.text.as_bytes()))
            .take(1)
            .collect()
    }
}

/// The records of one defect and the questions about them.
fn damaged(clean: &[Record], defect: &str) -> (Vec<Record>, Vec<Question>) {
    let mut records = clean.to_vec();
    let mid = records.len() / 2;
    match defect {
        "missing_record" => {
            records.remove(mid);
        }
        "duplicate" => records.insert(mid + 1, records[mid].clone()),
        "missing_field" => {
            records[mid].remove(FIELD);
        }
        "wrong_type" => {
            records[mid].insert(FIELD.into(), json!("n/a"));
        }
        _ => {}
    }
    let key = "id".to_string();
    let q = |id: &str, text: String, query: Query| {
        let expected = query.evaluate(&records);
        Question {
            id: id.into(),
            category: Category::StructureAwareness,
            text,
            expected,
            validation: if id == "count" {
                Validation::Numeric { tolerance: 0.0 }
            } else {
                Validation::Exact
            },
            query,
            position: None,
        }
    };
    let complete = q(
        "complete",
        "Is the data complete, or is it cut off? Answer \"complete\" or \"cut off\".".into(),
        Query::Complete,
    );
    if defect == "truncated" {
        let mut c = complete;
        c.expected = json!("cut off");
        return (records, vec![c]);
    }
    let mut qs = vec![
        q(
            "count",
            "How many products are in the data?".into(),
            Query::CountRecords,
        ),
        q(
            "duplicate",
            "Is any product listed twice? Answer with its id, or \"none\".".into(),
            Query::Duplicated { key: key.clone() },
        ),
        complete,
        q(
            "lacking",
            format!("Which product has no {FIELD}? Answer with its id, or \"none\"."),
            Query::Lacking {
                field: FIELD.into(),
                key: key.clone(),
            },
        ),
        q(
            "wrong_type",
            format!(
                "Which product has a {FIELD} that is not a number? Answer with its id, or \"none\"."
            ),
            Query::NotANumber {
                field: FIELD.into(),
                key,
            },
        ),
    ];
    qs.sort_by_key(|q| DEFECTS.len() * usize::from(q.id == "complete"));
    (records, qs)
}

/// The rendering of `doc`; for `truncated`, its text cut inside the middle record (after the
/// first character of its id's line), measured as cut.
fn render(
    doc: &Value,
    format: crate::formats::Format,
    defect: &str,
    tokenizers: &[crate::tokens::Tokenizer],
) -> Result<Rendering> {
    let mut r =
        crate::layout::render(doc, format, Structure::Flat, Variant::Mandatory, tokenizers)?;
    if defect == "truncated" {
        let records = doc["products"].as_array().map_or(0, Vec::len);
        let mid_id = doc["products"][records / 2]["id"]
            .as_str()
            .unwrap_or_default();
        let at = r
            .text
            .find(mid_id)
            .map_or(r.text.len() / 2, |i| i + mid_id.len() / 2);
        r.text.truncate(r.text.floor_char_boundary(at));
        // About half the records are left: half the values, for the per-value figures.
        let values = dataset::count_values(doc) * (records / 2) / records.max(1);
        r.stats = DataStats::measure(&r.text, values.max(1), records / 2, tokenizers);
    }
    Ok(r)
}

/// Grades like the lookups, naming the defect (part of the sample key, as a task id is).
struct Defect {
    lookups: Lookups,
    defect: &'static str,
}

impl Scorer for Defect {
    fn item(&self) -> Option<&str> {
        Some(self.defect)
    }

    fn score(&self, unit: &super::plan::Unit, reply: Option<&str>, cut: bool) -> Scored {
        self.lookups.score(unit, reply, cut)
    }

    fn answer_key(&self, unit: &super::plan::Unit) -> String {
        self.lookups.answer_key(unit)
    }
}
