//! Machine-readable queries over logical records, and their evaluator. The answer key and the
//! reference answerer both evaluate the same query, on the source records and on what the
//! reference decoded from the prompt respectively.

use super::numbers::integral;
use crate::dataset::Record;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// A record condition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Filter {
    /// Field equals a value: strings compare exactly, numbers by value, and a string and a
    /// number or boolean as text (a format without types, like CSV, renders `"7"` and `7` alike).
    Eq {
        /// Logical field.
        field: String,
        /// Value to match.
        value: Value,
    },
    /// Numeric field is greater than a bound.
    Gt {
        /// Logical field.
        field: String,
        /// Exclusive bound.
        value: f64,
    },
    /// Numeric field is less than a bound.
    Lt {
        /// Logical field.
        field: String,
        /// Exclusive bound.
        value: f64,
    },
    /// Field is present and differs from a value.
    Ne {
        /// Logical field.
        field: String,
        /// Value to differ from.
        value: Value,
    },
    /// Numeric field is at most a bound.
    Le {
        /// Logical field.
        field: String,
        /// Inclusive bound.
        value: f64,
    },
    /// Numeric field is at least a bound.
    Ge {
        /// Logical field.
        field: String,
        /// Inclusive bound.
        value: f64,
    },
    /// Numeric field is less than another numeric field of the same record.
    LtField {
        /// Logical field.
        field: String,
        /// Field compared against.
        other: String,
    },
    /// Field is null.
    IsNull {
        /// Logical field.
        field: String,
    },
    /// All conditions hold.
    And {
        /// Conditions.
        all: Vec<Filter>,
    },
}

/// Aggregate function over a numeric field; nulls are skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Func {
    /// Sum.
    Sum,
    /// Arithmetic mean.
    Avg,
    /// Minimum.
    Min,
    /// Maximum.
    Max,
    /// Number of values (of records, in `group_top`).
    Count,
}

/// Which end of an ordering a query picks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Extreme {
    /// The largest.
    Max,
    /// The smallest.
    Min,
}

/// A question in machine-readable form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Query {
    /// One field of the record with this id.
    Get {
        /// Record id.
        id: String,
        /// Logical field.
        field: String,
        /// Field holding the id, `id` if absent; compared as text, so `104` matches "104".
        #[serde(skip_serializing_if = "Option::is_none", default)]
        key: Option<String>,
    },
    /// One field of the first record whose key fields hold these values (a composite key).
    GetByKeys {
        /// Each key field with its value, compared as text like `Get`'s id.
        keys: Vec<KeyValue>,
        /// Logical field.
        field: String,
    },
    /// Number of records.
    CountRecords,
    /// Distinct non-null values of a field.
    Distinct {
        /// Logical field.
        field: String,
    },
    /// Number of distinct non-null values of a field.
    CountDistinct {
        /// Logical field.
        field: String,
    },
    /// A field (the id by default) of the record at a 0-based position.
    IdAt {
        /// 0-based index.
        index: usize,
        /// Field read, `id` if absent.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        key: Option<String>,
    },
    /// Id of the record right after the one with this id.
    NextId {
        /// Record id, compared as text.
        id: String,
        /// Field holding the id, `id` if absent.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        key: Option<String>,
    },
    /// Names of the fields of the records (or of the objects at `of`), in any record.
    Fields {
        /// Dotted path of a nested object; the records themselves if absent.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        of: Option<String>,
    },
    /// Names of the fields (of the records, or of the objects at `of`) that are missing or
    /// null in at least one of them.
    SparseFields {
        /// Dotted path of a nested object; the records themselves if absent.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        of: Option<String>,
    },
    /// Number of records matching a filter.
    CountWhere {
        /// Condition.
        filter: Filter,
    },
    /// Ids of records matching a filter.
    IdsWhere {
        /// Condition.
        filter: Filter,
    },
    /// Aggregate of a numeric field over records matching an optional filter.
    Aggregate {
        /// Function.
        func: Func,
        /// Logical field.
        field: String,
        /// Condition, all records if absent.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        filter: Option<Filter>,
    },
    /// A field of the first record with the largest (smallest) numeric `by`.
    Top {
        /// Numeric field ordered by.
        by: String,
        /// Which end.
        func: Extreme,
        /// Field returned.
        field: String,
        /// Condition, all records if absent.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        filter: Option<Filter>,
    },
    /// The value of `group` whose records' aggregate is largest (smallest); first seen wins ties.
    GroupTop {
        /// Field grouped by; records without it are skipped.
        group: String,
        /// Aggregate per group (`count` counts records and needs no field).
        func: Func,
        /// Numeric field aggregated.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        field: Option<String>,
        /// Which end.
        pick: Extreme,
        /// Condition, all records if absent.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        filter: Option<Filter>,
    },
    /// 100 × matching records / all records, unrounded.
    PercentWhere {
        /// Condition.
        filter: Filter,
    },
    /// A question file's DuckDB SQL over the table `records` (see [`crate::questions::sql`]).
    Sql {
        /// The query; its one column is the answer.
        sql: String,
        /// The answer is the list of its rows' values, not one value.
        #[serde(default)]
        list: bool,
    },
    /// No query: a question file gave the answer, so there is nothing to evaluate (the
    /// reference answerer is not graded on it; models are).
    Given,
    /// The id of the first record whose id appeared before, else `"none"` (`corrupted`).
    Duplicated {
        /// Field holding the id.
        key: String,
    },
    /// `"complete"`: the data decoded whole (a decoder that rejects the text answers `"cut
    /// off"` instead, see the reference answerer).
    Complete,
    /// The id of the first record lacking `field` (absent or null), else `"none"`.
    Lacking {
        /// Field looked for.
        field: String,
        /// Field holding the id.
        key: String,
    },
    /// The id of the first record whose `field` is set but not a number, else `"none"`.
    NotANumber {
        /// Field looked at.
        field: String,
        /// Field holding the id.
        key: String,
    },
}

