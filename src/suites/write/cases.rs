//! Write cases: a gold document and how it is given to the model. They come from the bundled
//! case file (`benchmarks/write/cases.json`), slices of the product records, the user's
//! records (`--data`) and a case file (`--cases`). A case entry without a `kind` becomes one
//! case per kind, with its facts and edits generated from the gold.

use super::{edits, schema};
use crate::UsageError;
use crate::dataset::{Dataset, Structure, Variant};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::path::Path;

/// The bundled case file: relative to the working folder, else read from the binary.
pub const BUNDLED: &str = "benchmarks/write/cases.json";

/// How the gold document is given to the model.
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
pub enum Kind {
    /// Its facts as a neutral bullet list; the model writes the document.
    Compose,
    /// The document in one fixed input format; the model rewrites it.
    Transcode,
    /// The document in the output format plus edits in words; the model returns it edited.
    Edit,
}

impl Kind {
    /// Every kind, in report order.
    pub const ALL: [Kind; 3] = [Kind::Compose, Kind::Transcode, Kind::Edit];

    /// Name in JSONL, SQL and item ids.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Compose => "compose",
            Kind::Transcode => "transcode",
            Kind::Edit => "edit",
        }
    }
}

/// One case: what the model is asked to write and the document it must produce.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Case {
    /// Unique id (the kind is part of the item id, not of this).
    pub id: String,
    /// How the document is given.
    pub kind: Kind,
    /// Where the case came from: `bundled`, `product`, `data:<file>` or `cases:<file>`.
    pub origin: String,
    /// The document the reply must equal.
    pub gold: Value,
    /// JSON Schema of the gold: the field names and types the prompt states, the types of
    /// untyped cells, which fields may be null or missing, and the structured-output schema.
    pub schema: Value,
    /// `compose`: the facts in words (generated from the gold when the file gives none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    /// `edit`: the document before the edits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Value>,
    /// `edit`: the edits in words.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edits: Vec<String>,
    /// Whether the order of records matters (lists of scalars always keep their order).
    #[serde(default)]
    pub ordered: bool,
}

impl Case {
    /// The item id of this case in the run log: `<kind>:<id>`.
    pub fn item(&self) -> String {
        format!("{}:{}", self.kind.name(), self.id)
    }

    /// Flat when the gold is (or holds under one key) flat records, else nested.
    pub fn structure(&self) -> Structure {
        crate::formats::structure_of(&self.gold)
    }

    /// `optional` when the schema lets some field be null or missing.
    pub fn variant(&self) -> Variant {
        if schema::has_nullable(&self.schema) {
            Variant::Optional
        } else {
            Variant::Mandatory
        }
    }

    /// Records in the gold: the length of its array of records, else 1.
    pub fn records(&self) -> usize {
        crate::formats::records("write", &self.gold).map_or(1, |r| r.items.len())
    }
}

/// A case as a case file writes it; `kind` omitted means every kind.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    id: String,
    #[serde(default)]
    kind: Option<Kind>,
    gold: Value,
    #[serde(default)]
    schema: Option<Value>,
    #[serde(default)]
    instructions: Option<String>,
    #[serde(default)]
    source: Option<Value>,
    #[serde(default)]
    edits: Vec<String>,
    #[serde(default)]
    ordered: bool,
}

/// A case file: `{"cases": [...]}` or a bare array of cases.
#[derive(Deserialize)]
#[serde(untagged)]
enum File {
    Wrapped { cases: Vec<Entry> },
    Bare(Vec<Entry>),
}

/// The cases of a case file, read from disk or (for the bundled path) the binary.
pub fn load(path: &Path, origin: &str) -> Result<Vec<Case>, UsageError> {
    let text = crate::bundle::read_to_string(path)
        .map_err(|e| UsageError::new(format!("cannot read case file '{}': {e}", path.display())))?;
    let file: File = serde_json::from_str(&text)
        .map_err(|e| UsageError::new(format!("{}: not a case file: {e}", path.display())))?;
    let entries = match file {
        File::Wrapped { cases } | File::Bare(cases) => cases,
    };
    let mut out = Vec::new();
    for e in entries {
        let id = e.id.clone();
        out.extend(
            expand(e, origin).map_err(|why| {
                UsageError::new(format!("{}: case '{id}': {why}", path.display()))
            })?,
        );
    }
    check_unique(&out)?;
    Ok(out)
}

