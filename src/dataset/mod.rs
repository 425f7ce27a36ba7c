//! The seeded product dataset: base records, the `mandatory`/`optional` variants and the
//! `flat`/`nested` structures. Pure and deterministic: the same seed gives the same values.

mod generate;
pub mod schema;
mod textcheck;
pub mod user;
pub mod written;

pub use generate::generate;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;

/// One product as logical field name → value (flat, in schema order).
pub type Record = Map<String, Value>;

/// Smallest and largest record counts `--records` accepts.
pub const RECORDS_RANGE: std::ops::RangeInclusive<u32> = 1..=100_000;

/// Default record count of the `formats` suite.
pub const DEFAULT_RECORDS: u32 = 31;

/// Default RNG seed.
pub const DEFAULT_SEED: u64 = 42;

/// Whether optional fields are always set or randomly null.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Every field set.
    Mandatory,
    /// The 3 optional fields randomly null.
    Optional,
}

/// Whether fields are all top-level scalars or grouped into sub-objects.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "snake_case")]
pub enum Structure {
    /// All scalars at the top level of each record.
    Flat,
    /// Fields grouped into sub-objects, with chains of single-key objects.
    Nested,
}

impl Variant {
    /// Both variants in canonical order.
    pub const ALL: [Variant; 2] = [Variant::Mandatory, Variant::Optional];
    /// Name used in file names, CLI and JSONL.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Mandatory => "mandatory",
            Variant::Optional => "optional",
        }
    }
}

impl Structure {
    /// Both structures in canonical order.
    pub const ALL: [Structure; 2] = [Structure::Flat, Structure::Nested];
    /// Name used in file names, CLI and JSONL.
    pub fn name(self) -> &'static str {
        match self {
            Structure::Flat => "flat",
            Structure::Nested => "nested",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Structure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The generated data: base records, and which optional fields the `optional` variant nulls.
/// The optional variant is derived on demand, so large datasets are held in memory once.
#[derive(Debug, Clone)]
pub struct Dataset {
    /// Seed the records were generated from.
    pub seed: u64,
    /// Records with every field set (the `mandatory` variant).
    pub mandatory: Vec<Record>,
    /// Per record, bit i set = the i-th optional field (schema order) is null in `optional`.
    null_masks: Vec<u8>,
}

/// A seeded permutation of `0..n` (`--shuffle`): where each record of the new order comes from.
pub fn shuffled_order(n: usize, seed: u64) -> Vec<usize> {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    let mut order: Vec<usize> = (0..n).collect();
    order.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
    order
}

impl Dataset {
    /// The same records in the order a seeded shuffle gives (`--shuffle`: one order per run,
    /// the same for every format, so pairs stay paired).
    pub fn shuffled(&self, seed: u64) -> Dataset {
        let order = shuffled_order(self.len(), seed);
        Dataset {
            seed: self.seed,
            mandatory: order.iter().map(|&i| self.mandatory[i].clone()).collect(),
            null_masks: order.iter().map(|&i| self.null_masks[i]).collect(),
        }
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.mandatory.len()
    }

    /// Whether there are no records.
    pub fn is_empty(&self) -> bool {
        self.mandatory.is_empty()
    }

    /// Record `i` of one variant.
    fn record(&self, i: usize, variant: Variant) -> Record {
        let mut r = self.mandatory[i].clone();
        if variant == Variant::Optional {
            for (bit, field) in schema::FIELDS.iter().filter(|f| f.optional).enumerate() {
                if self.null_masks[i] & (1 << bit) != 0 {
                    r.insert(field.name.to_string(), Value::Null);
                }
            }
        }
        r
    }

    /// Records of one variant.
    pub fn records(&self, variant: Variant) -> Cow<'_, [Record]> {
        match variant {
            Variant::Mandatory => Cow::Borrowed(&self.mandatory),
            Variant::Optional => {
                Cow::Owned((0..self.len()).map(|i| self.record(i, variant)).collect())
            }
        }
    }

    /// The root document `{"products": [...]}` of one variant in one structure.
    pub fn document(&self, variant: Variant, structure: Structure) -> Value {
        let products = (0..self.len())
            .map(|i| {
                let r = self.record(i, variant);
                match structure {
                    Structure::Flat => Value::Object(r),
                    Structure::Nested => nest(&r),
                }
            })
            .collect();
        let mut root = Map::new();
        root.insert("products".into(), Value::Array(products));
        Value::Object(root)
    }
}

/// Groups a flat record into the nested shape given by each field's path.
pub fn nest(record: &Record) -> Value {
    let mut root = Map::new();
    for field in &schema::FIELDS {
        let value = record.get(field.name).cloned().unwrap_or(Value::Null);
        let (last, parents) = field.nested.split_last().expect("paths are non-empty");
        let mut obj = &mut root;
        for key in parents {
            obj = obj
                .entry(key.to_string())
                .or_insert_with(|| Value::Object(Map::new()))
                .as_object_mut()
                .expect("schema paths never collide with scalars");
        }
        obj.insert(last.to_string(), value);
    }
    Value::Object(root)
}

/// Why a decoded document could not be read back as product records.
#[derive(Debug, thiserror::Error)]
pub enum ShapeError {
    /// The root is neither `{"products": [...]}` nor an array of products.
    #[error("expected a root object with a \"products\" array, or an array of products")]
    NoProducts,
    /// A record lacks a field in both the flat and the nested shape.
    #[error("product {index}: field '{field}' is missing")]
    MissingField {
        /// 0-based record index.
        index: usize,
        /// Logical field name.
        field: &'static str,
    },
    /// A product is not an object.
    #[error("product {0} is not an object")]
    NotAnObject(usize),
}

/// Reads records back from a decoded document, in either structure, as logical fields. A bare
/// array is what tabular formats decode to (they carry no root key).
pub fn records_from_document(doc: &Value) -> Result<Vec<Record>, ShapeError> {
    let products = doc
        .get("products")
        .unwrap_or(doc)
        .as_array()
        .ok_or(ShapeError::NoProducts)?;
    products
        .iter()
        .enumerate()
        .map(|(index, p)| {
            let obj = p.as_object().ok_or(ShapeError::NotAnObject(index))?;
            let mut out = Record::new();
            for field in &schema::FIELDS {
                let value = obj
                    .get(field.name)
                    .or_else(|| lookup(obj, field.nested))
                    .ok_or(ShapeError::MissingField {
                        index,
                        field: field.name,
                    })?;
                out.insert(field.name.to_string(), value.clone());
            }
            Ok(out)
        })
        .collect()
}

fn lookup<'a>(obj: &'a Map<String, Value>, path: &[&str]) -> Option<&'a Value> {
    let (first, rest) = path.split_first()?;
    let v = obj.get(*first)?;
    if rest.is_empty() {
        Some(v)
    } else {
        lookup(v.as_object()?, rest)
    }
}

/// Counts non-null leaf values (scalars) in a document.
pub fn count_values(v: &Value) -> usize {
    match v {
        Value::Null => 0,
        Value::Array(a) => a.iter().map(count_values).sum(),
        Value::Object(o) => o.values().map(count_values).sum(),
        _ => 1,
    }
}
