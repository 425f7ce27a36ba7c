//! `ini`: one `[Record N]` section per record with `key = value` lines. Nested fields are
//! dotted keys and list items `[i]` positions inside the record's section, quoted where plain
//! text would be ambiguous (see [`kv_paths`]); a document that is not an array of records is
//! one `[Document]` section. Decoding gives the bare array of records (no root key).
//!
//! Why dotted keys and not dotted section names (`[Record 1.pricing]`): a section cannot be
//! reopened (Python's `configparser` refuses a duplicate section), so a field that follows a
//! nested object in its record (`description` after `pricing` in the product records) would
//! have to move before it, and the record would read back in another order.

use super::encoder::{Encoder, FormatSpec, Splice};
use super::error::FormatError;
use super::kv_paths;
use super::shape::records;
use serde_json::Value;

/// INI sections, one per record.
pub struct Ini;

/// INI, nested by dotted keys.
pub static INI: FormatSpec = FormatSpec {
    name: "ini",
    display: "INI",
    extension: "ini",
    fence: "ini",
    flat_only: false,
    extra: true,
    primer: "INI: one [Record N] section per record with 'key = value' lines; a dotted key is a nested field, [i] a list position, a quoted value or key is a JSON string.",
    encoder: &Ini,
};

const NAME: &str = "ini";
/// The section a document that is not records is written as.
const DOCUMENT: &str = "[Document]";

fn err(line: usize, e: impl std::fmt::Display) -> FormatError {
    FormatError::new(NAME, format!("line {line}: {e}"))
}

fn section(out: &mut String, header: &str, value: &Value) {
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(header);
    out.push('\n');
    for (path, text) in kv_paths::flatten(value) {
        out.push_str(&format!("{path} = {text}\n"));
    }
}

impl Encoder for Ini {
    fn encode(&self, doc: &Value) -> Result<String, FormatError> {
        let mut out = String::new();
        match records(NAME, doc) {
            Ok(records) => {
                for (i, r) in records.items.iter().enumerate() {
                    section(
                        &mut out,
                        &format!("[Record {}]", i + 1),
                        &Value::Object((*r).clone()),
                    );
                }
            }
            // A list that is not records would have lines starting with `[0]`, which INI
            // readers (ours, Python's configparser) take for a section.
            Err(e) if doc.is_array() => {
                return Err(FormatError::cannot_represent(
                    NAME,
                    format!(
                        "a list that is not records ({}): its lines would start with '[', which \
                         INI reads as a section",
                        e.message
                    ),
                ));
            }
            Err(_) if doc.is_object() => section(&mut out, DOCUMENT, doc),
            Err(e) => return Err(e),
        }
        Ok(out)
    }

    fn decode(&self, text: &str) -> Result<Value, FormatError> {
        let mut records = Vec::new();
        let mut document: Option<kv_paths::Builder> = None;
        let mut open: Option<kv_paths::Builder> = None;
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            if line.trim().is_empty() {
                continue;
            }
            if line.starts_with('[') {
                if document.is_some() {
                    return Err(err(n, "a section after [Document]"));
                }
                records.extend(open.take().map(kv_paths::Builder::finish));
                let want = format!("[Record {}]", records.len() + 1);
                if line == DOCUMENT && records.is_empty() {
                    document = Some(kv_paths::Builder::object());
                } else if line == want {
                    open = Some(kv_paths::Builder::object());
                } else {
                    return Err(err(n, format!("expected '{want}', found '{line}'")));
                }
                continue;
            }
            let builder = document
                .as_mut()
                .or(open.as_mut())
                .ok_or_else(|| err(n, "a key before the first section"))?;
            let (path, value) = line
                .split_once(" = ")
                .ok_or_else(|| err(n, "expected 'key = value'"))?;
            builder.add(path, value).map_err(|e| err(n, e))?;
        }
        if let Some(d) = document {
            return Ok(d.finish());
        }
        records.extend(open.map(kv_paths::Builder::finish));
        Ok(Value::Array(records))
    }

    fn splice(&self) -> Option<Splice> {
        Some(Splice {
            numbered: Some(("[Record ", "]")),
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
    fn a_section_per_record_with_dotted_keys_in_order() {
        let doc = json!([
            {"id": "P-1", "pricing": {"price": 9.5}, "description": "a = b; # c", "tags": ["x"]},
            {"id": "P-2", "pricing": {"price": 3}, "description": " pad", "tags": []}
        ]);
        let text = Ini.encode(&doc).unwrap();
        assert_eq!(
            text,
            "[Record 1]\nid = P-1\npricing.price = 9.5\ndescription = a = b; # c\ntags[0] = x\n\
             \n[Record 2]\nid = P-2\npricing.price = 3\ndescription = \" pad\"\ntags = []\n"
        );
        assert_eq!(Ini.decode(&text).unwrap(), doc);
        let other = json!({"company": "Acme", "year": 2025});
        let text = Ini.encode(&other).unwrap();
        assert_eq!(text, "[Document]\ncompany = Acme\nyear = 2025\n");
        assert_eq!(Ini.decode(&text).unwrap(), other);
    }

    #[test]
    fn malformed_text_names_the_line() {
        let e = Ini.decode("id = 1\n").unwrap_err().to_string();
        assert!(e.contains("line 1: a key before the first section"), "{e}");
        let e = Ini.decode("[Record 1]\nid: 1\n").unwrap_err().to_string();
        assert!(e.contains("line 2: expected 'key = value'"), "{e}");
        let e = Ini
            .decode("[Record 1]\n[Record 3]\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("expected '[Record 2]'"), "{e}");
    }
}
