//! DuckDB values as JSON, for printing and tests.

use duckdb::types::{TimeUnit, Value as Db};
use serde_json::{Map, Value, json};

fn micros(unit: TimeUnit, v: i64) -> i64 {
    match unit {
        TimeUnit::Second => v * 1_000_000,
        TimeUnit::Millisecond => v * 1_000,
        TimeUnit::Microsecond => v,
        TimeUnit::Nanosecond => v / 1_000,
    }
}

/// Converts one DuckDB value; JSON-typed columns (text) stay text.
pub fn to_json(v: Db) -> Value {
    match v {
        Db::Null => Value::Null,
        Db::Boolean(b) => json!(b),
        Db::TinyInt(i) => json!(i),
        Db::SmallInt(i) => json!(i),
        Db::Int(i) => json!(i),
        Db::BigInt(i) => json!(i),
        Db::HugeInt(i) => i64::try_from(i)
            .map(Value::from)
            .unwrap_or_else(|_| json!(i.to_string())),
        Db::UHugeInt(i) => u64::try_from(i)
            .map(Value::from)
            .unwrap_or_else(|_| json!(i.to_string())),
        Db::UTinyInt(i) => json!(i),
        Db::USmallInt(i) => json!(i),
        Db::UInt(i) => json!(i),
        Db::UBigInt(i) => json!(i),
        Db::Float(f) => json!(f),
        Db::Double(f) => json!(f),
        // A whole decimal (a u64 seed exported as DECIMAL(20,0)) stays exact.
        Db::Decimal(d) if d.scale() == 0 => {
            let text = d.to_string();
            text.parse::<i64>()
                .map(Value::from)
                .or_else(|_| text.parse::<u64>().map(Value::from))
                .or_else(|_| text.parse::<f64>().map(Value::from))
                .unwrap_or_else(|_| json!(text))
        }
        Db::Decimal(d) => d
            .to_string()
            .parse::<f64>()
            .map(Value::from)
            .unwrap_or_else(|_| json!(d.to_string())),
        Db::Timestamp(unit, t) => {
            let us = micros(unit, t);
            chrono::DateTime::from_timestamp_micros(us)
                .map(|d| json!(d.to_rfc3339()))
                .unwrap_or(json!(us))
        }
        Db::Text(s) | Db::Enum(s) => json!(s),
        Db::Blob(b) | Db::Geometry(b) => json!(format!("<{} bytes>", b.len())),
        Db::Date32(days) => chrono::DateTime::from_timestamp(i64::from(days) * 86_400, 0)
            .map(|d| json!(d.format("%Y-%m-%d").to_string()))
            .unwrap_or(json!(days)),
        Db::Time64(unit, t) => json!(micros(unit, t)),
        Db::Interval {
            months,
            days,
            nanos,
        } => json!({"months": months, "days": days, "nanos": nanos}),
        Db::List(items) | Db::Array(items) => {
            Value::Array(items.into_iter().map(to_json).collect())
        }
        Db::Struct(fields) => {
            let map: Map<String, Value> = fields
                .keys()
                .cloned()
                .zip(fields.values().cloned().map(to_json))
                .collect();
            Value::Object(map)
        }
        Db::Map(entries) => {
            let map: Map<String, Value> = entries
                .keys()
                .map(|k| match to_json(k.clone()) {
                    Value::String(s) => s,
                    other => other.to_string(),
                })
                .zip(entries.values().cloned().map(to_json))
                .collect();
            Value::Object(map)
        }
        Db::Union(inner) => to_json(*inner),
        // The enum is non-exhaustive; a future type prints as its debug form rather than failing.
        other => json!(format!("{other:?}")),
    }
}
