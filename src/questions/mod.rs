//! Questions generated from the data: each carries its expected answer, validation rule and a
//! machine-readable query that the reference answerer evaluates.

pub mod file;
pub(crate) mod generate;
pub mod query;
pub mod sql;
pub mod synth;

pub use generate::generate;
pub use query::{Filter, Query};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// Question category; each has a fixed count and weight in the `formats` suite.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// Extract one value of one record.
    FieldRetrieval,
    /// Understand the shape and order of the data.
    StructureAwareness,
    /// Count or list records matching a condition.
    Filtering,
    /// Sum, average, minimum, maximum.
    Aggregation,
    /// A value an analysis task's answer states (the `tasks` suite; not in [`Category::ALL`]).
    Fact,
    /// A whole document written in a format (the `write` suite; not in [`Category::ALL`]).
    Document,
}

impl Category {
    /// All categories in canonical order.
    pub const ALL: [Category; 4] = [
        Category::FieldRetrieval,
        Category::StructureAwareness,
        Category::Filtering,
        Category::Aggregation,
    ];

    /// Where a category named `name` sorts: [`Category::ALL`]'s order, any other name after.
    pub fn rank(name: &str) -> usize {
        Self::ALL
            .iter()
            .position(|c| c.name() == name)
            .unwrap_or(Self::ALL.len())
    }

    /// Name used in JSONL and SQL.
    pub fn name(self) -> &'static str {
        match self {
            Category::FieldRetrieval => "field_retrieval",
            Category::StructureAwareness => "structure_awareness",
            Category::Filtering => "filtering",
            Category::Aggregation => "aggregation",
            Category::Fact => "fact",
            Category::Document => "document",
        }
    }

    /// Questions of this category per variant.
    pub fn count(self) -> usize {
        match self {
            Category::FieldRetrieval => 55,
            Category::StructureAwareness => 27,
            Category::Filtering => 21,
            Category::Aggregation => 21,
            Category::Fact | Category::Document => 0,
        }
    }

    /// Weight in weighted accuracy.
    pub fn weight(self) -> f64 {
        match self {
            Category::FieldRetrieval => 0.375,
            Category::StructureAwareness => 0.29167,
            Category::Filtering => 0.20833,
            Category::Aggregation => 0.125,
            // Alone in its suite, so any weight gives the share of facts stated correctly.
            Category::Fact | Category::Document => 1.0,
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How an answer is compared with the expected one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum Validation {
    /// Case-insensitive, trimmed string equality.
    Exact,
    /// Number within an absolute tolerance.
    Numeric {
        /// Largest accepted absolute difference.
        tolerance: f64,
    },
    /// Same set of values in any order.
    ArraySet,
    /// Enough keywords of the expected text appear in the answer.
    Fuzzy,
}

impl Validation {
    /// Rule name used in JSONL and SQL.
    pub fn name(&self) -> &'static str {
        match self {
            Validation::Exact => "exact",
            Validation::Numeric { .. } => "numeric",
            Validation::ArraySet => "array_set",
            Validation::Fuzzy => "fuzzy",
        }
    }
}

/// Where in the data the target record of a retrieval question sits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Position {
    /// `start`, `middle` or `end` third of the records.
    pub label: String,
    /// 0-based record index.
    pub index: usize,
}

/// One question with its answer key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Question {
    /// Stable id, `q001`…
    pub id: String,
    /// Category.
    pub category: Category,
    /// Text shown to the model.
    pub text: String,
    /// Correct answer.
    pub expected: Value,
    /// Comparison rule.
    pub validation: Validation,
    /// Machine-readable form the reference answerer evaluates.
    pub query: Query,
    /// Target record position (retrieval questions only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub position: Option<Position>,
}
