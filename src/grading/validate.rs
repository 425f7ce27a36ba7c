//! The four validators: exact, numeric, array_set, fuzzy. Each judges the value after the
//! normalisation policy (`normalize`) and reports the normalisations a passing answer needed.

use super::normalize::{
    NULL_WORDS, Norm, canon, match_bool, match_null, match_text, read_number, readings, split_list,
};
use crate::questions::Validation;
use serde_json::Value;
use std::collections::BTreeSet;

/// Result of validating one answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Whether the answer counts as right.
    pub passed: bool,
    /// 0..1 score (partial credit for sets and keywords).
    pub score: f64,
    /// Why it failed.
    pub reason: Option<String>,
    /// Normalisations a passing answer needed, in policy order; empty when it failed.
    pub normalization: Vec<Norm>,
}

impl Outcome {
    fn pass(mut normalization: Vec<Norm>) -> Self {
        normalization.sort();
        normalization.dedup();
        Self {
            passed: true,
            score: 1.0,
            reason: None,
            normalization,
        }
    }

    /// A failed answer with a reason.
    pub fn fail(reason: impl Into<String>) -> Self {
        Self {
            passed: false,
            score: 0.0,
            reason: Some(reason.into()),
            normalization: Vec::new(),
        }
    }
}

/// Fuzzy answers pass when at least this share of the expected keywords appear.
pub(super) const FUZZY_THRESHOLD: f64 = 0.8;
const STOPWORDS: [&str; 8] = ["the", "and", "for", "with", "made", "this", "that", "from"];

/// Validates `actual` against `expected` under `rule`.
pub fn validate(rule: &Validation, expected: &Value, actual: &Value) -> Outcome {
    match rule {
        Validation::Exact => scalar(0.0, expected, actual),
        Validation::Numeric { tolerance } => scalar(*tolerance, expected, actual),
        Validation::ArraySet => array_set(expected, actual),
        Validation::Fuzzy => fuzzy(expected, actual),
    }
}

fn show(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 80 {
        format!("{}…", s.chars().take(80).collect::<String>())
    } else {
        s
    }
}

fn mismatch(expected: &Value, actual: &Value) -> Outcome {
    Outcome::fail(format!("expected {}, got {}", show(expected), show(actual)))
}

/// One value, compared by the kind of the expected value; numbers within `tolerance`.
fn scalar(tolerance: f64, expected: &Value, actual: &Value) -> Outcome {
    let matched = match expected {
        Value::Null => match_null(actual),
        Value::Bool(b) => match_bool(*b, actual),
        Value::Number(n) => {
            let want = n.as_f64().unwrap_or(f64::NAN);
            match read_number(actual) {
                None if !actual.is_null() => {
                    return Outcome::fail(format!("not a number: {}", show(actual)));
                }
                None => None,
                Some((got, norms)) => within(got, want, tolerance).then_some(norms),
            }
        }
        Value::String(e) => text_of(actual).and_then(|a| match_text(e, &a)),
        Value::Array(_) => return array_set(expected, actual),
        Value::Object(_) => (expected == actual).then(Vec::new),
    };
    match matched {
        Some(norms) => Outcome::pass(norms),
        None => mismatch(expected, actual),
    }
}

/// Whether two numbers are equal within `tolerance` (plus float noise).
pub(super) fn within(got: f64, want: f64, tolerance: f64) -> bool {
    (got - want).abs() <= tolerance + 1e-9 * want.abs().max(1.0)
}

/// Text of a scalar answer for text comparison; None for null, arrays and objects.
pub(super) fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The items of a list answer (canonical when no expected item matches), with the
/// normalisations that matching needed. `want` maps canonical expected items to their text.
pub(super) fn list_items(want: &[(String, String)], actual: &Value) -> (Vec<String>, Vec<Norm>) {
    let keys: Vec<String> = want.iter().map(|(k, _)| k.clone()).collect();
    let (raw, mut norms): (Vec<String>, Vec<Norm>) = match actual {
        Value::Array(items) => (items.iter().filter_map(text_of).collect(), vec![]),
        Value::String(s) => (split_list(s, &keys), vec![Norm::ListSeparator]),
        Value::Null => (vec![], vec![]),
        other => (text_of(other).into_iter().collect(), vec![]),
    };
    let items = raw
        .iter()
        .map(|item| {
            let best = want
                .iter()
                .filter_map(|(k, text)| match_text(text, item).map(|n| (k, n)))
                .min_by_key(|(_, n)| n.len());
            match best {
                Some((k, n)) => {
                    norms.extend(n);
                    k.clone()
                }
                None => canon(item),
            }
        })
        .collect();
    (items, norms)
}

