//! The decoder's lexical layer, shared by the value parser (`mod.rs`) and the table parser
//! (`tables.rs`): the line cursor ([`Parser`]'s fields and its scanning), parsed array headers,
//! and the quote-aware splitting of one line into tokens.

use serde_json::Value;

use super::super::error::ToonError;
use super::super::text::{find_closing_quote, parse_number, unescape};

/// The decoder's result type.
pub(super) type Result<T> = std::result::Result<T, ToonError>;

/// A non-blank line with its indentation stripped.
#[derive(Clone, Copy)]
pub(super) struct Line<'a> {
    pub(super) depth: usize,
    pub(super) content: &'a str,
    pub(super) no: usize,
}

/// Parsed array header: `[N<delim>]{fields}` (v4: `[N:<delim>]` for a keyed table).
pub(super) struct Header {
    pub(super) len: usize,
    pub(super) delim: u8,
    /// Columns with whether each name was quoted (quoted names never expand); v4 groups nest.
    pub(super) fields: Option<Vec<FieldSpec>>,
    /// v4 keyed table: entries `key: cells` instead of rows.
    pub(super) keyed: bool,
}

/// One header column: a leaf, or a group with its own columns.
pub(super) struct FieldSpec {
    pub(super) name: String,
    pub(super) quoted: bool,
    pub(super) children: Vec<FieldSpec>,
}

/// The decoder's state: the text, the one-line lookahead and the options it decodes by.
pub(super) struct Parser<'a> {
    pub(super) src: &'a str,
    pub(super) pos: usize,
    pub(super) next_no: usize,
    pub(super) peeked: Option<Line<'a>>,
    pub(super) last_no: usize,
    /// Line numbers of blank lines, ascending; strict mode forbids them inside arrays.
    pub(super) blanks: Vec<usize>,
    pub(super) indent: usize,
    pub(super) strict: bool,
    pub(super) v4: bool,
    pub(super) expand: bool,
}

/// `s` without the spaces and tabs around it.
pub(super) fn trim(s: &str) -> &str {
    s.trim_matches([' ', '\t'])
}

/// Positions of the first unquoted `delim` and the first unquoted colon.
pub(super) fn first_unquoted(s: &str, delim: u8) -> (Option<usize>, Option<usize>) {
    let b = s.as_bytes();
    let (mut d, mut c) = (None, None);
    let mut in_quotes = false;
    let mut i = 0;
    while i < b.len() && (d.is_none() || c.is_none()) {
        match b[i] {
            b'\\' if in_quotes => i += 1,
            b'"' => in_quotes = !in_quotes,
            x if !in_quotes && x == delim && d.is_none() => d = Some(i),
            b':' if !in_quotes && c.is_none() => c = Some(i),
            _ => {}
        }
        i += 1;
    }
    (d, c)
}

/// Whether `s` holds a colon outside quotes.
pub(super) fn has_unquoted_colon(s: &str) -> bool {
    // Lines never contain '\n', so it serves as a delimiter that cannot match.
    first_unquoted(s, b'\n').1.is_some()
}

/// A row at row depth unless a colon comes before the first delimiter (then it is a key line).
pub(super) fn is_data_row(s: &str, delim: u8) -> bool {
    match first_unquoted(s, delim) {
        (_, None) => true,
        (Some(d), Some(c)) => d < c,
        (None, Some(_)) => false,
    }
}

/// Splits on unquoted `delim`, yielding trimmed tokens (empty input yields one empty token).
pub(super) struct Split<'a> {
    s: &'a str,
    pos: usize,
    delim: u8,
    done: bool,
}

/// The tokens of `s` between unquoted `delim`s.
pub(super) fn split(s: &str, delim: u8) -> Split<'_> {
    Split {
        s,
        pos: 0,
        delim,
        done: false,
    }
}

