//! `tealeaf`: the TeaLeaf text format as TeaLeaf itself puts data into LLM prompts (compact
//! layout, compact floats): `@struct` schemas inferred from the records — nested objects become
//! nested structs, declared before their parent — then `products:@table product[` with one
//! positional tuple per record. `null` is a null value, `~` an absent key. Renders a document
//! that holds under one key an array of records (any key: `orders:@table order[`); other
//! shapes, and lists of objects inside records, are a "cannot represent" error.
//!
//! Written here rather than taken from `tealeaf-core`, which turns on serde_json's
//! `arbitrary_precision` for the whole build and breaks our YAML and XML output. Output is
//! byte-identical to tealeaf-core 2.0.0-beta.14 (`to_tl_with_options(compact + compact floats)`
//! after `from_json_with_schemas`) on our datasets; see tests/golden/tealeaf/.

use super::{Encoder, FormatError, FormatSpec};
use serde_json::{Map, Number, Value};

/// TeaLeaf, compact.
pub struct TeaLeaf;

/// TeaLeaf text format.
pub static TEALEAF: FormatSpec = FormatSpec {
    name: "tealeaf",
    display: "TeaLeaf",
    extension: "tl",
    fence: "tealeaf",
    flat_only: false,
    extra: true,
    primer: "TeaLeaf: each `@struct name(field:type,…)` line declares a record shape (`?` = nullable); `products:@table product[` lists one `(…)` tuple per product with values in field order, nested `(…)` for nested structs; null means no value, ~ an absent field.",
    encoder: &TeaLeaf,
};

fn err(e: impl std::fmt::Display) -> FormatError {
    FormatError::new("tealeaf", e)
}

/// A field type: a scalar kind or a struct (by index into the schema list).
#[derive(Debug, Clone, PartialEq)]
enum Kind {
    Str,
    Int,
    Float,
    Bool,
    Any,
    Struct(usize),
    Array(Box<Kind>),
    /// Only nulls seen so far.
    Unknown,
}

#[derive(Debug, Clone)]
struct Field {
    name: String,
    kind: Kind,
    nullable: bool,
}

#[derive(Debug, Clone)]
struct Schema {
    name: String,
    fields: Vec<Field>,
}

/// `products` → `product`, `categories` → `category`, `boxes` → `box`, as TeaLeaf names structs.
fn singular(key: &str) -> String {
    let k = key.to_lowercase();
    if let Some(stem) = k.strip_suffix("ies") {
        return format!("{stem}y");
    }
    for suffix in ["sses", "xes", "ches", "shes"] {
        if k.ends_with(suffix) {
            return k[..k.len() - 2].to_string();
        }
    }
    if k.ends_with('s') && !k.ends_with("ss") {
        return k[..k.len() - 1].to_string();
    }
    k
}

/// `singular(key)` reduced to `[a-z0-9_]`, starting with a letter or `_`.
fn struct_name(key: &str) -> String {
    let s: String = singular(key)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    match s.chars().next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => s,
        _ => format!("s_{s}"),
    }
}

fn same_fields(a: &[Field], b: &[Field]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.name == y.name && x.kind == y.kind && x.nullable == y.nullable)
}

fn merge(a: Kind, b: Kind) -> Kind {
    match (a, b) {
        (Kind::Unknown, k) | (k, Kind::Unknown) => k,
        (a, b) if a == b => a,
        (Kind::Int, Kind::Float) | (Kind::Float, Kind::Int) => Kind::Float,
        (Kind::Array(x), Kind::Array(y)) => Kind::Array(Box::new(merge(*x, *y))),
        _ => Kind::Any,
    }
}

