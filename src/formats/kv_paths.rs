//! Records as `path → value` lines, shared by `markdown_kv` and `ini`: a nested field is a
//! dotted path (`pricing.price`), a list position is `[i]` (`tags[0]`, `lines[2].sku`), and an
//! empty list or object is the leaf `[]` or `{}`. Key order is kept: lines come in the
//! document's order and reading them back rebuilds objects in first-seen order.
//!
//! Quoting makes every key and value unambiguous without a schema: a key segment that is not
//! letters, digits, `_` and `-` only is written as a JSON string (`"unit.price"`), with `:` and
//! `=` escaped as `\u003a` and `\u003d` so neither format's key/value separator can occur in a
//! key. A string value is written bare unless it would read back as something else (`null`,
//! `true`, `42`, `[]`), is empty, has leading or trailing whitespace, holds a control
//! character, or starts with `"`; then it is a JSON string too.

use serde_json::{Map, Value};

/// One step of a path: an object key or a list position.
#[derive(Debug, Clone, PartialEq)]
enum Seg {
    Key(String),
    Index(usize),
}

/// Every leaf of `record` (an object) with its path text, in document order.
pub fn flatten(record: &Value) -> Vec<(String, String)> {
    // An empty record is a block with no lines (a line needs a key).
    if record.as_object().is_some_and(serde_json::Map::is_empty) {
        return Vec::new();
    }
    let mut out = Vec::new();
    walk(record, &mut String::new(), &mut out);
    out
}

fn walk(v: &Value, path: &mut String, out: &mut Vec<(String, String)>) {
    let len = path.len();
    match v {
        Value::Object(o) if !o.is_empty() => {
            for (k, child) in o {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(&key_text(k));
                walk(child, path, out);
                path.truncate(len);
            }
        }
        Value::Array(a) if !a.is_empty() => {
            for (i, child) in a.iter().enumerate() {
                path.push_str(&format!("[{i}]"));
                walk(child, path, out);
                path.truncate(len);
            }
        }
        leaf => out.push((path.clone(), value_text(leaf))),
    }
}

/// A key segment: bare when it is letters, digits, `_` and `-` only, else a JSON string.
pub fn key_text(key: &str) -> String {
    let bare = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
    if bare {
        return key.to_string();
    }
    serde_json::to_string(key)
        .expect("a string serialises")
        .replace(':', "\\u003a")
        .replace('=', "\\u003d")
}

/// The text of a leaf: a scalar, or an empty list or object.
pub fn value_text(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) if bare_string(s) => s.clone(),
        Value::String(s) => serde_json::to_string(s).expect("a string serialises"),
        Value::Array(_) => "[]".into(),
        Value::Object(_) => "{}".into(),
    }
}

fn bare_string(s: &str) -> bool {
    !s.is_empty()
        && s.trim() == s
        && !s.starts_with('"')
        && !s.chars().any(char::is_control)
        && !number_grammar(s)
        && matches!(parse_value(s), Ok(Value::String(_)))
}

/// Reads a leaf's text back: `null`, `true`/`false`, `[]`, `{}`, a JSON string, a number in
/// JSON's spelling, else the bare text as a string.
pub fn parse_value(text: &str) -> Result<Value, String> {
    Ok(match text {
        "" => return Err("an empty value (an empty string is written \"\")".into()),
        "null" => Value::Null,
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        "[]" => Value::Array(Vec::new()),
        "{}" => Value::Object(Map::new()),
        t if t.starts_with('"') => Value::String(
            serde_json::from_str::<String>(t).map_err(|e| format!("quoted value {t}: {e}"))?,
        ),
        t if number_grammar(t) => {
            Value::Number(serde_json::from_str(t).map_err(|e| format!("number {t}: {e}"))?)
        }
        t => Value::String(t.to_string()),
    })
}

/// JSON's number grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`. Bare text that
/// matches is a number whatever its spelling (`1e5`, `-0`); a string that matches is quoted.
fn number_grammar(t: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let body = t.strip_prefix('-').unwrap_or(t);
    let (mantissa, exp) = match body.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e.strip_prefix(['-', '+']).unwrap_or(e))),
        None => (body, None),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (mantissa, None),
    };
    digits(int)
        && (int == "0" || !int.starts_with('0'))
        && frac.is_none_or(digits)
        && exp.is_none_or(digits)
}

/// Splits a path text into its segments.
fn parse_path(text: &str) -> Result<Vec<Seg>, String> {
    let bad = |why: &str| format!("path {text}: {why}");
    let mut segs = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        if !segs.is_empty() && !rest.starts_with('[') {
            rest = rest
                .strip_prefix('.')
                .ok_or_else(|| bad("expected '.' or '[' between segments"))?;
        }
        if let Some(after) = rest.strip_prefix('[') {
            let (digits, tail) = after.split_once(']').ok_or_else(|| bad("unclosed '['"))?;
            let i = digits
                .parse::<usize>()
                .map_err(|_| bad("a list position is a number in [ ]"))?;
            segs.push(Seg::Index(i));
            rest = tail;
        } else if rest.starts_with('"') {
            let end = closing_quote(rest).ok_or_else(|| bad("unclosed quoted key"))?;
            let key =
                serde_json::from_str::<String>(&rest[..=end]).map_err(|e| bad(&e.to_string()))?;
            segs.push(Seg::Key(key));
            rest = &rest[end + 1..];
        } else {
            let end = rest.find(['.', '[']).unwrap_or(rest.len());
            let key = &rest[..end];
            if key_text(key) != key {
                return Err(bad(
                    "a key that is not letters, digits, _ and - must be quoted",
                ));
            }
            segs.push(Seg::Key(key.to_string()));
            rest = &rest[end..];
        }
    }
    if segs.is_empty() {
        return Err("an empty key".into());
    }
    Ok(segs)
}

