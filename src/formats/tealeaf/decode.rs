//! Reading TeaLeaf text back into JSON as tealeaf-core's lexer and parser read it (lexer.rs,
//! parser.rs), for everything the encoder writes: in a tuple `~` is an absent key when the
//! field is nullable and null otherwise, `null` is null (parser.rs:469-493); elsewhere both are
//! null. Stricter than tealeaf-core about commas (required between items; one after the last
//! is allowed) and tuple arity, so a malformed answer is an error naming its line. A timestamp
//! reads as its text.

use super::schema::{FieldType, Schema, Schemas};
use serde_json::{Map, Number, Value};

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// A letter or `_`, then letters, digits, `_`, `-`, `.`; keywords included (lexer.rs:182-194).
    Word(String),
    /// A quoted string, unescaped.
    Str(String),
    Num(Number),
    /// `NaN`, `inf`, `-inf`: numbers JSON has not; tealeaf-core exports them as null
    /// (lib.rs:510-515).
    NonFinite,
    /// `~`
    Tilde,
    /// `@name`
    Directive(String),
    Punct(char),
    Eof,
}

struct Token {
    tok: Tok,
    line: usize,
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// Splits `text` into tokens, skipping whitespace and `#` comments (lexer.rs:82-237).
fn lex(text: &str) -> Result<Vec<Token>, (usize, String)> {
    let mut tokens = Vec::new();
    let mut line = 1;
    let mut chars = text.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        let word_end = |from: usize| {
            text[from..]
                .find(|c: char| !is_word_char(c))
                .map_or(text.len(), |n| from + n)
        };
        let tok = match c {
            '\n' => {
                line += 1;
                chars.next();
                continue;
            }
            c if c.is_whitespace() => {
                chars.next();
                continue;
            }
            '#' => {
                while chars.next_if(|&(_, c)| c != '\n').is_some() {}
                continue;
            }
            '{' | '}' | '[' | ']' | '(' | ')' | ',' | ':' | '?' => {
                chars.next();
                Tok::Punct(c)
            }
            '~' => {
                chars.next();
                Tok::Tilde
            }
            '"' => {
                chars.next();
                Tok::Str(string(&mut chars, &mut line).map_err(|e| (line, e))?)
            }
            '@' => {
                let end = word_end(start + 1);
                while chars.next_if(|&(i, _)| i < end).is_some() {}
                Tok::Directive(text[start + 1..end].to_string())
            }
            c if c.is_alphabetic() || c == '_' => {
                let end = word_end(start);
                while chars.next_if(|&(i, _)| i < end).is_some() {}
                match &text[start..end] {
                    "NaN" | "inf" => Tok::NonFinite,
                    w => Tok::Word(w.to_string()),
                }
            }
            '0'..='9' if is_date(&text[start..]) => {
                let end = timestamp_end(text, start);
                while chars.next_if(|&(i, _)| i < end).is_some() {}
                Tok::Str(text[start..end].to_string())
            }
            '-' | '0'..='9' => {
                let end = number_end(text, start);
                while chars.next_if(|&(i, _)| i < end).is_some() {}
                let w = &text[start..end];
                if w == "-inf" {
                    Tok::NonFinite
                } else {
                    Tok::Num(number(w).ok_or_else(|| {
                        (
                            line,
                            format!("'{w}' is not a number (quote strings like it)"),
                        )
                    })?)
                }
            }
            c => return Err((line, format!("unexpected character {c:?}"))),
        };
        tokens.push(Token { tok, line });
    }
    tokens.push(Token {
        tok: Tok::Eof,
        line,
    });
    Ok(tokens)
}

/// Whether `rest` starts with a date, `YYYY-MM-DD` in ASCII digits: tealeaf-core reads a
/// timestamp there before trying a number (lexer.rs:143-162).
fn is_date(rest: &str) -> bool {
    let b = rest.as_bytes();
    b.len() >= 10
        && [0, 1, 2, 3, 5, 6, 8, 9]
            .iter()
            .all(|&i| b[i].is_ascii_digit())
        && b[4] == b'-'
        && b[7] == b'-'
}

/// Where the timestamp starting at `start` ends: the date, then an optional `T` time with
/// digits and `:`, fraction, and `Z` or a `+HH:MM`/`-HH:MM` zone (lexer.rs:398-443). bench
/// reads it as its text, a string: JSON has no timestamp (tealeaf-core exports it as an ISO
/// 8601 string too, normalised to milliseconds).
fn timestamp_end(text: &str, start: usize) -> usize {
    let b = text.as_bytes();
    let mut i = start + 10;
    let digits = |mut i: usize, colon: bool| {
        while b
            .get(i)
            .is_some_and(|c| c.is_ascii_digit() || (colon && *c == b':'))
        {
            i += 1;
        }
        i
    };
    if b.get(i) == Some(&b'T') {
        i = digits(i + 1, true);
        if b.get(i) == Some(&b'.') {
            i = digits(i + 1, false);
        }
        match b.get(i) {
            Some(b'Z') => i += 1,
            Some(b'+' | b'-') => i = digits(i + 1, true),
            _ => {}
        }
    }
    i
}

