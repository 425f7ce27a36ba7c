//! Lexical helpers shared by the encoder and decoder: key/identifier
//! classification, string quoting and escaping, and number formatting/parsing.

use serde_json::{Number, Value};

/// Bytes that force a string value to be quoted regardless of the delimiter.
/// Control characters (< 0x20) are checked separately.
const STRUCTURAL: [bool; 256] = {
    let mut t = [false; 256];
    t[b':' as usize] = true;
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[b'[' as usize] = true;
    t[b']' as usize] = true;
    t[b'{' as usize] = true;
    t[b'}' as usize] = true;
    t
};

/// `^[A-Za-z_][A-Za-z0-9_.]*$` — keys that may be written without quotes.
pub(super) fn is_valid_unquoted_key(key: &str) -> bool {
    let b = key.as_bytes();
    match b.first() {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {}
        _ => return false,
    }
    b[1..]
        .iter()
        .all(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'.')
}

/// `^[A-Za-z_][A-Za-z0-9_]*$` — segments eligible for folding and expansion.
pub(super) fn is_identifier_segment(seg: &str) -> bool {
    let b = seg.as_bytes();
    match b.first() {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {}
        _ => return false,
    }
    b[1..]
        .iter()
        .all(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

/// Whitespace as JavaScript's `String.prototype.trim` sees it; the reference
/// quotes any string that `trim()` would change.
fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\u{09}'..='\u{0D}'
            | ' '
            | '\u{A0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200A}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202F}'
            | '\u{205F}'
            | '\u{3000}'
            | '\u{FEFF}'
    )
}

/// `/^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i` — strings a decoder would read as numbers
/// (leading-zero forms like `05` included, since they must be quoted too).
pub(super) fn is_numeric_like(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i > start
    };
    if !digits(&mut i) {
        return false;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if !digits(&mut i) {
            return false;
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == b.len()
}

/// Whether a string value must be quoted in a context using `delim`; `v4` adds the v4.0
/// rules (leading `#`, `+`-signed numbers) and, like the v4 reference encoder, quotes only
/// ASCII space at the ends (tabs are quoted as controls anyway).
pub(super) fn needs_quotes(s: &str, delim: u8, v4: bool) -> bool {
    let b = s.as_bytes();
    let (Some(&first), Some(&last)) = (b.first(), b.last()) else {
        return true;
    };
    if first == b'-' || s == "true" || s == "false" || s == "null" {
        return true;
    }
    if first == b' ' || last == b' ' {
        return true;
    }
    if !v4
        && ((first >= 0x80 && s.chars().next().is_some_and(is_js_whitespace))
            || (last >= 0x80 && s.chars().next_back().is_some_and(is_js_whitespace)))
    {
        return true;
    }
    if v4
        && (first == b'#'
            || (first == b'+' && !s[1..].starts_with('-') && is_numeric_like(&s[1..])))
    {
        return true;
    }
    if b.iter()
        .any(|&c| c < 0x20 || c == delim || STRUCTURAL[c as usize])
    {
        return true;
    }
    first.is_ascii_digit() && is_numeric_like(s)
}

/// Appends `s` wrapped in double quotes with TOON escapes applied.
pub(super) fn write_quoted(out: &mut String, s: &str) {
    out.push('"');
    let b = s.as_bytes();
    let mut run = 0;
    for (i, &c) in b.iter().enumerate() {
        let esc: &str = match c {
            b'\\' => "\\\\",
            b'"' => "\\\"",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0..=0x1F => "",
            _ => continue,
        };
        // Escapes are all ASCII, so slicing at `i` is on a char boundary.
        out.push_str(&s[run..i]);
        if esc.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(HEX[(c >> 4) as usize] as char);
            out.push(HEX[(c & 0xF) as usize] as char);
        } else {
            out.push_str(esc);
        }
        run = i + 1;
    }
    out.push_str(&s[run..]);
    out.push('"');
}

/// Appends a string value, quoting it only when required.
pub(super) fn write_string(out: &mut String, s: &str, delim: u8, v4: bool) {
    if needs_quotes(s, delim, v4) {
        write_quoted(out, s);
    } else {
        out.push_str(s);
    }
}

/// Appends an object key or field name, quoting it unless it is a plain identifier path.
pub(super) fn write_key(out: &mut String, key: &str) {
    if is_valid_unquoted_key(key) {
        out.push_str(key);
    } else {
        write_quoted(out, key);
    }
}

