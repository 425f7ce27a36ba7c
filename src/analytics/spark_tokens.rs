//! The tokens of the SQL that `spark.rs` rewrites, and the bracket- and clause-aware scans over
//! them the translator leans on (closing brackets, top-level commas, ORDER BY lists).

use anyhow::{Result, bail};

/// One lexical token of SQL (comments are dropped).
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    Space(String),
    Word(String),
    /// A string literal, quotes included.
    Str(String),
    /// A double-quoted identifier, quotes included.
    Quoted(String),
    Num(String),
    Op(String),
}

impl Tok {
    /// The token's text as written.
    pub(super) fn text(&self) -> &str {
        match self {
            Tok::Space(s)
            | Tok::Word(s)
            | Tok::Str(s)
            | Tok::Quoted(s)
            | Tok::Num(s)
            | Tok::Op(s) => s,
        }
    }

    /// Whether it is the word `w`, in any case.
    pub(super) fn is_word(&self, w: &str) -> bool {
        matches!(self, Tok::Word(s) if s.eq_ignore_ascii_case(w))
    }

    /// Whether it is the operator `o`.
    pub(super) fn is_op(&self, o: &str) -> bool {
        matches!(self, Tok::Op(s) if s == o)
    }
}

/// The tokens of `sql`, comments turned to a space or dropped.
pub(super) fn lex(sql: &str) -> Vec<Tok> {
    let b: Vec<char> = sql.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let take = |i: &mut usize, f: &dyn Fn(char) -> bool| {
        let start = *i;
        while *i < b.len() && f(b[*i]) {
            *i += 1;
        }
        b[start..*i].iter().collect::<String>()
    };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '-' && next == Some('-') {
            take(&mut i, &|c| c != '\n');
        } else if c == '/' && next == Some('*') {
            let end = sql_find(&b, i + 2, "*/").map_or(b.len(), |e| e + 2);
            i = end;
            out.push(Tok::Space(" ".into()));
        } else if c.is_whitespace() {
            out.push(Tok::Space(take(&mut i, &|c| c.is_whitespace())));
        } else if c.is_alphabetic() || c == '_' {
            out.push(Tok::Word(take(&mut i, &|c| {
                c.is_alphanumeric() || c == '_'
            })));
        } else if c.is_ascii_digit() || (c == '.' && next.is_some_and(|n| n.is_ascii_digit())) {
            let start = i;
            take(&mut i, &|c| c.is_ascii_digit() || c == '.');
            if i < b.len() && (b[i] == 'e' || b[i] == 'E') {
                i += 1;
                if i < b.len() && (b[i] == '-' || b[i] == '+') {
                    i += 1;
                }
                take(&mut i, &|c| c.is_ascii_digit());
            }
            out.push(Tok::Num(b[start..i].iter().collect()));
        } else if c == '\'' || c == '"' {
            let start = i;
            i += 1;
            while i < b.len() {
                if b[i] == c && b.get(i + 1) == Some(&c) {
                    i += 2;
                } else if b[i] == c {
                    i += 1;
                    break;
                } else {
                    i += 1;
                }
            }
            let s: String = b[start..i].iter().collect();
            out.push(if c == '\'' {
                Tok::Str(s)
            } else {
                Tok::Quoted(s)
            });
        } else {
            let three: String = b[i..(i + 3).min(b.len())].iter().collect();
            let two: String = b[i..(i + 2).min(b.len())].iter().collect();
            let op = if three == "->>" {
                three
            } else if ["::", "->", "<=", ">=", "<>", "!=", "||"].contains(&two.as_str()) {
                two
            } else {
                c.to_string()
            };
            i += op.chars().count();
            out.push(Tok::Op(op));
        }
    }
    out
}

/// The position of `pat` in `b` from `from` on.
fn sql_find(b: &[char], from: usize, pat: &str) -> Option<usize> {
    let p: Vec<char> = pat.chars().collect();
    (from..b.len().saturating_sub(p.len() - 1)).find(|&i| b[i..i + p.len()] == p[..])
}

/// Words that end an ORDER BY list.
const AFTER_ORDER: [&str; 8] = [
    "rows",
    "range",
    "limit",
    "offset",
    "window",
    "union",
    "except",
    "intersect",
];

/// The index of the next token after `i` that is not a space.
pub(super) fn skip(toks: &[Tok], mut i: usize) -> usize {
    while i < toks.len() && matches!(toks[i], Tok::Space(_)) {
        i += 1;
    }
    i
}

/// The index of the bracket closing the one at `open`.
pub(super) fn closing(toks: &[Tok], open: usize) -> Result<usize> {
    let mut depth = 0;
    for (i, t) in toks.iter().enumerate().skip(open) {
        match t {
            Tok::Op(o) if o == "(" || o == "[" => depth += 1,
            Tok::Op(o) if o == ")" || o == "]" => {
                depth -= 1;
                if depth == 0 {
                    return Ok(i);
                }
            }
            _ => {}
        }
    }
    bail!("unbalanced brackets")
}

/// Splits at the top-level commas.
pub(super) fn split_commas(toks: &[Tok]) -> Result<Vec<&[Tok]>> {
    let mut parts = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i < toks.len() {
        if toks[i].is_op("(") || toks[i].is_op("[") {
            i = closing(toks, i)?;
        } else if toks[i].is_word("lambda") {
            // `lambda acc, x:` names its parameters with commas of its own.
            i = (i..toks.len()).find(|&j| toks[j].is_op(":")).unwrap_or(i);
        } else if toks[i].is_op(",") {
            parts.push(&toks[start..i]);
            start = i + 1;
        }
        i += 1;
    }
    parts.push(&toks[start..]);
    Ok(parts)
}

/// The top-level position of `ORDER BY` in `toks`, if any.
pub(super) fn find_order_by(toks: &[Tok]) -> Result<Option<usize>> {
    let mut i = 0;
    while i < toks.len() {
        if toks[i].is_op("(") || toks[i].is_op("[") {
            i = closing(toks, i)?;
        } else if toks[i].is_word("order")
            && toks.get(skip(toks, i + 1)).is_some_and(|t| t.is_word("by"))
        {
            return Ok(Some(i));
        }
        i += 1;
    }
    Ok(None)
}

/// The words among `toks`, in order.
pub(super) fn words(toks: &[Tok]) -> Vec<String> {
    toks.iter()
        .filter_map(|t| match t {
            Tok::Word(w) => Some(w.clone()),
            _ => None,
        })
        .collect()
}

/// Whether the token before `i` (spaces skipped) is the operator `op`.
pub(super) fn prev_is(toks: &[Tok], i: usize, op: &str) -> bool {
    toks[..i]
        .iter()
        .rev()
        .find(|t| !matches!(t, Tok::Space(_)))
        .is_some_and(|t| t.is_op(op))
}

/// Where the ORDER BY list starting at `from` ends: a clause word at its level, or the end.
pub(super) fn order_end(toks: &[Tok], from: usize) -> Result<usize> {
    let mut i = from;
    while i < toks.len() {
        match &toks[i] {
            Tok::Op(o) if o == "(" || o == "[" => i = closing(toks, i)?,
            Tok::Word(w) if AFTER_ORDER.contains(&w.to_ascii_lowercase().as_str()) => return Ok(i),
            _ => {}
        }
        i += 1;
    }
    Ok(toks.len())
}
