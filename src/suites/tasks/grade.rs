//! Grading one reply to a task: one metric per expected value (`category` `fact`) and the
//! per-result scores — fact accuracy, TeaLeaf's five rubric metrics and their composite.

use super::{Task, facts};
use crate::grading::rubric;
use crate::grading::{Failure, Metric};
use crate::questions::Category;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The scores of one reply to a task, written on its result line (the rubric's fields sit
/// beside `fact_accuracy` and `score`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TaskScores {
    /// Share of expected values stated correctly; null when the task has none.
    pub fact_accuracy: Option<f64>,
    /// TeaLeaf's five metrics and composite; its "factual" is regex patterns matched anywhere,
    /// not checked against the data.
    #[serde(flatten)]
    pub rubric: rubric::Rubric,
    /// The headline: fact accuracy when the task has expected values, else the composite.
    pub score: f64,
}

/// Grades `reply` (`None` for a failed call, which states nothing); `cut` marks a reply that
/// hit the output-token limit, so its missing facts are `truncated`.
pub fn grade(task: &Task, reply: Option<&str>, cut: bool) -> (Vec<Metric>, TaskScores) {
    let text = reply.unwrap_or("");
    let checks = facts::check(text, &task.facts());
    let metrics: Vec<Metric> = checks
        .iter()
        .enumerate()
        .map(|(j, c)| {
            let failure = match (c.correct, &c.found, reply) {
                (true, ..) => None,
                (false, _, None) => Some(Failure::Unparseable),
                (false, None, _) if cut => Some(Failure::Truncated),
                (false, None, _) => Some(Failure::Missing),
                (false, Some(_), _) => Some(Failure::WrongValue),
            };
            Metric {
                metric: format!("{}#{}", task.def.id, j + 1),
                category: Category::Fact,
                passed: u8::from(c.correct),
                score: if c.correct { 1.0 } else { 0.0 },
                reason: failure.map(|f| format!("{}: {}", f.name(), c.description)),
                expected: c.expected.clone(),
                actual: c.found.clone().map_or(Value::Null, Value::String),
                validation: "fact".into(),
                position: None,
                failure,
                off_by: None,
                normalization: Vec::new(),
            }
        })
        .collect();
    let r = rubric::score(text, &task.def.expected_elements, task.def.output_type);
    let fact_accuracy = (!checks.is_empty()).then(|| facts::accuracy(&checks));
    let scores = TaskScores {
        fact_accuracy,
        rubric: r,
        score: fact_accuracy.unwrap_or(r.composite),
    };
    (metrics, scores)
}
