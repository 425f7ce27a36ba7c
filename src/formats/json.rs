//! `json_compact` and `json_pretty`.

use super::encoder::{Encoder, FormatSpec, Splice};
use super::error::FormatError;
use serde_json::Value;

/// JSON, minified or indented by 2 spaces.
pub struct Json {
    name: &'static str,
    pretty: bool,
}

/// Minified JSON.
pub static JSON_COMPACT: FormatSpec = FormatSpec {
    name: "json_compact",
    display: "JSON",
    extension: "json",
    fence: "json",
    flat_only: false,
    extra: false,
    primer: "JSON: an object whose \"products\" array holds one object per product; null means no value.",
    encoder: &Json {
        name: "json_compact",
        pretty: false,
    },
};

/// JSON indented by 2 spaces.
pub static JSON_PRETTY: FormatSpec = FormatSpec {
    name: "json_pretty",
    display: "JSON",
    extension: "json",
    fence: "json",
    flat_only: false,
    extra: false,
    primer: "JSON: an object whose \"products\" array holds one object per product; null means no value.",
    encoder: &Json {
        name: "json_pretty",
        pretty: true,
    },
};

/// Deepest nesting of lists and objects serde_json reads (its recursion limit, which guards
/// the stack); a document nested deeper is refused when rendered, never sent.
pub const MAX_DEPTH: usize = 127;

impl Encoder for Json {
    fn encode(&self, doc: &Value) -> Result<String, FormatError> {
        super::shape::within_depth(self.name, doc, MAX_DEPTH)?;
        let out = if self.pretty {
            serde_json::to_string_pretty(doc)
        } else {
            serde_json::to_string(doc)
        };
        out.map_err(|e| FormatError::new(self.name, e))
    }

    fn decode(&self, text: &str) -> Result<Value, FormatError> {
        serde_json::from_str(text).map_err(|e| FormatError::new(self.name, e))
    }

    fn splice(&self) -> Option<Splice> {
        Some(Splice::joined(if self.pretty { ",\n" } else { "," }))
    }

    fn frame(&self, text: &str, key: &str) -> Option<(usize, usize)> {
        let key = serde_json::to_string(key).ok()?;
        if self.pretty {
            super::encoder::framed(text, &format!("{{\n  {key}: [\n"), "\n  ]\n}")
        } else {
            super::encoder::framed(text, &format!("{{{key}:["), "]}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_document_deeper_than_the_reader_goes_is_refused_when_rendered() {
        let mut doc = json!(1);
        for _ in 0..MAX_DEPTH {
            doc = json!([doc]);
        }
        for spec in [&JSON_COMPACT, &JSON_PRETTY] {
            let text = spec.encoder.encode(&doc).unwrap();
            assert_eq!(spec.encoder.decode(&text).unwrap(), doc);
            let deeper = json!([doc]);
            let e = spec.encoder.encode(&deeper).unwrap_err();
            assert!(e.is_cannot_represent(), "{e}");
            // serde_json itself refuses it: the limit is the reader's, not ours.
            let text = serde_json::to_string(&deeper).unwrap();
            assert!(spec.encoder.decode(&text).is_err());
        }
    }
}
