//! Text ↔ scalar conversion for text that carries no types (CSV cells, XML text, a user's file
//! as written): shared by the formats and the data loader, so neither imports the other.

use serde_json::{Number, Value};

/// Reads a typed scalar back from untyped text: booleans, numbers written exactly as JSON
/// writes them, else a string. Empty text is null (CSV empty cell, XML empty element).
/// A number-like text in another spelling (`90.50`, `007`) can only have been a string: the
/// encoders write numbers in JSON's spelling.
pub fn infer(text: &str) -> Value {
    match text {
        "" => Value::Null,
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ if looks_numeric(text) => text
            .parse::<i64>()
            .map(Number::from)
            .ok()
            // Above i64::MAX, as JSON's u64 (serde_json keeps both exactly).
            .or_else(|| text.parse::<u64>().ok().map(Number::from))
            .or_else(|| text.parse::<f64>().ok().and_then(Number::from_f64))
            .filter(|n| n.to_string() == text)
            .map_or_else(|| Value::String(text.to_string()), Value::Number),
        _ => Value::String(text.to_string()),
    }
}

/// `-?digits(.digits)?(e[+-]?digits)?` with no leading zeros: what JSON (serde_json's shortest
/// round-trip spelling, e.g. `7.69e-6`, `1e+21`) would print for a number.
fn looks_numeric(s: &str) -> bool {
    let (mantissa, exp) = match s.split_once('e') {
        Some((m, e)) => (m, Some(e)),
        None => (s, None),
    };
    let body = mantissa.strip_prefix('-').unwrap_or(mantissa);
    let (int, frac) = match body.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (body, None),
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let int_ok = digits(int) && (int == "0" || !int.starts_with('0'));
    let frac_ok = frac.is_none_or(digits);
    let exp_ok = exp.is_none_or(|e| digits(e.trim_start_matches(['-', '+'])));
    int_ok && frac_ok && exp_ok
}

/// Text of a scalar for untyped formats; null is the empty string.
pub fn to_text(v: &Value) -> Option<String> {
    match v {
        Value::Null => Some(String::new()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) => Some(s.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn infers_types_but_keeps_identifiers_as_text() {
        assert_eq!(infer("19.99"), json!(19.99));
        assert_eq!(infer("-3"), json!(-3));
        assert_eq!(infer("true"), json!(true));
        assert_eq!(infer(""), Value::Null);
        // Above i64::MAX: a u64, not text (found by the property test).
        assert_eq!(infer("9223372036854775808"), json!(9223372036854775808u64));
        for s in [
            "PROD-000001",
            "007",
            "90.50",
            "-0",
            "1.",
            ".5",
            "1e5",
            "WH-01",
            "2024-01-01",
            "True",
        ] {
            assert_eq!(infer(s), json!(s), "{s}");
        }
    }

    #[test]
    fn numbers_json_spells_with_an_exponent_read_back_as_numbers() {
        // Public tables hold shares like 7.69e-6; JSON prints them with an exponent.
        for x in [7.692870742481609e-6, 1e21, -2.5e-7, 1.5e300] {
            let text = to_text(&json!(x)).unwrap();
            assert!(text.contains('e'), "{text}");
            assert_eq!(infer(&text), json!(x), "{text}");
        }
        for s in ["1e-06", "1E-6", "1e", "e5", "1.0e-6", "1e--5"] {
            assert_eq!(infer(s), json!(s), "{s}");
        }
    }
}
