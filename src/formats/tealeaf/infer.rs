//! Which `@struct`s a document gets: tealeaf-core's `SchemaInferrer` (lib.rs:1112-1548), same
//! structs in the same order with the same field types, but for deviation 3 of the module doc.

use super::schema::{FieldType, Schema, Schemas, keys_match, needs_quoting, singularize};
use serde_json::{Map, Value};

/// The structs for a document's root entries (lib.rs:1126-1130).
pub(super) fn schemas(entries: &[(&str, &Value)]) -> Schemas {
    let mut inferrer = Schemas::default();
    for (key, value) in entries {
        inferrer.value(key, value);
    }
    inferrer
}

/// The survey of a list of flat records (every value a scalar), added to chunk by chunk: all
/// that [`schemas`] uses of such a list, so its struct comes out as for the whole list.
#[derive(Default)]
pub(super) struct FlatSurvey {
    /// The records so far.
    survey: Survey,
    /// Some value is a list or an object: the survey no longer says what `schemas` does.
    nested: bool,
}

impl FlatSurvey {
    /// Adds the records of a chunk, in order.
    pub(super) fn add(&mut self, records: &[Value]) {
        for r in records {
            let Some(o) = r.as_object() else {
                self.nested = true;
                return;
            };
            self.nested |= o.values().any(|v| v.is_array() || v.is_object());
            self.survey.add(o);
        }
    }

    /// The structs of `{hint: records}` for all the records added, as [`schemas`] gives them;
    /// `None` when some record is not flat.
    pub(super) fn schemas(&self, hint: &str) -> Option<Schemas> {
        if self.nested {
            return None;
        }
        let Survey { stats, objects, .. } = &self.survey;
        let order = self.survey.order();
        let mut out = Schemas::default();
        let name = singularize(hint);
        if *objects == 0 || needs_quoting(hint) || unfit(&name, stats, &order, *objects) {
            return Some(out);
        }
        let fields = order
            .into_iter()
            .map(|key| {
                let s = stats.iter().find(|s| s.name == key).expect("surveyed");
                let ty = declared(s, *objects, &out);
                (key, ty)
            })
            .collect();
        out.insert(Schema { name, fields });
        Some(out)
    }
}

/// A value's type as inference sees it (lib.rs:950-1063).
#[derive(Debug, Clone, PartialEq)]
enum Inferred {
    Null,
    Bool,
    Int,
    Float,
    Str,
    Array(Box<Inferred>),
    Object(Vec<(String, Inferred)>),
    Mixed,
}

impl Inferred {
    fn of(v: &Value) -> Self {
        match v {
            Value::Null => Self::Null,
            Value::Bool(_) => Self::Bool,
            Value::Number(n) if n.is_f64() => Self::Float,
            Value::Number(_) => Self::Int,
            Value::String(_) => Self::Str,
            Value::Array(items) => Self::Array(Box::new(
                items
                    .iter()
                    .map(Self::of)
                    .reduce(|a, b| a.merge(&b))
                    .unwrap_or(Self::Mixed),
            )),
            Value::Object(o) => {
                Self::Object(o.iter().map(|(k, v)| (k.clone(), Self::of(v))).collect())
            }
        }
    }

    /// Null gives way, int widens to float, objects keep their common keys (lib.rs:962-998).
    fn merge(&self, other: &Self) -> Self {
        match (self, other) {
            (a, b) if a == b => a.clone(),
            (Self::Null, t) | (t, Self::Null) => t.clone(),
            (Self::Int, Self::Float) | (Self::Float, Self::Int) => Self::Float,
            (Self::Array(a), Self::Array(b)) => Self::Array(Box::new(a.merge(b))),
            (Self::Object(a), Self::Object(b)) => {
                let common: Vec<_> = a
                    .iter()
                    .filter_map(|(k, t)| {
                        let (_, u) = b.iter().find(|(j, _)| j == k)?;
                        Some((k.clone(), t.merge(u)))
                    })
                    .collect();
                if common.is_empty() {
                    Self::Mixed
                } else {
                    Self::Object(common)
                }
            }
            _ => Self::Mixed,
        }
    }

