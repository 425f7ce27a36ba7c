//! Renderers: one file per format family behind the small [`Encoder`] trait, named by [`Format`].
//! Each encoder also decodes its own output, which is the round-trip proof and what the
//! reference provider reads.

mod csv;
mod html_table;
mod ini;
mod json;
mod jsonl;
mod kv_paths;
pub mod locate;
mod markdown_kv;
mod markdown_table;
pub mod stream;
mod tealeaf;
pub mod toon;
mod toon_v3;
mod toon_v4;
mod xml;
mod yaml;

use crate::dataset::Structure;
use serde_json::{Map, Value};
use std::fmt;

/// Renders any JSON document as text and reads it back. A format whose syntax has no form for
/// part of a document (CSV has no nesting) says so with [`FormatError::cannot_represent`].
pub trait Encoder: Sync {
    /// Renders the document.
    fn encode(&self, doc: &Value) -> Result<String, FormatError>;
    /// Parses text this encoder produced back into a document. Tabular formats carry no root
    /// key, so they give back the bare array of records (see [`Format::decode_as`]).
    fn decode(&self, text: &str) -> Result<Value, FormatError>;
    /// How the renderings of consecutive chunks of records join into the rendering of all of
    /// them (see [`stream`]); `None` when the format has no such form.
    fn splice(&self) -> Option<Splice> {
        None
    }
    /// The byte lengths of the head and the tail of `text`, the rendering of `{key: records}`:
    /// what stands before the first record and after the last. `None` when `text` does not have
    /// the form [`Encoder::splice`] describes.
    fn frame(&self, _text: &str, _key: &str) -> Option<(usize, usize)> {
        None
    }
    /// Whether a chunk's rendering needs to know all the records first (TeaLeaf's structs take
    /// their field types from every record): [`Encoder::learn`] is then called on every chunk
    /// before any is rendered.
    fn learns(&self) -> bool {
        false
    }
    /// Learns from one chunk, `{key: [records]}`, what rendering any chunk needs of all.
    fn learn(&self, _chunk: &Value, _learned: &mut Option<Learned>) {}
    /// Renders a chunk with what [`Encoder::learn`] gathered from all of them.
    fn encode_learned(&self, chunk: &Value, _learned: &Learned) -> Result<String, FormatError> {
        self.encode(chunk)
    }
}

/// What an encoder learned of all the records (see [`Encoder::learn`]), its own type inside.
pub type Learned = Box<dyn std::any::Any + Send + Sync>;

/// The columns of all the records, learned chunk by chunk by the table formats, in order and
/// as a set (a record's keys are looked up, not searched for).
#[derive(Default)]
struct Columns(Vec<String>, std::collections::HashSet<String>);

/// [`Encoder::learn`] of a table: every key of the chunk's records not seen before, in order.
pub fn learn_columns(chunk: &Value, learned: &mut Option<Learned>) {
    let learned = learned.get_or_insert_with(|| Box::new(Columns::default()));
    let (Some(Columns(columns, seen)), Ok(chunk)) =
        (learned.downcast_mut::<Columns>(), records("", chunk))
    else {
        return;
    };
    for r in &chunk.items {
        for k in r.keys() {
            if !seen.contains(k) {
                seen.insert(k.clone());
                columns.push(k.clone());
            }
        }
    }
}

/// [`flat_records`] of a chunk, with the columns [`learn_columns`] learned of all records.
pub fn flat_chunk<'a>(
    format: &'static str,
    chunk: &'a Value,
    learned: &'a Learned,
) -> Result<Records<'a>, FormatError> {
    let mut records = flat_records(format, chunk)?;
    records.all_columns = learned
        .downcast_ref::<Columns>()
        .map(|Columns(c, _)| c.as_slice());
    Ok(records)
}

/// How the text of `{key: records}` is put together from chunks of the records: the head of
/// the first chunk's rendering, each chunk's records part with `join` between them, and the
/// tail. The head must come out the same for every chunk; the stream renders the format whole
/// when it does not.
#[derive(Debug, Clone, Copy)]
pub struct Splice {
    /// Text between the records parts of two chunks.
    pub join: &'static str,
    /// The head states the record count right after the key (TOON's `key[N]`): compared with
    /// the chunk's count taken out, and written with the total.
    pub counted: bool,
    /// Records are numbered on lines of their own, `prefix N suffix` (`## Record N`): a chunk's
    /// numbers are moved on by the records before it.
    pub numbered: Option<(&'static str, &'static str)>,
}