fn array_set(expected: &Value, actual: &Value) -> Outcome {
    let want: Vec<(String, String)> = match expected {
        Value::Array(items) => items
            .iter()
            .filter_map(text_of)
            .map(|t| (canon(&t), t))
            .collect(),
        other => text_of(other).map(|t| (canon(&t), t)).into_iter().collect(),
    };
    let want_set: BTreeSet<String> = want.iter().map(|(k, _)| k.clone()).collect();
    if want_set.is_empty()
        && let Value::String(s) = actual
        && readings(s, false)
            .iter()
            .any(|(t, _)| NULL_WORDS.contains(&canon(t).as_str()))
    {
        return Outcome::pass(vec![Norm::NullWord]);
    }
    let (items, norms) = list_items(&want, actual);
    let got: BTreeSet<String> = items.into_iter().collect();
    if want_set == got {
        return Outcome::pass(norms);
    }
    let union = want_set.union(&got).count();
    let score = if union == 0 {
        1.0
    } else {
        want_set.intersection(&got).count() as f64 / union as f64
    };
    let missing: Vec<_> = want_set.difference(&got).take(5).cloned().collect();
    let extra: Vec<_> = got.difference(&want_set).take(5).cloned().collect();
    Outcome {
        passed: false,
        score,
        reason: Some(format!("set differs: missing {missing:?}, extra {extra:?}")),
        normalization: Vec::new(),
    }
}

/// Keywords of a text: words of three letters or more, stopwords left out.
pub(super) fn words(s: &str) -> BTreeSet<String> {
    s.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 3 && !STOPWORDS.contains(w))
        .map(str::to_string)
        .collect()
}

/// Share of the expected text's keywords found in the answer.
pub(super) fn keyword_score(expected: &Value, actual: &Value) -> f64 {
    let keys = words(&text_of(expected).unwrap_or_default());
    let got = words(&text_of(actual).unwrap_or_default());
    if keys.is_empty() {
        return 0.0;
    }
    keys.iter().filter(|k| got.contains(*k)).count() as f64 / keys.len() as f64
}