    /// The declared type: an object is the first struct its keys fit, else `any`; a list takes
    /// its element's type, nested lists collapse to one `[]` (lib.rs:1001-1032).
    fn field_type(&self, schemas: &Schemas) -> FieldType {
        match self {
            Self::Null => FieldType {
                nullable: true,
                ..FieldType::new("string")
            },
            Self::Bool => FieldType::new("bool"),
            Self::Int => FieldType::new("int"),
            Self::Float => FieldType::new("float"),
            Self::Str => FieldType::new("string"),
            Self::Array(inner) => FieldType {
                is_array: true,
                ..inner.field_type(schemas)
            },
            Self::Object(fields) => schemas
                .0
                .iter()
                .find(|s| keys_match(fields.iter().map(|(k, _)| k.as_str()), s))
                .map_or_else(|| FieldType::new("any"), |s| FieldType::new(s.name.clone())),
            Self::Mixed => FieldType::new("any"),
        }
    }
}

/// What one key looks like across a group of objects.
struct FieldStats {
    name: String,
    /// Objects holding the key.
    count: usize,
    ty: Inferred,
    /// Some object holds it as `null`.
    null: bool,
}

/// What a group of objects looks like, object by object (lib.rs:1151-1182).
#[derive(Default)]
struct Survey {
    /// Per key, in first-seen order.
    stats: Vec<FieldStats>,
    /// The keys of the first object with the most keys.
    widest: Vec<String>,
    /// Objects so far.
    objects: usize,
}

impl Survey {
    /// Adds the next object.
    fn add(&mut self, o: &Map<String, Value>) {
        for (k, v) in o {
            let ty = Inferred::of(v);
            match self.stats.iter_mut().find(|s| s.name == *k) {
                Some(s) => {
                    s.count += 1;
                    s.ty = s.ty.merge(&ty);
                    s.null |= v.is_null();
                }
                None => self.stats.push(FieldStats {
                    name: k.clone(),
                    count: 1,
                    ty,
                    null: v.is_null(),
                }),
            }
        }
        if self.objects == 0 || o.len() > self.widest.len() {
            self.widest = o.keys().cloned().collect();
        }
        self.objects += 1;
    }

    /// The field order of the struct: the first object with the most keys, then the others'
    /// keys.
    fn order(&self) -> Vec<String> {
        let mut order = self.widest.clone();
        for s in &self.stats {
            if !order.contains(&s.name) {
                order.push(s.name.clone());
            }
        }
        order
    }
}

/// Fields of a group of objects: the stats in first-seen order, and the field order of the
/// struct (see [`Survey`]).
fn survey(objects: &[&Map<String, Value>]) -> (Vec<FieldStats>, Vec<String>) {
    let mut s = Survey::default();
    for o in objects {
        s.add(o);
    }
    let order = s.order();
    (s.stats, order)
}

/// Whether a group of `n` objects gets no struct named `name`: no keys, an empty key, a name
/// that is no word (deviation 3: the struct name must lex as a word too, `nulls` → `null` does
/// not), or no key that every object holds.
fn unfit(name: &str, stats: &[FieldStats], order: &[String], n: usize) -> bool {
    order.is_empty()
        || order.iter().any(String::is_empty)
        || needs_quoting(name)
        || !stats.iter().any(|s| s.count == n)
}

/// The declared type of a key `s` surveys among `n` objects: nullable when some object holds
/// null there or lacks it.
fn declared(s: &FieldStats, n: usize, schemas: &Schemas) -> FieldType {
    let mut ty = s.ty.field_type(schemas);
    ty.nullable |= s.null || s.count < n;
    ty
}

/// Whether a list looks like rows of `schema`: its first item is an object holding over half
/// of the struct's fields, or all of them (lib.rs:1079-1101).
fn array_matches(items: &[Value], schema: &Schema) -> bool {
    let Some(Value::Object(first)) = items.first() else {
        return false;
    };
    let overlap = schema
        .fields
        .iter()
        .filter(|(n, _)| first.contains_key(n))
        .count();
    overlap > schema.fields.len() / 2 || overlap == schema.fields.len()
}

/// The first value of `key` among `objects`, null included (lib.rs:1243-1249).
fn representative<'a>(objects: &[&'a Map<String, Value>], key: &str) -> Option<&'a Value> {
    objects.iter().find_map(|o| o.get(key))
}

/// The first list value of `key` among `objects` (lib.rs:1323-1333).
fn first_list<'a>(objects: &[&'a Map<String, Value>], key: &str) -> Option<&'a [Value]> {
    objects
        .iter()
        .find_map(|o| o.get(key).and_then(Value::as_array))
        .map(Vec::as_slice)
}

/// Every item of every list value of `key`, in order (lib.rs:1255-1266).
fn list_items<'a>(objects: &[&'a Map<String, Value>], key: &str) -> Vec<&'a Value> {
    objects
        .iter()
        .filter_map(|o| o.get(key).and_then(Value::as_array))
        .flatten()
        .collect()
}