/// One field of a composite key and its value as text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyValue {
    /// Logical field.
    pub field: String,
    /// Its value as text (strings as they are, integers in decimal).
    pub value: String,
}

impl KeyValue {
    /// Whether `r` holds this value in this field.
    pub fn matches(&self, r: &Record) -> bool {
        field(r, &self.field).is_some_and(|v| text(v) == self.value)
    }
}

/// A field of a record: the key itself, else a dotted path into nested objects
/// (`address.city`); missing is `None`.
pub fn field<'a>(r: &'a Record, path: &str) -> Option<&'a Value> {
    if let Some(v) = r.get(path) {
        return Some(v);
    }
    let mut parts = path.split('.');
    let mut v = r.get(parts.next()?)?;
    for part in parts {
        v = v.as_object()?.get(part)?;
    }
    Some(v)
}

/// The id (as text) of the first record `hit` picks, else `"none"`.
fn first_id(records: &[Record], key: &str, mut hit: impl FnMut(&Record) -> bool) -> Value {
    records
        .iter()
        .find(|r| hit(r))
        .and_then(|r| field(r, key))
        .map_or(json!("none"), |v| json!(text(v)))
}

/// A value as text for comparing ids and naming groups: strings as they are, others as JSON.
pub fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn num(r: &Record, path: &str) -> Option<f64> {
    field(r, path).and_then(number)
}

/// A value as a number: a JSON number, or a string of plain decimal text (`20.50`, `007`),
/// which is how a user's number is kept when its type would print it otherwise
/// (`dataset::written`); `sql/`'s twin is `questions::synth::truth`'s `num_at`.
pub fn number(v: &Value) -> Option<f64> {
    match v {
        Value::String(s) if decimal_text(s) => s.parse().ok(),
        _ => v.as_f64(),
    }
}

/// `-?digits(.digits)?`: plain decimal text, leading zeros allowed.
pub fn decimal_text(s: &str) -> bool {
    let body = s.strip_prefix('-').unwrap_or(s);
    let (int, frac) = body.split_once('.').unwrap_or((body, "0"));
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    digits(int) && digits(frac)
}

impl Filter {
    /// Whether a record matches.
    pub fn matches(&self, r: &Record) -> bool {
        match self {
            Filter::Eq { field: f, value } => field(r, f).is_some_and(|v| equal(v, value)),
            Filter::Ne { field: f, value } => {
                field(r, f).is_some_and(|v| !v.is_null() && !crate::formats::same_value(v, value))
            }
            Filter::Le { field, value } => num(r, field).is_some_and(|x| x <= *value),
            Filter::Gt { field, value } => num(r, field).is_some_and(|x| x > *value),
            Filter::Lt { field, value } => num(r, field).is_some_and(|x| x < *value),
            Filter::Ge { field, value } => num(r, field).is_some_and(|x| x >= *value),
            Filter::LtField { field, other } => {
                matches!((num(r, field), num(r, other)), (Some(a), Some(b)) if a < b)
            }
            Filter::IsNull { field: f } => field(r, f).is_none_or(Value::is_null),
            Filter::And { all } => all.iter().all(|f| f.matches(r)),
        }
    }
}