impl Splice {
    /// Records parts joined by `join`, no count, no numbers.
    pub const fn joined(join: &'static str) -> Self {
        Self {
            join,
            counted: false,
            numbered: None,
        }
    }
}

/// The byte length of the first `n` lines of `text`, when it has that many.
pub fn lines(text: &str, n: usize) -> Option<usize> {
    let mut at = 0;
    for _ in 0..n {
        at += text[at..].find('\n')? + 1;
    }
    Some(at)
}

/// `(head.len(), tail.len())` when `text` starts with `head` and ends with `tail`, apart.
pub fn framed(text: &str, head: &str, tail: &str) -> Option<(usize, usize)> {
    (text.len() >= head.len() + tail.len() && text.starts_with(head) && text.ends_with(tail))
        .then_some((head.len(), tail.len()))
}

/// Why a format failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The document has a shape the format has no syntax for: a skip with a reason, not a bug.
    CannotRepresent,
    /// Rendering or parsing failed.
    Invalid,
}

/// A format could not render or parse a document.
#[derive(Debug, thiserror::Error)]
#[error("{format}: {}{message}", if *.kind == ErrorKind::CannotRepresent { "cannot represent: " } else { "" })]
pub struct FormatError {
    /// Format name.
    pub format: &'static str,
    /// What went wrong, with the line or path where known.
    pub message: String,
    /// Whether the document is out of the format's reach or something failed.
    pub kind: ErrorKind,
}

impl FormatError {
    /// Builds an error for `format`. The message is kept to one line (a parser's message may
    /// quote the text it stopped at, line breaks included), so every error is one line.
    pub fn new(format: &'static str, message: impl fmt::Display) -> Self {
        let message = message.to_string();
        let message = if message.contains(['\n', '\r']) {
            message.replace("\r\n", "\\n").replace(['\n', '\r'], "\\n")
        } else {
            message
        };
        Self {
            format,
            message,
            kind: ErrorKind::Invalid,
        }
    }

    /// The document has a shape `format` cannot express; `why` names the part.
    pub fn cannot_represent(format: &'static str, why: impl fmt::Display) -> Self {
        Self {
            kind: ErrorKind::CannotRepresent,
            ..Self::new(format, why)
        }
    }

    /// Whether this is a shape the format cannot express (a skip) rather than a failure.
    pub fn is_cannot_represent(&self) -> bool {
        self.kind == ErrorKind::CannotRepresent
    }
}

/// The array of records a tabular format renders: the document itself when it is an array, or
/// the array under the only key of a root object (`{"products": [...]}`), with that key.
pub struct Records<'a> {
    /// Root key the array sits under, `None` for a bare array.
    pub key: Option<&'a str>,
    /// The records, each checked to be an object.
    pub items: Vec<&'a Map<String, Value>>,
    /// The columns of all the records when these are a chunk of them (see [`learn_columns`]).
    pub all_columns: Option<&'a [String]>,
}

impl<'a> Records<'a> {
    /// Every key of any record, in first-seen order: the columns of a table, so sparse records
    /// keep every field (a missing key is an empty cell). For a chunk, those of all records.
    pub fn columns(&self) -> Vec<&'a String> {
        if let Some(all) = self.all_columns {
            return all.iter().collect();
        }
        let mut columns: Vec<&'a String> = Vec::new();
        for r in &self.items {
            for k in r.keys() {
                if !columns.contains(&k) {
                    columns.push(k);
                }
            }
        }
        columns
    }
}

/// Finds the records of `doc` for a tabular format named `format`, or says why there are none.
pub fn records<'a>(format: &'static str, doc: &'a Value) -> Result<Records<'a>, FormatError> {
    let cannot = |why: String| FormatError::cannot_represent(format, why);
    let (key, array) = match doc {
        Value::Array(a) => (None, a),
        Value::Object(o) if o.len() == 1 => {
            let (k, v) = o.iter().next().expect("one key");
            match v {
                Value::Array(a) => (Some(k.as_str()), a),
                _ => {
                    return Err(cannot(format!(
                        "the root key '{k}' holds no array of records"
                    )));
                }
            }
        }
        Value::Object(o) => {
            let keys: Vec<&str> = o.keys().map(String::as_str).collect();
            return Err(cannot(format!(
                "the root object has {} keys ({}); a table needs one array of records",
                keys.len(),
                keys.join(", ")
            )));
        }
        _ => return Err(cannot("the document is a single value, not records".into())),
    };
    let items = array
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.as_object()
                .ok_or_else(|| cannot(format!("record {i} is not an object")))
        })
        .collect::<Result<_, _>>()?;
    Ok(Records {
        key,
        items,
        all_columns: None,
    })
}