/// Infers the schema of `objects` (named after `key`), nested schemas first.
fn infer(key: &str, objects: &[&Map<String, Value>], schemas: &mut Vec<Schema>) -> usize {
    // Field order: the object with the most keys, then keys seen only elsewhere.
    let mut names: Vec<String> = objects
        .iter()
        .fold(None::<&&Map<String, Value>>, |best, o| match best {
            Some(b) if b.len() >= o.len() => Some(b),
            _ => Some(o),
        })
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    for o in objects {
        for k in o.keys() {
            if !names.contains(k) {
                names.push(k.clone());
            }
        }
    }
    let mut fields = Vec::with_capacity(names.len());
    for name in names {
        let mut kind = Kind::Unknown;
        let mut nullable = false;
        let mut children: Vec<&Map<String, Value>> = Vec::new();
        for o in objects {
            match o.get(&name) {
                None | Some(Value::Null) => nullable = true,
                Some(Value::Object(m)) => children.push(m),
                Some(v) => kind = merge(kind, scalar_kind(v)),
            }
        }
        if !children.is_empty() {
            kind = if kind == Kind::Unknown {
                Kind::Struct(infer(&name, &children, schemas))
            } else {
                Kind::Any
            };
        }
        if kind == Kind::Unknown {
            kind = Kind::Str;
        }
        fields.push(Field {
            name,
            kind,
            nullable,
        });
    }
    // A name TeaLeaf can read bare; the same name with the same fields is the same struct,
    // with other fields it gets a numbered name (tealeaf-core reuses the first, losing data).
    let base = struct_name(key);
    let mut name = base.clone();
    for n in 2.. {
        match schemas.iter().position(|s| s.name == name) {
            Some(i) if same_fields(&schemas[i].fields, &fields) => return i,
            Some(_) => name = format!("{base}{n}"),
            None => break,
        }
    }
    schemas.push(Schema { name, fields });
    schemas.len() - 1
}

fn scalar_kind(v: &Value) -> Kind {
    match v {
        Value::Bool(_) => Kind::Bool,
        Value::Number(n) if n.is_f64() => Kind::Float,
        Value::Number(_) => Kind::Int,
        Value::String(_) => Kind::Str,
        Value::Array(items) => Kind::Array(Box::new(
            items
                .iter()
                .filter(|i| !i.is_null())
                .map(scalar_kind)
                .reduce(merge)
                .unwrap_or(Kind::Any),
        )),
        _ => Kind::Any,
    }
}

fn type_name(k: &Kind, schemas: &[Schema]) -> String {
    match k {
        Kind::Str | Kind::Unknown => "string".into(),
        Kind::Int => "int".into(),
        Kind::Float => "float".into(),
        Kind::Bool => "bool".into(),
        Kind::Any => "any".into(),
        Kind::Struct(i) => schemas[*i].name.clone(),
        Kind::Array(inner) => format!("[]{}", type_name(inner, schemas)),
    }
}

const RESERVED: [&str; 7] = ["true", "false", "null", "~", "NaN", "inf", "Infinity"];

/// Bare iff `[A-Za-z_][A-Za-z0-9_.-]*` and not a reserved word.
fn bare(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
        && !RESERVED.contains(&s)
}

fn write_str(out: &mut String, s: &str) {
    if bare(s) {
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
                let mut buf = [0u16; 2];
                for unit in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Rust's shortest float text, never an exponent unless it has over 15 digits; whole floats
/// lose `.0` (TeaLeaf's compact floats).
fn write_number(out: &mut String, n: &Number) {
    match n.as_f64().filter(|_| n.is_f64()) {
        Some(f) => {
            let s = f.to_string();
            let digits = s.chars().filter(char::is_ascii_digit).count();
            if !s.contains('.') && digits > 15 {
                out.push_str(&format!("{f:e}"));
            } else {
                out.push_str(&s);
            }
        }
        None => out.push_str(&n.to_string()),
    }
}

fn write_value(out: &mut String, v: Option<&Value>, kind: &Kind, schemas: &[Schema]) {
    match (v, kind) {
        (None, _) => out.push('~'),
        (Some(Value::Null), _) => out.push_str("null"),
        (Some(Value::Object(m)), Kind::Struct(i)) => write_tuple(out, m, *i, schemas),
        // Rejected by `check` before writing.
        (Some(Value::Object(_)), _) => out.push_str("null"),
        (Some(Value::Bool(b)), _) => out.push_str(if *b { "true" } else { "false" }),
        (Some(Value::Number(n)), _) => write_number(out, n),
        (Some(Value::String(s)), _) => write_str(out, s),
        (Some(Value::Array(items)), _) => {
            let inner = match kind {
                Kind::Array(k) => k.as_ref().clone(),
                _ => Kind::Any,
            };
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, Some(item), &inner, schemas);
            }
            out.push(']');
        }
    }
}

