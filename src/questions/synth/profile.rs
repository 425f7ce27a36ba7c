//! What the questions can ask about: every field path of the records (nested objects walked,
//! lists not), its JSON type, how often it is set, its values; and how a question names one
//! record ([`Identifier`]).

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
    /// Each JSON type the field holds with the first record holding it, when more than one
    /// (empty for a field of one type). Scalars of several types make the field text.
    pub mixed: Vec<(Kind, usize)>,
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

    /// One line per field of several types: the types with one record of each (counting
    /// from 1), and what is asked about it.
    pub fn mixed_notices(&self) -> Vec<String> {
        self.fields
            .iter()
            .filter(|f| !f.mixed.is_empty())
            .map(|f| {
                let seen: Vec<String> = f
                    .mixed
                    .iter()
                    .map(|(k, r)| format!("{} in record {}", k.name(), r + 1))
                    .collect();
                let what = if f.kind.is_some() {
                    "asked about as text (values compared as text); numeric questions (sums, \
                     averages, ranges) skip it"
                } else {
                    "not asked about (objects or lists in some records, other values in others)"
                };
                format!(
                    "field '{}' mixes types: {}: {what}",
                    f.path,
                    seen.join(", ")
                )
            })
            .collect()
    }
}

/// Where each type of a field was first seen, to name a mixed field's records.
type FirstSeen = HashMap<String, Vec<(Kind, usize)>>;

/// Profiles `records`. A field holding scalars of several types (a number here, a string
/// there) is profiled as text, its values compared as text as typeless formats render them
/// anyway; one holding objects or lists in some records and other types in others has no
/// type (`kind` `None`) and is not asked about. [`Profile::mixed_notices`] names both.
pub fn profile(records: &[Record]) -> Profile {
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
        w.object(r, None, false);
    }
    for f in &mut fields {
        f.seen_in = objects.get(&f.parent).copied().unwrap_or(0);
        // Numbers and plain decimal text (`20` beside `20.50`, kept as written) are numbers.
        let as_numbers = first
            .get(&f.path)
            .is_some_and(|seen| seen.len() > 1 && numbers_as_text(records, &f.path, seen));
        if as_numbers {
            f.numbers = numbers_of(records, &f.path);
            f.kind = Some(Kind::Number);
            first.remove(&f.path);
        }
        if let Some(seen) = first.get(&f.path).filter(|s| s.len() > 1) {
            f.mixed = seen.clone();
            f.kind = seen
                .iter()
                .all(|(k, _)| matches!(k, Kind::Number | Kind::Text | Kind::Bool))
                .then_some(Kind::Text);
            // Counted as text, so a number 7 and a string "7" are one value, and no number
            // list feeds the numeric questions.
            f.numbers.clear();
        }
    }
    Profile {
        fields,
        records: records.len(),
    }
}

/// Whether a field of numbers and strings holds only plain decimal text in its strings: a
/// user's numbers, some kept as written (`dataset::written`).
fn numbers_as_text(records: &[Record], path: &str, seen: &[(Kind, usize)]) -> bool {
    let kinds: Vec<Kind> = seen.iter().map(|(k, _)| *k).collect();
    kinds.len() == 2
        && kinds.contains(&Kind::Number)
        && kinds.contains(&Kind::Text)
        && records
            .iter()
            .filter_map(|r| crate::questions::query::field(r, path))
            .all(|v| match v {
                // Past 15 digits a float drops some: such a field stays text, so no sum or
                // maximum prints a user's 20-digit integer as `9.876543210987654e+19`.
                Value::String(s) => {
                    crate::questions::query::decimal_text(s)
                        && s.trim_start_matches(['-', '0']).replace('.', "").len() <= 15
                }
                Value::Number(n) => n.as_i64().is_none_or(|i| i.unsigned_abs() < 1 << 53),
                _ => true,
            })
}

/// Every number of the field at `path`, decimal text read as its number.
fn numbers_of(records: &[Record], path: &str) -> Vec<f64> {
    records
        .iter()
        .filter_map(|r| crate::questions::query::field(r, path))
        .filter_map(crate::questions::query::number)
        .collect()
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
    fn object(&mut self, obj: &serde_json::Map<String, Value>, parent: Option<&str>, dotted: bool) {
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
                    mixed: Vec::new(),
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
                self.object(o, Some(&path), dotted || k.contains('.'));
            }
        }
    }
}

