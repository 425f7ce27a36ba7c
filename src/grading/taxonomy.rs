//! The wrong-answer taxonomy: every failed answer gets one kind, decided by these rules in this
//! order (the first that holds wins). "Equals" always means "would pass the question's own rule
//! and normalisation policy had that been the expected value".
//!
//! Whole reply:
//! - `unparseable`: no answer object could be parsed from the reply.
//! - `truncated`: the reply stopped at the output-token limit (finish `length`) and the answer
//!   is unparseable or missing.
//!
//! One answer:
//! - `missing`: the object parsed but this question is absent, or its answer is null, empty or
//!   a null word ("null", "none", "n/a", "nil") while the expected value is not null.
//! - `format_mismatch`: the right value in a form the policy does not accept: for a number, the
//!   text holds exactly one number and it is right ("about 10", "The total is 1234."), or the
//!   expected 0 is written "none"/"zero"; for a boolean, 1/0 or a sentence starting with
//!   yes/no/true/false; for null, a sentence saying so ("no color", "it is null"); for text,
//!   the same letters and digits ignoring everything else ("PROD 000001", "WH01"), or the value
//!   inside a sentence that names no other value of the same field; for a list, the same items
//!   compared by letters and digits only, split also at `/`.
//! - `wrong_field`: (field retrieval) another field's value of the right record.
//! - `wrong_record`: (field retrieval, and record-position questions) the same field's value of
//!   another record (for position questions: another record's id).
//! - `off_by_n`: a numeric question answered with one number that is wrong; `off_by` records
//!   answer minus expected.
//! - `partial_set`: a list that shares at least one item with the expected list, every item of
//!   it occurring in the data.
//! - `hallucinated`: a value that occurs nowhere in the data: neither the answer nor any part of
//!   it (split at `,` `;` `|` `/`, " or ", " and ") is a value of any field of any record; for a
//!   list, any item that is no value in the data and matches no expected item.
//! - `wrong_value`: any other wrong answer: a value that is in the data but not one of the
//!   above (a list with no right item, a description sharing some keywords, several numbers).

use super::normalize::{NULL_WORDS, canon, numbers_in, read_number, readings, split_list};
use super::validate::{FUZZY_THRESHOLD, keyword_score, list_items, text_of, validate, within};
use crate::dataset::{Dataset, Record, Variant, schema};
use crate::questions::{Query, Question, Validation, query};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::{Arc, LazyLock};

/// The kind of a failed answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Failure {
    /// No answer object could be parsed from the reply.
    Unparseable,
    /// The question is absent from the parsed object, or answered with null.
    Missing,
    /// Absent or unparseable because the reply hit the output-token limit.
    Truncated,
    /// The right value in a form the normalisation policy does not accept.
    FormatMismatch,
    /// Another field's value of the right record.
    WrongField,
    /// The same field's value of another record.
    WrongRecord,
    /// A wrong number; `off_by` holds answer minus expected.
    OffByN,
    /// A list sharing some items with the expected one.
    PartialSet,
    /// A value that occurs nowhere in the data.
    Hallucinated,
    /// A wrong answer that fits no other kind.
    WrongValue,
}

impl Failure {
    /// Every kind, in rule order.
    pub const ALL: [Failure; 10] = [
        Failure::Unparseable,
        Failure::Truncated,
        Failure::Missing,
        Failure::FormatMismatch,
        Failure::WrongField,
        Failure::WrongRecord,
        Failure::OffByN,
        Failure::PartialSet,
        Failure::Hallucinated,
        Failure::WrongValue,
    ];

    /// Name used in JSONL and SQL.
    pub fn name(self) -> &'static str {
        match self {
            Failure::Unparseable => "unparseable",
            Failure::Missing => "missing",
            Failure::Truncated => "truncated",
            Failure::FormatMismatch => "format_mismatch",
            Failure::WrongField => "wrong_field",
            Failure::WrongRecord => "wrong_record",
            Failure::OffByN => "off_by_n",
            Failure::PartialSet => "partial_set",
            Failure::Hallucinated => "hallucinated",
            Failure::WrongValue => "wrong_value",
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What classification needs of the records.
struct Index {
    records: Vec<Record>,
    /// The field `by_id` is keyed on.
    id_key: String,
    by_id: HashMap<String, usize>,
    /// Canonical text of every non-null value of every record (numbers in `num_key` form).
    values: HashSet<String>,
}

/// The records of one dataset variant, indexed for the taxonomy. Built on the first failed
/// answer, so runs where everything passes (the reference) never pay for it; shared by every
/// combination of the variant through an `Arc`.
pub struct DataIndex {
    lazy: LazyLock<Index, Box<dyn FnOnce() -> Index + Send>>,
}

impl fmt::Debug for DataIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("DataIndex")
    }
}

