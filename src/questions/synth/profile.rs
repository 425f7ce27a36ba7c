//! What the questions can ask about: every field path of the records (nested objects walked,
//! lists not), its one JSON type, how often it is set, its values; and the identifying field.

use crate::dataset::Record;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// A field's JSON type. Integers and decimals are one type (DuckDB reads them as one column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A number.
    Number,
    /// A string.
    Text,
    /// true or false.
    Bool,
    /// A list of scalars.
    List,
    /// A list holding objects or lists.
    Table,
    /// A nested object.
    Object,
}

impl Kind {
    fn of(v: &Value) -> Option<Kind> {
        Some(match v {
            Value::Null => return None,
            Value::Bool(_) => Kind::Bool,
            Value::Number(_) => Kind::Number,
            Value::String(_) => Kind::Text,
            Value::Array(a) if a.iter().all(|x| !x.is_object() && !x.is_array()) => Kind::List,
            Value::Array(_) => Kind::Table,
            Value::Object(_) => Kind::Object,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Number => "number",
            Kind::Text => "string",
            Kind::Bool => "boolean",
            Kind::List => "list",
            Kind::Table => "list of objects",
            Kind::Object => "object",
        }
    }
}

/// Distinct values tracked per field; past this a field is not categorical.
const DISTINCT_CAP: usize = 64;

/// One field path.
#[derive(Debug, Clone)]
pub struct Field {
    /// Dotted path as the questions and queries name it (`properties.mag`).
    pub path: String,
    /// Path of the object holding it, `None` at the top level.
    pub parent: Option<String>,
    /// Its type; `None` when every value is null.
    pub kind: Option<Kind>,
    /// Records where it is set (not null).
    pub set: usize,
    /// Records where its parent object exists (all records at the top level).
    pub seen_in: usize,
    /// Distinct values as text with their counts, up to [`DISTINCT_CAP`] (more: `None`).
    pub distinct: Option<BTreeMap<String, usize>>,
    /// Its numbers, when a number.
    pub numbers: Vec<f64>,
    /// Most words in one string value: prose has many, codes and URLs one.
    pub words: usize,
    /// Below the top level with a dot in a key on its path: a dotted path would name another.
    pub ambiguous: bool,
}

impl Field {
    /// Whether some record lacks it or has it null (of the records holding its parent).
    pub fn sparse(&self) -> bool {
        self.set < self.seen_in
    }

    /// Whether it takes a few repeated values (2 to 20, some value twice).
    pub fn categorical(&self) -> bool {
        matches!(self.kind, Some(Kind::Text | Kind::Bool))
            && self
                .distinct
                .as_ref()
                .is_some_and(|d| (2..=20).contains(&d.len()) && d.len() < self.set)
    }
}

/// Every field of the records, in first-seen order.
#[derive(Debug, Clone)]
pub struct Profile {
    /// Fields, parents before children.
    pub fields: Vec<Field>,
    /// Records profiled.
    pub records: usize,
}

impl Profile {
    /// The field at `path`.
    pub fn get(&self, path: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.path == path)
    }

    /// Fields a question may name: unambiguous, of one known type.
    pub fn usable(&self) -> impl Iterator<Item = &Field> {
        self.fields
            .iter()
            .filter(|f| !f.ambiguous && f.kind.is_some())
    }
}

/// Where each type of a field was first seen, to name a mixed field's records.
type FirstSeen = HashMap<String, Vec<(Kind, usize)>>;

/// Profiles `records`; a field holding two types (a number here, a string there) is an error
/// naming it and the records.
pub fn profile(records: &[Record]) -> Result<Profile, String> {
    let mut fields: Vec<Field> = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    let mut first: FirstSeen = HashMap::new();
    let mut objects: HashMap<Option<String>, usize> = HashMap::new();
    for (i, r) in records.iter().enumerate() {
        let mut w = Walk {
            record: i,
            fields: &mut fields,
            at: &mut at,
            first: &mut first,
            objects: &mut objects,
        };
        w.object(r, None, false)?;
    }
    for f in &mut fields {
        f.seen_in = objects.get(&f.parent).copied().unwrap_or(0);
    }
    Ok(Profile {
        fields,
        records: records.len(),
    })
}

/// One record's walk over its objects.
struct Walk<'a> {
    record: usize,
    fields: &'a mut Vec<Field>,
    at: &'a mut HashMap<String, usize>,
    first: &'a mut FirstSeen,
    /// Objects seen per path (`None`: the records), to tell absent fields from set ones.
    objects: &'a mut HashMap<Option<String>, usize>,
}