/// Every object value of `key`, in order (lib.rs:1279-1290).
fn object_values<'a>(objects: &[&'a Map<String, Value>], key: &str) -> Vec<&'a Map<String, Value>> {
    objects
        .iter()
        .filter_map(|o| o.get(key).and_then(Value::as_object))
        .collect()
}

impl Schemas {
    /// Root entries and object members are searched for lists of objects (lib.rs:1132-1141).
    fn value(&mut self, hint: &str, value: &Value) {
        match value {
            Value::Array(items) => self.array(hint, &items.iter().collect::<Vec<_>>()),
            Value::Object(o) => {
                for (k, v) in o {
                    self.value(k, v);
                }
            }
            _ => {}
        }
    }

    /// A list of objects sharing a key gets a struct named after `hint`, nested structs first;
    /// the first list of a name wins (lib.rs:1143-1367).
    fn array(&mut self, hint: &str, items: &[&Value]) {
        let Some(objects) = items
            .iter()
            .map(|v| v.as_object())
            .collect::<Option<Vec<_>>>()
        else {
            return;
        };
        if objects.is_empty() {
            return;
        }
        let (stats, order) = survey(&objects);
        let name = singularize(hint);
        if needs_quoting(hint)
            || unfit(&name, &stats, &order, objects.len())
            || self.get(&name).is_some()
        {
            return;
        }
        for key in &order {
            match representative(&objects, key) {
                Some(Value::Array(_)) => {
                    let nested = list_items(&objects, key);
                    if !nested.is_empty() {
                        self.array(key, &nested);
                    }
                }
                // A field named like this struct would make it contain itself (lib.rs:1272-1277).
                Some(Value::Object(_)) if singularize(key) != name => {
                    let nested = object_values(&objects, key);
                    self.objects(key, &nested);
                }
                _ => {}
            }
        }
        // A nested list of the same name may have taken the name meanwhile (lib.rs:1299-1306).
        if self.get(&name).is_some() {
            return;
        }
        let mut fields = Vec::with_capacity(order.len());
        for key in order {
            let s = stats.iter().find(|s| s.name == key).expect("surveyed");
            let mut ty = declared(s, objects.len(), self);
            let singular = singularize(&key);
            if let (Some(list), Some(nested)) = (first_list(&objects, &key), self.get(&singular))
                && array_matches(list, nested)
            {
                ty = FieldType {
                    base: singular.clone(),
                    nullable: ty.nullable,
                    is_array: true,
                };
            }
            if singular != name
                && self.get(&singular).is_some()
                && matches!(s.ty, Inferred::Object(_))
            {
                ty = FieldType {
                    base: singular,
                    nullable: ty.nullable,
                    is_array: false,
                };
            }
            fields.push((key, ty));
        }
        self.insert(Schema { name, fields });
    }

    /// The objects one key holds across records get a struct named after the key, if they
    /// share a key; unlike lists, a later struct of the same name replaces an earlier one
    /// made while recursing (lib.rs:1372-1543).
    fn objects(&mut self, key: &str, objects: &[&Map<String, Value>]) {
        if objects.is_empty() {
            return;
        }
        let (stats, order) = survey(objects);
        let name = singularize(key);
        if unfit(&name, &stats, &order, objects.len()) || self.get(&name).is_some() {
            return;
        }
        for field in &order {
            match representative(objects, field) {
                Some(Value::Array(_)) => {
                    let nested = list_items(objects, field);
                    if !nested.is_empty() {
                        self.array(field, &nested);
                    }
                }
                Some(Value::Object(_)) => {
                    let nested = object_values(objects, field);
                    self.objects(field, &nested);
                }
                _ => {}
            }
        }
        let mut fields = Vec::with_capacity(order.len());
        for field in order {
            let s = stats.iter().find(|s| s.name == field).expect("surveyed");
            let mut ty = declared(s, objects.len(), self);
            let singular = singularize(&field);
            if matches!(s.ty, Inferred::Array(_))
                && let (Some(list), Some(nested)) =
                    (first_list(objects, &field), self.get(&singular))
                && array_matches(list, nested)
            {
                ty = FieldType {
                    base: singular.clone(),
                    nullable: ty.nullable,
                    is_array: true,
                };
            }
            // Not nullable even when absent from some objects (lib.rs:1530-1535): those objects
            // do not fit a tuple and are written `{k:v}` (deviation 1).
            if matches!(s.ty, Inferred::Object(_)) && self.get(&singular).is_some() {
                ty = FieldType::new(singular);
            }
            fields.push((field, ty));
        }
        self.insert(Schema { name, fields });
    }
}
