//! An analysis task: its definition in the TeaLeaf accuracy-benchmark schema (loaded
//! unchanged, plus bench's `expected_values`), its data document, and what the reference
//! answerer needs of it.

use super::{facts, scope};
use crate::grading::rubric::{Complexity, ExpectedElement, OutputType};
use crate::questions::query::Query;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// Which bundled task file `--data-source` picks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DataSource {
    /// `benchmarks/tasks/synthetic.json`: 12 tasks of our own over 10 domains.
    #[default]
    Synthetic,
    /// `benchmarks/tasks/real.json`: tasks over public data sets from a package registry.
    Real,
}

impl DataSource {
    /// The bundled task file: relative to the working folder, else read from the binary.
    pub fn path(self) -> PathBuf {
        PathBuf::from(match self {
            DataSource::Synthetic => "benchmarks/tasks/synthetic.json",
            DataSource::Real => "benchmarks/tasks/real.json",
        })
    }
}

/// What the reference provider needs to answer a task from its prompt alone: which decoder,
/// the root key a tabular rendering dropped, and each expected value's query.
#[derive(Debug, Clone)]
pub struct TaskRequest {
    /// The format the data block is in.
    pub format: crate::formats::Format,
    /// Root key of the records for tabular formats (see `Format::decode_as`).
    pub root_key: Option<String>,
    /// Each expected value's description and query, in order.
    pub values: Vec<(String, ValueQuery)>,
    /// The task's output-token limit, sent instead of the model's.
    pub max_tokens: u32,
    /// The task's temperature, sent instead of the model's; none keeps the model's setting.
    pub temperature: Option<f64>,
}

/// A query of the project's language over the records `from` selects (see [`scope`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValueQuery {
    /// Path to the records in the data document; the only array when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The query proper (`op` and its fields).
    #[serde(flatten)]
    pub query: Query,
}

impl ValueQuery {
    /// Evaluates the query on a data document.
    pub fn evaluate(&self, doc: &Value) -> Result<Value, String> {
        let records = scope::select(doc, self.from.as_deref())?;
        Ok(self.query.evaluate(&records))
    }
}

/// A fact a correct answer states (bench's addition to the TeaLeaf schema).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExpectedValue {
    /// Phrase the answer uses next to the value.
    pub description: String,
    /// How the value is computed from the data.
    pub query: ValueQuery,
    /// The literal value, checked against the query at load when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    /// Absolute tolerance; exact for integers and 0.5 % relative otherwise when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<f64>,
}

/// One task as written in its file, with TeaLeaf's defaults.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TaskDef {
    /// Unique id (`FIN-001`).
    pub id: String,
    /// Domain (`finance`).
    pub category: String,
    /// Prompt with a `{data}` (or `{tl_data}`) placeholder, and `{format_name}` if it names the format.
    pub prompt_template: String,
    /// TeaLeaf's sub-domain label, kept as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subcategory: Option<String>,
    /// simple, moderate, complex, advanced or expert.
    #[serde(default)]
    pub complexity: Complexity,
    /// calculation, analysis, recommendation, summary or prediction (TeaLeaf's `.tl` loader
    /// also reads it as `expected_output_type`).
    #[serde(default, alias = "expected_output_type")]
    pub output_type: OutputType,
    /// Data document, relative to the task file's folder; without one every format skips the task.
    #[serde(default)]
    pub data_file: Option<String>,
    /// Output-token limit of the call.
    #[serde(default = "default_max_tokens")]
    pub max_tokens: u32,
    /// Sampling temperature of the call (TeaLeaf's default 0.3); `null` keeps the model's.
    #[serde(default = "default_temperature")]
    pub temperature: Option<f64>,
    /// What TeaLeaf's rubric looks for.
    #[serde(default)]
    pub expected_elements: Vec<ExpectedElement>,
    /// TeaLeaf's rubric block, kept as written (its scorer does not read it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grading_rubric: Option<Value>,
    /// Per format (TeaLeaf's `tl`, `json`, `toon` or a bench format name): prepend its hint.
    #[serde(default)]
    pub include_format_hint: BTreeMap<String, bool>,
    /// Facts checked against the data.
    #[serde(default)]
    pub expected_values: Vec<ExpectedValue>,
}

fn default_max_tokens() -> u32 {
    2048
}

fn default_temperature() -> Option<f64> {
    Some(0.3)
}

/// A loaded task: its definition, data document and the truth of every expected value.
#[derive(Debug, Clone)]
pub struct Task {
    /// As written in the file.
    pub def: TaskDef,
    /// The data document.
    pub data: Arc<Value>,
    /// Where the data came from (for messages and metadata).
    pub data_path: PathBuf,
    /// Each expected value's truth, computed from the data, in file order.
    pub truths: Vec<Value>,
    /// Hint texts by key, from `format_hints.json` beside the task file.
    pub hints: Arc<BTreeMap<String, String>>,
}

impl Task {
    /// Records in the data: those the first expected value ranges over (the task's main
    /// records), else the document's only array.
    pub fn records(&self) -> usize {
        let from = self
            .def
            .expected_values
            .first()
            .and_then(|v| v.query.from.as_deref());
        scope::select(&self.data, from).map_or(0, |r| r.len())
    }

    /// The facts a correct answer states, with their computed truths.
    pub fn facts(&self) -> Vec<facts::Fact> {
        self.def
            .expected_values
            .iter()
            .zip(&self.truths)
            .map(|(e, truth)| facts::Fact {
                description: e.description.clone(),
                value: truth.clone(),
                tolerance: e.tolerance,
            })
            .collect()
    }
}

/// One fact as a reply states it, one line: `- description: value`, text bare, lists
/// comma-separated, numbers as JSON. The reference answerer writes its replies so, and the dry
/// run's output estimate counts them.
pub fn state_fact(description: &str, value: &Value) -> String {
    fn text(v: &Value) -> String {
        match v {
            Value::String(s) => s.clone(),
            Value::Array(items) => items.iter().map(text).collect::<Vec<_>>().join(", "),
            Value::Null => "none".into(),
            other => other.to_string(),
        }
    }
    format!("- {description}: {}\n", text(value))
}
