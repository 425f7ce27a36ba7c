//! The JSON Schema of a write case: inferred from the gold or given by the case file. One
//! subset serves four jobs: the field names and types the prompt states, the types of
//! untyped cells (a CSV "19.99" is a number where the schema says number), which fields may be
//! null or missing, and the schema of the structured-output baseline. Every inferred property
//! is `required` with `additionalProperties: false`, and a field that is missing or null in
//! some record is nullable: the shape OpenAI's and Anthropic's strict modes accept.

use serde_json::{Map, Value, json};
use std::collections::BTreeSet;

/// A value's shape while inferring: its JSON types, its properties, its items.
#[derive(Debug, Clone, Default)]
struct Shape {
    types: BTreeSet<&'static str>,
    props: Vec<(String, Shape)>,
    items: Option<Box<Shape>>,
}

impl Shape {
    fn of(v: &Value) -> Shape {
        let mut s = Shape::default();
        match v {
            Value::Null => {
                s.types.insert("null");
            }
            Value::Bool(_) => {
                s.types.insert("boolean");
            }
            Value::Number(n) => {
                s.types
                    .insert(if n.is_f64() { "number" } else { "integer" });
            }
            Value::String(_) => {
                s.types.insert("string");
            }
            Value::Array(a) => {
                s.types.insert("array");
                s.items = a.iter().map(Shape::of).reduce(Shape::merge).map(Box::new);
            }
            Value::Object(o) => {
                s.types.insert("object");
                s.props = o.iter().map(|(k, v)| (k.clone(), Shape::of(v))).collect();
            }
        }
        s
    }

    /// The shape of a value that is either; a property only one side has becomes nullable.
    fn merge(mut self, other: Shape) -> Shape {
        let both_objects = self.types.contains("object") && other.types.contains("object");
        self.types.extend(other.types);
        if self.types.contains("number") {
            self.types.remove("integer");
        }
        let mut theirs = other.props;
        for (k, s) in &mut self.props {
            match theirs.iter().position(|(o, _)| o == k) {
                Some(i) => *s = std::mem::take(s).merge(theirs.remove(i).1),
                None if both_objects => {
                    s.types.insert("null");
                }
                None => {}
            }
        }
        for (k, mut s) in theirs {
            if both_objects {
                s.types.insert("null");
            }
            self.props.push((k, s));
        }
        self.items = match (self.items, other.items) {
            (Some(a), Some(b)) => Some(Box::new(a.merge(*b))),
            (a, b) => a.or(b),
        };
        self
    }

    fn schema(&self) -> Value {
        let mut out = Map::new();
        let types: Vec<&str> = self.types.iter().copied().collect();
        match types.as_slice() {
            [] => {}
            [one] => {
                out.insert("type".into(), json!(one));
            }
            many => {
                out.insert("type".into(), json!(many));
            }
        }
        if self.types.contains("object") {
            let mut props = Map::new();
            for (k, s) in &self.props {
                props.insert(k.clone(), s.schema());
            }
            let required: Vec<&String> = self.props.iter().map(|(k, _)| k).collect();
            out.insert("properties".into(), Value::Object(props));
            out.insert("required".into(), json!(required));
            out.insert("additionalProperties".into(), json!(false));
        }
        if self.types.contains("array") {
            out.insert(
                "items".into(),
                self.items.as_ref().map_or(json!({}), |s| s.schema()),
            );
        }
        Value::Object(out)
    }
}

/// The schema of `doc` as inferred from it.
pub fn infer(doc: &Value) -> Value {
    Shape::of(doc).schema()
}

/// The types a schema allows (`[]` = any).
pub fn types(schema: &Value) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// Whether `schema` lets the value be null.
pub fn nullable(schema: &Value) -> bool {
    types(schema).contains(&"null")
}

/// The schema of property `key` of an object schema, and whether it may be missing (not
/// required, or nullable).
pub fn property<'a>(schema: &'a Value, key: &str) -> Option<(&'a Value, bool)> {
    let s = schema.get("properties")?.get(key)?;
    let required = schema
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|r| r.iter().any(|k| k == key));
    Some((s, !required || nullable(s)))
}

/// The item schema of an array schema.
pub fn items(schema: &Value) -> Option<&Value> {
    schema.get("items")
}