/// [`records`] for formats with one flat row per record: also rejects nested values, naming
/// the first record and field that holds one.
pub fn flat_records<'a>(format: &'static str, doc: &'a Value) -> Result<Records<'a>, FormatError> {
    let records = records(format, doc)?;
    for (i, r) in records.items.iter().enumerate() {
        if let Some((k, v)) = nested_field(r) {
            let what = if v.is_object() {
                "an object"
            } else {
                "an array"
            };
            return Err(FormatError::cannot_represent(
                format,
                format!("record {i}: field '{k}' holds {what}; rows hold flat values only"),
            ));
        }
    }
    Ok(records)
}

/// Refuses records a table cannot hold, for the table formats (CSV, TSV, PSV, Markdown and
/// HTML tables): records with no field at all (a table needs a column), and an empty string,
/// which an empty cell (null) would read back as null, so a question about either is unfair.
/// Text spelling a number or a boolean reads back as one (docs/formats.md): answers compare by
/// value, so no question tells them apart.
/// Kept out of [`flat_records`] because it says nothing about a document's structure.
pub fn no_empty_strings(format: &'static str, records: &Records<'_>) -> Result<(), FormatError> {
    if !records.items.is_empty() && records.columns().is_empty() {
        return Err(FormatError::cannot_represent(
            format,
            "the records have no fields, and a table needs a column",
        ));
    }
    for (i, r) in records.items.iter().enumerate() {
        if let Some((k, _)) = r.iter().find(|(_, v)| v.as_str() == Some("")) {
            return Err(FormatError::cannot_represent(
                format,
                format!(
                    "record {i}: field '{k}' holds an empty string, which an empty cell would \
                     read back as null"
                ),
            ));
        }
    }
    Ok(())
}

/// The structure of a document: flat when it is, or holds under one key, records of scalars
/// only (what CSV can render), else nested.
pub fn structure_of(doc: &Value) -> Structure {
    if flat_records("csv", doc).is_ok() {
        Structure::Flat
    } else {
        Structure::Nested
    }
}

/// [`structure_of`] the document `{key: records}`: flat when no record holds an object or
/// an array.
pub fn structure_of_records(records: &[serde_json::Map<String, Value>]) -> Structure {
    if records.iter().all(|r| nested_field(r).is_none()) {
        Structure::Flat
    } else {
        Structure::Nested
    }
}