/// Number in a canonical text form, so 12.50 and 12.5 meet.
fn num_key(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

fn value_key(v: &Value) -> Option<String> {
    match v {
        Value::Null | Value::Array(_) | Value::Object(_) => None,
        Value::Number(n) => n.as_f64().map(num_key),
        other => text_of(other).map(|t| canon(&t)),
    }
}

impl Index {
    fn build(records: Vec<Record>, id_key: String) -> Self {
        let by_id = records
            .iter()
            .enumerate()
            .filter_map(|(i, r)| Some((id_text(query::field(r, &id_key)?)?, i)))
            .collect();
        let mut values = HashSet::new();
        for r in &records {
            for v in r.values() {
                leaves(v, &mut values);
            }
        }
        Self {
            records,
            id_key,
            by_id,
            values,
        }
    }
}

/// An id as text: strings as they are, integers in decimal.
fn id_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some(n.to_string()),
        _ => None,
    }
}

/// Adds the canonical text of every scalar in `v`, nested objects and lists included.
fn leaves(v: &Value, out: &mut HashSet<String>) {
    match v {
        Value::Object(o) => o.values().for_each(|x| leaves(x, out)),
        Value::Array(a) => a.iter().for_each(|x| leaves(x, out)),
        other => out.extend(value_key(other)),
    }
}

impl DataIndex {
    /// An index over `records` identified by their `id` field.
    pub fn new(records: Vec<Record>) -> Self {
        Self::with_id(records, "id")
    }

    /// An index over `records` identified by the field (dotted path) `id_key`.
    pub fn with_id(records: Vec<Record>, id_key: &str) -> Self {
        let id_key = id_key.to_string();
        Self {
            lazy: LazyLock::new(Box::new(move || Index::build(records, id_key))),
        }
    }

    /// An index over one variant of a dataset, materialized on first use.
    pub fn of_dataset(dataset: Arc<Dataset>, variant: Variant) -> Self {
        Self {
            lazy: LazyLock::new(Box::new(move || {
                Index::build(dataset.records(variant).into_owned(), "id".into())
            })),
        }
    }

    fn get(&self) -> &Index {
        LazyLock::force(&self.lazy)
    }
}

/// Whether `answer` equals the data value `v` under the rule a question about it would use.
fn equals(field: &str, v: &Value, answer: &Value, tolerance: f64) -> bool {
    let rule = match (v, schema::field(field).map(|f| f.kind)) {
        (Value::Null, _) => return false,
        (Value::Number(_), _) => Validation::Numeric {
            tolerance: tolerance.max(1e-6),
        },
        (_, Some(schema::Kind::LongText)) => Validation::Fuzzy,
        _ => Validation::Exact,
    };
    validate(&rule, v, answer).passed
}

fn tolerance(q: &Question) -> f64 {
    match q.validation {
        Validation::Numeric { tolerance } => tolerance,
        _ => 0.0,
    }
}

/// Whether the answer, or any part of it, is a value somewhere in the data.
fn in_data(answer: &Value, index: &Index) -> bool {
    let Some(text) = text_of(answer) else {
        return match answer {
            Value::Array(items) => items.iter().any(|i| in_data(i, index)),
            _ => false,
        };
    };
    let mut pieces: Vec<String> = readings(&text, false)
        .into_iter()
        .map(|(t, _)| t.to_string())
        .collect();
    let lower = text.to_lowercase();
    for sep in [",", ";", "|", "/", "\n", " or ", " and "] {
        pieces.extend(lower.split(sep).map(str::to_string));
    }
    pieces.iter().any(|p| {
        let key = canon(p);
        let num = read_number(&Value::String(p.clone())).map(|(x, _)| num_key(x));
        (!key.is_empty() && index.values.contains(&key))
            || num.is_some_and(|k| index.values.contains(&k))
    })
}

