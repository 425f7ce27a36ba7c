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
}

fn num(r: &Record, field: &str) -> Option<f64> {
    r.get(field).and_then(Value::as_f64)
}

impl Filter {
    /// Whether a record matches.
    pub fn matches(&self, r: &Record) -> bool {
        match self {
            Filter::Eq { field, value } => r
                .get(field)
                .is_some_and(|v| crate::formats::same_value(v, value)),
            Filter::Gt { field, value } => num(r, field).is_some_and(|x| x > *value),
            Filter::Lt { field, value } => num(r, field).is_some_and(|x| x < *value),
            Filter::Ge { field, value } => num(r, field).is_some_and(|x| x >= *value),
            Filter::LtField { field, other } => {
                matches!((num(r, field), num(r, other)), (Some(a), Some(b)) if a < b)
            }
            Filter::IsNull { field } => r.get(field).is_none_or(Value::is_null),
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
            Query::Get { id, field } => records
                .iter()
                .find(|r| r.get("id").and_then(Value::as_str) == Some(id))
                .and_then(|r| r.get(field).cloned())
                .unwrap_or(Value::Null),
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
                let xs: Vec<f64> = records
                    .iter()
                    .filter(|r| filter.as_ref().is_none_or(|f| f.matches(r)))
                    .filter_map(|r| num(r, field))
                    .collect();
                aggregate(*func, &xs)
            }
        }
    }
}

fn distinct(records: &[Record], field: &str) -> BTreeSet<String> {
    records
        .iter()
        .filter_map(|r| r.get(field))
        .filter(|v| !v.is_null())
        .map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
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
        };
        assert_eq!(get.evaluate(&d), json!(20.25));
        assert_eq!(
            Query::Get {
                id: "P9".into(),
                field: "price".into()
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
}