/// Byte index of the `"` closing the JSON string that `s` starts with.
fn closing_quote(s: &str) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in s.char_indices().skip(1) {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return Some(i),
            _ => {}
        }
    }
    None
}

/// Rebuilds a value from its `(path, value)` lines; `root` is the empty object or list the
/// paths start in. Lines must come in document order: list positions 0, 1, 2, …
pub struct Builder {
    root: Value,
}

impl Builder {
    /// An empty object to fill.
    pub fn object() -> Self {
        Self {
            root: Value::Object(Map::new()),
        }
    }

    /// Adds one line.
    pub fn add(&mut self, path: &str, value: &str) -> Result<(), String> {
        let segs = parse_path(path)?;
        let leaf = parse_value(value)?;
        if let Some(Seg::Index(_)) = segs.first()
            && matches!(&self.root, Value::Object(o) if o.is_empty())
        {
            self.root = Value::Array(Vec::new());
        }
        insert(&mut self.root, &segs, leaf).map_err(|why| format!("{path}: {why}"))
    }

    /// The value built.
    pub fn finish(self) -> Value {
        self.root
    }
}

fn insert(target: &mut Value, segs: &[Seg], leaf: Value) -> Result<(), String> {
    let (seg, rest) = segs.split_first().expect("a path has a segment");
    let fresh = || match rest.first() {
        Some(Seg::Index(_)) => Value::Array(Vec::new()),
        _ => Value::Object(Map::new()),
    };
    let child = match (seg, target) {
        (Seg::Key(k), Value::Object(o)) => {
            if rest.is_empty() {
                if o.contains_key(k) {
                    return Err(format!("'{k}' is given twice"));
                }
                o.insert(k.clone(), leaf);
                return Ok(());
            }
            o.entry(k.clone()).or_insert_with(fresh)
        }
        (Seg::Index(i), Value::Array(a)) => {
            if *i == a.len() {
                a.push(if rest.is_empty() {
                    leaf.clone()
                } else {
                    fresh()
                });
                if rest.is_empty() {
                    return Ok(());
                }
            } else if rest.is_empty() || *i + 1 != a.len() {
                return Err(format!(
                    "list position [{i}] out of order (next is [{}])",
                    a.len()
                ));
            }
            a.last_mut().expect("just checked")
        }
        (Seg::Key(k), _) => return Err(format!("'{k}' names a field of something not an object")),
        (Seg::Index(i), _) => return Err(format!("[{i}] indexes something not a list")),
    };
    insert(child, rest, leaf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn back(record: &Value) -> Value {
        let mut b = Builder::object();
        for (p, v) in flatten(record) {
            b.add(&p, &v).unwrap();
        }
        b.finish()
    }

    #[test]
    fn paths_quote_what_is_not_plain_and_read_back_in_order() {
        let r = json!({
            "id": "P-1", "a.b": {"c:d": 1, "e=f": [true, null, "null"]}, "x": "",
            "tags": ["  pad", "true", "42", "[]", "1e5", "-0", "2024-01-01", "007", "\"q\"", "line\nbreak"], "m": [[1, 2], []],
            "empty": {}, "Zürich": "東京", "n": -0.5, "z": 1e21
        });
        let lines = flatten(&r);
        let texts: Vec<String> = lines.iter().map(|(p, v)| format!("{p}={v}")).collect();
        assert!(
            texts.contains(&"\"a.b\".\"c\\u003ad\"=1".to_string()),
            "{texts:?}"
        );
        assert!(
            texts.contains(&"\"a.b\".\"e\\u003df\"[2]=\"null\"".to_string()),
            "{texts:?}"
        );
        assert!(texts.contains(&"tags[1]=\"true\"".to_string()), "{texts:?}");
        assert!(
            texts.contains(&"\"a.b\".\"e\\u003df\"[0]=true".to_string()),
            "{texts:?}"
        );
        assert!(texts.contains(&"m[1]=[]".to_string()), "{texts:?}");
        assert!(texts.contains(&"Zürich=東京".to_string()), "{texts:?}");
        assert!(texts.contains(&"tags[4]=\"1e5\"".to_string()), "{texts:?}");
        assert!(
            texts.contains(&"tags[6]=2024-01-01".to_string()),
            "{texts:?}"
        );
        assert!(texts.contains(&"tags[7]=007".to_string()), "{texts:?}");
        let got = back(&r);
        assert_eq!(
            serde_json::to_string(&got).unwrap(),
            serde_json::to_string(&r).unwrap()
        );
    }

    #[test]
    fn malformed_lines_are_named() {
        let mut b = Builder::object();
        b.add("a[0]", "1").unwrap();
        assert!(b.add("a[2]", "1").unwrap_err().contains("out of order"));
        assert!(b.add("a[0]", "2").unwrap_err().contains("out of order"));
        assert!(b.add("a.b", "1").unwrap_err().contains("not an object"));
        assert!(b.add("k k", "1").unwrap_err().contains("must be quoted"));
        assert!(b.add("c", "").unwrap_err().contains("empty value"));
        assert!(b.add("\"open", "1").unwrap_err().contains("unclosed"));
        b.add("c", "x").unwrap();
        assert!(b.add("c", "y").unwrap_err().contains("twice"));
    }
}