/// Appends an unsigned integer in decimal without going through `fmt`.
pub(super) fn write_u64(out: &mut String, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // Only ASCII digits were written.
    out.push_str(std::str::from_utf8(&buf[i..]).unwrap_or_default());
}

/// Appends a JSON number in canonical decimal form (never exponent, `-0` as `0`).
pub(super) fn write_number(out: &mut String, n: &Number) {
    if let Some(u) = n.as_u64() {
        write_u64(out, u);
    } else if let Some(i) = n.as_i64() {
        out.push('-');
        write_u64(out, i.unsigned_abs());
    } else {
        let f = n.as_f64().unwrap_or(0.0);
        if f == 0.0 || !f.is_finite() {
            // serde_json cannot hold non-finite values; -0 normalises to 0.
            out.push_str(if f == 0.0 { "0" } else { "null" });
        } else {
            write_f64(out, f);
        }
    }
}

/// Shortest round-trip digits in plain decimal (the spec's canonical form).
/// Rust's `Display` and JS `String(n)` pick the same digits except on an exact
/// tie between two shortest candidates: Rust rounds up, JS takes the even digit.
fn write_f64(out: &mut String, f: f64) {
    use std::fmt::Write;
    let start = out.len();
    let _ = write!(out, "{f}");
    let s = &out[start..];
    let Some(&last) = s.as_bytes().last() else {
        return;
    };
    // Ties need 16+ significant digits, and only an odd last digit can differ.
    let significant = s
        .trim_start_matches(['-', '0', '.'])
        .bytes()
        .filter(u8::is_ascii_digit)
        .count();
    if last % 2 == 1 && significant >= 16 && is_exact_tie(f, s) {
        out.pop();
        out.push(char::from(last - 1));
    }
}

/// Whether `f` lies exactly halfway between `shortest` and the candidate one unit
/// lower in its last digit, i.e. its exact expansion is those digits then a 5.
fn is_exact_tie(f: f64, shortest: &str) -> bool {
    let digits: Vec<u8> = shortest
        .trim_start_matches(['-', '0', '.'])
        .bytes()
        .filter(u8::is_ascii_digit)
        .collect();
    // 41 significant digits is exact for any value that could be a tie (<= 18 digits).
    let exact = format!("{:.40e}", f.abs());
    let mantissa: Vec<u8> = exact
        .split('e')
        .next()
        .unwrap_or_default()
        .bytes()
        .filter(u8::is_ascii_digit)
        .collect();
    let n = digits.len();
    let Some((last, head)) = digits.split_last() else {
        return false;
    };
    mantissa.len() > n
        && mantissa[..n - 1] == *head
        && mantissa[n - 1] == last - 1
        && mantissa[n] == b'5'
        && mantissa[n + 1..].iter().all(|&d| d == b'0')
}

/// Index of the closing quote for a string opening at `open`, honouring backslash escapes.
pub(super) fn find_closing_quote(b: &[u8], open: usize) -> Option<usize> {
    let mut i = open + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// Resolves escapes in the text between a pair of quotes.
pub(super) fn unescape(raw: &str) -> Result<String, String> {
    if !raw.contains('\\') {
        return Ok(raw.to_owned());
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('\\') => out.push('\\'),
            Some('"') => out.push('"'),
            Some('u') => {
                let hi = read_hex4(&mut chars)?;
                let code = if (0xD800..0xDC00).contains(&hi) {
                    // A high surrogate is only valid as the first half of a pair.
                    let mut look = chars.clone();
                    let lo = match (look.next(), look.next()) {
                        (Some('\\'), Some('u')) => read_hex4(&mut look)?,
                        _ => return Err(format!("lone surrogate \\u{hi:04X} in escape")),
                    };
                    if !(0xDC00..0xE000).contains(&lo) {
                        return Err(format!("lone surrogate \\u{hi:04X} in escape"));
                    }
                    chars = look;
                    0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                } else {
                    hi
                };
                match char::from_u32(code) {
                    Some(ch) => out.push(ch),
                    None => return Err(format!("lone surrogate \\u{code:04X} in escape")),
                }
            }
            Some(other) => return Err(format!("invalid escape sequence \\{other}")),
            None => return Err("backslash at end of string".into()),
        }
    }
    Ok(out)
}