impl Walk<'_> {
    /// Walks one object at path `parent`; `dotted` says a key above it holds a dot.
    fn object(
        &mut self,
        obj: &serde_json::Map<String, Value>,
        parent: Option<&str>,
        dotted: bool,
    ) -> Result<(), String> {
        *self.objects.entry(parent.map(str::to_string)).or_default() += 1;
        for (k, v) in obj {
            let path = match parent {
                Some(p) => format!("{p}.{k}"),
                None => k.clone(),
            };
            let fields = &mut *self.fields;
            let idx = *self.at.entry(path.clone()).or_insert_with(|| {
                fields.push(Field {
                    path: path.clone(),
                    parent: parent.map(str::to_string),
                    kind: None,
                    set: 0,
                    seen_in: 0,
                    distinct: Some(BTreeMap::new()),
                    numbers: Vec::new(),
                    words: 0,
                    // `Query::field` reads a dotted path as the key itself, else as nested
                    // keys: a dot below the top level would make the path ambiguous.
                    ambiguous: parent.is_some() && (dotted || k.contains('.')),
                });
                fields.len() - 1
            });
            if let Some(kind) = Kind::of(v) {
                let seen = self.first.entry(path.clone()).or_default();
                if !seen.iter().any(|(k, _)| *k == kind) {
                    seen.push((kind, self.record));
                }
                if let [(a, ra), (b, rb), ..] = seen.as_slice() {
                    return Err(format!(
                        "field '{path}' mixes types: {} in record {ra} and {} in record {rb}; \
                         DuckDB reads such a field as text (VARCHAR) or JSON, so its values would \
                         not compare alike across records or formats: make every value of it one \
                         type",
                        a.name(),
                        b.name()
                    ));
                }
                let f = &mut self.fields[idx];
                f.kind = Some(kind);
                f.set += 1;
                match v {
                    Value::Number(n) => f.numbers.extend(n.as_f64()),
                    Value::String(s) => f.words = f.words.max(s.split_whitespace().count()),
                    _ => {}
                }
                if let Some(d) = &mut f.distinct {
                    match v {
                        Value::String(s) => *d.entry(s.clone()).or_default() += 1,
                        Value::Bool(_) | Value::Number(_) => {
                            *d.entry(v.to_string()).or_default() += 1
                        }
                        _ => {}
                    }
                    if d.len() > DISTINCT_CAP {
                        f.distinct = None;
                    }
                }
            }
            if let Value::Object(o) = v {
                self.object(o, Some(&path), dotted || k.contains('.'))?;
            }
        }
        Ok(())
    }
}

/// Why a top-level field cannot identify records, or `None` when it can: set in every record,
/// a string or an integer, unique as text.
fn id_problem(records: &[Record], path: &str) -> Option<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut missing = 0;
    let mut repeats = 0;
    let mut example = None;
    for (i, r) in records.iter().enumerate() {
        let text = match crate::questions::query::field(r, path) {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Number(n)) if n.is_i64() || n.is_u64() => n.to_string(),
            Some(Value::Null) | None => {
                missing += 1;
                continue;
            }
            Some(Value::Number(n)) => {
                return Some(format!("holds the non-integer {n} in record {i}"));
            }
            Some(other) => {
                return Some(format!(
                    "holds a {} in record {i}",
                    Kind::of(other).map_or("null", Kind::name)
                ));
            }
        };
        if let Some(&j) = seen.get(&text) {
            repeats += 1;
            example.get_or_insert_with(|| format!("{text:?} in records {j} and {i}"));
        } else {
            seen.insert(text, i);
        }
    }
    if missing > 0 {
        return Some(format!("missing or null in {missing} records"));
    }
    example.map(|e| format!("not unique: {repeats} repeats, {e}"))
}

/// The identifying field: `asked` if it qualifies, else the first qualifying top-level field
/// in order of preference (`id`, then names ending in `id`, `key` or `code`, then file order).
pub fn id_field(
    profile: &Profile,
    records: &[Record],
    asked: Option<&str>,
) -> Result<String, String> {
    if let Some(path) = asked {
        if profile.get(path).is_none() {
            let top: Vec<&str> = profile
                .fields
                .iter()
                .filter(|f| f.parent.is_none())
                .map(|f| f.path.as_str())
                .collect();
            return Err(format!(
                "--id-field '{path}': no such field (fields: {})",
                top.join(", ")
            ));
        }
        return match id_problem(records, path) {
            None => Ok(path.to_string()),
            Some(why) => Err(format!(
                "--id-field '{path}' cannot identify records: {why}"
            )),
        };
    }
    let rank = |name: &str| {
        let l = name.to_ascii_lowercase();
        if l == "id" {
            0
        } else if l.ends_with("id") {
            1
        } else if l.ends_with("key") || l.ends_with("code") {
            2
        } else {
            3
        }
    };
    let mut candidates: Vec<&Field> = profile
        .fields
        .iter()
        .filter(|f| f.parent.is_none() && matches!(f.kind, Some(Kind::Text | Kind::Number)))
        .collect();
    candidates.sort_by_key(|f| rank(&f.path));
    let mut near = Vec::new();
    for f in &candidates {
        match id_problem(records, &f.path) {
            None => return Ok(f.path.clone()),
            Some(why) => near.push(format!("{} ({why})", f.path)),
        }
    }
    Err(format!(
        "no usable identifier: no top-level string or integer field is set in every record with \
         a unique value; pass --id-field FIELD (candidates: {})",
        if near.is_empty() {
            "none".to_string()
        } else {
            near.into_iter().take(5).collect::<Vec<_>>().join("; ")
        }
    ))
}