/// Where the number starting at `start` ends: `-`, digits, one `.`, one exponent with its
/// sign (lexer.rs:499-517), and any word characters stuck to it, which make it no number.
fn number_end(text: &str, start: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = start + 1;
    let (mut dot, mut exp) = (false, false);
    while let Some(&b) = bytes.get(i) {
        match b {
            b'0'..=b'9' => {}
            b'.' if !dot && !exp => dot = true,
            b'e' | b'E' if !exp => {
                exp = true;
                if matches!(bytes.get(i + 1), Some(b'+' | b'-')) {
                    i += 1;
                }
            }
            _ => break,
        }
        i += 1;
    }
    text[i..]
        .find(|c: char| !is_word_char(c))
        .map_or(text.len(), |n| i + n)
}

/// A number's value: integers stay exact up to u64, the rest are floats (lexer.rs:519-536).
fn number(w: &str) -> Option<Number> {
    if !w
        .trim_start_matches('-')
        .starts_with(|c: char| c.is_ascii_digit())
    {
        return None;
    }
    if let Ok(i) = w.parse::<i64>() {
        return Some(i.into());
    }
    if let Ok(u) = w.parse::<u64>() {
        return Some(u.into());
    }
    w.parse::<f64>().ok().and_then(Number::from_f64)
}

/// The rest of a quoted string after its opening `"`, escapes resolved (lexer.rs:251-317).
fn string(
    chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>,
    line: &mut usize,
) -> Result<String, String> {
    let mut out = String::new();
    while let Some((_, c)) = chars.next() {
        match c {
            '"' => return Ok(out),
            '\\' => match chars.next().map(|x| x.1) {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some('b') => out.push('\u{8}'),
                Some('f') => out.push('\u{c}'),
                Some(c @ ('\\' | '"')) => out.push(c),
                Some('u') => {
                    let hex: String = (0..4).filter_map(|_| chars.next().map(|x| x.1)).collect();
                    let ch = u32::from_str_radix(&hex, 16)
                        .ok()
                        .and_then(char::from_u32)
                        .ok_or_else(|| format!("bad \\u escape '{hex}'"))?;
                    out.push(ch);
                }
                other => return Err(format!("bad escape \\{other:?}")),
            },
            c => {
                if c == '\n' {
                    *line += 1;
                }
                out.push(c);
            }
        }
    }
    Err("unterminated string".into())
}

/// Parses a whole document: `@root-array` gives back the list under `root` (lib.rs:360-367),
/// otherwise the `key:value` lines are the root object.
pub(super) fn document(text: &str) -> Result<Value, String> {
    let tokens = lex(text).map_err(|(line, e)| format!("line {line}: {e}"))?;
    let mut r = Reader { tokens, pos: 0 };
    r.document().map_err(|e| format!("line {}: {e}", r.line()))
}

struct Reader {
    tokens: Vec<Token>,
    pos: usize,
}

impl Reader {
    fn line(&self) -> usize {
        self.tokens[self.pos.min(self.tokens.len() - 1)].line
    }

    fn peek(&self) -> &Tok {
        &self.tokens[self.pos].tok
    }

    fn next(&mut self) -> Tok {
        let tok = std::mem::replace(&mut self.tokens[self.pos].tok, Tok::Eof);
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        tok
    }