impl<'a> Iterator for Split<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.done {
            return None;
        }
        let b = self.s.as_bytes();
        let mut in_quotes = false;
        let mut i = self.pos;
        while i < b.len() {
            match b[i] {
                b'\\' if in_quotes => i += 1,
                b'"' => in_quotes = !in_quotes,
                x if x == self.delim && !in_quotes => {
                    let tok = &self.s[self.pos..i];
                    self.pos = i + 1;
                    return Some(trim(tok));
                }
                _ => {}
            }
            i += 1;
        }
        self.done = true;
        Some(trim(&self.s[self.pos..]))
    }
}

/// A decoding error at `line`.
pub(super) fn err<T>(line: usize, msg: impl Into<String>) -> Result<T> {
    Err(ToonError::new(line, msg))
}

/// A single primitive token (already trimmed).
pub(super) fn primitive(tok: &str, no: usize) -> Result<Value> {
    if tok.starts_with('"') {
        return Ok(Value::String(quoted(tok, no)?));
    }
    Ok(match tok {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        "null" => Value::Null,
        _ => parse_number(tok).unwrap_or_else(|| Value::String(tok.to_owned())),
    })
}

/// A token that must be exactly one quoted string.
fn quoted(tok: &str, no: usize) -> Result<String> {
    match find_closing_quote(tok.as_bytes(), 0) {
        None => err(no, "unterminated string: missing closing quote"),
        Some(end) if end + 1 != tok.len() => err(no, "unexpected characters after closing quote"),
        Some(end) => unescape(&tok[1..end]).map_err(|m| ToonError::new(no, m)),
    }
}

impl<'a> Parser<'a> {
    /// Reads lines until a non-blank one, recording blanks and checking indentation.
    fn scan(&mut self) -> Result<Option<Line<'a>>> {
        while self.pos < self.src.len() {
            let rest = &self.src[self.pos..];
            let (raw, advance) = match rest.find('\n') {
                Some(i) => (&rest[..i], i + 1),
                None => (rest, rest.len()),
            };
            self.pos += advance;
            let no = self.next_no;
            self.next_no += 1;
            let raw = raw.strip_suffix('\r').unwrap_or(raw);
            let spaces = raw.len() - raw.trim_start_matches(' ').len();
            let after = &raw[spaces..];
            // v4 comment line: `#` after spaces only; not a blank, exempt from indentation.
            if self.v4 && after.starts_with('#') {
                continue;
            }
            if trim(after).is_empty() {
                self.blanks.push(no);
                continue;
            }
            let content = if after.starts_with('\t') {
                if self.strict {
                    return err(no, "tabs are not allowed in indentation");
                }
                after.trim_start_matches([' ', '\t'])
            } else {
                after
            };
            if self.strict && spaces % self.indent != 0 {
                return err(
                    no,
                    format!(
                        "indentation must be a multiple of {} spaces, found {spaces}",
                        self.indent
                    ),
                );
            }
            let depth = spaces / self.indent;
            return Ok(Some(Line { depth, content, no }));
        }
        Ok(None)
    }

    /// The next non-blank line, without consuming it.
    pub(super) fn peek(&mut self) -> Result<Option<Line<'a>>> {
        if self.peeked.is_none() {
            self.peeked = self.scan()?;
        }
        Ok(self.peeked)
    }

    /// Consumes the peeked line.
    pub(super) fn advance(&mut self) {
        if let Some(line) = self.peeked.take() {
            self.last_no = line.no;
        }
    }

    /// Strict mode: no blank line between the first item and the last consumed line.
    pub(super) fn check_blanks(&self, first: Option<usize>, what: &str) -> Result<()> {
        let Some(first) = first.filter(|_| self.strict) else {
            return Ok(());
        };
        let i = self.blanks.partition_point(|&b| b <= first);
        match self.blanks.get(i) {
            Some(&b) if b < self.last_no => err(b, format!("blank line inside {what}")),
            _ => Ok(()),
        }
    }
}