fn read_hex4(chars: &mut std::str::Chars<'_>) -> Result<u32, String> {
    let mut v = 0;
    for _ in 0..4 {
        match chars.next().and_then(|c| c.to_digit(16)) {
            Some(d) => v = v * 16 + d,
            None => return Err("invalid \\u escape: expected 4 hex digits".into()),
        }
    }
    Ok(v)
}

/// Parses an unquoted token as a number, or `None` if it must stay a string
/// (not numeric, forbidden leading zeros, or out of `f64` range).
pub(super) fn parse_number(tok: &str) -> Option<Value> {
    let b = tok.as_bytes();
    let neg = b.first() == Some(&b'-');
    let digits = &b[usize::from(neg)..];
    let int_len = digits.iter().take_while(|c| c.is_ascii_digit()).count();
    if int_len == 0 || (digits[0] == b'0' && int_len > 1) {
        return None;
    }
    if int_len == digits.len() {
        // Plain integer: keep it exact when it fits a machine integer.
        if neg {
            if let Ok(i) = tok.parse::<i64>() {
                return Some(Value::from(i));
            }
        } else if let Ok(u) = tok.parse::<u64>() {
            return Some(Value::from(u));
        }
    } else if !is_numeric_like(tok) {
        return None;
    }
    let f: f64 = tok.parse().ok()?;
    if !f.is_finite() {
        return None;
    }
    Some(float_value(f))
}

/// Integral floats within the exact range become integers, so `2.5e2` reads as `250`.
fn float_value(f: f64) -> Value {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if f == 0.0 {
        Value::from(0u64)
    } else if f.fract() == 0.0 && f.abs() < EXACT {
        Value::from(f as i64)
    } else {
        Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_canonical() {
        let cases: &[(&str, &str)] = &[
            ("1e21", "1000000000000000000000"),
            ("1e-7", "0.0000001"),
            ("-0.0", "0"),
            ("19.99", "19.99"),
            ("0.1", "0.1"),
            ("5e-324", &format!("0.{}5", "0".repeat(323))),
            ("-9223372036854775808", "-9223372036854775808"),
            ("18446744073709551615", "18446744073709551615"),
        ];
        for (json, want) in cases {
            let v: Value = serde_json::from_str(json).unwrap();
            let mut out = String::new();
            write_number(&mut out, v.as_number().unwrap());
            assert_eq!(&out, want, "{json}");
        }
    }

    #[test]
    fn quoting_rules() {
        for s in [
            "",
            " a",
            "a ",
            "\u{A0}x",
            "x\u{FEFF}",
            "true",
            "42",
            "-3",
            "1e5",
            "05",
            "a:b",
            "a,b",
            "[x]",
            "a\u{1}b",
            "-",
            "- x",
        ] {
            assert!(needs_quotes(s, b',', false), "{s:?} should be quoted");
        }
        for s in [
            "PROD-000001",
            "a b",
            "café",
            "1.",
            ".5",
            "+1",
            "0x1F",
            "a|b",
            "x\u{85}",
        ] {
            assert!(!needs_quotes(s, b',', false), "{s:?} should stay bare");
        }
        assert!(needs_quotes("a|b", b'|', false));
    }

    #[test]
    fn escapes_round_trip() {
        let mut out = String::new();
        write_quoted(&mut out, "a\"b\\c\nd\re\tf\u{4}g\u{1F}");
        assert_eq!(out, r#""a\"b\\c\nd\re\tf\u0004g\u001f""#);
        let inner = &out[1..out.len() - 1];
        assert_eq!(unescape(inner).unwrap(), "a\"b\\c\nd\re\tf\u{4}g\u{1F}");
        assert_eq!(unescape(r"\uD83D\uDE80").unwrap(), "🚀");
        assert!(unescape(r"\uD800b").is_err());
        assert!(unescape(r"\uDC00").is_err());
        assert!(unescape(r"\u00b").is_err());
        assert!(unescape(r"\x").is_err());
    }

    #[test]
    fn number_tokens() {
        assert_eq!(parse_number("2.5e2"), Some(Value::from(250)));
        assert_eq!(parse_number("-0"), Some(Value::from(0)));
        assert_eq!(parse_number("0e1"), Some(Value::from(0)));
        assert_eq!(parse_number("05"), None);
        assert_eq!(parse_number("-05"), None);
        assert_eq!(parse_number("1."), None);
        assert_eq!(parse_number("1e400"), None);
        assert_eq!(parse_number("1.5"), Some(serde_json::json!(1.5)));
    }
}
