//! What the field-lookup suites share (the product questions, a `--data` run, the corrupted
//! records): the scorer that grades lookups against the records asked about, the data files
//! they write beside the log, the category weights of the metadata line, and what the
//! metadata line records of a `--data` file (which the formats, data and corrupted suites
//! read). A leaf of `suites/`, so those suites import it and not each other.

use super::plan::{Matrix, Plan, Scored, Scorer, Unit};
use crate::grading::{DataIndex, grade};
use crate::layout::Writer;
use crate::prompt::{extract_answers, extract_cut_answers};
use crate::questions::Category;
use crate::runlog::Metadata;
use crate::runlog::meta::Skip;
use anyhow::Result;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::path::PathBuf;

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
pub struct LookupScorer {
    data: DataIndex,
}

impl LookupScorer {
    /// Grades against `data`.
    pub fn new(data: DataIndex) -> Self {
        Self { data }
    }
}

impl Scorer for LookupScorer {
    fn score(&self, unit: &Unit, reply: Option<&str>, cut: bool) -> Scored {
        let parse = if cut {
            extract_cut_answers
        } else {
            extract_answers
        };
        let answers = reply.and_then(parse);
        Scored {
            metrics: grade(&unit.questions, answers.as_ref(), &self.data, cut),
            payload: Default::default(),
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

/// A column as DuckDB typed it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Column {
    /// Column name.
    pub name: String,
    /// DuckDB's type.
    pub duckdb_type: String,
}

/// What a `--data` run's metadata records: the file and its identity, how it was read, what
/// was asked, and what was skipped — enough to plan the run again on `--resume`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DataMeta {
    /// The data file as given.
    pub file: PathBuf,
    /// Hex sha256 of its bytes.
    pub sha256: String,
    /// `--root-key`.
    pub root_key: Option<String>,
    /// `--sample`: first or random.
    pub sample: String,
    /// Records asked about.
    pub records: usize,
    /// Records in the file.
    pub total_records: usize,
    /// `--records` (all when null).
    pub keep: Option<usize>,
    /// The columns DuckDB inferred.
    pub schema: Vec<Column>,
    /// The identifying field used, or the comma list of a composite key; empty when records
    /// are named by position.
    pub id_field: String,
    /// How records are named: `field`, `fields` (a composite key) or `position`.
    #[serde(default = "field_by")]
    pub id_by: String,
    /// `--id-field`, when given.
    pub id_field_asked: Option<String>,
    /// Questions asked.
    pub questions: usize,
    /// `--questions N`.
    pub questions_asked: usize,
    /// `--questions FILE`: the user's question file, replacing the synthesised questions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub questions_file: Option<PathBuf>,
    /// Its SHA-256, checked when the run is planned again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub questions_sha256: Option<String>,
    /// What the synthesis could not do as asked.
    pub notices: Vec<String>,
    /// Formats that could not represent the records.
    pub skipped: Vec<Skip>,
    /// `--records` of each sample asked when the run asks several sizes of the file (a list,
    /// a sweep), smallest first; the fields above describe the largest.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<Option<usize>>,
}

/// `id_by` of a run log written before composite keys: always one field.
fn field_by() -> String {
    "field".into()
}

/// A `--data` run's key in the metadata line (its [`DataMeta`]).
const DATA_KEY: &str = "data";

impl DataMeta {
    /// The `--data` file's part of a metadata line; `None` for a run of other data.
    pub fn of(m: &Metadata) -> Result<Option<Self>> {
        m.payload.own(DATA_KEY)
    }

    /// Writes it into the metadata line.
    pub fn set(&self, m: &mut Metadata) {
        m.payload.set_own(DATA_KEY, self);
    }
}