/// Whether any field may be null or missing, at any depth.
pub fn has_nullable(schema: &Value) -> bool {
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        if props
            .keys()
            .any(|k| property(schema, k).is_some_and(|(_, optional)| optional))
        {
            return true;
        }
        if props.values().any(has_nullable) {
            return true;
        }
    }
    items(schema).is_some_and(has_nullable)
}

/// Whether `v` has a type the schema allows (an empty list allows any).
fn type_ok(v: &Value, allowed: &[&str]) -> bool {
    allowed.is_empty()
        || allowed.iter().any(|t| match (*t, v) {
            ("null", Value::Null)
            | ("boolean", Value::Bool(_))
            | ("string", Value::String(_))
            | ("array", Value::Array(_))
            | ("object", Value::Object(_))
            | ("number", Value::Number(_)) => true,
            ("integer", Value::Number(n)) => n.as_f64().is_some_and(|f| f.fract() == 0.0),
            _ => false,
        })
}

/// Checks `v` against the schema: types, required properties, no others where
/// `additionalProperties` is false. The error names the path.
pub fn validate(v: &Value, schema: &Value) -> Result<(), String> {
    validate_at(v, schema, "$")
}

fn validate_at(v: &Value, schema: &Value, path: &str) -> Result<(), String> {
    let allowed = types(schema);
    if !type_ok(v, &allowed) {
        return Err(format!(
            "{path}: {} where the schema says {}",
            kind(v),
            allowed.join(" or ")
        ));
    }
    match v {
        Value::Object(o) => {
            if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                for k in props.keys() {
                    let (s, optional) = property(schema, k).expect("listed");
                    match o.get(k) {
                        Some(x) => validate_at(x, s, &format!("{path}.{k}"))?,
                        None if optional => {}
                        None => return Err(format!("{path}: field '{k}' is missing")),
                    }
                }
                if schema.get("additionalProperties") == Some(&Value::Bool(false))
                    && let Some(extra) = o.keys().find(|k| !props.contains_key(*k))
                {
                    return Err(format!("{path}: field '{extra}' is not in the schema"));
                }
            }
        }
        Value::Array(a) => {
            if let Some(s) = items(schema) {
                for (i, x) in a.iter().enumerate() {
                    validate_at(x, s, &format!("{path}[{i}]"))?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// A value's JSON type in words.
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Checks a case file's schema against its own gold.
pub fn check(schema: &Value, gold: &Value) -> Result<(), String> {
    if !schema.is_object() {
        return Err("`schema` must be a JSON Schema object".into());
    }
    validate(gold, schema).map_err(|e| format!("the gold does not match its schema: {e}"))
}

/// Gives untyped scalars (CSV cells, XML text) the type the schema says: a number-like string
/// where it says number, a number or boolean written back as text where it says string, `true`
/// / `false` where it says boolean. Anything else is left for the comparison to judge.
pub fn coerce(v: Value, schema: &Value) -> Value {
    match v {
        Value::Object(o) => Value::Object(
            o.into_iter()
                .map(|(k, x)| {
                    let x = match property(schema, &k) {
                        Some((s, _)) => coerce(x, s),
                        None => x,
                    };
                    (k, x)
                })
                .collect(),
        ),
        Value::Array(a) => match items(schema) {
            Some(s) => Value::Array(a.into_iter().map(|x| coerce(x, s)).collect()),
            None => Value::Array(a),
        },
        scalar => coerce_scalar(scalar, &types(schema)),
    }
}

fn coerce_scalar(v: Value, allowed: &[&str]) -> Value {
    if type_ok(&v, allowed) {
        return v;
    }
    let wants = |t| allowed.contains(&t);
    match &v {
        Value::String(s) if wants("integer") || wants("number") => {
            let t = s.trim();
            t.parse::<i64>()
                .ok()
                .map(Value::from)
                .or_else(|| {
                    t.parse::<f64>()
                        .ok()
                        .filter(|f| f.is_finite())
                        .map(Value::from)
                })
                .unwrap_or(v)
        }
        Value::String(s) if wants("boolean") => match s.as_str() {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => v,
        },
        Value::Number(n) if wants("string") => Value::String(n.to_string()),
        Value::Bool(b) if wants("string") => Value::String(b.to_string()),
        _ => v,
    }
}

/// The field names and types of a schema as an indented bullet list, the same words for
/// every output format.
pub fn describe(schema: &Value) -> String {
    let mut out = String::new();
    if schema.get("properties").is_some() {
        out.push_str("The document is an object with these fields:\n");
        fields(schema, 0, &mut out);
    } else {
        out.push_str(&format!("The document is {}.\n", type_words(schema)));
        if let Some(it) = items(schema).filter(|s| s.get("properties").is_some()) {
            fields(it, 1, &mut out);
        }
    }
    out
}

fn fields(schema: &Value, depth: usize, out: &mut String) {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for k in props.keys() {
        let (s, optional) = property(schema, k).expect("listed");
        let note = if optional {
            " (may be null or left out)"
        } else {
            ""
        };
        out.push_str(&format!(
            "{}- {k}: {}{note}\n",
            "  ".repeat(depth),
            type_words(s)
        ));
        if s.get("properties").is_some() {
            fields(s, depth + 1, out);
        } else if let Some(it) = items(s).filter(|i| i.get("properties").is_some()) {
            fields(it, depth + 1, out);
        }
    }
}

/// "integer", "text or null", "list of objects, each with:", …
fn type_words(schema: &Value) -> String {
    let words: Vec<String> = types(schema)
        .into_iter()
        .filter(|t| *t != "null")
        .map(|t| match t {
            "string" => "text".to_string(),
            "array" => match items(schema) {
                Some(it) if it.get("properties").is_some() => "list of objects, each with:".into(),
                Some(it) if !types(it).is_empty() => format!("list of {}", plural(it)),
                _ => "list".into(),
            },
            "object" => "object with:".into(),
            other => other.to_string(),
        })
        .collect();
    if words.is_empty() {
        return "any value".into();
    }
    words.join(" or ")
}

fn plural(schema: &Value) -> String {
    types(schema)
        .into_iter()
        .filter(|t| *t != "null")
        .map(|t| match t {
            "string" => "texts",
            "integer" => "integers",
            "number" => "numbers",
            "boolean" => "booleans",
            "array" => "lists",
            _ => "values",
        })
        .collect::<Vec<_>>()
        .join(" or ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inferred_schema_marks_missing_and_null_fields_nullable_and_validates_its_gold() {
        let doc = json!({"items": [
            {"id": 1, "price": 2.5, "note": "a"},
            {"id": 2, "price": 3, "tags": []},
            {"id": 3, "price": null, "note": "c"}
        ]});
        let s = infer(&doc);
        let item = &s["properties"]["items"]["items"];
        assert_eq!(item["properties"]["id"]["type"], json!("integer"));
        assert_eq!(
            item["properties"]["price"]["type"],
            json!(["null", "number"])
        );
        assert_eq!(
            item["properties"]["note"]["type"],
            json!(["null", "string"])
        );
        assert_eq!(item["properties"]["tags"]["type"], json!(["array", "null"]));
        assert!(has_nullable(&s));
        validate(&doc, &s).unwrap();
        let bad = json!({"items": [{"id": "x", "price": 1}]});
        assert!(validate(&bad, &s).unwrap_err().contains("$.items[0].id"));
    }

    #[test]
    fn coercion_types_untyped_cells_by_the_schema_only() {
        let s = json!({"type": "object", "properties": {
            "price": {"type": "number"}, "zip": {"type": "string"}, "ok": {"type": "boolean"},
            "n": {"type": "integer"}}, "required": ["price", "zip", "ok", "n"]});
        let got = coerce(
            json!({"price": "90.50", "zip": 2134, "ok": "true", "n": "x"}),
            &s,
        );
        assert_eq!(
            got,
            json!({"price": 90.5, "zip": "2134", "ok": true, "n": "x"})
        );
    }

    #[test]
    fn description_names_every_field_and_type() {
        let s = infer(&json!({"order": {"id": "A1", "lines": [{"sku": "x", "qty": 2}]}}));
        let d = describe(&s);
        assert!(d.contains("- order: object with:"), "{d}");
        assert!(d.contains("  - lines: list of objects, each with:"), "{d}");
        assert!(d.contains("    - qty: integer"), "{d}");
    }
}
