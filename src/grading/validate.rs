//! The four validators: exact, numeric, array_set, fuzzy.

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
}

impl Outcome {
    fn pass() -> Self {
        Self {
            passed: true,
            score: 1.0,
            reason: None,
        }
    }

    /// A failed answer with a reason.
    pub fn fail(reason: impl Into<String>) -> Self {
        Self {
            passed: false,
            score: 0.0,
            reason: Some(reason.into()),
        }
    }
}

/// Fuzzy answers pass when at least this share of the expected keywords appear.
const FUZZY_THRESHOLD: f64 = 0.8;
const STOPWORDS: [&str; 8] = ["the", "and", "for", "with", "made", "this", "that", "from"];

/// Validates `actual` against `expected` under `rule`.
pub fn validate(rule: &Validation, expected: &Value, actual: &Value) -> Outcome {
    match rule {
        Validation::Exact => exact(expected, actual),
        Validation::Numeric { tolerance } => numeric(*tolerance, expected, actual),
        Validation::ArraySet => array_set(expected, actual),
        Validation::Fuzzy => fuzzy(expected, actual),
    }
}

/// Canonical text of a scalar answer: trimmed, lower-case; null is "null".
fn norm(v: &Value) -> String {
    match v {
        Value::String(s) => s.trim().to_lowercase(),
        Value::Null => "null".into(),
        other => other.to_string().to_lowercase(),
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

fn exact(expected: &Value, actual: &Value) -> Outcome {
    // Numbers written as text ("12") equal numbers (12): compare numerically when both parse.
    let same = norm(expected) == norm(actual)
        || matches!((number(expected), number(actual)), (Some(a), Some(b)) if expected.is_number() && a == b);
    if same {
        Outcome::pass()
    } else {
        Outcome::fail(format!("expected {}, got {}", show(expected), show(actual)))
    }
}

/// Reads a number from a JSON number or from text like "1,234.50", "$12.5", "40%".
pub fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => {
            let t = s
                .trim()
                .trim_start_matches(['$', '€', '£'])
                .trim_end_matches('%')
                .trim();
            let t = t.strip_suffix(" days").unwrap_or(t);
            let cleaned: String = if valid_grouping(t) {
                t.replace(',', "")
            } else {
                t.to_string()
            };
            cleaned.parse::<f64>().ok().filter(|x| x.is_finite())
        }
        _ => None,
    }
}

/// Commas are only thousands separators: groups of exactly three digits after the first.
fn valid_grouping(t: &str) -> bool {
    let int = t.split('.').next().unwrap_or("");
    let int = int.strip_prefix('-').unwrap_or(int);
    let groups: Vec<&str> = int.split(',').collect();
    groups.len() > 1
        && (1..=3).contains(&groups[0].len())
        && groups[1..].iter().all(|g| g.len() == 3)
        && groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_digit()))
}

fn numeric(tolerance: f64, expected: &Value, actual: &Value) -> Outcome {
    let Some(want) = number(expected) else {
        return exact(expected, actual);
    };
    match number(actual) {
        None => Outcome::fail(format!("not a number: {}", show(actual))),
        Some(got) if (got - want).abs() <= tolerance + 1e-9 * want.abs().max(1.0) => {
            Outcome::pass()
        }
        Some(_) => Outcome::fail(format!("expected {}, got {}", show(expected), show(actual))),
    }
}

fn set_of(v: &Value) -> BTreeSet<String> {
    match v {
        Value::Array(items) => items.iter().map(norm).collect(),
        Value::String(s) => s
            .split(',')
            .map(|p| p.trim().to_lowercase())
            .filter(|p| !p.is_empty())
            .collect(),
        Value::Null => BTreeSet::new(),
        other => BTreeSet::from([norm(other)]),
    }
}

fn array_set(expected: &Value, actual: &Value) -> Outcome {
    let want = set_of(expected);
    let got = set_of(actual);
    if want == got {
        return Outcome::pass();
    }
    let union = want.union(&got).count();
    let score = if union == 0 {
        1.0
    } else {
        want.intersection(&got).count() as f64 / union as f64
    };
    let missing: Vec<_> = want.difference(&got).take(5).cloned().collect();
    let extra: Vec<_> = got.difference(&want).take(5).cloned().collect();
    Outcome {
        passed: false,
        score,
        reason: Some(format!("set differs: missing {missing:?}, extra {extra:?}")),
    }
}

fn words(s: &str) -> BTreeSet<String> {
    s.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 3 && !STOPWORDS.contains(w))
        .map(str::to_string)
        .collect()
}

fn fuzzy(expected: &Value, actual: &Value) -> Outcome {
    let keys = words(&norm(expected));
    if keys.is_empty() {
        return exact(expected, actual);
    }
    let got = words(&norm(actual));
    let score = keys.iter().filter(|k| got.contains(*k)).count() as f64 / keys.len() as f64;
    if score >= FUZZY_THRESHOLD {
        Outcome {
            passed: true,
            score,
            reason: None,
        }
    } else {
        Outcome {
            passed: false,
            score,
            reason: Some(format!("{:.0}% of keywords found", score * 100.0)),
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
