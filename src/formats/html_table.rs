//! `html_table`: one `<table>` with a `<thead>` row of column names and a `<tbody>` row per
//! record; flat records only, null is an empty cell. Cell text escapes `&`, `<` and `>`, and a
//! carriage return is written `&#13;` (HTML parsers turn a raw one into a newline), so every
//! text reads back exactly. Decoding gives the bare array of records (no root key).

use super::encoder::{Encoder, FormatSpec, Learned, Splice};
use super::error::FormatError;
use super::shape::{Records, flat_records, no_empty_strings};
use crate::scalar;
use quick_xml::escape::partial_escape;
use quick_xml::events::Event;
use serde_json::{Map, Value};

/// An HTML table, written and read with `quick-xml` (the markup is well-formed XML too).
pub struct HtmlTable;

/// HTML table, flat only.
pub static HTML_TABLE: FormatSpec = FormatSpec {
    name: "html_table",
    display: "HTML table",
    extension: "html",
    fence: "html",
    flat_only: true,
    extra: true,
    primer: "HTML table: the <thead> row names the columns, each <tbody> row is one product; an empty cell means null.",
    encoder: &HtmlTable,
};

fn err(e: impl std::fmt::Display) -> FormatError {
    FormatError::new("html_table", e)
}

/// Cell text: `&`, `<`, `>` escaped, CR as a character reference.
fn cell(text: &str) -> String {
    partial_escape(text).replace('\r', "&#13;")
}

impl Encoder for HtmlTable {
    fn encode(&self, doc: &Value) -> Result<String, FormatError> {
        table(&flat_records("html_table", doc)?)
    }

    fn learns(&self) -> bool {
        true
    }

    fn learn(&self, chunk: &Value, learned: &mut Option<Learned>) {
        super::shape::learn_columns(chunk, learned);
    }

    fn encode_learned(&self, chunk: &Value, learned: &Learned) -> Result<String, FormatError> {
        table(&super::shape::flat_chunk("html_table", chunk, learned)?)
    }

    fn decode(&self, text: &str) -> Result<Value, FormatError> {
        let rows = read_rows(text)?;
        let Some((header, body)) = rows.split_first() else {
            return Err(err("no header row (<thead><tr><th>…)"));
        };
        let mut records = Vec::new();
        for (i, row) in body.iter().enumerate() {
            if row.len() != header.len() {
                return Err(err(format!(
                    "body row {}: {} cells, the header has {}",
                    i + 1,
                    row.len(),
                    header.len()
                )));
            }
            let obj: Map<String, Value> = header
                .iter()
                .zip(row)
                .map(|(k, v)| (k.clone(), scalar::infer(v)))
                .collect();
            records.push(Value::Object(obj));
        }
        Ok(Value::Array(records))
    }

    fn splice(&self) -> Option<Splice> {
        Some(Splice::joined(""))
    }

    fn frame(&self, text: &str, _key: &str) -> Option<(usize, usize)> {
        // `<` in a cell is escaped, so the first `<tbody>` line ends the head.
        let head = text.find("<tbody>\n")? + "<tbody>\n".len();
        let tail = "</tbody>\n</table>\n";
        (text.len() >= head + tail.len() && text.ends_with(tail)).then_some((head, tail.len()))
    }
}

/// The text of every `<th>`/`<td>` cell, row by row.
fn read_rows(text: &str) -> Result<Vec<Vec<String>>, FormatError> {
    let mut reader = quick_xml::Reader::from_str(text);
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut open: Option<String> = None;
    loop {
        match reader.read_event().map_err(err)? {
            Event::Start(s) => match s.name().as_ref() {
                b"tr" => rows.push(Vec::new()),
                b"th" | b"td" => open = Some(String::new()),
                b"table" | b"thead" | b"tbody" => {}
                other => {
                    return Err(err(format!(
                        "unexpected element <{}>",
                        String::from_utf8_lossy(other)
                    )));
                }
            },
            Event::Empty(s) if matches!(s.name().as_ref(), b"th" | b"td") => rows
                .last_mut()
                .ok_or_else(|| err("a cell outside a row"))?
                .push(String::new()),
            Event::Text(t) => {
                if let Some(c) = open.as_mut() {
                    c.push_str(&t.decode().map_err(err)?);
                }
            }
            Event::GeneralRef(r) => {
                let name = r.decode().map_err(err)?;
                let ch = quick_xml::escape::resolve_predefined_entity(&name)
                    .map(str::to_string)
                    .or_else(|| r.resolve_char_ref().ok().flatten().map(String::from))
                    .ok_or_else(|| err(format!("unknown entity &{name};")))?;
                if let Some(c) = open.as_mut() {
                    c.push_str(&ch);
                }
            }
            Event::End(e) if matches!(e.name().as_ref(), b"th" | b"td") => {
                let c = open.take().ok_or_else(|| err("unbalanced cell end tag"))?;
                rows.last_mut()
                    .ok_or_else(|| err("a cell outside a row"))?
                    .push(c);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(rows)
}

/// The table of `records`: a header row of their columns, then one row each.
fn table(records: &Records<'_>) -> Result<String, FormatError> {
    no_empty_strings("html_table", records)?;
    let header = records.columns();
    let mut out = String::from("<table>\n<thead>\n<tr>");
    for h in &header {
        out.push_str(&format!("<th>{}</th>", cell(h)));
    }
    out.push_str("</tr>\n</thead>\n<tbody>\n");
    for r in &records.items {
        out.push_str("<tr>");
        for key in &header {
            let v = r.get(*key).unwrap_or(&Value::Null);
            let text = scalar::to_text(v).expect("flat_records");
            out.push_str(&format!("<td>{}</td>", cell(&text)));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
    Ok(out)
}
