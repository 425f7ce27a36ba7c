//! `toon_v4`: TOON spec v4.0 on the same engine as v3 (see `toon/`): columns of uniform objects
//! become nested field groups, so the nested structure is one table too; no key folding.

use super::encoder::{Encoder, FormatSpec, Splice};
use super::error::FormatError;
use super::toon::{self, DecodeOptions, EncodeOptions, Spec};
use serde_json::Value;

/// TOON v4.
pub struct ToonV4;

/// TOON v4.0.
pub static TOON_V4: FormatSpec = FormatSpec {
    name: "toon_v4",
    display: "TOON",
    extension: "toon",
    fence: "toon",
    flat_only: false,
    extra: true,
    primer: "TOON: indentation nests objects; `key[N]{a,b{c,d}}:` opens a table of N rows whose comma-separated values follow the field list depth-first (b{c,d} is an object with fields c and d); null means no value.",
    encoder: &ToonV4,
};

impl Encoder for ToonV4 {
    fn encode(&self, doc: &Value) -> Result<String, FormatError> {
        let opts = EncodeOptions {
            spec: Spec::V4,
            ..EncodeOptions::default()
        };
        Ok(toon::encode(doc, &opts))
    }

    fn decode(&self, text: &str) -> Result<Value, FormatError> {
        let opts = DecodeOptions {
            spec: Spec::V4,
            ..DecodeOptions::default()
        };
        toon::decode(text, &opts).map_err(|e| FormatError::new("toon_v4", e))
    }

    fn splice(&self) -> Option<Splice> {
        Some(super::toon::SPLICE)
    }

    fn frame(&self, text: &str, _key: &str) -> Option<(usize, usize)> {
        Some((super::encoder::lines(text, 1)?, 0))
    }
}
