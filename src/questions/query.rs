//! Machine-readable queries over logical records, and their evaluator. The answer key and the
//! reference answerer both evaluate the same query, on the source records and on what the
//! reference decoded from the prompt respectively.

use crate::dataset::Record;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// A record condition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Filter {
    /// Field equals a value (strings compare exactly).
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
    /// Id of the record at a 0-based position.
    IdAt {
        /// 0-based index.
        index: usize,
    },
    /// Id of the record right after the one with this id.
    NextId {
        /// Record id.
        id: String,
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

/// A value as text for comparing ids and naming groups: strings as they are, others as JSON.
fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn num(r: &Record, path: &str) -> Option<f64> {
    field(r, path).and_then(Value::as_f64)
}

impl Filter {
    /// Whether a record matches.
    pub fn matches(&self, r: &Record) -> bool {
        match self {
            Filter::Eq { field: f, value } => {
                field(r, f).is_some_and(|v| crate::formats::same_value(v, value))
            }
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

fn id_of(r: &Record) -> Value {
    r.get("id").cloned().unwrap_or(Value::Null)
}

impl Query {
    /// Evaluates the query; a missing record or an empty aggregate gives null.
    pub fn evaluate(&self, records: &[Record]) -> Value {
        match self {
            Query::Get { id, field: f, key } => {
                let key = key.as_deref().unwrap_or("id");
                records
                    .iter()
                    .find(|r| field(r, key).is_some_and(|v| text(v) == *id))
                    .and_then(|r| field(r, f).cloned())
                    .unwrap_or(Value::Null)
            }
            Query::CountRecords => json!(records.len()),
            Query::Distinct { field } => Value::Array(
                distinct(records, field)
                    .into_iter()
                    .map(Value::String)
                    .collect(),
            ),
            Query::CountDistinct { field } => json!(distinct(records, field).len()),
            Query::IdAt { index } => records.get(*index).map(id_of).unwrap_or(Value::Null),
            Query::NextId { id } => records
                .iter()
                .position(|r| r.get("id").and_then(Value::as_str) == Some(id))
                .and_then(|i| records.get(i + 1))
                .map(id_of)
                .unwrap_or(Value::Null),
            Query::CountWhere { filter } => {
                json!(records.iter().filter(|r| filter.matches(r)).count())
            }
            Query::IdsWhere { filter } => Value::Array(
                records
                    .iter()
                    .filter(|r| filter.matches(r))
                    .map(id_of)
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
    // Integral results print as integers ("1234", not "1234.0").
    if v.fract() == 0.0 && v.abs() < 9.0e15 {
        json!(v as i64)
    } else {
        json!(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(id: &str, cat: &str, price: f64, stock: i64, color: Value) -> Record {
        let mut r = Record::new();
        r.insert("id".into(), json!(id));
        r.insert("category".into(), json!(cat));
        r.insert("price".into(), json!(price));
        r.insert("stock_quantity".into(), json!(stock));
        r.insert("min_stock_threshold".into(), json!(10));
        r.insert("color".into(), color);
        r
    }

    fn data() -> Vec<Record> {
        vec![
            rec("P1", "Toys", 10.5, 0, json!("Red")),
            rec("P2", "Books", 20.25, 50, Value::Null),
            rec("P3", "Toys", 5.0, 5, json!("Blue")),
        ]
    }

    #[test]
    fn evaluates_each_query_kind() {
        let d = data();
        let get = Query::Get {
            id: "P2".into(),
            field: "price".into(),
            key: None,
        };
        assert_eq!(get.evaluate(&d), json!(20.25));
        assert_eq!(
            Query::Get {
                id: "P9".into(),
                field: "price".into(),
                key: None,
            }
            .evaluate(&d),
            Value::Null
        );
        assert_eq!(Query::CountRecords.evaluate(&d), json!(3));
        assert_eq!(
            Query::Distinct {
                field: "category".into()
            }
            .evaluate(&d),
            json!(["Books", "Toys"])
        );
        assert_eq!(
            Query::CountDistinct {
                field: "color".into()
            }
            .evaluate(&d),
            json!(2)
        );
        assert_eq!(Query::IdAt { index: 2 }.evaluate(&d), json!("P3"));
        assert_eq!(Query::NextId { id: "P1".into() }.evaluate(&d), json!("P2"));
        assert_eq!(Query::NextId { id: "P3".into() }.evaluate(&d), Value::Null);
        let low = Filter::LtField {
            field: "stock_quantity".into(),
            other: "min_stock_threshold".into(),
        };
        assert_eq!(Query::CountWhere { filter: low }.evaluate(&d), json!(2));
        let toys_over_6 = Filter::And {
            all: vec![
                Filter::Eq {
                    field: "category".into(),
                    value: json!("Toys"),
                },
                Filter::Gt {
                    field: "price".into(),
                    value: 6.0,
                },
            ],
        };
        assert_eq!(
            Query::IdsWhere {
                filter: toys_over_6
            }
            .evaluate(&d),
            json!(["P1"])
        );
        let nulls = Filter::IsNull {
            field: "color".into(),
        };
        assert_eq!(Query::CountWhere { filter: nulls }.evaluate(&d), json!(1));
        let avg = Query::Aggregate {
            func: Func::Avg,
            field: "price".into(),
            filter: None,
        };
        assert_eq!(avg.evaluate(&d), json!((10.5 + 20.25 + 5.0) / 3.0));
        let sum = Query::Aggregate {
            func: Func::Sum,
            field: "stock_quantity".into(),
            filter: None,
        };
        assert_eq!(sum.evaluate(&d), json!(55));
        let max = Query::Aggregate {
            func: Func::Max,
            field: "price".into(),
            filter: Some(Filter::Eq {
                field: "category".into(),
                value: json!("Toys"),
            }),
        };
        assert_eq!(max.evaluate(&d), json!(10.5));
        let none = Query::Aggregate {
            func: Func::Min,
            field: "price".into(),
            filter: Some(Filter::Ge {
                field: "price".into(),
                value: 99.0,
            }),
        };
        assert_eq!(none.evaluate(&d), Value::Null);
    }

    #[test]
    fn task_ops_follow_the_documented_tie_and_null_rules() {
        let q = |text: &str| -> Query { serde_json::from_str(text).unwrap() };
        let rows: Vec<Record> = serde_json::from_value(json!([
            {"id": 101, "dept": "Eng", "pay": 100, "addr": {"city": "Oslo"}},
            {"id": 102, "dept": "Ops", "pay": 120, "addr": {"city": "Bergen"}},
            {"id": 103, "dept": "Eng", "pay": 120, "addr": {"city": "Oslo"}},
            {"id": 104, "dept": null, "pay": 500},
            {"id": 105, "dept": "Ops"}
        ]))
        .unwrap();
        let eval = |text: &str| q(text).evaluate(&rows);
        // Ids compare as text; dotted paths reach nested fields.
        assert_eq!(
            eval(r#"{"op":"get","id":"102","field":"addr.city"}"#),
            json!("Bergen")
        );
        assert_eq!(
            eval(r#"{"op":"get","id":"Ops","key":"dept","field":"id"}"#),
            json!(102)
        );
        // First of equals wins; records without a number are skipped.
        assert_eq!(
            eval(
                r#"{"op":"top","by":"pay","func":"max","field":"id","filter":{"op":"le","field":"pay","value":200}}"#
            ),
            json!(102)
        );
        assert_eq!(
            eval(r#"{"op":"top","by":"pay","func":"min","field":"id"}"#),
            json!(101)
        );
        // Eng 220 vs Ops 120 by sum; null group skipped; count ties go to the first seen.
        assert_eq!(
            eval(r#"{"op":"group_top","group":"dept","func":"sum","field":"pay","pick":"max"}"#),
            json!("Eng")
        );
        assert_eq!(
            eval(r#"{"op":"group_top","group":"dept","func":"count","pick":"max"}"#),
            json!("Eng")
        );
        assert_eq!(
            eval(r#"{"op":"group_top","group":"dept","func":"avg","field":"pay","pick":"min"}"#),
            json!("Eng")
        );
        assert_eq!(
            eval(
                r#"{"op":"percent_where","filter":{"op":"eq","field":"addr.city","value":"Oslo"}}"#
            ),
            json!(40.0)
        );
        // `ne` needs a present, non-null value.
        assert_eq!(
            eval(r#"{"op":"count_where","filter":{"op":"ne","field":"dept","value":"Eng"}}"#),
            json!(2)
        );
        assert_eq!(
            eval(r#"{"op":"aggregate","func":"count","field":"pay"}"#),
            json!(4)
        );
    }
}
