//! Deterministic grading: the four validators under one normalisation policy (`normalize`),
//! the wrong-answer taxonomy of every failed answer (`taxonomy`), per-category accuracy and
//! weighted accuracy; and TeaLeaf's rubric of a whole reply (`rubric`), which the tasks suite and
//! the import of TeaLeaf's published replies both score with.

pub mod normalize;
pub mod rubric;
pub mod taxonomy;
mod validate;

use crate::questions::{Category, Position, Question};
pub use normalize::Norm;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
pub use taxonomy::{DataIndex, Failure, classify};
pub use validate::{Outcome, validate};

/// The grade of one question in one call: a `metrics` entry of a result record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metric {
    /// Question id.
    pub metric: String,
    /// Question category.
    pub category: Category,
    /// 1 if the answer is right, else 0.
    pub passed: u8,
    /// 0..1; partial credit for sets and keywords, else equal to `passed`.
    pub score: f64,
    /// Why it failed (`missing`, `unparseable`, a mismatch); null when it passed.
    pub reason: Option<String>,
    /// Expected answer.
    pub expected: Value,
    /// The model's answer, null if none.
    pub actual: Value,
    /// Validation rule name.
    pub validation: String,
    /// Where the target record sits (retrieval questions only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<Position>,
    /// Wrong-answer kind (see [`taxonomy`]); null when passed (and in logs from before it).
    #[serde(default)]
    pub failure: Option<Failure>,
    /// For `off_by_n` only: the answer minus the expected value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub off_by: Option<f64>,
    /// Normalisations a passed answer needed (see [`normalize`]); always written, so an absent
    /// field (a log from before it) tells "not recorded" apart from "none needed".
    #[serde(default)]
    pub normalization: Vec<Norm>,
}

/// Grades every question against a parsed answer object; `None` means nothing could be parsed.
/// `data` is the records the questions were asked about (for the taxonomy of failed answers);
/// `cut` says the reply hit the output-token limit, so missing and unparseable answers are
/// `truncated`.
pub fn grade(
    questions: &[Question],
    answers: Option<&serde_json::Map<String, Value>>,
    data: &DataIndex,
    cut: bool,
) -> Vec<Metric> {
    let lost = |kind: Failure| if cut { Failure::Truncated } else { kind };
    questions
        .iter()
        .map(|q| {
            let actual = answers.and_then(|a| a.get(&q.id));
            let (outcome, failure, off_by) = match (answers, actual) {
                (None, _) => (
                    Outcome::fail("unparseable"),
                    Some(lost(Failure::Unparseable)),
                    None,
                ),
                (Some(_), None) => (Outcome::fail("missing"), Some(lost(Failure::Missing)), None),
                (Some(_), Some(a)) => {
                    let o = validate(&q.validation, &q.expected, a);
                    if o.passed {
                        (o, None, None)
                    } else {
                        let (kind, off_by) = classify(q, a, data);
                        let kind = if kind == Failure::Missing {
                            lost(kind)
                        } else {
                            kind
                        };
                        (o, Some(kind), off_by)
                    }
                }
            };
            Metric {
                metric: q.id.clone(),
                category: q.category,
                passed: u8::from(outcome.passed),
                score: outcome.score,
                reason: outcome.reason,
                expected: q.expected.clone(),
                actual: actual.cloned().unwrap_or(Value::Null),
                validation: q.validation.name().to_string(),
                position: q.position.clone(),
                failure,
                off_by,
                normalization: outcome.normalization,
            }
        })
        .collect()
}

/// Accuracy of one category.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CategoryScore {
    /// Questions asked.
    pub total: usize,
    /// Questions answered right.
    pub passed: usize,
    /// passed / total.
    pub accuracy: f64,
}

/// The `summary` of a result record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Questions graded.
    pub total_metrics: usize,
    /// Questions passed.
    pub passed_metrics: usize,
    /// Mean score.
    pub avg_score: f64,
    /// passed / total.
    pub pass_rate: f64,
    /// Σ weight × category accuracy (see [`weighted_accuracy`]).
    pub weighted_accuracy: f64,
    /// Accuracy per category name.
    pub by_category: BTreeMap<String, CategoryScore>,
}

/// Weighted accuracy of one call: Σ weight(c) · passed(c)/total(c) over the categories present,
/// divided by the sum of their weights (1.0 when all four are present). In the `tasks` suite
/// the only category is `fact`, so it is the share of facts stated correctly. This is for the
/// progress line and the result line's `summary` (a look at one call); every weighted accuracy
/// a ranking, report or test reports is computed in SQL (views.sql `runs`, from the per-category
/// counts and the run's own weights).
pub fn weighted_accuracy(by_category: &BTreeMap<String, CategoryScore>) -> f64 {
    let mut sum = 0.0;
    let mut weights = 0.0;
    for (name, s) in by_category.iter().filter(|(_, s)| s.total > 0) {
        let w = Category::from_name(name).weight();
        sum += w * s.accuracy;
        weights += w;
    }
    if weights == 0.0 { 0.0 } else { sum / weights }
}

/// Summarizes the metrics of one call.
pub fn summarize(metrics: &[Metric]) -> Summary {
    let mut by_category: BTreeMap<String, CategoryScore> = BTreeMap::new();
    for m in metrics {
        let e = by_category
            .entry(m.category.name().to_string())
            .or_insert(CategoryScore {
                total: 0,
                passed: 0,
                accuracy: 0.0,
            });
        e.total += 1;
        e.passed += usize::from(m.passed);
    }
    for s in by_category.values_mut() {
        s.accuracy = s.passed as f64 / s.total as f64;
    }
    let total = metrics.len();
    let passed = metrics.iter().map(|m| usize::from(m.passed)).sum();
    let frac = |x: f64| if total == 0 { 0.0 } else { x / total as f64 };
    Summary {
        total_metrics: total,
        passed_metrics: passed,
        avg_score: frac(metrics.iter().map(|m| m.score).sum()),
        pass_rate: frac(passed as f64),
        weighted_accuracy: weighted_accuracy(&by_category),
        by_category,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scores(passed: [usize; 4]) -> BTreeMap<String, CategoryScore> {
        Category::ALL
            .iter()
            .zip(passed)
            .map(|(c, p)| {
                let s = CategoryScore {
                    total: c.count(),
                    passed: p,
                    accuracy: p as f64 / c.count() as f64,
                };
                (c.name().to_string(), s)
            })
            .collect()
    }

    #[test]
    fn weighted_accuracy_matches_the_published_formula() {
        let formula = |r: f64, s: f64, f: f64, a: f64| {
            r / 55.0 * 0.375 + s / 27.0 * 0.29167 + f / 21.0 * 0.20833 + a / 21.0 * 0.125
        };
        for p in [
            [55, 27, 21, 21],
            [0, 0, 0, 0],
            [40, 20, 10, 5],
            [55, 0, 0, 0],
            [1, 2, 3, 4],
        ] {
            let got = weighted_accuracy(&scores(p));
            let want = formula(p[0] as f64, p[1] as f64, p[2] as f64, p[3] as f64);
            assert!((got - want).abs() < 1e-12, "{p:?}: {got} vs {want}");
        }
        assert!((weighted_accuracy(&scores([55, 27, 21, 21])) - 1.0).abs() < 1e-12);
        // Retrieval weighs more per question than aggregation.
        assert!(
            weighted_accuracy(&scores([54, 27, 21, 21]))
                < weighted_accuracy(&scores([55, 27, 21, 20]))
        );
    }
}