/// Objects only where the schema has a struct: TeaLeaf tables have no form for an object
/// inside an array or in a column that also holds other kinds of values.
fn check(obj: &Map<String, Value>, schema: usize, schemas: &[Schema]) -> Result<(), FormatError> {
    for f in &schemas[schema].fields {
        match (obj.get(&f.name), &f.kind) {
            (Some(Value::Object(m)), Kind::Struct(i)) => check(m, *i, schemas)?,
            (Some(Value::Object(_)), _) => {
                return Err(FormatError::cannot_represent(
                    "tealeaf",
                    format!("field '{}' mixes objects with other values", f.name),
                ));
            }
            (Some(Value::Array(items)), _) if items.iter().any(Value::is_object) => {
                return Err(FormatError::cannot_represent(
                    "tealeaf",
                    format!(
                        "field '{}' is a list of objects, which a @table tuple has no form for",
                        f.name
                    ),
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

fn write_tuple(out: &mut String, obj: &Map<String, Value>, schema: usize, schemas: &[Schema]) {
    out.push('(');
    for (i, f) in schemas[schema].fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_value(out, obj.get(&f.name), &f.kind, schemas);
    }
    out.push(')');
}

impl Encoder for TeaLeaf {
    fn encode(&self, doc: &Value) -> Result<String, FormatError> {
        let records = super::records("tealeaf", doc)?;
        let key = records.key.ok_or_else(|| {
            FormatError::cannot_represent("tealeaf", "a bare array has no key to name its table")
        })?;
        let objects = records.items;
        if objects.is_empty() {
            let mut out = String::new();
            write_str(&mut out, key);
            out.push_str(":[]\n");
            return Ok(out);
        }
        let mut schemas = Vec::new();
        let root = infer(key, &objects, &mut schemas);
        for o in &objects {
            check(o, root, &schemas)?;
        }
        let mut out = String::new();
        for s in &schemas {
            out.push_str("@struct ");
            out.push_str(&s.name);
            out.push('(');
            for (i, f) in s.fields.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_str(&mut out, &f.name);
                out.push(':');
                out.push_str(&type_name(&f.kind, &schemas));
                if f.nullable {
                    out.push('?');
                }
            }
            out.push_str(")\n");
        }
        write_str(&mut out, key);
        out.push_str(":@table ");
        out.push_str(&schemas[root].name);
        out.push_str("[\n");
        for (i, o) in objects.iter().enumerate() {
            write_tuple(&mut out, o, root, &schemas);
            if i + 1 < objects.len() {
                out.push(',');
            }
            out.push('\n');
        }
        out.push_str("]\n");
        Ok(out)
    }

    fn decode(&self, text: &str) -> Result<Value, FormatError> {
        let mut p = Parser { text, pos: 0 };
        p.document()
            .map_err(|e| err(format!("line {}: {e}", p.line())))
    }
}

/// A declared field: name, type (a struct name or scalar) and nullability.
struct Declared {
    name: String,
    ty: String,
    nullable: bool,
}

/// Recursive-descent reader of what [`TeaLeaf::encode`] writes (strict: commas, arity and
/// quoting are checked).
struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

type Structs = Vec<(String, Vec<Declared>)>;

impl<'a> Parser<'a> {
    fn line(&self) -> usize {
        self.text[..self.pos.min(self.text.len())]
            .matches('\n')
            .count()
            + 1
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// Skips whitespace and `#` comments.
    fn skip(&mut self) {
        loop {
            let r = self.rest();
            let trimmed = r.trim_start();
            self.pos += r.len() - trimmed.len();
            if trimmed.starts_with('#') {
                self.pos += trimmed.find('\n').unwrap_or(trimmed.len());
            } else {
                return;
            }
        }
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        self.skip();
        match self.peek() {
            Some(x) if x == c => {
                self.pos += c.len_utf8();
                Ok(())
            }
            other => Err(format!("expected '{c}', found {other:?}")),
        }
    }

    fn word(&mut self) -> String {
        self.skip();
        let r = self.rest();
        let n = r
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '~')))
            .unwrap_or(r.len());
        self.pos += n;
        r[..n].to_string()
    }

    fn quoted(&mut self) -> Result<String, String> {
        self.expect('"')?;
        let mut out = String::new();
        let mut chars = self.rest().char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos += i + 1;
                    return Ok(out);
                }
                '\\' => match chars.next().map(|x| x.1) {
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    Some('r') => out.push('\r'),
                    Some('b') => out.push('\u{8}'),
                    Some('f') => out.push('\u{c}'),
                    Some('u') => {
                        let hex: String =
                            (0..4).filter_map(|_| chars.next().map(|x| x.1)).collect();
                        let unit = u32::from_str_radix(&hex, 16)
                            .map_err(|_| format!("bad \\u escape '{hex}'"))?;
                        out.push(char::from_u32(unit).ok_or("\\u escape is not a character")?);
                    }
                    Some(c @ ('\\' | '"')) => out.push(c),
                    other => return Err(format!("bad escape \\{other:?}")),
                },
                c => out.push(c),
            }
        }
        Err("unterminated string".into())
    }

    fn name(&mut self) -> Result<String, String> {
        self.skip();
        if self.peek() == Some('"') {
            self.quoted()
        } else {
            let w = self.word();
            if w.is_empty() {
                Err(format!("expected a name, found {:?}", self.peek()))
            } else {
                Ok(w)
            }
        }
    }

    fn document(&mut self) -> Result<Value, String> {
        let mut structs: Structs = Vec::new();
        loop {
            self.skip();
            if !self.rest().starts_with("@struct") {
                break;
            }
            self.pos += "@struct".len();
            let name = self.name()?;
            self.expect('(')?;
            let mut fields = Vec::new();
            loop {
                self.skip();
                if self.peek() == Some(')') {
                    self.pos += 1;
                    break;
                }
                if !fields.is_empty() {
                    self.expect(',')?;
                }
                let field = self.name()?;
                self.expect(':')?;
                self.skip();
                let mut ty = String::new();
                while self.rest().starts_with("[]") {
                    ty.push_str("[]");
                    self.pos += 2;
                }
                ty.push_str(&self.word());
                let nullable = self.rest().starts_with('?');
                if nullable {
                    self.pos += 1;
                }
                fields.push(Declared {
                    name: field,
                    ty,
                    nullable,
                });
            }
            structs.push((name, fields));
        }
        let key = self.name()?;
        self.expect(':')?;
        self.skip();
        let mut rows = Vec::new();
        if self.rest().starts_with("@table") {
            self.pos += "@table".len();
            let schema = self.name()?;
            self.expect('[')?;
            loop {
                self.skip();
                if self.peek() == Some(']') {
                    self.pos += 1;
                    break;
                }
                if !rows.is_empty() {
                    self.expect(',')?;
                }
                rows.push(Value::Object(self.tuple(&schema, &structs)?));
            }
        } else {
            self.expect('[')?;
            self.expect(']')?;
        }
        self.skip();
        if !self.rest().is_empty() {
            return Err(format!(
                "unexpected text after the table: {:?}",
                self.peek()
            ));
        }
        let mut root = Map::new();
        root.insert(key, Value::Array(rows));
        Ok(Value::Object(root))
    }

    fn tuple(&mut self, schema: &str, structs: &Structs) -> Result<Map<String, Value>, String> {
        let fields = &structs
            .iter()
            .find(|(n, _)| n == schema)
            .ok_or_else(|| format!("unknown struct '{schema}'"))?
            .1;
        self.expect('(')?;
        let mut obj = Map::new();
        for (i, f) in fields.iter().enumerate() {
            if i > 0 {
                self.expect(',')?;
            }
            self.skip();
            if self.peek() == Some('~') {
                self.pos += 1;
                if !f.nullable {
                    obj.insert(f.name.clone(), Value::Null);
                }
                continue;
            }
            let is_struct = structs.iter().any(|(n, _)| *n == f.ty);
            let v = if is_struct && self.peek() == Some('(') {
                Value::Object(self.tuple(&f.ty, structs)?)
            } else {
                self.value()?
            };
            obj.insert(f.name.clone(), v);
        }
        self.expect(')')?;
        Ok(obj)
    }

    fn value(&mut self) -> Result<Value, String> {
        self.skip();
        match self.peek() {
            Some('"') => Ok(Value::String(self.quoted()?)),
            Some('[') => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    self.skip();
                    if self.peek() == Some(']') {
                        self.pos += 1;
                        return Ok(Value::Array(items));
                    }
                    if !items.is_empty() {
                        self.expect(',')?;
                    }
                    items.push(self.value()?);
                }
            }
            Some(c) if c == '-' || c.is_ascii_digit() => {
                let w = self.word();
                if let Ok(i) = w.parse::<i64>() {
                    Ok(Value::from(i))
                } else if let Ok(u) = w.parse::<u64>() {
                    Ok(Value::from(u))
                } else {
                    w.parse::<f64>()
                        .ok()
                        .and_then(Number::from_f64)
                        .map(Value::Number)
                        .ok_or_else(|| format!("'{w}' is not a number (quote strings like it)"))
                }
            }
            _ => {
                let w = self.word();
                match w.as_str() {
                    "" => Err(format!("expected a value, found {:?}", self.peek())),
                    "true" => Ok(Value::Bool(true)),
                    "false" => Ok(Value::Bool(false)),
                    "null" => Ok(Value::Null),
                    _ if bare(&w) => Ok(Value::String(w)),
                    _ => Err(format!("'{w}' must be quoted")),
                }
            }
        }
    }
}
