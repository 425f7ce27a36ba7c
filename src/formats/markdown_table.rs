//! `markdown_table`: a GitHub Markdown table, header row plus one row per record; flat only.
//! Null is an empty cell; `\`, `|` and line breaks in text are backslash-escaped (`\\`, `\|`,
//! `\n`, `\r`) so every cell stays on its row and the table reads back exactly.

use super::encoder::{Encoder, FormatSpec, Learned, Splice};
use super::error::FormatError;
use super::shape::{Records, flat_records, no_empty_strings};
use crate::scalar;
use serde_json::{Map, Value};

/// Markdown table.
pub struct MarkdownTable;

/// Markdown table, flat only.
pub static MARKDOWN_TABLE: FormatSpec = FormatSpec {
    name: "markdown_table",
    display: "Markdown table",
    extension: "md",
    fence: "markdown",
    flat_only: true,
    extra: true,
    primer: "Markdown table: the header row names the columns, each further row is one product; an empty cell means null; \\| is a literal pipe.",
    encoder: &MarkdownTable,
};

fn err(e: impl std::fmt::Display) -> FormatError {
    FormatError::new("markdown_table", e)
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '|' => out.push_str("\\|"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

/// Splits a row `| a | b\|c |` into unescaped, trimmed cells.
fn cells(line: &str, n: usize) -> Result<Vec<String>, FormatError> {
    let inner = line
        .trim()
        .strip_prefix('|')
        .and_then(|l| l.strip_suffix('|'))
        .ok_or_else(|| err(format!("line {n}: a row starts and ends with '|'")))?;
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('n') => cur.push('\n'),
                Some('r') => cur.push('\r'),
                Some(other) => cur.push(other),
                None => return Err(err(format!("line {n}: dangling '\\'"))),
            },
            '|' => out.push(std::mem::take(&mut cur)),
            c => cur.push(c),
        }
    }
    out.push(cur);
    // One space pads each side of a cell; text never starts or ends with the padding.
    Ok(out
        .into_iter()
        .map(|c| {
            let c = c.strip_prefix(' ').unwrap_or(&c);
            c.strip_suffix(' ').unwrap_or(c).to_string()
        })
        .collect())
}

fn row(cells: impl Iterator<Item = String>) -> String {
    let mut line = String::from("|");
    for c in cells {
        line.push(' ');
        line.push_str(&c);
        line.push_str(" |");
    }
    line.push('\n');
    line
}

impl Encoder for MarkdownTable {
    fn encode(&self, doc: &Value) -> Result<String, FormatError> {
        table(&flat_records("markdown_table", doc)?)
    }

    fn learns(&self) -> bool {
        true
    }

    fn learn(&self, chunk: &Value, learned: &mut Option<Learned>) {
        super::shape::learn_columns(chunk, learned);
    }

    fn encode_learned(&self, chunk: &Value, learned: &Learned) -> Result<String, FormatError> {
        table(&super::shape::flat_chunk("markdown_table", chunk, learned)?)
    }

    fn decode(&self, text: &str) -> Result<Value, FormatError> {
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let mut records = Vec::new();
        if let Some((i, head)) = lines.next() {
            let header = cells(head, i + 1)?;
            match lines.next() {
                Some((_, sep)) if sep.contains("---") => {}
                _ => return Err(err("line 2: expected the |---| separator row")),
            }
            for (i, line) in lines {
                let values = cells(line, i + 1)?;
                if values.len() != header.len() {
                    return Err(err(format!(
                        "line {}: {} cells, header has {}",
                        i + 1,
                        values.len(),
                        header.len()
                    )));
                }
                let obj: Map<String, Value> = header
                    .iter()
                    .zip(values)
                    .map(|(k, v)| (k.clone(), scalar::infer(&v)))
                    .collect();
                records.push(Value::Object(obj));
            }
        }
        Ok(Value::Array(records))
    }

    fn splice(&self) -> Option<Splice> {
        Some(Splice::joined(""))
    }

    fn frame(&self, text: &str, _key: &str) -> Option<(usize, usize)> {
        // A cell never holds a line break (see `cell`): the header is two lines.
        Some((super::encoder::lines(text, 2)?, 0))
    }
}

/// The table of `records`: a header row of their columns, then one row each.
fn table(records: &Records<'_>) -> Result<String, FormatError> {
    no_empty_strings("markdown_table", records)?;
    let header = records.columns();
    if header.is_empty() {
        return Ok(String::new());
    }
    let mut out = row(header.iter().map(|k| escape(k)));
    out.push_str(&row(header.iter().map(|_| "---".to_string())));
    for obj in &records.items {
        let mut line = Vec::with_capacity(header.len());
        for key in &header {
            let text =
                scalar::to_text(obj.get(*key).unwrap_or(&Value::Null)).expect("flat_records");
            line.push(escape(&text));
        }
        out.push_str(&row(line.into_iter()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pipes_backslashes_and_newlines_round_trip() {
        let doc = json!({"products": [
            {"id": "A|B", "note": "line1\nline2\\x", "n": 3, "v": null, "pad": " x "},
            {"id": "C", "note": "-", "n": 4.5, "v": true, "pad": "y"}
        ]});
        let text = MarkdownTable.encode(&doc).unwrap();
        assert!(text.lines().all(|l| l.starts_with('|') && l.ends_with('|')));
        assert!(text.contains("A\\|B") && text.contains("line1\\nline2\\\\x"));
        let back = MarkdownTable.decode(&text).unwrap();
        assert_eq!(back, doc["products"]);
        // An empty cell is null, as in CSV, so an empty string cannot be told from it.
        let e = MarkdownTable
            .encode(&json!([{"id": "C", "note": ""}]))
            .unwrap_err();
        assert!(e.is_cannot_represent(), "{e}");
    }
}
