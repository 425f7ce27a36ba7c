//! The `corrupted` suite: does the model notice damaged data? From the product records (flat,
//! mandatory) or the user's (`--data`), data sets with one defect each — a record missing from the middle, a record
//! duplicated, the text cut off inside a record, one record lacking a field, one value of the
//! wrong type — and the same records undamaged as the control, each in every format that can
//! hold them (the cut is made in the text, so it applies to all). Five questions per data set,
//! one for each defect, each with its deterministic answer, the control's included ("none",
//! "complete"); a cut-off text is asked only whether it is complete.

pub mod defects;
pub mod panel;
mod report;

pub use defects::DEFECTS;

use super::asked::{self, Asked, Planned, Select, refuse};
use super::lookup::{DataMeta, LookupScorer};
use super::plan::{Combo, Matrix, Plan, units};
use super::user_data::DataPlan;
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

/// Claims a metadata line of this suite; a `--data` run loads its file again.
pub const ENTRY: Entry = Entry {
    kind: SUITE,
    from_metadata: |m| {
        if m.suite_name != SUITE {
            return Ok(None);
        }
        let data = match DataMeta::of(m)? {
            Some(d) => Some(Arc::new(d.plan(m.seed)?)),
            None => None,
        };
        Ok(Some(Arc::new(Corrupted { data }) as Arc<dyn Suite>))
    },
    items: true,
    ranked_by: "sql/corrupted.sql",
    result_mode: None,
    check_own: |m| DataMeta::of(m).map(drop),
    select: Some(Select {
        about: "Damaged data (a record missing, duplicated or cut off, a field missing, a value \
                of the wrong type) and an undamaged control: does the model notice?",
        plan,
        group: None,
        flags: &[],
        given: |_| Vec::new(),
    }),
    panel: Some(&panel::CorruptedPanel {
        words: defect_words,
    }),
    report: Some(report::SECTIONS),
};

/// `bench run --suite corrupted`: the product records, or `--data`'s, damaged.
fn plan(a: &Asked) -> Result<Planned> {
    asked::refuse_lookup_options(a)?;
    refuse(
        a.prompt_variants > 1,
        "--prompt-variants does not apply to --suite corrupted: its questions about the damage \
         have one wording",
    )?;
    if a.data.is_some() {
        let (dp, notes) = super::user_data::from_asked(a)?;
        let dp = Arc::new(dp);
        let suite = Arc::new(Corrupted {
            data: Some(dp.clone()),
        });
        return Ok(Planned::data(a, &dp, suite, notes));
    }
    Ok(Planned::product(
        a,
        Arc::new(Corrupted { data: None }),
        Vec::new(),
    ))
}

/// The damage of each defect, in the words of one answer's page in `bench view` (its defect
/// line), from the one table of the defects.
pub fn defect_words(defect: &str) -> &'static str {
    defects::defect(defect).map_or("see the run's metadata", |d| d.shown)
}

/// The corrupted-data track: the product records, or with `data` the user's.
#[derive(Debug, Clone, Default)]
pub struct Corrupted {
    /// The user's records (`--data`), each of its sizes damaged in turn.
    pub data: Option<Arc<DataPlan>>,
}

/// What the damage is done to: the records, how one is named, and the fields it touches.
struct Source {
    /// The key of the record list in the document (`products`).
    root: String,
    /// The field naming a record.
    key: String,
    /// What a record is called in the questions.
    noun: &'static str,
    /// The field one record lacks (`missing_field`), if any field is in every record.
    lacking: Option<String>,
    /// The number field that holds text in one record (`wrong_type`), if any.
    number: Option<String>,
    /// The data's shape.
    structure: Structure,
    /// Whether records may lack fields.
    variant: Variant,
}

impl Source {
    /// The product records: named by `id`, `price` lacked and made text.
    fn products() -> Self {
        Self {
            root: "products".into(),
            key: "id".into(),
            noun: "product",
            lacking: Some("price".into()),
            number: Some("price".into()),
            structure: Structure::Flat,
            variant: Variant::Mandatory,
        }
    }

