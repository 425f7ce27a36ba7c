//! `markdown_kv`: Markdown key-value records as the ImprovingAgents comparison shows them — a
//! `## Record N` heading per record, then a fenced block of `key: value` lines. Nested fields
//! are dotted paths and list items `[i]` positions, quoted where plain text would be ambiguous
//! (see [`kv_paths`]). A document that is not an array of records (several top-level keys) is
//! one `## Document` block of paths. Decoding gives the bare array of records (no root key).

use super::encoder::{Encoder, FormatSpec, Splice};
use super::error::FormatError;
use super::kv_paths;
use super::shape::records;
use serde_json::Value;

/// Markdown key-value records.
pub struct MarkdownKv;

/// Markdown-KV, nested by dotted paths.
pub static MARKDOWN_KV: FormatSpec = FormatSpec {
    name: "markdown_kv",
    display: "Markdown key-value",
    extension: "md",
    fence: "markdown",
    flat_only: false,
    extra: true,
    primer: "Markdown key-value: a '## Record N' heading per record, then a fenced block of 'key: value' lines; a dotted key is a nested field, [i] a list position, a quoted value or key is a JSON string.",
    encoder: &MarkdownKv,
};

const NAME: &str = "markdown_kv";
const FENCE: &str = "```";
/// The heading of the one block a document that is not records is written as.
const DOCUMENT: &str = "## Document";

fn err(line: usize, e: impl std::fmt::Display) -> FormatError {
    FormatError::new(NAME, format!("line {line}: {e}"))
}

fn block(out: &mut String, heading: &str, value: &Value) {
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(&format!("{heading}\n\n{FENCE}\n"));
    for (path, text) in kv_paths::flatten(value) {
        out.push_str(&format!("{path}: {text}\n"));
    }
    out.push_str(FENCE);
    out.push('\n');
}

impl Encoder for MarkdownKv {
    fn encode(&self, doc: &Value) -> Result<String, FormatError> {
        let mut out = String::new();
        match records(NAME, doc) {
            Ok(records) => {
                for (i, r) in records.items.iter().enumerate() {
                    block(
                        &mut out,
                        &format!("## Record {}", i + 1),
                        &Value::Object((*r).clone()),
                    );
                }
            }
            Err(_) if doc.is_object() || doc.is_array() => block(&mut out, DOCUMENT, doc),
            Err(e) => return Err(e),
        }
        Ok(out)
    }

    fn decode(&self, text: &str) -> Result<Value, FormatError> {
        let mut records = Vec::new();
        let mut document = None;
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        while let Some((n, line)) = lines.next() {
            if line.trim().is_empty() {
                continue;
            }
            let is_document = line == DOCUMENT;
            let want = format!("## Record {}", records.len() + 1);
            if document.is_some() || (line != want && !(is_document && records.is_empty())) {
                return Err(err(n, format!("expected '{want}', found '{line}'")));
            }
            match lines.next() {
                Some((_, "")) => {}
                other => {
                    return Err(err(
                        n + 1,
                        format!("expected a blank line, found {other:?}"),
                    ));
                }
            }
            match lines.next() {
                Some((_, FENCE)) => {}
                _ => return Err(err(n + 2, "expected the opening ``` of the record's block")),
            }
            let mut builder = kv_paths::Builder::object();
            loop {
                let Some((n, line)) = lines.next() else {
                    return Err(err(n, "the record's block has no closing ```"));
                };
                if line == FENCE {
                    break;
                }
                let (path, value) = line
                    .split_once(": ")
                    .ok_or_else(|| err(n, "expected 'key: value'"))?;
                builder.add(path, value).map_err(|e| err(n, e))?;
            }
            if is_document {
                document = Some(builder.finish());
            } else {
                records.push(builder.finish());
            }
        }
        Ok(document.unwrap_or(Value::Array(records)))
    }

    fn splice(&self) -> Option<Splice> {
        Some(Splice {
            numbered: Some(("## Record ", "")),
            ..Splice::joined("\n")
        })
    }

    fn frame(&self, _text: &str, _key: &str) -> Option<(usize, usize)> {
        Some((0, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn records_get_headings_and_fenced_blocks() {
        let doc = json!({"products": [
            {"id": "P-1", "pricing": {"price": 9.5}, "tags": ["a", "b"], "note": "x: y"},
            {"id": "P-2", "pricing": {}, "tags": [], "note": null}
        ]});
        let text = MarkdownKv.encode(&doc).unwrap();
        assert_eq!(
            text,
            "## Record 1\n\n```\nid: P-1\npricing.price: 9.5\ntags[0]: a\ntags[1]: b\n\
             note: x: y\n```\n\n## Record 2\n\n```\nid: P-2\npricing: {}\ntags: []\n\
             note: null\n```\n"
        );
        assert_eq!(MarkdownKv.decode(&text).unwrap(), doc["products"]);
    }

    #[test]
    fn other_documents_are_one_block_and_scalars_are_refused() {
        let doc = json!({"company": "Acme", "regions": [{"name": "West"}, 3]});
        let text = MarkdownKv.encode(&doc).unwrap();
        assert!(text.starts_with("## Document\n"), "{text}");
        assert_eq!(MarkdownKv.decode(&text).unwrap(), doc);
        assert!(
            MarkdownKv
                .encode(&json!(3))
                .unwrap_err()
                .is_cannot_represent()
        );
    }

    #[test]
    fn malformed_text_names_the_line() {
        let e = MarkdownKv.decode("## Record 2\n").unwrap_err().to_string();
        assert!(e.contains("line 1: expected '## Record 1'"), "{e}");
        let e = MarkdownKv
            .decode("## Record 1\n\n```\nid P-1\n```\n")
            .unwrap_err();
        assert!(
            e.to_string().contains("line 4: expected 'key: value'"),
            "{e}"
        );
        let e = MarkdownKv
            .decode("## Record 1\n\n```\nid: P-1\n")
            .unwrap_err();
        assert!(e.to_string().contains("no closing"), "{e}");
    }
}