    fn eat(&mut self, c: char) -> bool {
        let found = *self.peek() == Tok::Punct(c);
        if found {
            self.next();
        }
        found
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!("expected '{c}', found {}", self.found()))
        }
    }

    fn found(&self) -> String {
        match self.peek() {
            Tok::Eof => "the end".into(),
            Tok::Punct(c) => format!("'{c}'"),
            t => format!("{t:?}"),
        }
    }

    fn word(&mut self, what: &str) -> Result<String, String> {
        match self.peek() {
            Tok::Word(_) => match self.next() {
                Tok::Word(w) => Ok(w),
                _ => unreachable!("peeked a word"),
            },
            _ => Err(format!("expected {what}, found {}", self.found())),
        }
    }

    /// A key or field name: a word or a quoted string.
    fn name(&mut self, what: &str) -> Result<String, String> {
        match self.peek() {
            Tok::Str(_) => match self.next() {
                Tok::Str(s) => Ok(s),
                _ => unreachable!("peeked a string"),
            },
            _ => self.word(what),
        }
    }

    /// Comma-separated items up to `close`, the opener already read; a comma after the last
    /// item is allowed, as tealeaf-core allows it (parser.rs:438-441, 459-461).
    fn list<T>(
        &mut self,
        close: char,
        mut item: impl FnMut(&mut Self) -> Result<T, String>,
    ) -> Result<Vec<T>, String> {
        let mut items = Vec::new();
        while !self.eat(close) {
            if !items.is_empty() {
                self.expect(',')?;
                if self.eat(close) {
                    break;
                }
            }
            items.push(item(self)?);
        }
        Ok(items)
    }

    fn document(&mut self) -> Result<Value, String> {
        let mut schemas = Schemas::default();
        let mut root_array = false;
        let mut data = Map::new();
        loop {
            match self.peek() {
                Tok::Eof => break,
                Tok::Directive(d) if d == "root-array" => {
                    self.next();
                    root_array = true;
                }
                Tok::Directive(d) if d == "struct" => {
                    self.next();
                    let schema = self.struct_def()?;
                    schemas.insert(schema);
                }
                Tok::Word(_) | Tok::Str(_) => {
                    let key = self.name("a key")?;
                    self.expect(':')?;
                    let value = self.value(&schemas)?;
                    data.insert(key, value);
                }
                _ => return Err(format!("expected a key, found {}", self.found())),
            }
        }
        if root_array {
            data.remove("root")
                .ok_or_else(|| "@root-array without a 'root' key".to_string())
        } else {
            Ok(Value::Object(data))
        }
    }

    /// `name(field:type,…)`, a type being `[]`? word `?`? (parser.rs:120-161, 276-308).
    fn struct_def(&mut self) -> Result<Schema, String> {
        let name = self.word("a struct name")?;
        self.expect('(')?;
        let fields = self.list(')', |r| {
            let field = r.name("a field name")?;
            r.expect(':')?;
            let is_array = r.eat('[');
            if is_array {
                r.expect(']')?;
            }
            let base = r.word("a type")?;
            let nullable = r.eat('?');
            Ok((
                field,
                FieldType {
                    base,
                    nullable,
                    is_array,
                },
            ))
        })?;
        Ok(Schema { name, fields })
    }

    /// A value outside tuples (parser.rs:333-377).
    fn value(&mut self, schemas: &Schemas) -> Result<Value, String> {
        match self.peek() {
            Tok::Punct('{' | '[' | '(') => {}
            Tok::Directive(d) if d == "table" => {}
            Tok::Punct(_) | Tok::Directive(_) | Tok::Eof => {
                return Err(format!("expected a value, found {}", self.found()));
            }
            _ => {}
        }
        Ok(match self.next() {
            Tok::Tilde | Tok::NonFinite => Value::Null,
            Tok::Word(w) => match w.as_str() {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                "null" => Value::Null,
                _ => Value::String(w),
            },
            Tok::Str(s) => Value::String(s),
            Tok::Num(n) => Value::Number(n),
            Tok::Punct('{') => {
                let pairs = self.list('}', |r| {
                    let key = r.name("a key")?;
                    r.expect(':')?;
                    Ok((key, r.value(schemas)?))
                })?;
                Value::Object(pairs.into_iter().collect())
            }
            Tok::Punct('[') => Value::Array(self.list(']', |r| r.value(schemas))?),
            // An untyped tuple is a list (parser.rs:570-583).
            Tok::Punct('(') => Value::Array(self.list(')', |r| r.value(schemas))?),
            Tok::Directive(d) if d == "table" => {
                let name = self.word("a struct name")?;
                let schema = schemas
                    .get(&name)
                    .ok_or_else(|| format!("unknown struct '{name}'"))?;
                self.expect('[')?;
                Value::Array(self.list(']', |r| r.tuple(schema, schemas))?)
            }
            t => unreachable!("checked above: {t:?}"),
        })
    }

    /// One `(…)` tuple of `schema`, one value per field (parser.rs:469-493).
    fn tuple(&mut self, schema: &Schema, schemas: &Schemas) -> Result<Value, String> {
        self.expect('(')?;
        let mut obj = Map::new();
        for (i, (name, ty)) in schema.fields.iter().enumerate() {
            if i > 0 {
                self.expect(',')?;
            }
            if *self.peek() == Tok::Tilde && ty.nullable {
                self.next();
                continue;
            }
            obj.insert(name.clone(), self.field(ty, schemas)?);
        }
        self.expect(')')?;
        Ok(Value::Object(obj))
    }

    /// A tuple field's value: a struct field may hold a nested tuple, a `[]` field must be a
    /// list whose items may be tuples; anything else reads as outside tuples (parser.rs:495-528).
    fn field(&mut self, ty: &FieldType, schemas: &Schemas) -> Result<Value, String> {
        if matches!(self.peek(), Tok::Tilde) || matches!(self.peek(), Tok::Word(w) if w == "null") {
            self.next();
            return Ok(Value::Null);
        }
        if ty.is_array {
            self.expect('[')?;
            let item = FieldType::new(ty.base.clone());
            return Ok(Value::Array(self.list(']', |r| r.field(&item, schemas))?));
        }
        match schemas.get(&ty.base) {
            Some(s) if *self.peek() == Tok::Punct('(') => self.tuple(s, schemas),
            _ => self.value(schemas),
        }
    }
}