/// How a question names one record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Identifier {
    /// One top-level field, set in every record with a unique value.
    Field(String),
    /// Two or three top-level fields whose values together are unique.
    Fields(Vec<String>),
    /// No key: the record's position, counting from 1, in the order given.
    Position,
}

impl Identifier {
    /// The key fields (none for a position).
    pub fn fields(&self) -> &[String] {
        match self {
            Identifier::Field(f) => std::slice::from_ref(f),
            Identifier::Fields(fs) => fs,
            Identifier::Position => &[],
        }
    }

    /// Whether `path` is one of the key fields, which questions do not ask about.
    pub fn is_key(&self, path: &str) -> bool {
        self.fields().iter().any(|f| f == path)
    }

    /// The key fields as the run log records them: `id`, `origin,time_hour`, or empty.
    pub fn field_list(&self) -> String {
        self.fields().join(",")
    }

    /// What kind of identifier it is, as the run log records it.
    pub fn by(&self) -> &'static str {
        match self {
            Identifier::Field(_) => "field",
            Identifier::Fields(_) => "fields",
            Identifier::Position => "position",
        }
    }

    /// How it reads on screen: "`id`", "`origin` + `time_hour`", or the position rule.
    pub fn describe(&self) -> String {
        match self {
            Identifier::Position => {
                "position (no field or combination of up to 3 fields is unique: \"record number N, \
                 counting from 1\")"
                    .into()
            }
            _ => self
                .fields()
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(" + "),
        }
    }
}

