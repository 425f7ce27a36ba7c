//! Table headers and bodies for the decoder: v3 flat field lists, v4 nested field groups
//! (`a{b,c}`, a tree whose leaves take the row cells depth-first) and v4 keyed tables
//! (`key[N:]{…}:` with one `entry: cells` line per entry). A child of `decode`, so it extends
//! the same parser.

use serde_json::Value;

use super::super::expand::ObjBuilder;
use super::super::text::{find_closing_quote, unescape};
use super::lex::{
    FieldSpec, Header, Line, Parser, Result, err, first_unquoted, primitive, split, trim,
};

/// Cells a row of `fields` holds.
pub(super) fn leaves(fields: &[FieldSpec]) -> usize {
    fields
        .iter()
        .map(|f| {
            if f.children.is_empty() {
                1
            } else {
                leaves(&f.children)
            }
        })
        .sum()
}

/// Index of the `}` closing the group that opens at `open`, skipping quoted names and nested
/// groups.
pub(super) fn group_end(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'"' => i = find_closing_quote(b, i)?,
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Parses the text between the braces of a field list into a tree.
pub(super) fn parse_fields(
    list: &str,
    delim: u8,
    strict: bool,
) -> std::result::Result<Vec<FieldSpec>, String> {
    if trim(list).is_empty() {
        return Err("empty field list".into());
    }
    let b = list.as_bytes();
    let mut fields: Vec<FieldSpec> = Vec::new();
    let mut i = 0;
    loop {
        while i < b.len() && b[i] == b' ' {
            i += 1;
        }
        let (name, quoted, mut at) = if b.get(i) == Some(&b'"') {
            let end = find_closing_quote(b, i).ok_or("malformed quoted field name")?;
            (unescape(&list[i + 1..end])?, true, end + 1)
        } else {
            let end = (i..b.len())
                .find(|&j| b[j] == delim || b[j] == b'{' || b[j] == b'}')
                .unwrap_or(b.len());
            (trim(&list[i..end]).to_owned(), false, end)
        };
        if strict && !quoted && name.bytes().any(|c| matches!(c, b',' | b'|' | b'\t')) {
            return Err("field list delimiter does not match the bracket delimiter".into());
        }
        let mut children = Vec::new();
        if b.get(at) == Some(&b'{') {
            let end = group_end(b, at).ok_or("unmatched '{' in field list")?;
            children = parse_fields(&list[at + 1..end], delim, strict)?;
            at = end + 1;
        } else if b.get(at) == Some(&b'}') {
            return Err("unmatched '}' in field list".into());
        }
        if strict && fields.iter().any(|f| f.name == name) {
            return Err(format!("field \"{name}\" appears twice"));
        }
        // Non-strict: both columns take their cells; the later one wins when the row is built.
        fields.push(FieldSpec {
            name,
            quoted,
            children,
        });
        while at < b.len() && b[at] == b' ' {
            at += 1;
        }
        match b.get(at) {
            None => return Ok(fields),
            Some(&c) if c == delim => i = at + 1,
            Some(_) => return Err("unexpected text in field list".into()),
        }
    }
}

/// Builds one object from `cells` laid over `fields` depth-first.
fn fill(
    fields: &[FieldSpec],
    cells: &mut std::slice::Iter<'_, Value>,
    strict: bool,
    no: usize,
) -> Result<Value> {
    let mut obj = ObjBuilder::new(strict, false);
    for f in fields {
        let v = if f.children.is_empty() {
            cells.next().cloned().unwrap_or(Value::Null)
        } else {
            fill(&f.children, cells, strict, no)?
        };
        obj.insert(f.name.clone(), f.quoted, v, no)?;
    }
    Ok(obj.finish())
}

impl<'a> Parser<'a> {
    /// A v3 field list: flat names, quoted or bare.
    pub(super) fn fields(
        &self,
        list: &str,
        delim: u8,
    ) -> std::result::Result<Vec<FieldSpec>, String> {
        if trim(list).is_empty() {
            return Err("empty field list".into());
        }
        split(list, delim)
            .map(|tok| {
                if tok.starts_with('"') {
                    let end = find_closing_quote(tok.as_bytes(), 0)
                        .filter(|&e| e + 1 == tok.len())
                        .ok_or("malformed quoted field name")?;
                    return Ok(FieldSpec {
                        name: unescape(&tok[1..end])?,
                        quoted: true,
                        children: Vec::new(),
                    });
                }
                if self.strict && tok.bytes().any(|c| matches!(c, b',' | b'|' | b'\t')) {
                    return Err("field list delimiter does not match the bracket delimiter".into());
                }
                Ok(FieldSpec {
                    name: tok.to_owned(),
                    quoted: false,
                    children: Vec::new(),
                })
            })
            .collect()
    }

    /// One tabular row (or keyed entry) of `fields` from its cell text.
    pub(super) fn row_object(
        &self,
        text: &str,
        fields: &[FieldSpec],
        delim: u8,
        no: usize,
    ) -> Result<Value> {
        let cells = split(text, delim)
            .map(|tok| primitive(tok, no))
            .collect::<Result<Vec<_>>>()?;
        let want = leaves(fields);
        if self.strict && cells.len() != want {
            return err(
                no,
                format!("expected {want} values in row, found {}", cells.len()),
            );
        }
        fill(fields, &mut cells.iter(), self.strict, no)
    }

    /// The entries of a keyed table whose header sits at `depth - 1`.
    pub(super) fn keyed_entries(&mut self, h: &Header, depth: usize, no: usize) -> Result<Value> {
        let fields = h.fields.as_deref().ok_or_else(|| {
            super::super::error::ToonError::new(no, "keyed table without a field list")
        })?;
        let mut out = ObjBuilder::new(self.strict, false);
        let mut n = 0;
        let mut first = None;
        while let Some(line) = self.peek()? {
            if line.depth < depth {
                break;
            }
            if self.strict && line.depth > depth {
                return err(line.no, "unexpected indentation in keyed table");
            }
            self.advance();
            first.get_or_insert(line.no);
            let (key, quoted, rest) = entry_key(line)?;
            if rest.is_empty() {
                return err(line.no, "keyed table entry without cells");
            }
            out.insert(
                key,
                quoted,
                self.row_object(rest, fields, h.delim, line.no)?,
                line.no,
            )?;
            n += 1;
        }
        if self.strict && n != h.len {
            return err(no, format!("expected {} entries, found {n}", h.len));
        }
        self.check_blanks(first, "keyed table")?;
        Ok(out.finish())
    }
}

/// `key: cells` — the key is the text before the first unquoted colon (or a quoted key).
fn entry_key(line: Line<'_>) -> Result<(String, bool, &str)> {
    let c = line.content;
    if c.starts_with('"') {
        let end = find_closing_quote(c.as_bytes(), 0).ok_or_else(|| {
            super::super::error::ToonError::new(line.no, "unterminated quoted key")
        })?;
        let key =
            unescape(&c[1..end]).map_err(|m| super::super::error::ToonError::new(line.no, m))?;
        let rest = trim(&c[end + 1..]);
        return match rest.strip_prefix(':') {
            Some(r) => Ok((key, true, trim(r))),
            None => err(line.no, "missing colon after entry key"),
        };
    }
    match first_unquoted(c, b'\n').1 {
        Some(colon) => Ok((trim(&c[..colon]).to_owned(), false, trim(&c[colon + 1..]))),
        None => err(line.no, "keyed table entry without a colon"),
    }
}

/// Index of the `}` closing a field list that opens at `open`, skipping quoted names.
pub(super) fn field_list_end(b: &[u8], open: usize) -> Option<usize> {
    let mut i = open + 1;
    while i < b.len() {
        match b[i] {
            b'"' => i = find_closing_quote(b, i)?,
            b'}' => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}