    /// The user's records: named by their identifying field; the first other field that is a
    /// number in every record is lacked and made text, or, with none, the first field every
    /// record has is lacked and no value is made text.
    fn of(dp: &DataPlan) -> Result<Self> {
        let id = &dp.synthesis.id;
        if id.by() != "field" {
            return Err(crate::UsageError::new(format!(
                "{}: --suite corrupted names the damaged record by one identifying field, and \
                 these records have {} (give --id-field FIELD with a field unique per record)",
                dp.file.display(),
                if id.by() == "fields" {
                    format!("only a composite key ({})", id.field_list())
                } else {
                    "none (they are named by position)".to_string()
                }
            ))
            .into());
        }
        let key = id.field_list();
        let records = &dp.data.records;
        let in_all = |f: &str, number: bool| {
            records.iter().all(|r| {
                r.get(f)
                    .is_some_and(|v| !v.is_null() && (!number || v.is_number()))
            })
        };
        let fields: Vec<&String> = records
            .first()
            .map(|r| r.keys().filter(|k| **k != key).collect())
            .unwrap_or_default();
        let number = fields
            .iter()
            .find(|f| in_all(f, true))
            .map(|f| f.to_string());
        let lacking = number.clone().or_else(|| {
            fields
                .iter()
                .find(|f| in_all(f, false))
                .map(|f| f.to_string())
        });
        Ok(Self {
            root: crate::dataset::user::root_name(&dp.data.name),
            key,
            noun: "record",
            lacking,
            number,
            structure: dp.structure,
            variant: dp.variant,
        })
    }

