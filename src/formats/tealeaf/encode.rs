//! Writing: tealeaf-core's `dumps_with_schemas_inner`, `write_value_with_schemas`, `write_tuple`
//! and `write_schema_array` in the compact layout with compact floats (lib.rs:1591-1953), plus
//! deviations 1 and 2 of the module doc.

use super::schema::{FieldType, Schema, Schemas, keys_match, singularize, write_str};
use serde_json::{Map, Number, Value};

/// The text of a document: `@root-array` for a root list, the structs, then one `key:value`
/// line per root entry (lib.rs:299-322, 1631-1660).
pub(super) fn document(entries: &[(&str, &Value)], root_array: bool, schemas: &Schemas) -> String {
    let mut w = Writer {
        out: String::new(),
        schemas,
    };
    if root_array {
        w.out.push_str("@root-array\n");
    }
    for s in &schemas.0 {
        w.out.push_str("@struct ");
        w.out.push_str(&s.name);
        w.out.push('(');
        for (i, (name, ty)) in s.fields.iter().enumerate() {
            if i > 0 {
                w.out.push(',');
            }
            write_str(&mut w.out, name);
            w.out.push(':');
            write_type(&mut w.out, ty);
        }
        w.out.push_str(")\n");
    }
    for (key, value) in entries {
        write_str(&mut w.out, key);
        w.out.push(':');
        w.value(value, Some(key), None);
        w.out.push('\n');
    }
    w.out
}

/// `[]base?` (types.rs:231-242).
fn write_type(out: &mut String, ty: &FieldType) {
    if ty.is_array {
        out.push_str("[]");
    }
    out.push_str(&ty.base);
    if ty.nullable {
        out.push('?');
    }
}

/// Integers as written; floats in Rust's shortest form without a whole float's `.0`, in
/// exponent form past 15 digits so they do not read back as an overflowing integer
/// (lib.rs:788-814).
fn write_number(out: &mut String, n: &Number) {
    if let Some(i) = n.as_i64() {
        out.push_str(&i.to_string());
    } else if let Some(u) = n.as_u64() {
        out.push_str(&u.to_string());
    } else {
        let f = n.as_f64().expect("a JSON number is i64, u64 or f64");
        let s = f.to_string();
        if !s.contains('.') && s.trim_start_matches('-').len() > 15 {
            out.push_str(&format!("{f:e}"));
        } else {
            out.push_str(&s);
        }
    }
}

/// Whether `obj` reads back from a `schema` tuple unchanged: its keys are fields, in field order,
/// each field it lacks is nullable (`~` is dropped only there, parser.rs:469-493), and each
/// `[]` field holds a list or null (the parser demands `[`, parser.rs:513-514).
fn fits(obj: &Map<String, Value>, schema: &Schema) -> bool {
    let mut rest = schema.fields.iter();
    obj.keys().all(|k| rest.any(|(n, _)| n == k))
        && schema.fields.iter().all(|(n, t)| match obj.get(n) {
            None => t.nullable,
            Some(v) => !t.is_array || v.is_array() || v.is_null(),
        })
}

struct Writer<'a> {
    out: String,
    schemas: &'a Schemas,
}

impl<'a> Writer<'a> {
    /// The struct a value is written with: its parent field's declared type, else its key
    /// singularised, exactly or ignoring case (lib.rs:1669-1695).
    fn resolve(&self, declared: Option<&str>, hint: Option<&str>) -> Option<&'a Schema> {
        if let Some(s) = declared.and_then(|d| self.schemas.get(d)) {
            return Some(s);
        }
        let singular = singularize(hint?);
        self.schemas.get(&singular).or_else(|| {
            let lower = singular.to_ascii_lowercase();
            self.schemas
                .0
                .iter()
                .find(|s| s.name.to_ascii_lowercase() == lower)
        })
    }

    /// The first struct an object's keys match (lib.rs:1740-1750, 1809-1817).
    fn structural(&self, obj: &Map<String, Value>) -> Option<&'a Schema> {
        self.schemas
            .0
            .iter()
            .find(|s| keys_match(obj.keys().map(String::as_str), s))
    }

    /// A value outside tuples (lib.rs:1697-1864); `hint` is its key, `declared` the base type its
    /// parent object's struct gives that key.
    fn value(&mut self, v: &Value, hint: Option<&str>, declared: Option<&str>) {
        match v {
            Value::Null => self.out.push('~'),
            Value::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) => write_number(&mut self.out, n),
            Value::String(s) => write_str(&mut self.out, s),
            Value::Array(items) => {
                let mut schema = self.resolve(declared, hint);
                // Structure is consulted only where there is a key or a declared type.
                if schema.is_none()
                    && (hint.is_some() || declared.is_some())
                    && let Some(Value::Object(first)) = items.first()
                {
                    schema = self.structural(first);
                }
                // Deviation 2: every item must fit, not only the first (lib.rs:1758-1763).
                match schema {
                    Some(s)
                        if !items.is_empty()
                            && items
                                .iter()
                                .all(|i| i.as_object().is_some_and(|o| fits(o, s))) =>
                    {
                        self.out.push_str("@table ");
                        self.out.push_str(&s.name);
                        self.rows(items, s);
                    }
                    _ => {
                        self.out.push('[');
                        for (i, item) in items.iter().enumerate() {
                            if i > 0 {
                                self.out.push(',');
                            }
                            self.value(item, None, None);
                        }
                        self.out.push(']');
                    }
                }
            }
            Value::Object(obj) => {
                let schema = self
                    .resolve(declared, hint)
                    .or_else(|| self.structural(obj));
                self.out.push('{');
                for (i, (k, v)) in obj.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    write_str(&mut self.out, k);
                    self.out.push(':');
                    let ty = schema.and_then(|s| s.field(k)).map(|t| t.base.as_str());
                    self.value(v, Some(k), ty);
                }
                self.out.push('}');
            }
        }
    }

    /// `[`, one tuple per line, `]` (lib.rs:1765-1791, 1929-1950).
    fn rows(&mut self, items: &[Value], schema: &Schema) {
        self.out.push_str("[\n");
        for (i, item) in items.iter().enumerate() {
            self.tuple(item, schema);
            if i + 1 < items.len() {
                self.out.push(',');
            }
            self.out.push('\n');
        }
        self.out.push(']');
    }

    /// An object as a `schema` tuple: `null` for null, `~` for absent, struct fields as nested
    /// tuples, `[]struct` fields as rows (lib.rs:1866-1912). Anything else, and (deviation 1)
    /// an object that does not fit, is written as outside tuples.
    fn tuple(&mut self, v: &Value, schema: &Schema) {
        // Deviation 1: tealeaf-core writes every object as a tuple (lib.rs:1875-1906), dropping
        // keys the struct lacks and reordering the rest; `{k:v}` reads back in its place.
        let Some(obj) = v.as_object().filter(|o| fits(o, schema)) else {
            return self.value(v, None, None);
        };
        self.out.push('(');
        for (i, (name, ty)) in schema.fields.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            match obj.get(name) {
                None => self.out.push('~'),
                Some(Value::Null) => self.out.push_str("null"),
                Some(v) => match (self.schemas.get(&ty.base), ty.is_array) {
                    (Some(nested), true) => match v {
                        Value::Array(items) if items.is_empty() => self.out.push_str("[]"),
                        Value::Array(items) => self.rows(items, nested),
                        v => self.value(v, None, None),
                    },
                    (Some(nested), false) => self.tuple(v, nested),
                    (None, _) => self.value(v, None, None),
                },
            }
        }
        self.out.push(')');
    }
}
