//! The `@struct` schemas TeaLeaf declares and the rules of its text that the encoder, the
//! decoder and struct inference all follow (field types, bare or quoted strings, struct names).

/// A field's declared type: `[]` list marker, base type (scalar or struct name), `?` nullable.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct FieldType {
    pub(super) base: String,
    pub(super) nullable: bool,
    pub(super) is_array: bool,
}

impl FieldType {
    pub(super) fn new(base: impl Into<String>) -> Self {
        Self {
            base: base.into(),
            nullable: false,
            is_array: false,
        }
    }
}

/// One `@struct`: its name and fields in tuple order.
#[derive(Debug, Clone)]
pub(super) struct Schema {
    pub(super) name: String,
    pub(super) fields: Vec<(String, FieldType)>,
}

impl Schema {
    pub(super) fn field(&self, name: &str) -> Option<&FieldType> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, t)| t)
    }
}

/// Structs by name, in first-declared order (an insertion-ordered map, like tealeaf-core's).
#[derive(Debug, Default)]
pub(super) struct Schemas(pub(super) Vec<Schema>);

impl Schemas {
    pub(super) fn get(&self, name: &str) -> Option<&Schema> {
        self.0.iter().find(|s| s.name == name)
    }

    /// Adds `schema`, or replaces the one of that name where it stands.
    pub(super) fn insert(&mut self, schema: Schema) {
        match self.0.iter_mut().find(|s| s.name == schema.name) {
            Some(old) => *old = schema,
            None => self.0.push(schema),
        }
    }
}

/// Whether an object with `keys` could be a `schema` tuple, order aside: every key is a field
/// and every field not among the keys is nullable (lib.rs:1104-1109).
pub(super) fn keys_match<'a>(
    mut keys: impl Iterator<Item = &'a str> + Clone,
    schema: &Schema,
) -> bool {
    schema
        .fields
        .iter()
        .all(|(n, t)| t.nullable || keys.clone().any(|k| k == n))
        && keys.all(|k| schema.field(k).is_some())
}

/// Whether `s` must be quoted to read back as this string (lib.rs:589-633): bare text is
/// `[A-Za-z_][A-Za-z0-9_.-]*` and not a keyword.
pub(super) fn needs_quoting(s: &str) -> bool {
    let mut chars = s.chars();
    !matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        || !chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        || matches!(s, "true" | "false" | "null" | "NaN" | "inf" | "Infinity")
}

/// `products` → `product`, `categories` → `category`, `boxes` → `box`, lower-cased, as
/// tealeaf-core names structs (lib.rs:1065-1076).
pub(super) fn singularize(name: &str) -> String {
    let name = name.to_lowercase();
    if let Some(stem) = name.strip_suffix("ies") {
        format!("{stem}y")
    } else if ["sses", "xes", "ches", "shes"]
        .iter()
        .any(|s| name.ends_with(s))
    {
        name[..name.len() - 2].to_string()
    } else if name.len() > 1 && name.ends_with('s') && !name.ends_with("ss") {
        name[..name.len() - 1].to_string()
    } else {
        name
    }
}

/// Writes `s` bare or as a quoted, escaped string (lib.rs:651-659, 761-782).
pub(super) fn write_str(out: &mut String, s: &str) {
    if !needs_quoting(s) {
        out.push_str(s);
        return;
    }
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c.is_control() => {
                for unit in c.encode_utf16(&mut [0u16; 2]) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