/// A key value as questions compare it (text), or why it cannot be one.
fn key_text(v: Option<&Value>) -> Result<String, String> {
    match v {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => Ok(n.to_string()),
        Some(Value::Null) | None => Err("missing or null".into()),
        Some(Value::Number(n)) => Err(format!("holds the non-integer {n}")),
        Some(other) => Err(format!(
            "holds a {}",
            Kind::of(other).map_or("null", Kind::name)
        )),
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
        let text = match key_text(crate::questions::query::field(r, path)) {
            Ok(t) => t,
            Err(why) if why == "missing or null" => {
                missing += 1;
                continue;
            }
            Err(why) => return Some(format!("{why} in record {i}")),
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

/// Preference of a field as a key, lower first: names that say so (`id`, then names ending in
/// `id`, then in `key` or `code`), then text (names, codes, dates), then numbers named as a
/// time (`year`, `hour`), then other numbers. Those are measurements (a population, a delay):
/// a key is never asked about, and filtering and aggregation questions need them.
fn rank(f: &Field) -> u8 {
    let l = f.path.to_ascii_lowercase();
    if l == "id" {
        0
    } else if l.ends_with("id") {
        1
    } else if l.ends_with("key") || l.ends_with("code") {
        2
    } else if f.kind == Some(Kind::Text) {
        3
    } else if timely(&l) {
        4
    } else {
        MEASUREMENT
    }
}

/// [`rank`] of a number that is neither named as a key nor as a time.
const MEASUREMENT: u8 = 5;

/// Whether a (lowercase) name's last word names a point or unit of time: `year`,
/// `fiscal_year`, `hour`, `date`, `week`.
fn timely(name: &str) -> bool {
    const TIME: [&str; 13] = [
        "year",
        "yr",
        "quarter",
        "month",
        "week",
        "day",
        "date",
        "hour",
        "minute",
        "time",
        "timestamp",
        "period",
        "season",
    ];
    let last = name
        .rsplit(|c: char| !c.is_ascii_alphanumeric())
        .next()
        .unwrap_or(name);
    TIME.contains(&last)
}

/// Fields tried in a composite key, at most: 12 fields make 286 combinations of three.
const COMPOSITE_CANDIDATES: usize = 12;

/// Whether the values of `fields` together are unique over `keys` (one text per field per
/// record).
fn unique_together(keys: &[Vec<String>], fields: &[usize]) -> bool {
    let n = keys.first().map_or(0, Vec::len);
    let mut seen = std::collections::HashSet::with_capacity(n);
    (0..n).all(|i| {
        seen.insert(
            fields
                .iter()
                .map(|&f| keys[f][i].as_str())
                .collect::<Vec<_>>(),
        )
    })
}

/// The smallest combination of two or three top-level fields of [`rank`] up to `max_rank`, each
/// set in every record with a string or integer value, whose values together are unique; among
/// equals, the one whose fields come first by preference, then file order.
fn composite(profile: &Profile, records: &[Record], max_rank: u8) -> Option<Vec<String>> {
    let mut fields: Vec<&Field> = profile
        .fields
        .iter()
        .filter(|f| f.parent.is_none() && matches!(f.kind, Some(Kind::Text | Kind::Number)))
        .filter(|f| f.mixed.is_empty() && f.words < 8 && rank(f) <= max_rank)
        .collect();
    fields.sort_by_key(|f| rank(f));
    let mut names = Vec::new();
    let mut keys: Vec<Vec<String>> = Vec::new();
    for f in fields {
        let texts: Result<Vec<String>, String> = records
            .iter()
            .map(|r| key_text(crate::questions::query::field(r, &f.path)))
            .collect();
        // A field with one value everywhere never tells records apart.
        if let Some(t) = texts.ok().filter(|t| t.iter().any(|x| *x != t[0])) {
            names.push(f.path.clone());
            keys.push(t);
        }
        if names.len() == COMPOSITE_CANDIDATES {
            break;
        }
    }
    let n = names.len();
    let pairs = (0..n).flat_map(|a| (a + 1..n).map(move |b| vec![a, b]));
    let triples =
        (0..n).flat_map(|a| (a + 1..n).flat_map(move |b| (b + 1..n).map(move |c| vec![a, b, c])));
    // Pairs before triples; within each, lexicographic order of preference positions.
    pairs
        .chain(triples)
        .find(|combo| unique_together(&keys, combo))
        .map(|combo| combo.into_iter().map(|i| names[i].clone()).collect())
}

/// How questions name a record: `asked` (`--id-field`, one field or a comma list) if it
/// qualifies; else the smallest key that looks like one (a single field, then two or three
/// together, of fields named as keys, text, or numbers named as a time; see [`rank`]); else a
/// single unique measurement; else the smallest unique combination of up to three fields of
/// any kind; else the record's position. Within each step, fields go by preference, then file
/// order.
pub fn identify(
    profile: &Profile,
    records: &[Record],
    asked: Option<&str>,
) -> Result<Identifier, String> {
    if let Some(list) = asked {
        return asked_identifier(profile, records, list);
    }
    let mut candidates: Vec<&Field> = profile
        .fields
        .iter()
        .filter(|f| f.parent.is_none() && matches!(f.kind, Some(Kind::Text | Kind::Number)))
        .filter(|f| f.mixed.is_empty())
        .collect();
    candidates.sort_by_key(|f| rank(f));
    let unique = |measurement: bool| {
        candidates
            .iter()
            .filter(|f| (rank(f) == MEASUREMENT) == measurement)
            .find(|f| id_problem(records, &f.path).is_none())
            .map(|f| Identifier::Field(f.path.clone()))
    };
    Ok(unique(false)
        .or_else(|| composite(profile, records, MEASUREMENT - 1).map(Identifier::Fields))
        .or_else(|| unique(true))
        .or_else(|| composite(profile, records, MEASUREMENT).map(Identifier::Fields))
        .unwrap_or(Identifier::Position))
}

/// `--id-field`: one field or a comma list of up to three, unique (together) in every record.
fn asked_identifier(
    profile: &Profile,
    records: &[Record],
    list: &str,
) -> Result<Identifier, String> {
    let names: Vec<String> = list.split(',').map(|s| s.trim().to_string()).collect();
    if names.iter().any(String::is_empty) || names.len() > 3 {
        return Err(format!(
            "--id-field '{list}': give one field or a comma list of up to three"
        ));
    }
    for path in &names {
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
    }
    if let [one] = names.as_slice() {
        return match id_problem(records, one) {
            None => Ok(Identifier::Field(one.clone())),
            Some(why) => Err(format!("--id-field '{one}' cannot identify records: {why}")),
        };
    }
    let mut keys = Vec::new();
    for path in &names {
        let texts: Result<Vec<String>, String> = records
            .iter()
            .enumerate()
            .map(|(i, r)| {
                key_text(crate::questions::query::field(r, path))
                    .map_err(|why| format!("'{path}' {why} in record {i}"))
            })
            .collect();
        keys.push(texts.map_err(|e| format!("--id-field '{list}' cannot identify records: {e}"))?);
    }
    let all: Vec<usize> = (0..names.len()).collect();
    if !unique_together(&keys, &all) {
        return Err(format!(
            "--id-field '{list}' cannot identify records: two records share the same values of \
             all {} fields",
            names.len()
        ));
    }
    Ok(Identifier::Fields(names))
}
