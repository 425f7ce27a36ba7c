//! TOON → JSON. A recursive-descent parser over a one-line-lookahead cursor;
//! every line is scanned once, so decoding is linear in the input size.

use serde_json::{Map, Value};

use super::error::ToonError;
use super::expand::ObjBuilder;
use super::options::{DecodeOptions, Spec};
use super::text::{find_closing_quote, unescape};

mod lex;
mod tables;
use lex::{
    FieldSpec, Header, Line, Parser, Result, err, has_unquoted_colon, is_data_row, primitive,
    split, trim,
};
use tables::field_list_end;

pub(super) fn decode(text: &str, opts: &DecodeOptions) -> Result<Value> {
    let mut p = Parser {
        src: text,
        pos: 0,
        next_no: 1,
        peeked: None,
        last_no: 0,
        blanks: Vec::new(),
        indent: opts.indent.max(1),
        strict: opts.strict,
        v4: opts.spec == Spec::V4,
        // v4 removed path expansion: dotted keys are literal.
        expand: opts.expand_paths && opts.spec == Spec::V3,
    };
    let value = p.document()?;
    match p.peek()? {
        Some(line) => Err(ToonError::new(
            line.no,
            "unexpected content after the document root",
        )),
        None => Ok(value),
    }
}

/// What a key line turned out to be.
enum Head<'a> {
    /// `key: rest` (rest trimmed; empty opens a nested object).
    Field {
        key: String,
        quoted: bool,
        rest: &'a str,
    },
    /// `key[N]{..}: inline` — `key` is None for a bare `[N]:` header.
    Array {
        key: Option<(String, bool)>,
        header: Header,
        inline: &'a str,
    },
}

fn is_list_item(content: &str) -> bool {
    content == "-" || content.starts_with("- ")
}

/// A value after `key: ` or `- `; a bare `[]` is the v3.3 empty-array form.
fn value_token(tok: &str, no: usize) -> Result<Value> {
    if tok == "[]" {
        return Ok(Value::Array(Vec::new()));
    }
    primitive(tok, no)
}

impl<'a> Parser<'a> {
    fn document(&mut self) -> Result<Value> {
        let Some(first) = self.peek()? else {
            return Ok(Value::Object(Map::new()));
        };
        // A root `[N]:` header makes the document an array.
        if first.content.starts_with('[')
            && has_unquoted_colon(first.content)
            && let Head::Array {
                key: None,
                header,
                inline,
            } = self.head(first.content, first.no)?
        {
            self.advance();
            return self.array_body(&header, inline, first.depth, first.no);
        }
        self.advance();
        if self.peek()?.is_none() && !has_unquoted_colon(first.content) {
            return value_token(trim(first.content), first.no);
        }
        let mut obj = ObjBuilder::new(self.strict, self.expand);
        self.field_line(first, first.depth, &mut obj)?;
        self.object_body(first.depth, &mut obj)?;
        Ok(obj.finish())
    }

    /// Fields at exactly `depth` until the indentation drops below it.
    fn object_body(&mut self, depth: usize, obj: &mut ObjBuilder) -> Result<()> {
        while let Some(line) = self.peek()? {
            if line.depth < depth {
                break;
            }
            if line.depth > depth {
                return err(line.no, "unexpected indentation");
            }
            if is_list_item(line.content) {
                return err(line.no, "list item outside of an array");
            }
            self.advance();
            self.field_line(line, depth, obj)?;
        }
        Ok(())
    }

    fn field_line(&mut self, line: Line<'a>, depth: usize, obj: &mut ObjBuilder) -> Result<()> {
        let head = self.head(line.content, line.no)?;
        self.apply_head(head, depth, line.no, obj)
    }

    /// Decodes the value a key line introduces (nested lines live below `depth`).
    fn apply_head(
        &mut self,
        head: Head<'a>,
        depth: usize,
        no: usize,
        obj: &mut ObjBuilder,
    ) -> Result<()> {
        match head {
            Head::Field { key, quoted, rest } => {
                let value = if !rest.is_empty() {
                    value_token(rest, no)?
                } else {
                    let mut child = ObjBuilder::new(self.strict, self.expand);
                    if let Some(next) = self.peek()?
                        && next.depth > depth
                    {
                        if self.v4 && self.strict && next.depth != depth + 1 {
                            return err(next.no, "nested object indented more than one level");
                        }
                        self.object_body(next.depth, &mut child)?;
                    }
                    child.finish()
                };
                obj.insert(key, quoted, value, no)
            }
            Head::Array {
                key: Some((key, quoted)),
                header,
                inline,
            } => {
                let value = self.array_body(&header, inline, depth, no)?;
                obj.insert(key, quoted, value, no)
            }
            Head::Array { key: None, .. } => err(no, "array header without a key inside an object"),
        }
    }