/// Whether a present answer says "no value".
pub(super) fn blank(answer: &Value) -> bool {
    match answer {
        Value::Null => true,
        Value::String(s) => readings(s, false)
            .iter()
            .any(|(t, _)| NULL_WORDS.contains(&canon(t).as_str())),
        Value::Array(_) | Value::Object(_) | Value::Number(_) | Value::Bool(_) => false,
    }
}

/// Letters and digits only, lower-case: the loosest reading of a form.
fn loose(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether `needle` occurs in `hay` (both lower-case) between non-alphanumeric characters.
fn contains_word(hay: &str, needle: &str) -> bool {
    !needle.is_empty()
        && hay.match_indices(needle).any(|(at, _)| {
            let before = hay[..at].chars().next_back();
            let after = hay[at + needle.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })
}

/// The field a question reads per record, for the "no other value named" sentence rule.
fn field_of(q: &Question) -> Option<&str> {
    match &q.query {
        Query::Get { field, .. } | Query::GetByKeys { field, .. } => Some(field),
        Query::IdAt { key, .. } | Query::NextId { key, .. } => Some(key.as_deref().unwrap_or("id")),
        _ => None,
    }
}

/// The right value in a form the policy does not accept.
fn format_mismatch(q: &Question, answer: &Value, data: &DataIndex) -> bool {
    let text = text_of(answer).unwrap_or_default();
    let lower = text.to_lowercase();
    let words: Vec<String> = lower
        .split(|c: char| !c.is_alphanumeric() && c != '/')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    match &q.expected {
        Value::Number(n) => {
            let want = n.as_f64().unwrap_or(f64::NAN);
            let nums = numbers_in(&text);
            (nums.len() == 1 && within(nums[0], want, tolerance(q)))
                || (want == 0.0 && matches!(canon(&text).as_str(), "none" | "zero"))
        }
        Value::Bool(b) => {
            let claim = match (answer, words.first().map(String::as_str)) {
                (Value::Number(n), _) => n.as_f64().and_then(|x| {
                    if x == 1.0 {
                        Some(true)
                    } else if x == 0.0 {
                        Some(false)
                    } else {
                        None
                    }
                }),
                (_, Some("yes" | "true" | "1")) => Some(true),
                (_, Some("no" | "false" | "0")) => Some(false),
                _ => None,
            };
            claim == Some(*b)
        }
        Value::Null => {
            let null_word = ["null", "none", "nil", "missing", "empty", "unset", "blank"];
            words.iter().any(|w| null_word.contains(&w.as_str()))
                || matches!(
                    words.first().map(String::as_str),
                    Some("no" | "not" | "n/a")
                )
        }
        Value::String(e) => {
            if !loose(e).is_empty() && loose(&text) == loose(e) {
                return true;
            }
            let e = e.to_lowercase();
            if !contains_word(&lower, &e) {
                return false;
            }
            // The value in a sentence counts only if the sentence names no other candidate.
            let Some(field) = field_of(q) else {
                return false;
            };
            !data.get().records.iter().any(|r| {
                r.get(field)
                    .and_then(Value::as_str)
                    .map(str::to_lowercase)
                    .is_some_and(|v| v != e && contains_word(&lower, &v))
            })
        }
        Value::Array(items) => {
            let want: HashSet<String> = items
                .iter()
                .filter_map(text_of)
                .map(|t| loose(&t))
                .collect();
            let got: HashSet<String> = match answer {
                Value::Array(a) => a.iter().filter_map(text_of).map(|t| loose(&t)).collect(),
                Value::String(s) => s
                    .split(['\n', ';', '|', ',', '/'])
                    .map(loose)
                    .filter(|x| !x.is_empty())
                    .collect(),
                _ => HashSet::new(),
            };
            !want.is_empty() && want == got
        }
        Value::Object(_) => false,
    }
}

/// The kind and, for `off_by_n`, answer minus expected, of a present answer that failed.
pub fn classify(q: &Question, answer: &Value, data: &DataIndex) -> (Failure, Option<f64>) {
    if format_mismatch(q, answer, data) {
        return (Failure::FormatMismatch, None);
    }
    if blank(answer) {
        return (Failure::Missing, None);
    }
    let index = data.get();
    match &q.validation {
        Validation::ArraySet => (list(q, answer, index), None),
        Validation::Fuzzy => (fuzzy(q, answer, index), None),
        _ => scalar(q, answer, index),
    }
}

/// The record a retrieval question names: by its id, or by every field of a composite key.
fn target(q: &Query, index: &Index) -> Option<usize> {
    match q {
        Query::Get { id, key, .. } => (key.as_deref().unwrap_or("id") == index.id_key)
            .then(|| index.by_id.get(id).copied())
            .flatten(),
        Query::GetByKeys { keys, .. } => index
            .records
            .iter()
            .position(|r| keys.iter().all(|k| k.matches(r))),
        _ => None,
    }
}

/// Another field of the right record, or the same field of another record.
fn misplaced(q: &Question, answer: &Value, index: &Index) -> Option<Failure> {
    let tol = tolerance(q);
    match &q.query {
        Query::Get { field, .. } | Query::GetByKeys { field, .. } => {
            let at = target(&q.query, index);
            if let Some(record) = at.map(|i| &index.records[i])
                && record
                    .iter()
                    .any(|(k, v)| k != field && equals(k, v, answer, tol))
            {
                return Some(Failure::WrongField);
            }
            index
                .records
                .iter()
                .enumerate()
                .any(|(i, r)| {
                    Some(i) != at
                        && query::field(r, field).is_some_and(|v| equals(field, v, answer, tol))
                })
                .then_some(Failure::WrongRecord)
        }
        Query::IdAt { key, .. } | Query::NextId { key, .. } => index
            .records
            .iter()
            .filter_map(|r| query::field(r, key.as_deref().unwrap_or("id")))
            .any(|v| *v != q.expected && equals("id", v, answer, 0.0))
            .then_some(Failure::WrongRecord),
        _ => None,
    }
}

fn scalar(q: &Question, answer: &Value, index: &Index) -> (Failure, Option<f64>) {
    if let Some(want) = q.expected.as_f64() {
        let got = read_number(answer).map(|(x, _)| x).or_else(|| {
            let nums = numbers_in(&text_of(answer).unwrap_or_default());
            (nums.len() == 1 && nums[0].is_finite()).then(|| nums[0])
        });
        if let Some(got) = got {
            if let Some(kind) = misplaced(q, &serde_json::json!(got), index) {
                return (kind, None);
            }
            // Rounded so float noise (0.30000000000000004) does not show.
            let off = ((got - want) * 1e9).round() / 1e9;
            return (Failure::OffByN, Some(off));
        }
    }
    if let Some(kind) = misplaced(q, answer, index) {
        return (kind, None);
    }
    if in_data(answer, index) {
        (Failure::WrongValue, None)
    } else {
        (Failure::Hallucinated, None)
    }
}

fn list(q: &Question, answer: &Value, index: &Index) -> Failure {
    let want: Vec<(String, String)> = match &q.expected {
        Value::Array(items) => items
            .iter()
            .filter_map(text_of)
            .map(|t| (canon(&t), t))
            .collect(),
        _ => vec![],
    };
    let keys: HashSet<&String> = want.iter().map(|(k, _)| k).collect();
    let raw: Vec<String> = match answer {
        Value::String(s) => split_list(s, &want.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>()),
        Value::Array(a) => a.iter().filter_map(text_of).collect(),
        other => text_of(other).into_iter().collect(),
    };
    let (items, _) = list_items(
        &want,
        &Value::Array(raw.iter().cloned().map(Value::String).collect()),
    );
    let invented = items
        .iter()
        .zip(&raw)
        .any(|(key, item)| !keys.contains(key) && !in_data(&Value::String(item.clone()), index));
    if invented {
        Failure::Hallucinated
    } else if items.iter().any(|k| keys.contains(k)) {
        Failure::PartialSet
    } else {
        Failure::WrongValue
    }
}

fn fuzzy(q: &Question, answer: &Value, index: &Index) -> Failure {
    if let Query::Get { field, .. } | Query::GetByKeys { field, .. } = &q.query {
        let at = target(&q.query, index);
        if let Some(record) = at.map(|i| &index.records[i])
            && record
                .iter()
                .any(|(k, v)| k != field && v.is_string() && equals(k, v, answer, 0.0))
        {
            return Failure::WrongField;
        }
        let other = index.records.iter().enumerate().any(|(i, r)| {
            Some(i) != at
                && r.get(field)
                    .is_some_and(|v| keyword_score(v, answer) >= FUZZY_THRESHOLD)
        });
        if other {
            return Failure::WrongRecord;
        }
    }
    if keyword_score(&q.expected, answer) > 0.0 || in_data(answer, index) {
        Failure::WrongValue
    } else {
        Failure::Hallucinated
    }
}