    /// Why `defect` cannot be made in these records, if it cannot.
    fn cannot(&self, defect: &str) -> Option<String> {
        match defect {
            "missing_field" if self.lacking.is_none() => {
                Some("no field besides the key is in every record, so none can go missing".into())
            }
            "wrong_type" if self.number.is_none() => Some(
                "no field besides the key holds a number in every record, so none can hold the \
                 wrong type"
                    .into(),
            ),
            _ => None,
        }
    }
}

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
        let mut m = Matrix {
            sizes: Vec::new(),
            combos: Vec::new(),
        };
        let mut skips = Vec::new();
        match &self.data {
            None => {
                for &n in &plan.records {
                    let clean = dataset::generate(n, plan.seed)
                        .records(Variant::Mandatory)
                        .into_owned();
                    damage(plan, &Source::products(), &clean, &mut m, &mut skips)?;
                }
            }
            Some(dp) => {
                for level in dp.levels() {
                    let source = Source::of(level)?;
                    damage(plan, &source, &level.data.records, &mut m, &mut skips)?;
                }
            }
        }
        Ok((m, skips))
    }

    fn record(&self, meta: &mut crate::runlog::Metadata, skipped: &[Skip]) {
        if let Some(dp) = &self.data {
            dp.meta(skipped).set(meta);
        }
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

/// Every defect of `clean` (and the control) in every format of the plan; a defect the records
/// cannot take, or a format that cannot hold a damaged set, is a skip with its reason.
fn damage(
    plan: &Plan,
    source: &Source,
    clean: &[Record],
    m: &mut Matrix,
    skips: &mut Vec<Skip>,
) -> Result<()> {
    let n = clean.len();
    for defect in DEFECTS.map(|d| d.id) {
        if let Some(why) = source.cannot(defect) {
            for &format in &plan.formats {
                skips.push(Skip {
                    task: format!("{defect}-{n}"),
                    format,
                    reason: why.clone(),
                });
            }
            continue;
        }
        let (records, questions) = damaged(source, clean, defect);
        let list = records.iter().cloned().map(Value::Object).collect();
        let mut root = serde_json::Map::new();
        root.insert(source.root.clone(), Value::Array(list));
        let doc = Value::Object(root);
        let scorer: Arc<dyn Scorer> = Arc::new(Defect {
            lookups: LookupScorer::new(DataIndex::with_id(records.clone(), &source.key)),
            defect,
        });
        let subject = if source.noun == "product" {
            Subject::Products
        } else {
            Subject::Records
        };
        for &format in &plan.formats {
            let rendering = match render(&doc, source, format, defect, &plan.tokenizers) {
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
            let root: Arc<str> = Arc::from(source.root.as_str());
            let units = units(plan, subject, &rendering, false, &questions, Some(&root));
            m.combos.push(Combo {
                slot: Default::default(),
                records: n,
                primer: false,
                rendering,
                units,
                scorer: scorer.clone(),
            });
        }
    }
    Ok(())
}

/// The records of one defect and the questions about them.
fn damaged(source: &Source, clean: &[Record], defect: &str) -> (Vec<Record>, Vec<Question>) {
    let mut records = clean.to_vec();
    let mid = records.len() / 2;
    match (defect, &source.lacking, &source.number) {
        ("missing_record", ..) => {
            records.remove(mid);
        }
        ("duplicate", ..) => records.insert(mid + 1, records[mid].clone()),
        ("missing_field", Some(f), _) => {
            records[mid].remove(f);
        }
        ("wrong_type", _, Some(f)) => {
            records[mid].insert(f.clone(), json!("n/a"));
        }
        _ => {}
    }
    let key = source.key.clone();
    let noun = source.noun;
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
            format!("How many {noun}s are in the data?"),
            Query::CountRecords,
        ),
        q(
            "duplicate",
            format!("Is any {noun} listed twice? Answer with its {key}, or \"none\"."),
            Query::Duplicated { key: key.clone() },
        ),
        complete,
    ];
    if let Some(f) = &source.lacking {
        qs.push(q(
            "lacking",
            format!("Which {noun} has no {f}? Answer with its {key}, or \"none\"."),
            Query::Lacking {
                field: f.clone(),
                key: key.clone(),
            },
        ));
    }
    if let Some(f) = &source.number {
        qs.push(q(
            "wrong_type",
            format!(
                "Which {noun} has a {f} that is not a number? Answer with its {key}, or \"none\"."
            ),
            Query::NotANumber {
                field: f.clone(),
                key,
            },
        ));
    }
    qs.sort_by_key(|q| DEFECTS.len() * usize::from(q.id == "complete"));
    (records, qs)
}

/// The rendering of `doc`; for `truncated`, its text cut inside the middle record (after the
/// first character of its id's line), measured as cut.
fn render(
    doc: &Value,
    source: &Source,
    format: crate::formats::Format,
    defect: &str,
    tokenizers: &[crate::tokens::Tokenizer],
) -> Result<Rendering> {
    let mut r = crate::layout::render(doc, format, source.structure, source.variant, tokenizers)?;
    if defect == "truncated" {
        let list = &doc[source.root.as_str()];
        let records = list.as_array().map_or(0, Vec::len);
        let mid_id = list[records / 2]
            .get(source.key.as_str())
            .map(crate::questions::query::text)
            .unwrap_or_default();
        // After the middle record's key, past the half of the text that holds it: a short key
        // (`7`) also appears earlier.
        let half = r.text.len() / 2;
        let at = r.text[..]
            .match_indices(mid_id.as_str())
            .map(|(i, _)| i)
            .filter(|_| !mid_id.is_empty())
            .min_by_key(|&i| i.abs_diff(half))
            .map_or(half, |i| i + (mid_id.len() / 2).max(1));
        r.text.truncate(r.text.floor_char_boundary(at));
        // About half the records are left: half the values, for the per-value figures.
        let values = dataset::count_values(doc) * (records / 2) / records.max(1);
        r.stats = DataStats::measure(&r.text, values.max(1), records / 2, tokenizers);
    }
    Ok(r)
}

/// Grades like the lookups, naming the defect (part of the sample key, as a task id is).
struct Defect {
    lookups: LookupScorer,
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