    /// Splits a key line into key and either a value or an array header.
    fn head(&self, content: &'a str, no: usize) -> Result<Head<'a>> {
        let b = content.as_bytes();
        let (key, quoted, at) = if b.first() == Some(&b'"') {
            let Some(end) = find_closing_quote(b, 0) else {
                return err(no, "unterminated quoted key");
            };
            let key = unescape(&content[1..end]).map_err(|m| ToonError::new(no, m))?;
            (key, true, end + 1)
        } else {
            let end = b
                .iter()
                .position(|&c| c == b':' || c == b'[')
                .unwrap_or(b.len());
            (trim(&content[..end]).to_owned(), false, end)
        };
        match b.get(at) {
            Some(b':') if !quoted && key.is_empty() => err(no, "missing key before ':'"),
            Some(b':') => Ok(Head::Field {
                key,
                quoted,
                rest: trim(&content[at + 1..]),
            }),
            Some(b'[') => match self.header(content, at) {
                Ok((header, inline)) => Ok(Head::Array {
                    key: (quoted || !key.is_empty()).then_some((key, quoted)),
                    header,
                    inline,
                }),
                // Non-strict: an unusable bracket makes the whole pre-colon text a literal key.
                Err(_) if !self.strict && !quoted => match content.find(':') {
                    Some(colon) => Ok(Head::Field {
                        key: trim(&content[..colon]).to_owned(),
                        quoted: false,
                        rest: trim(&content[colon + 1..]),
                    }),
                    None => err(no, "missing colon after key"),
                },
                Err(msg) => err(no, msg),
            },
            _ => err(no, "missing colon after key"),
        }
    }

    /// Parses `[N<delim>]{fields}:` starting at the `[`; returns the header and inline text.
    fn header(
        &self,
        content: &'a str,
        open: usize,
    ) -> std::result::Result<(Header, &'a str), String> {
        let b = content.as_bytes();
        let close = content[open..]
            .find(']')
            .map(|i| open + i)
            .ok_or("unterminated array length bracket")?;
        let mut len_text = &content[open + 1..close];
        let delim = match len_text.as_bytes().last() {
            Some(b'\t') => b'\t',
            Some(b'|') => b'|',
            _ => b',',
        };
        if delim != b',' {
            len_text = &len_text[..len_text.len() - 1];
        }
        let keyed = self.v4 && len_text.ends_with(':');
        if keyed {
            len_text = &len_text[..len_text.len() - 1];
        }
        let canonical = !len_text.is_empty()
            && len_text.bytes().all(|c| c.is_ascii_digit())
            && !(len_text.len() > 1 && len_text.starts_with('0'));
        let len = canonical
            .then(|| len_text.parse::<usize>().ok())
            .flatten()
            .ok_or_else(|| format!("invalid array length \"{len_text}\""))?;
        let skip_ws = |mut i: usize| {
            while !self.strict && b.get(i) == Some(&b' ') {
                i += 1;
            }
            i
        };
        let mut at = skip_ws(close + 1);
        let mut fields = None;
        if b.get(at) == Some(&b'{') {
            if self.v4 {
                let end = tables::group_end(b, at).ok_or("unterminated field list")?;
                fields = Some(tables::parse_fields(
                    &content[at + 1..end],
                    delim,
                    self.strict,
                )?);
                at = end + 1;
            } else {
                let end = field_list_end(b, at).ok_or("unterminated field list")?;
                fields = Some(self.fields(&content[at + 1..end], delim)?);
                at = skip_ws(end + 1);
            }
        }
        if b.get(at) != Some(&b':') {
            return Err("expected ':' right after the array header".into());
        }
        let inline = trim(&content[at + 1..]);
        if self.v4 && (fields.is_some() || keyed) && !inline.is_empty() {
            return Err("unexpected text after a table header".into());
        }
        if keyed && fields.is_none() {
            return Err("keyed table header without a field list".into());
        }
        Ok((
            Header {
                len,
                delim,
                fields,
                keyed,
            },
            inline,
        ))
    }

    /// Array contents for a header on a line at `depth` (rows/items live at `depth + 1`).
    fn array_body(&mut self, h: &Header, inline: &str, depth: usize, no: usize) -> Result<Value> {
        if h.keyed {
            return self.keyed_entries(h, depth + 1, no);
        }
        if !inline.is_empty() {
            let items = split(inline, h.delim)
                .map(|tok| primitive(tok, no))
                .collect::<Result<Vec<_>>>()?;
            if self.strict && items.len() != h.len {
                return err(
                    no,
                    format!("expected {} inline values, found {}", h.len, items.len()),
                );
            }
            return Ok(Value::Array(items));
        }
        match &h.fields {
            Some(fields) => self.rows(h, fields, depth + 1, no),
            None => self.items(h.len, depth + 1, no),
        }
    }

    fn rows(&mut self, h: &Header, fields: &[FieldSpec], depth: usize, no: usize) -> Result<Value> {
        let mut rows = Vec::with_capacity(h.len.min(4096));
        let mut first = None;
        while let Some(line) = self.peek()? {
            if line.depth != depth || !is_data_row(line.content, h.delim) {
                break;
            }
            self.advance();
            first.get_or_insert(line.no);
            if self.v4 {
                rows.push(self.row_object(line.content, fields, h.delim, line.no)?);
                continue;
            }
            let mut obj = ObjBuilder::new(self.strict, self.expand);
            let mut n = 0;
            for tok in split(line.content, h.delim) {
                if let Some(f) = fields.get(n) {
                    obj.insert(f.name.clone(), f.quoted, primitive(tok, line.no)?, line.no)?;
                }
                n += 1;
            }
            if self.strict && n != fields.len() {
                return err(
                    line.no,
                    format!("expected {} values in row, found {n}", fields.len()),
                );
            }
            rows.push(obj.finish());
        }
        if self.strict && rows.len() != h.len {
            return err(no, format!("expected {} rows, found {}", h.len, rows.len()));
        }
        self.check_blanks(first, "tabular array")?;
        Ok(Value::Array(rows))
    }

    fn items(&mut self, len: usize, depth: usize, no: usize) -> Result<Value> {
        let mut items = Vec::with_capacity(len.min(4096));
        let mut first = None;
        while let Some(line) = self.peek()? {
            if line.depth != depth || !is_list_item(line.content) {
                break;
            }
            self.advance();
            first.get_or_insert(line.no);
            items.push(self.list_item(line, depth)?);
        }
        if self.strict && items.len() != len {
            return err(
                no,
                format!("expected {len} list items, found {}", items.len()),
            );
        }
        self.check_blanks(first, "list array")?;
        Ok(Value::Array(items))
    }

    /// One `- …` item at `depth`: primitive, inline/nested array, or object whose
    /// first field shares the hyphen line and whose other fields sit at `depth + 1`.
    fn list_item(&mut self, line: Line<'a>, depth: usize) -> Result<Value> {
        let rest = trim(line.content.get(2..).unwrap_or(""));
        let mut obj = ObjBuilder::new(self.strict, self.expand);
        if rest.is_empty() {
            // Bare hyphen: an empty object (or, leniently, fields on the following lines).
            if let Some(next) = self.peek()?
                && next.depth == depth + 1
                && !is_list_item(next.content)
            {
                self.object_body(depth + 1, &mut obj)?;
            }
            return Ok(obj.finish());
        }
        if !has_unquoted_colon(rest) {
            return value_token(rest, line.no);
        }
        let head = self.head(rest, line.no)?;
        if let Head::Array {
            key: None,
            header,
            inline,
        } = head
        {
            if self.v4 && self.strict && (header.fields.is_some() || header.keyed) {
                return err(line.no, "a keyless table header cannot be a list item");
            }
            return self.array_body(&header, inline, depth, line.no);
        }
        self.apply_head(head, depth + 1, line.no, &mut obj)?;
        self.object_body(depth + 1, &mut obj)?;
        Ok(obj.finish())
    }
}