/// [`Filter::Eq`]'s equality: same value, or the same text when one side is a string and
/// the other a number or boolean.
fn equal(v: &Value, want: &Value) -> bool {
    match (v, want) {
        (Value::String(_), Value::Number(_) | Value::Bool(_))
        | (Value::Number(_) | Value::Bool(_), Value::String(_)) => text(v) == text(want),
        _ => crate::formats::same_value(v, want),
    }
}

fn id_of(r: &Record, key: Option<&str>) -> Value {
    field(r, key.unwrap_or("id"))
        .cloned()
        .unwrap_or(Value::Null)
}

/// Objects the field questions look at: the records, or the objects at path `of`.
fn objects<'a>(
    records: &'a [Record],
    of: Option<&'a str>,
) -> impl Iterator<Item = &'a serde_json::Map<String, Value>> {
    records.iter().filter_map(move |r| match of {
        None => Some(r),
        Some(path) => field(r, path).and_then(Value::as_object),
    })
}

/// Field names in first-seen order over `objects`.
fn field_names<'a>(
    objects: impl Iterator<Item = &'a serde_json::Map<String, Value>>,
) -> Vec<&'a String> {
    let mut names: Vec<&String> = Vec::new();
    for o in objects {
        for k in o.keys() {
            if !names.contains(&k) {
                names.push(k);
            }
        }
    }
    names
}

impl Query {
    /// Evaluates the query; a missing record or an empty aggregate gives null.
    pub fn evaluate(&self, records: &[Record]) -> Value {
        match self {
            Query::Sql { sql, list } => crate::questions::sql::Table::load(records)
                .and_then(|t| t.answer(sql, *list))
                .unwrap_or(Value::Null),
            Query::Given => Value::Null,
            Query::Duplicated { key } => {
                let mut seen = std::collections::HashSet::new();
                first_id(records, key, |r| {
                    field(r, key).is_some_and(|v| !seen.insert(text(v)))
                })
            }
            Query::Complete => json!("complete"),
            Query::Lacking { field: f, key } => {
                first_id(records, key, |r| field(r, f).is_none_or(Value::is_null))
            }
            Query::NotANumber { field: f, key } => first_id(records, key, |r| {
                field(r, f).is_some_and(|v| !v.is_null() && !v.is_number())
            }),
            Query::Get { id, field: f, key } => {
                let key = key.as_deref().unwrap_or("id");
                records
                    .iter()
                    .find(|r| field(r, key).is_some_and(|v| text(v) == *id))
                    .and_then(|r| field(r, f).cloned())
                    .unwrap_or(Value::Null)
            }
            Query::GetByKeys { keys, field: f } => records
                .iter()
                .find(|r| keys.iter().all(|k| k.matches(r)))
                .and_then(|r| field(r, f).cloned())
                .unwrap_or(Value::Null),
            Query::CountRecords => json!(records.len()),
            Query::Distinct { field } => Value::Array(
                distinct(records, field)
                    .into_iter()
                    .map(Value::String)
                    .collect(),
            ),
            Query::CountDistinct { field } => json!(distinct(records, field).len()),
            Query::IdAt { index, key } => records
                .get(*index)
                .map(|r| id_of(r, key.as_deref()))
                .unwrap_or(Value::Null),
            Query::NextId { id, key } => records
                .iter()
                .position(|r| {
                    field(r, key.as_deref().unwrap_or("id")).is_some_and(|v| text(v) == *id)
                })
                .and_then(|i| records.get(i + 1))
                .map(|r| id_of(r, key.as_deref()))
                .unwrap_or(Value::Null),
            Query::Fields { of } => Value::Array(
                field_names(objects(records, of.as_deref()))
                    .into_iter()
                    .map(|k| Value::String(k.clone()))
                    .collect(),
            ),
            Query::SparseFields { of } => {
                let objs: Vec<_> = objects(records, of.as_deref()).collect();
                Value::Array(
                    field_names(objs.iter().copied())
                        .into_iter()
                        .filter(|k| objs.iter().any(|o| o.get(*k).is_none_or(Value::is_null)))
                        .map(|k| Value::String(k.clone()))
                        .collect(),
                )
            }
            Query::CountWhere { filter } => {
                json!(records.iter().filter(|r| filter.matches(r)).count())
            }
            Query::IdsWhere { filter } => Value::Array(
                records
                    .iter()
                    .filter(|r| filter.matches(r))
                    .map(|r| id_of(r, None))
                    .collect(),
            ),
            Query::Aggregate {
                func,
                field,
                filter,
            } => {
                let xs: Vec<f64> = matching(records, filter.as_ref())
                    .filter_map(|r| num(r, field))
                    .collect();
                aggregate(*func, &xs)
            }
            Query::Top {
                by,
                func,
                field: f,
                filter,
            } => {
                let mut best: Option<(f64, &Record)> = None;
                for r in matching(records, filter.as_ref()) {
                    let Some(x) = num(r, by) else { continue };
                    if best.is_none_or(|(b, _)| beats(*func, x, b)) {
                        best = Some((x, r));
                    }
                }
                best.and_then(|(_, r)| field(r, f).cloned())
                    .unwrap_or(Value::Null)
            }
            Query::GroupTop {
                group,
                func,
                field: f,
                pick,
                filter,
            } => group_top(records, group, *func, f.as_deref(), *pick, filter.as_ref()),
            Query::PercentWhere { filter } => {
                if records.is_empty() {
                    return Value::Null;
                }
                let n = records.iter().filter(|r| filter.matches(r)).count();
                json!(100.0 * n as f64 / records.len() as f64)
            }
        }
    }
}

