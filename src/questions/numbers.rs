//! How answers print numbers, shared by the query evaluator and the SQL runner (its own
//! module so neither imports the other for it).

use serde_json::{Value, json};

/// A number as JSON, integral values as integers ("1234", not "1234.0"), as answers print.
pub fn integral(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        json!(x as i64)
    } else {
        json!(x)
    }
}
