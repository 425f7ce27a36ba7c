//! `toon_default` and `toon_keyfold`: TOON spec v3 on our own engine (see `toon/`), without and
//! with safe key folding; decoding expands folded paths back.

use super::encoder::{Encoder, FormatSpec, Splice};
use super::error::FormatError;
use super::toon::{self, DecodeOptions, EncodeOptions, KeyFolding};
use serde_json::Value;

/// TOON v3 with key folding off or safe.
pub struct ToonV3 {
    name: &'static str,
    fold: bool,
}

/// TOON v3, key folding off.
pub static TOON_DEFAULT: FormatSpec = FormatSpec {
    name: "toon_default",
    display: "TOON",
    extension: "toon",
    fence: "toon",
    flat_only: false,
    extra: false,
    primer: "TOON: indentation nests objects; `key[N]{a,b}:` opens a table of N rows whose comma-separated values follow the field list a,b; null means no value.",
    encoder: &ToonV3 {
        name: "toon_default",
        fold: false,
    },
};

/// TOON v3, safe key folding.
pub static TOON_KEYFOLD: FormatSpec = FormatSpec {
    name: "toon_keyfold",
    display: "TOON",
    extension: "toon",
    fence: "toon",
    flat_only: false,
    extra: false,
    primer: "TOON: indentation nests objects, `a.b.c: v` is the path a → b → c; `key[N]{a,b}:` opens a table of N rows whose comma-separated values follow the field list a,b; null means no value.",
    encoder: &ToonV3 {
        name: "toon_keyfold",
        fold: true,
    },
};

impl Encoder for ToonV3 {
    fn encode(&self, doc: &Value) -> Result<String, FormatError> {
        let key_folding = if self.fold {
            KeyFolding::Safe
        } else {
            KeyFolding::Off
        };
        Ok(toon::encode(
            doc,
            &EncodeOptions {
                key_folding,
                ..EncodeOptions::default()
            },
        ))
    }

    fn decode(&self, text: &str) -> Result<Value, FormatError> {
        let opts = DecodeOptions {
            expand_paths: self.fold,
            ..DecodeOptions::default()
        };
        toon::decode(text, &opts).map_err(|e| FormatError::new(self.name, e))
    }

    fn splice(&self) -> Option<Splice> {
        Some(super::toon::SPLICE)
    }

    fn frame(&self, text: &str, _key: &str) -> Option<(usize, usize)> {
        Some((super::encoder::lines(text, 1)?, 0))
    }
}