fn matching<'a>(
    records: &'a [Record],
    filter: Option<&'a Filter>,
) -> impl Iterator<Item = &'a Record> {
    records
        .iter()
        .filter(move |r| filter.is_none_or(|f| f.matches(r)))
}

/// Whether `x` strictly beats the best so far, so the first of equals wins.
fn beats(end: Extreme, x: f64, best: f64) -> bool {
    match end {
        Extreme::Max => x > best,
        Extreme::Min => x < best,
    }
}

fn group_top(
    records: &[Record],
    group: &str,
    func: Func,
    f: Option<&str>,
    pick: Extreme,
    filter: Option<&Filter>,
) -> Value {
    // Groups in first-seen order, each with its numbers (or record count).
    let mut groups: Vec<(String, Value, Vec<f64>, usize)> = Vec::new();
    for r in matching(records, filter) {
        let Some(g) = field(r, group).filter(|v| !v.is_null()) else {
            continue;
        };
        let name = text(g);
        let i = match groups.iter().position(|(n, ..)| *n == name) {
            Some(i) => i,
            None => {
                groups.push((name, g.clone(), Vec::new(), 0));
                groups.len() - 1
            }
        };
        groups[i].3 += 1;
        if let Some(x) = f.and_then(|f| num(r, f)) {
            groups[i].2.push(x);
        }
    }
    let mut best: Option<(f64, &Value)> = None;
    for (_, value, xs, n) in &groups {
        let score = match func {
            Func::Count => *n as f64,
            _ => match aggregate(func, xs).as_f64() {
                Some(x) => x,
                None => continue,
            },
        };
        if best.is_none_or(|(b, _)| beats(pick, score, b)) {
            best = Some((score, value));
        }
    }
    best.map(|(_, v)| v.clone()).unwrap_or(Value::Null)
}

fn distinct(records: &[Record], path: &str) -> BTreeSet<String> {
    records
        .iter()
        .filter_map(|r| field(r, path))
        .filter(|v| !v.is_null())
        .map(text)
        .collect()
}

fn aggregate(func: Func, xs: &[f64]) -> Value {
    if xs.is_empty() {
        return Value::Null;
    }
    let v = match func {
        Func::Sum => xs.iter().sum(),
        Func::Avg => xs.iter().sum::<f64>() / xs.len() as f64,
        Func::Min => xs.iter().copied().fold(f64::INFINITY, f64::min),
        Func::Max => xs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        Func::Count => xs.len() as f64,
    };
    integral(v)
}

#[cfg(test)]
mod tests;