/// One entry as its cases: the kind it names, or every kind.
fn expand(e: Entry, origin: &str) -> Result<Vec<Case>, String> {
    let schema = match e.schema {
        Some(s) => {
            schema::check(&s, &e.gold)?;
            s
        }
        None => schema::infer(&e.gold),
    };
    let base = Case {
        id: e.id,
        kind: Kind::Compose,
        origin: origin.to_string(),
        gold: e.gold,
        schema,
        instructions: None,
        source: None,
        edits: Vec::new(),
        ordered: e.ordered,
    };
    let kinds = match e.kind {
        Some(k) => vec![k],
        None => Kind::ALL.to_vec(),
    };
    let mut out = Vec::new();
    for kind in kinds {
        let mut c = Case {
            kind,
            ..base.clone()
        };
        match kind {
            Kind::Compose => c.instructions = e.instructions.clone(),
            Kind::Transcode => {}
            Kind::Edit => match &e.source {
                Some(src) if e.edits.is_empty() => {
                    return Err("an edit case with a `source` needs its `edits` in words".into());
                }
                Some(src) => {
                    c.source = Some(src.clone());
                    c.edits = e.edits.clone();
                }
                None if !e.edits.is_empty() => {
                    return Err("`edits` need the `source` document they apply to".into());
                }
                None => {
                    // The gold is the document before; the edits make the new gold.
                    let (after, words) = edits::generate(&c.gold);
                    c.source = Some(c.gold.clone());
                    c.schema = schema::infer(&after);
                    c.gold = after;
                    c.edits = words;
                }
            },
        }
        out.push(c);
    }
    Ok(out)
}

/// Refuses two cases with the same kind and id: results are keyed by them.
pub fn check_unique(cases: &[Case]) -> Result<(), UsageError> {
    let mut seen = std::collections::HashSet::new();
    for c in cases {
        if !seen.insert(c.item()) {
            return Err(UsageError::new(format!(
                "two write cases are named '{}' ({}); case ids must be unique per kind",
                c.item(),
                c.origin
            )));
        }
    }
    Ok(())
}

/// Every kind of case over one document of records: the gold is the document; edits are
/// generated.
pub fn from_document(id: String, doc: Value, origin: &str) -> Vec<Case> {
    let e = Entry {
        id,
        kind: None,
        gold: doc,
        schema: None,
        instructions: None,
        source: None,
        edits: Vec::new(),
        ordered: false,
    };
    expand(e, origin).expect("a generated case has no source of its own")
}

/// Cases over slices of the product records: every size in `sizes`, structure and variant.
pub fn product(
    sizes: &[u32],
    structures: &[Structure],
    variants: &[Variant],
    seed: u64,
) -> Vec<Case> {
    let mut out = Vec::new();
    for &n in sizes {
        let slice: Dataset = crate::dataset::generate(n, seed);
        for &s in structures {
            for &v in variants {
                let id = format!("products-{s}-{v}-{n}");
                out.extend(from_document(id, slice.document(v, s), "product"));
            }
        }
    }
    out
}

/// Cases over the first 3, 10 and 31 of the user's records (fewer when the file has fewer).
pub fn from_records(
    name: &str,
    root: &str,
    records: &[Map<String, Value>],
    file: &Path,
) -> Vec<Case> {
    let mut sizes: Vec<usize> = [3, 10, 31].iter().map(|&n| n.min(records.len())).collect();
    sizes.dedup();
    let origin = format!("data:{}", file.display());
    let mut out = Vec::new();
    for n in sizes.into_iter().filter(|&n| n > 0) {
        let mut doc = Map::new();
        doc.insert(
            root.to_string(),
            Value::Array(records[..n].iter().cloned().map(Value::Object).collect()),
        );
        out.extend(from_document(
            format!("{name}-{n}"),
            Value::Object(doc),
            &origin,
        ));
    }
    out
}