/// How deep `v` nests lists and objects: a scalar is 0, `{"a": [1]}` is 2.
pub fn depth(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(depth).max().unwrap_or(0),
        Value::Object(o) => 1 + o.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// Refuses, as "cannot represent", a document nested deeper than `format`'s decoder reads
/// (`max` lists and objects): rendered, it would be sent and then fail to read back.
pub fn within_depth(format: &'static str, doc: &Value, max: usize) -> Result<(), FormatError> {
    let deep = depth(doc);
    if deep > max {
        return Err(FormatError::cannot_represent(
            format,
            format!("the document nests lists and objects {deep} deep; its reader stops at {max}"),
        ));
    }
    Ok(())
}

/// The first field of `record` that holds an object or an array: what a flat row cannot hold.
fn nested_field(record: &serde_json::Map<String, Value>) -> Option<(&String, &Value)> {
    record.iter().find(|(_, v)| v.is_object() || v.is_array())
}

/// Declares [`Format`]: one line per format, `Variant => module::SPEC`. The variant's
/// snake_case name is the format's name; adding a format is one file plus one line here.
macro_rules! formats {
    ($($(#[$doc:meta])* $variant:ident => $spec:path,)*) => {
        /// Every format bench can render. Names are part of file names, the CLI and JSONL.
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord,
            clap::ValueEnum, serde::Serialize, serde::Deserialize,
        )]
        #[serde(rename_all = "snake_case")]
        #[value(rename_all = "snake_case")]
        pub enum Format {
            $($(#[$doc])* $variant,)*
        }

        impl Format {
            /// Every registered format, in table order.
            pub const ALL: &'static [Format] = &[$(Format::$variant,)*];

            /// Static facts about the format: name, extension, fence language, encoder.
            pub fn spec(self) -> &'static FormatSpec {
                match self {
                    $(Format::$variant => &$spec,)*
                }
            }
        }
    };
}

formats! {
    /// Comma-separated values, one row per record (flat only).
    Csv => csv::CSV,
    /// Minified JSON.
    JsonCompact => json::JSON_COMPACT,
    /// JSON indented by 2 spaces.
    JsonPretty => json::JSON_PRETTY,
    /// TOON spec v3, key folding off.
    ToonDefault => toon_v3::TOON_DEFAULT,
    /// TOON spec v3, safe key folding.
    ToonKeyfold => toon_v3::TOON_KEYFOLD,
    /// XML without whitespace between elements.
    XmlCompact => xml::XML_COMPACT,
    /// XML indented by 2 spaces.
    XmlPretty => xml::XML_PRETTY,
    /// YAML block style.
    Yaml => yaml::YAML,
    /// GitHub Markdown table (flat only).
    MarkdownTable => markdown_table::MARKDOWN_TABLE,
    /// JSON Lines: one record per line.
    Jsonl => jsonl::JSONL,
    /// TeaLeaf: `@struct` schemas and `@table` positional tuples.
    Tealeaf => tealeaf::TEALEAF,
    /// TOON spec v4.0: nested field groups, keyed tables, no key folding.
    ToonV4 => toon_v4::TOON_V4,
    /// Tab-separated values, one row per record (flat only).
    Tsv => csv::TSV,
    /// Pipe-separated values, one row per record (flat only).
    Psv => csv::PSV,
    /// One HTML `<table>`, a row per record (flat only).
    HtmlTable => html_table::HTML_TABLE,
    /// Markdown key-value: a `## Record N` heading and a fenced block of `key: value` lines.
    MarkdownKv => markdown_kv::MARKDOWN_KV,
    /// INI: a `[Record N]` section of `key = value` lines per record.
    Ini => ini::INI,
}

impl Format {
    /// The default set of the `formats` suite: every format not marked extra.
    pub fn defaults() -> Vec<Format> {
        Format::ALL
            .iter()
            .copied()
            .filter(|f| !f.spec().extra)
            .collect()
    }

    /// Name used in file names, CLI and JSONL.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// Looks a format up by name.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.iter().copied().find(|f| f.name() == name)
    }

    /// Whether the format can render `structure`.
    pub fn supports(self, structure: Structure) -> bool {
        structure == Structure::Flat || !self.spec().flat_only
    }

    /// Renders a document.
    pub fn encode(self, doc: &Value) -> Result<String, FormatError> {
        self.spec().encoder.encode(doc)
    }

    /// Parses a rendering back into a document.
    pub fn decode(self, text: &str) -> Result<Value, FormatError> {
        self.spec().encoder.decode(text)
    }

    /// Parses a rendering back into the shape it was rendered from: a tabular format's bare
    /// array of records goes back under `root_key` (see [`Records::key`]).
    pub fn decode_as(self, text: &str, root_key: Option<&str>) -> Result<Value, FormatError> {
        let doc = self.decode(text)?;
        Ok(match (doc, root_key) {
            (Value::Array(items), Some(key)) => {
                let mut root = Map::new();
                root.insert(key.to_string(), Value::Array(items));
                Value::Object(root)
            }
            (doc, _) => doc,
        })
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Static description of one format.
pub struct FormatSpec {
    /// Name used in file names, CLI and JSONL.
    pub name: &'static str,
    /// Human name shown to the model ("TOON", "JSON").
    pub display: &'static str,
    /// File extension without the dot.
    pub extension: &'static str,
    /// Info string of the fenced code block in prompts.
    pub fence: &'static str,
    /// Renders one flat row per record: only a document that is, or holds under one key, an
    /// array of flat records (the product suite's flat structure).
    pub flat_only: bool,
    /// Only with `--formats all` or by name, not in the default set of 8.
    pub extra: bool,
    /// One line describing the format to the model (`--primer on`).
    pub primer: &'static str,
    /// The renderer.
    pub encoder: &'static dyn Encoder,
}

/// Semantic equality of decoded documents: numbers compare by value, so `20` equals `20.0`.
pub fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_value(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, va), (kb, vb))| ka == kb && same_value(va, vb))
        }
        _ => a == b,
    }
}
