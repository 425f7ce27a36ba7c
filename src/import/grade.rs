//! bench's own grade of a published answer: the expected value as published is read as the
//! kind it spells (a number, yes/no, a list, text) and judged by bench's validators under their
//! normalisation policy, never by the source's rules. Without the data the answers were about,
//! a wrong answer's kind is only `missing`, `off_by_n` or `wrong_value`.

use super::source::Answer;
use crate::grading::normalize::read_number;
use crate::grading::{Failure, Metric, validate};
use crate::questions::{Category, Validation};
use serde_json::Value;

/// The rule and the typed expected value bench grades a published expected answer by.
fn rule_of(expected: &Value) -> (Validation, Value) {
    match expected {
        Value::String(s) => {
            let t = s.trim();
            match t.to_ascii_lowercase().as_str() {
                "yes" | "true" => return (Validation::Exact, Value::Bool(true)),
                "no" | "false" => return (Validation::Exact, Value::Bool(false)),
                _ => {}
            }
            match t.parse::<f64>().ok().and_then(serde_json::Number::from_f64) {
                Some(n) if t.parse::<f64>().is_ok_and(f64::is_finite) => {
                    (Validation::Numeric { tolerance: 0.0 }, Value::Number(n))
                }
                _ => (Validation::Exact, Value::String(t.to_string())),
            }
        }
        Value::Array(_) => (Validation::ArraySet, expected.clone()),
        Value::Number(_) => (Validation::Numeric { tolerance: 0.0 }, expected.clone()),
        other => (Validation::Exact, other.clone()),
    }
}

/// The answer's metric: bench's grade when the expected value is published, else the source's
/// grade (said in `reason`). `by_source` puts the source's grade in `passed` (`--grade
/// source`). Returns the metric and bench's own grade.
pub fn metric(a: &Answer, by_source: bool) -> (Metric, Option<bool>) {
    let category = Category::from_name(&a.category);
    if let Some(e) = &a.element {
        return (element(a, e, category), Some(e.found.is_some()));
    }
    let Some(expected) = &a.expected else {
        let passed = a.source_passed.unwrap_or(false);
        let m = Metric {
            metric: a.question.clone(),
            category,
            passed: u8::from(passed),
            score: f64::from(u8::from(passed)),
            reason: (!passed).then(|| "graded by the source (no expected value published)".into()),
            expected: Value::Null,
            actual: a.actual.clone(),
            validation: "source".into(),
            position: None,
            failure: (!passed).then_some(Failure::WrongValue),
            off_by: None,
            normalization: Vec::new(),
        };
        return (m, None);
    };
    let (rule, typed) = match &a.rule {
        // The source's own rule, the expected value read as the kind the rule compares.
        Some(r @ Validation::Numeric { .. }) => (r.clone(), rule_of(expected).1),
        Some(r) => (r.clone(), expected.clone()),
        None => rule_of(expected),
    };
    let o = validate(&rule, &typed, &a.actual);
    let bench = o.passed;
    let passed = match (by_source, a.source_passed) {
        (true, Some(s)) => s,
        _ => bench,
    };
    let empty = a.actual.is_null() || a.actual.as_str().is_some_and(|s| s.trim().is_empty());
    let off_by = match (&typed, read_number(&a.actual)) {
        (Value::Number(n), Some((got, _))) if !passed => n.as_f64().map(|w| got - w),
        _ => None,
    };
    let failure = match () {
        () if passed => None,
        () if empty => Some(Failure::Missing),
        () if off_by.is_some() => Some(Failure::OffByN),
        () => Some(Failure::WrongValue),
    };
    let reason = match (passed, o.reason) {
        (true, _) => None,
        (false, Some(r)) => Some(r),
        (false, None) => Some("graded wrong by the source (--grade source)".into()),
    };
    let m = Metric {
        metric: a.question.clone(),
        category,
        passed: u8::from(passed),
        score: if passed { 1.0 } else { 0.0 },
        reason,
        expected: expected.clone(),
        actual: a.actual.clone(),
        validation: rule.name().into(),
        position: None,
        failure,
        off_by,
        normalization: if passed && bench {
            o.normalization
        } else {
            Vec::new()
        },
    };
    (m, Some(bench))
}

/// An expected element's metric: detected or not by bench's copy of TeaLeaf's rubric (its
/// regex, else a keyword of its description); the source grades whole replies only, so this is
/// bench's grade under either `--grade`.
fn element(a: &Answer, e: &super::source::Element, category: Category) -> Metric {
    let passed = e.found.is_some();
    Metric {
        metric: a.question.clone(),
        category,
        passed: u8::from(passed),
        score: f64::from(u8::from(passed)),
        reason: (!passed).then(|| match &e.pattern {
            Some(p) => format!("not detected: no match of /{p}/ in the reply"),
            None => "not detected: none of the description's first five long words is in the reply"
                .into(),
        }),
        expected: Value::String(e.description.clone()),
        actual: e.found.clone().map_or(Value::Null, Value::String),
        validation: if e.pattern.is_some() {
            "rubric_pattern"
        } else {
            "rubric_keywords"
        }
        .into(),
        position: None,
        failure: (!passed).then_some(Failure::Missing),
        off_by: None,
        normalization: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::{Structure, Variant};
    use crate::formats::Format;

    fn answer(expected: &str, actual: &str) -> Answer {
        Answer {
            model: "m".into(),
            format: Format::Csv,
            question: "q1".into(),
            category: "question".into(),
            expected: Some(Value::String(expected.into())),
            actual: Value::String(actual.into()),
            source_passed: Some(true),
            input_tokens: None,
            output_tokens: None,
            latency_ms: None,
            run: 1,
            structure: Structure::Flat,
            variant: Variant::Mandatory,
            place: String::new(),
            rule: None,
            element: None,
            data: None,
        }
    }

    #[test]
    fn numbers_booleans_and_text_are_graded_as_what_they_spell() {
        assert_eq!(metric(&answer("146288", "146,288"), false).1, Some(true));
        assert_eq!(metric(&answer("0.49", "0.4883"), false).1, Some(false));
        assert_eq!(metric(&answer("yes", "true"), false).1, Some(true));
        assert_eq!(
            metric(&answer("Marketing", " marketing"), false).1,
            Some(true)
        );
        let (m, bench) = metric(&answer("12", "13"), false);
        assert_eq!(
            (bench, m.failure, m.off_by),
            (Some(false), Some(Failure::OffByN), Some(1.0))
        );
        // --grade source keeps the source's grade in `passed` and bench's beside it.
        let (m, bench) = metric(&answer("0.49", "0.4883"), true);
        assert_eq!((m.passed, bench), (1, Some(false)));
    }
}
