//! Questions generated from the data: each carries its expected answer, validation rule and a
//! machine-readable query that the reference answerer evaluates.

pub mod file;
pub(crate) mod generate;
pub mod numbers;
pub mod query;
pub mod sql;
pub mod synth;

pub use generate::generate;
pub use query::{Filter, Query};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// Question category; each has a fixed count and weight in the `formats` suite.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
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
    /// A category a question file names (`--questions FILE`), weighted 1 like every category
    /// of a file that names one.
    Other(&'static str),
}

impl Serialize for Category {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Category {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Ok(Category::from_name(&name))
    }
}

impl Category {
    /// All categories in canonical order.
    pub const ALL: [Category; 4] = [
        Category::FieldRetrieval,
        Category::StructureAwareness,
        Category::Filtering,
        Category::Aggregation,
    ];

    /// The category named `name`; a name bench does not define is [`Category::Other`]. Its
    /// text is leaked once per distinct name (a run names a handful), so categories stay `Copy`.
    pub fn from_name(name: &str) -> Category {
        static OTHERS: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
        let known = Category::ALL
            .into_iter()
            .chain([Category::Fact, Category::Document])
            .find(|c| c.name() == name);
        if let Some(c) = known {
            return c;
        }
        let mut others = OTHERS.lock().expect("category names");
        let leaked = match others.iter().find(|n| **n == name) {
            Some(n) => *n,
            None => {
                let n: &'static str = Box::leak(name.to_string().into_boxed_str());
                others.push(n);
                n
            }
        };
        Category::Other(leaked)
    }

    /// The four categories, then every other one of `asked` in first-seen order (a question
    /// file's own names): a suite's `'static` category list. Leaked once per plan when there
    /// are others (a handful of names); the four alone are [`Category::ALL`].
    pub fn with_others(asked: impl IntoIterator<Item = Category>) -> &'static [Category] {
        let mut all = Category::ALL.to_vec();
        for c in asked {
            if !all.contains(&c) {
                all.push(c);
            }
        }
        if all.len() == Category::ALL.len() {
            &Category::ALL
        } else {
            Box::leak(all.into_boxed_slice())
        }
    }

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
            Category::Other(name) => name,
        }
    }

    /// Questions of this category per variant.
    pub fn count(self) -> usize {
        match self {
            Category::FieldRetrieval => 55,
            Category::StructureAwareness => 27,
            Category::Filtering => 21,
            Category::Aggregation => 21,
            Category::Fact | Category::Document | Category::Other(_) => 0,
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
            Category::Fact | Category::Document | Category::Other(_) => 1.0,
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

/// The same questions about the same records in another order (`--shuffle`): each answer
/// evaluated again on `records` (the order questions' change; the others stay), and each
/// retrieval target's position found again, its label from the third it now sits in.
pub fn reordered(questions: &[Question], records: &[crate::dataset::Record]) -> Vec<Question> {
    let n = records.len();
    let third = n.div_ceil(3).max(1);
    questions
        .iter()
        .map(|q| {
            let mut q = q.clone();
            if !matches!(q.query, Query::Given) {
                q.expected = q.query.evaluate(records);
            }
            if let (Some(p), Query::Get { id, key, .. }) = (&mut q.position, &q.query) {
                let key = key.as_deref().unwrap_or("id");
                if let Some(i) = records
                    .iter()
                    .position(|r| query::field(r, key).is_some_and(|v| query::text(v) == *id))
                {
                    p.index = i;
                    p.label = match i / third {
                        0 => "start",
                        1 => "middle",
                        _ => "end",
                    }
                    .into();
                }
            }
            q
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_read_back_by_name_including_a_files_own() {
        for c in Category::ALL
            .into_iter()
            .chain([Category::Fact, Category::Document])
        {
            let text = serde_json::to_string(&c).unwrap();
            assert_eq!(text, format!("\"{}\"", c.name()));
            assert_eq!(serde_json::from_str::<Category>(&text).unwrap(), c);
        }
        let geo: Category = serde_json::from_str("\"geo\"").unwrap();
        assert_eq!(geo, Category::Other("geo"));
        assert_eq!(Category::from_name("geo"), geo);
        assert_eq!(serde_json::to_string(&geo).unwrap(), "\"geo\"");
        assert_eq!((geo.weight(), geo.count()), (1.0, 0));
        assert!(Category::Aggregation < geo);
    }
}