fn fuzzy(expected: &Value, actual: &Value) -> Outcome {
    if words(&text_of(expected).unwrap_or_default()).is_empty() {
        return scalar(0.0, expected, actual);
    }
    let score = keyword_score(expected, actual);
    if score >= FUZZY_THRESHOLD {
        Outcome {
            passed: true,
            score,
            reason: None,
            normalization: Vec::new(),
        }
    } else {
        Outcome {
            passed: false,
            score,
            reason: Some(format!("{:.0}% of keywords found", score * 100.0)),
            normalization: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ok(rule: Validation, e: Value, a: Value) -> bool {
        validate(&rule, &e, &a).passed
    }

    #[test]
    fn exact_ignores_case_and_surrounding_space_only() {
        assert!(ok(
            Validation::Exact,
            json!("Home & Kitchen"),
            json!("  home & kitchen ")
        ));
        assert!(!ok(
            Validation::Exact,
            json!("Home & Kitchen"),
            json!("Home and Kitchen")
        ));
        assert!(ok(Validation::Exact, json!(true), json!("TRUE")));
        assert!(ok(Validation::Exact, json!(true), json!(true)));
        assert!(!ok(Validation::Exact, json!(true), json!(false)));
        assert!(ok(Validation::Exact, Value::Null, Value::Null));
        assert!(ok(Validation::Exact, Value::Null, json!("null")));
        assert!(!ok(Validation::Exact, Value::Null, json!("Red")));
        assert!(!ok(
            Validation::Exact,
            json!("PROD-000001"),
            json!("PROD-000010")
        ));
        assert!(ok(Validation::Exact, json!(12), json!("12")));
    }

    #[test]
    fn numeric_reads_formatted_numbers_within_tolerance() {
        let t0 = Validation::Numeric { tolerance: 0.0 };
        let cents = Validation::Numeric { tolerance: 0.01 };
        assert!(ok(t0.clone(), json!(1234.5), json!("1,234.50")));
        assert!(ok(t0.clone(), json!(1234.5), json!("$1,234.50")));
        assert!(ok(t0.clone(), json!(1234.5), json!(1234.5)));
        assert!(ok(t0.clone(), json!(15), json!("15%")));
        assert!(ok(t0.clone(), json!(15), json!(15.0)));
        assert!(!ok(t0.clone(), json!(15), json!(16)));
        assert!(
            !ok(t0.clone(), json!(1234.5), json!("12,34.5")),
            "bad grouping is not a number"
        );
        assert!(!ok(t0.clone(), json!(3), json!("three")));
        assert!(!ok(t0, json!(3), Value::Null));
        assert!(ok(cents.clone(), json!(512.384516), json!(512.38)));
        assert!(!ok(cents, json!(512.384516), json!(512.37)));
    }

    #[test]
    fn array_set_ignores_order_case_and_accepts_comma_text() {
        let e = json!(["Books", "Home & Kitchen", "Toys"]);
        assert!(ok(
            Validation::ArraySet,
            e.clone(),
            json!(["toys", "Books", "home & kitchen"])
        ));
        assert!(ok(
            Validation::ArraySet,
            e.clone(),
            json!("Toys, Books, Home & Kitchen")
        ));
        let partial = validate(&Validation::ArraySet, &e, &json!(["Books", "Toys"]));
        assert!(!partial.passed);
        assert!((partial.score - 2.0 / 3.0).abs() < 1e-9);
        assert!(!ok(
            Validation::ArraySet,
            e,
            json!(["Books", "Toys", "Home & Kitchen", "Garden"])
        ));
        assert!(ok(Validation::ArraySet, json!([]), json!([])));
    }

    #[test]
    fn the_policy_accepts_forms_not_other_values() {
        let t0 = Validation::Numeric { tolerance: 0.0 };
        let r = validate(&t0, &json!(10), &json!("10 units"));
        assert_eq!((r.passed, r.normalization), (true, vec![Norm::Unit]));
        for bad in ["10 or 12", "10 thousand", "about 10", "10-12", "1O"] {
            assert!(!ok(t0.clone(), json!(10), json!(bad)), "{bad}");
        }
        assert!(!ok(Validation::Exact, json!("USD"), json!("'EUR'")));
        assert!(!ok(Validation::Exact, json!(false), json!("Yes")));
        assert!(!ok(Validation::Exact, json!("Red"), json!("N/A")));
        let set = json!(["A", "B", "C"]);
        let r = validate(&Validation::ArraySet, &set, &json!("A; B; C"));
        assert_eq!(
            (r.passed, r.normalization),
            (true, vec![Norm::ListSeparator])
        );
        assert!(!ok(Validation::ArraySet, set.clone(), json!("A; B")));
        assert!(!ok(Validation::ArraySet, set, json!("A; B; C; D")));
        assert!(ok(Validation::ArraySet, json!([]), json!("none")));
        assert!(!ok(Validation::ArraySet, json!(["A"]), json!("none")));
    }

    #[test]
    fn fuzzy_needs_most_keywords() {
        let e = json!("A rustic kettle, durable and quiet; made for travel.");
        assert!(ok(
            Validation::Fuzzy,
            e.clone(),
            json!("rustic kettle, durable and quiet, made for travel")
        ));
        assert!(!ok(Validation::Fuzzy, e.clone(), json!("A kettle")));
        let r = validate(&Validation::Fuzzy, &e, &json!("rustic kettle durable"));
        assert!(!r.passed && r.score > 0.5);
    }
}
