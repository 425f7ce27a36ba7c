//! `tealeaf`: the TeaLeaf text format as TeaLeaf itself puts JSON into LLM prompts:
//! `from_json_with_schemas` then `to_tl_with_options(compact + compact floats)` of tealeaf-core
//! 2.0.0-beta.14. Written here rather than taken from `tealeaf-core`, which turns on serde_json's
//! `arbitrary_precision` for the whole build and breaks our YAML and XML output.
//!
//! Any JSON document but a lone scalar renders. Line references are to tealeaf-core
//! 2.0.0-beta.14 as published (krishjag/tealeaf, `tealeaf-core/src/`); each construct was checked
//! against that source and against the crate itself (tools/tealeaf_golden):
//!
//! - Root object: `@struct` lines first, in the order inference made them (lib.rs:1631-1648),
//!   then one `key:value` line per root key, in order (lib.rs:1654-1660).
//! - Root array: from_json puts it under the key `root` (lib.rs:230-235) and the text starts
//!   `@root-array` (lib.rs:302-308); reading gives the bare array back (lib.rs:360-367). A
//!   scalar root also goes under `root` but unmarked (lib.rs:236-241), so it would read back as
//!   `{"root": …}`: the one shape that is "cannot represent".
//! - `@struct`s ([`infer`], lib.rs:1112-1548): every list of objects sharing a key gets one,
//!   named after its key singularised (`products` → `product`, lib.rs:1065-1076); objects held
//!   by a key of such records get their own (`properties` → `property`), and lists of objects
//!   in records `[]employee` fields; other fields are `int`, `float`, `string`, `bool`, `[]T`
//!   or `any`, with `?` when null or absent in some record (lib.rs:1001-1032).
//! - Values ([`encode`], lib.rs:1697-1864): a list whose key (or declared type) names a struct
//!   its items fit is `@table name[` with one `(…)` tuple per line (lib.rs:1727-1793), also
//!   inside objects (`config:{servers:@table server[…]}`); in a tuple a struct field is a nested
//!   `(…)`, a `[]struct` field `[` + one tuple per line + `]`, `null` is null and `~` an absent
//!   key (lib.rs:1866-1953); elsewhere objects are `{k:v}`, lists `[a,b]` and null `~`. Strings
//!   are bare unless they could read as something else (lib.rs:589-633); whole floats lose `.0`
//!   (lib.rs:788-814).
//!
//! Where tealeaf-core's own parser would read its output back differently, we write the nearest
//! text it reads back exactly; so the output is byte-identical wherever tealeaf-core's own round
//! trip is exact (each is marked "Deviation" in the code):
//! 1. an object that does not fit its struct's tuple (a key the struct lacks, keys in another
//!    order, a non-nullable field absent, a scalar in a `[]` field) is written `{k:v}`, which
//!    the parser accepts in a struct field or `[]struct` item (parser.rs:495-528); tealeaf-core
//!    writes the tuple and drops or nulls those keys, or cannot parse it (lib.rs:1866-1912);
//! 2. `@table` only when every item fits, not just the first (lib.rs:1752-1763); else `[{…},…]`;
//! 3. no struct whose name lexes as a keyword (`nulls` → `null`, lexer.rs:182-194), which
//!    tealeaf-core declares and then cannot parse.
mod decode;
mod encode;
mod infer;
mod schema;

use crate::formats::encoder::{Encoder, FormatSpec, Learned, Splice};
use crate::formats::error::FormatError;
use serde_json::Value;

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
    primer: "TeaLeaf: each `@struct name(field:type,…)` line declares a record shape (`?` = nullable, `[]` = list of); `products:@table product[` lists one `(…)` tuple per product with values in field order, nested `(…)` for nested structs; in a tuple null means no value, ~ an absent field; elsewhere `{key:value}` is an object, `[…]` a list, ~ null.",
    encoder: &TeaLeaf,
};

impl Encoder for TeaLeaf {
    fn encode(&self, doc: &Value) -> Result<String, FormatError> {
        let (entries, root_array): (Vec<(&str, &Value)>, bool) = match doc {
            Value::Object(o) => (o.iter().map(|(k, v)| (k.as_str(), v)).collect(), false),
            Value::Array(_) => (vec![("root", doc)], true),
            _ => {
                return Err(FormatError::cannot_represent(
                    "tealeaf",
                    "the document is a single value; TeaLeaf holds `key: value` sections and \
                     marks only a root array (@root-array), so a lone value would read back \
                     as {\"root\": …}",
                ));
            }
        };
        let schemas = infer::schemas(&entries);
        Ok(encode::document(&entries, root_array, &schemas))
    }

    fn learns(&self) -> bool {
        true
    }

    fn learn(&self, chunk: &Value, learned: &mut Option<Learned>) {
        let learned = learned.get_or_insert_with(|| Box::new(infer::FlatSurvey::default()));
        if let (Some(survey), Some((_, Value::Array(records)))) = (
            learned.downcast_mut::<infer::FlatSurvey>(),
            chunk.as_object().and_then(|o| o.iter().next()),
        ) {
            survey.add(records);
        }
    }

    fn encode_learned(&self, chunk: &Value, learned: &Learned) -> Result<String, FormatError> {
        // Flat records get the struct of all the records; any other chunk its own (whose head
        // the splicer then compares).
        let survey = learned.downcast_ref::<infer::FlatSurvey>();
        match (survey, chunk.as_object().and_then(|o| o.iter().next())) {
            (Some(survey), Some((key, value))) => match survey.schemas(key) {
                Some(schemas) => Ok(encode::document(&[(key, value)], false, &schemas)),
                None => self.encode(chunk),
            },
            _ => self.encode(chunk),
        }
    }

    fn decode(&self, text: &str) -> Result<Value, FormatError> {
        decode::document(text).map_err(|e| FormatError::new("tealeaf", e))
    }

    fn splice(&self) -> Option<Splice> {
        Some(Splice::joined(",\n"))
    }

    fn frame(&self, text: &str, key: &str) -> Option<(usize, usize)> {
        // The `@struct` lines, then `key:@table name[` opens the tuples, one per line.
        let open = format!("{key}:@table ");
        let start = if text.starts_with(&open) {
            0
        } else {
            text.find(&format!("\n{open}"))? + 1
        };
        let head = start + super::lines(&text[start..], 1)?;
        let tail = "\n]\n";
        (text.len() >= head + tail.len() && text.ends_with(tail)).then_some((head, tail.len()))
    }
}
