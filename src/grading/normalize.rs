//! The normalisation policy: the forms in which an answer still counts as the expected value.
//!
//! One policy for every question: normalise the answer's *form*, then judge its *value* with the
//! question's rule. Each normalisation an answer needed is recorded by name on its metric
//! (`normalization`), so "right value, wrong form" is a measured rate rather than a silent pass.
//! Accepted, and only these:
//!
//! - `case_whitespace`: letter case or whitespace runs differ ("usd", "Home  &  Kitchen").
//! - `quotes`: the whole answer in quotes: ' " ` ‘’ “” «» „“ ("'USD'").
//! - `trailing_period`: one final period ("Canada."), unless the expected value ends with one.
//! - `number_as_text`: a bare number written as a JSON string ("12" for 12).
//! - `thousands`: thousands separators `,` space, no-break space, thin space, `'` or `_`, with
//!   groups of exactly three digits ("1,234", "1 234"; "12,34" is not a number).
//! - `currency`: a currency symbol or ISO code before or after a number ("$12.50", "12.50 EUR").
//! - `percent`: `%`, "percent", "per cent" or "pct" after a number ("15%", "15 percent").
//! - `unit`: one or two words of letters after a number ("10 units", "14 days", "4.5 stars"),
//!   except magnitude and hedge words ("10 thousand", "10 or 12", "10 more" fail).
//! - `list_separator`: a list written as text: items split at newlines (bullets and numbering
//!   removed), else `;`, else `|`, else `,`, with a final "and" ("A, B and C"); surrounding
//!   brackets removed; items that themselves contain the separator ("Globex, Inc.") are kept
//!   whole when the expected list holds them.
//! - `boolean_word`: yes/no or true/false written as text for a boolean.
//! - `null_word`: null written as "null", "none", "n/a", "nil" or an empty string, for a null
//!   value or an empty list.
//! - `timestamp`: the same instant in another ISO 8601 form ("2023-05-01 10:00:00",
//!   "2023-05-01T10:00:00+00:00" for "2023-05-01T10:00:00Z"); other offsets are not converted.
//!
//! Not accepted (judgement calls): a number or value inside a sentence ("The total is 1234.",
//! "about 10"), hedges with several values ("10 or 12"), decimal commas ("12,50"), number words
//! ("ten"), and booleans as 1/0. Such answers fail; when they hold exactly the right value the
//! taxonomy calls them `format_mismatch`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One normalisation of the policy, recorded on the metric of an answer that needed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Norm {
    /// Letter case or whitespace runs differ.
    CaseWhitespace,
    /// Surrounding quotes removed.
    Quotes,
    /// One trailing period removed.
    TrailingPeriod,
    /// A bare number written as a JSON string.
    NumberAsText,
    /// Thousands separators removed.
    Thousands,
    /// A currency symbol or code removed.
    Currency,
    /// A percent sign or word removed.
    Percent,
    /// Unit words after a number removed.
    Unit,
    /// A list written as text, split into items.
    ListSeparator,
    /// yes/no or true/false as text for a boolean.
    BooleanWord,
    /// A null written as a word or an empty string.
    NullWord,
    /// The same instant in another ISO 8601 form.
    Timestamp,
}

impl Norm {
    /// Every normalisation, in the order they are documented.
    pub const ALL: [Norm; 12] = [
        Norm::CaseWhitespace,
        Norm::Quotes,
        Norm::TrailingPeriod,
        Norm::NumberAsText,
        Norm::Thousands,
        Norm::Currency,
        Norm::Percent,
        Norm::Unit,
        Norm::ListSeparator,
        Norm::BooleanWord,
        Norm::NullWord,
        Norm::Timestamp,
    ];

    /// Name used in JSONL and SQL.
    pub fn name(self) -> &'static str {
        match self {
            Norm::CaseWhitespace => "case_whitespace",
            Norm::Quotes => "quotes",
            Norm::TrailingPeriod => "trailing_period",
            Norm::NumberAsText => "number_as_text",
            Norm::Thousands => "thousands",
            Norm::Currency => "currency",
            Norm::Percent => "percent",
            Norm::Unit => "unit",
            Norm::ListSeparator => "list_separator",
            Norm::BooleanWord => "boolean_word",
            Norm::NullWord => "null_word",
            Norm::Timestamp => "timestamp",
        }
    }
}

/// Words that stand for null.
pub(super) const NULL_WORDS: [&str; 5] = ["", "null", "none", "n/a", "nil"];

const QUOTES: [(char, char); 9] = [
    ('\'', '\''),
    ('"', '"'),
    ('`', '`'),
    ('‘', '’'),
    ('’', '’'),
    ('“', '”'),
    ('”', '”'),
    ('«', '»'),
    ('„', '“'),
];

/// Words after a number that change its meaning, so they are never dropped as units.
const NOT_UNITS: &str = "thousand thousands million millions billion billions trillion hundred \
    hundreds dozen k m b bn mn or and to plus minus more less fewer than over under about \
    approximately around times x each";

const CURRENCY_SYMBOLS: [&str; 7] = ["US$", "$", "€", "£", "¥", "₹", "₩"];
const CURRENCY_CODES: [&str; 10] = [
    "USD", "EUR", "GBP", "JPY", "CAD", "AUD", "CHF", "INR", "CNY", "SEK",
];

/// Canonical text: whitespace runs collapsed to one space, trimmed, lower-case.
pub fn canon(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The answer without one layer (or more) of surrounding quotes, if it had any.
fn strip_quotes(s: &str) -> Option<&str> {
    let mut out = s.trim();
    let mut changed = false;
    loop {
        let mut chars = out.chars();
        let (Some(first), Some(last)) = (chars.next(), chars.next_back()) else {
            break;
        };
        if !QUOTES.iter().any(|&(a, b)| a == first && b == last) {
            break;
        }
        out = out[first.len_utf8()..out.len() - last.len_utf8()].trim();
        changed = true;
    }
    changed.then_some(out)
}

/// The answer without one trailing period (an ellipsis is left alone).
fn strip_period(s: &str) -> Option<&str> {
    let t = s.trim_end();
    let cut = t.strip_suffix('.')?;
    (!cut.ends_with('.')).then(|| cut.trim_end())
}

/// The readings of a text answer the policy allows, with the normalisations each needed: as
/// written, unquoted, without a trailing period (unless `keep_period`), and both.
pub(super) fn readings(s: &str, keep_period: bool) -> Vec<(&str, Vec<Norm>)> {
    let mut out = vec![(s, vec![])];
    if let Some(q) = strip_quotes(s) {
        out.push((q, vec![Norm::Quotes]));
    }
    if !keep_period {
        for i in 0..out.len() {
            let (t, norms) = out[i].clone();
            if let Some(p) = strip_period(t) {
                let mut n = norms.clone();
                n.push(Norm::TrailingPeriod);
                out.push((p, n.clone()));
                // Quotes inside the period: "'Canada'."
                if let Some(q) = strip_quotes(p).filter(|_| !norms.contains(&Norm::Quotes)) {
                    n.insert(0, Norm::Quotes);
                    out.push((q, n));
                }
            }
        }
    }
    out
}

/// The instant an ISO 8601 text names, when its offset is zero or absent.
fn instant(s: &str) -> Option<chrono::NaiveDateTime> {
    let t = s.trim();
    let t = ["Z", "z", " UTC", "+00:00", "+0000"]
        .iter()
        .find_map(|z| t.strip_suffix(z))
        .unwrap_or(t);
    let t = t.replacen(' ', "T", 1);
    ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%dT%H:%M"]
        .iter()
        .find_map(|f| chrono::NaiveDateTime::parse_from_str(&t, f).ok())
}

/// Whether `got` is `expected` as text under the policy; the normalisations it needed.
pub(super) fn match_text(expected: &str, got: &str) -> Option<Vec<Norm>> {
    let keep_period = expected.trim_end().ends_with('.');
    let mut best: Option<Vec<Norm>> = None;
    for (t, mut norms) in readings(got, keep_period) {
        let extra = if t == expected {
            None
        } else if canon(t) == canon(expected) {
            Some(Norm::CaseWhitespace)
        } else if instant(expected).is_some() && instant(expected) == instant(t) {
            Some(Norm::Timestamp)
        } else {
            continue;
        };
        norms.extend(extra);
        if best.as_ref().is_none_or(|b| norms.len() < b.len()) {
            best = Some(norms);
        }
    }
    best
}

/// Whether `got` is the boolean `expected` under the policy.
pub(super) fn match_bool(expected: bool, got: &Value) -> Option<Vec<Norm>> {
    match got {
        Value::Bool(b) => (*b == expected).then(Vec::new),
        Value::String(s) => readings(s, false).into_iter().find_map(|(t, mut n)| {
            let word = match canon(t).as_str() {
                "true" | "yes" => true,
                "false" | "no" => false,
                _ => return None,
            };
            n.push(Norm::BooleanWord);
            (word == expected).then_some(n)
        }),
        _ => None,
    }
}

/// Whether `got` stands for null under the policy.
pub(super) fn match_null(got: &Value) -> Option<Vec<Norm>> {
    match got {
        Value::Null => Some(vec![]),
        Value::String(s) => readings(s, false).into_iter().find_map(|(t, mut n)| {
            NULL_WORDS.contains(&canon(t).as_str()).then(|| {
                n.push(Norm::NullWord);
                n
            })
        }),
        _ => None,
    }
}

/// A plain number: digits with an optional sign, point and exponent.
fn plain(t: &str) -> Option<f64> {
    let t = t.trim();
    if !t.bytes().any(|b| b.is_ascii_digit())
        || !t
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'))
    {
        return None;
    }
    t.parse::<f64>().ok().filter(|x| x.is_finite())
}

/// `t` without `prefix`, compared ignoring ASCII case.
fn strip_prefix_ci<'a>(t: &'a str, prefix: &str) -> Option<&'a str> {
    (t.len() >= prefix.len()
        && t.is_char_boundary(prefix.len())
        && t[..prefix.len()].eq_ignore_ascii_case(prefix))
    .then(|| &t[prefix.len()..])
}

/// `t` without `suffix`, compared ignoring ASCII case.
fn strip_suffix_ci<'a>(t: &'a str, suffix: &str) -> Option<&'a str> {
    let at = t.len().checked_sub(suffix.len())?;
    (t.is_char_boundary(at) && t[at..].eq_ignore_ascii_case(suffix)).then(|| &t[..at])
}

fn strip_currency(t: &str) -> Option<String> {
    let t = t.trim();
    let (sign, body) = match t.strip_prefix('-') {
        Some(rest) => ("-", rest.trim_start()),
        None => ("", t),
    };
    for c in CURRENCY_SYMBOLS.iter().chain(CURRENCY_CODES.iter()) {
        if let Some(rest) = strip_prefix_ci(body, c)
            && rest
                .trim_start()
                .starts_with(|ch: char| ch.is_ascii_digit())
        {
            // A sign before the symbol ("-$5") stays with the number.
            return Some(format!("{sign}{}", rest.trim_start()));
        }
        if let Some(rest) = strip_suffix_ci(t, c)
            && rest.trim_end().ends_with(|ch: char| ch.is_ascii_digit())
        {
            return Some(rest.trim_end().to_string());
        }
    }
    None
}

fn strip_percent(t: &str) -> Option<&str> {
    let t = t.trim_end();
    ["%", " percent", " per cent", " pct"]
        .iter()
        .find_map(|suffix| {
            let rest = strip_suffix_ci(t, suffix)?.trim_end();
            rest.ends_with(|c: char| c.is_ascii_digit()).then_some(rest)
        })
}

/// Removes one or two words of letters after a number.
fn strip_units(t: &str) -> Option<&str> {
    let mut rest = t.trim_end();
    let mut removed = 0;
    while removed < 2 {
        let Some((head, word)) = rest.rsplit_once(char::is_whitespace) else {
            break;
        };
        let lower = word.to_lowercase();
        let is_unit = !word.is_empty()
            && word.chars().all(char::is_alphabetic)
            && !NOT_UNITS.split_whitespace().any(|w| w == lower)
            && !CURRENCY_CODES.iter().any(|c| c.eq_ignore_ascii_case(word));
        if !is_unit {
            break;
        }
        rest = head.trim_end();
        removed += 1;
    }
    (removed > 0 && rest.ends_with(|c: char| c.is_ascii_digit())).then_some(rest)
}

/// Removes thousands separators when every group after the first has three digits.
fn strip_thousands(t: &str) -> Option<String> {
    let t = t.trim();
    let (sign, body) = match t.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", t),
    };
    let (int, frac) = match body.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (body, None),
    };
    let sep = int.chars().find(|c| !c.is_ascii_digit())?;
    if !matches!(
        sep,
        ',' | ' ' | '\u{a0}' | '\u{202f}' | '\u{2009}' | '\'' | '_'
    ) {
        return None;
    }
    let groups: Vec<&str> = int.split(sep).collect();
    let valid = (1..=3).contains(&groups[0].len())
        && groups[1..].iter().all(|g| g.len() == 3)
        && groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_digit()));
    valid.then(|| {
        let digits = groups.concat();
        match frac {
            Some(f) => format!("{sign}{digits}.{f}"),
            None => format!("{sign}{digits}"),
        }
    })
}

/// Reads a number the policy accepts, with the normalisations it needed.
pub fn read_number(v: &Value) -> Option<(f64, Vec<Norm>)> {
    let s = match v {
        Value::Number(n) => return n.as_f64().map(|x| (x, vec![])),
        Value::String(s) => s.as_str(),
        _ => return None,
    };
    if let Some(x) = plain(s) {
        return Some((x, vec![Norm::NumberAsText]));
    }
    // Each step runs only when its pattern is there, in an order where the outer forms come
    // off first ("'$1,234.50 USD'."), and the number is read after every step.
    let mut t = s.trim().to_string();
    let mut used = Vec::new();
    type Step = fn(&str) -> Option<String>;
    let steps: [(Norm, Step); 6] = [
        (Norm::Quotes, |t| strip_quotes(t).map(str::to_string)),
        (Norm::TrailingPeriod, |t| {
            strip_period(t).map(str::to_string)
        }),
        (Norm::Currency, strip_currency),
        (Norm::Percent, |t| strip_percent(t).map(str::to_string)),
        (Norm::Unit, |t| strip_units(t).map(str::to_string)),
        (Norm::Thousands, strip_thousands),
    ];
    for (norm, step) in steps {
        if let Some(next) = step(&t) {
            t = next;
            used.push(norm);
            if let Some(x) = plain(&t) {
                return Some((x, used));
            }
        }
    }
    None
}

/// Every number written in a text, however it is surrounded ("about 1,234 units" → 1234):
/// the loose reading the taxonomy uses to tell a wrong form from a wrong value.
pub(super) fn numbers_in(s: &str) -> Vec<f64> {
    let mut out = Vec::new();
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        // Digits glued to a word ("PROD-000012", "WH-01", "x2") are part of it; a range
        // ("10-12") or a date are several numbers.
        let glued = |k: usize| {
            k > 0
                && (chars[k - 1].is_alphanumeric()
                    || (chars[k - 1] == '-' && k > 1 && chars[k - 2].is_alphabetic()))
        };
        let starts = (chars[i].is_ascii_digit()
            || (chars[i] == '-' && chars.get(i + 1).is_some_and(char::is_ascii_digit)))
            && !glued(i);
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < chars.len()
            && (chars[j].is_ascii_digit()
                || (matches!(chars[j], ',' | '.')
                    && chars.get(j + 1).is_some_and(char::is_ascii_digit)))
        {
            j += 1;
        }
        let token: String = chars[i..j].iter().collect();
        let value = plain(&token).or_else(|| strip_thousands(&token).and_then(|t| plain(&t)));
        // "31 thousand" is 31000, not a 31 in a strange form.
        let next: String = chars[j..]
            .iter()
            .skip_while(|c| c.is_whitespace())
            .take_while(|c| c.is_alphabetic())
            .collect();
        let scale = match next.to_lowercase().as_str() {
            "hundred" | "hundreds" => 1e2,
            "thousand" | "thousands" | "k" => 1e3,
            "million" | "millions" | "mn" => 1e6,
            "billion" | "billions" | "bn" => 1e9,
            _ => 1.0,
        };
        match value {
            Some(x) => out.push(x * scale),
            // "1,23" is no number we can read: count it, so the answer is not one number.
            None => out.push(f64::NAN),
        }
        i = j;
    }
    out
}

/// Splits a text answer into list items (the `list_separator` normalisation). `known` holds
/// the expected items (canonical), so an item containing the separator is kept whole.
pub(super) fn split_list(s: &str, known: &[String]) -> Vec<String> {
    let mut t = s.trim();
    for (open, close) in [('[', ']'), ('(', ')'), ('{', '}')] {
        if let Some(inner) = t.strip_prefix(open).and_then(|r| r.strip_suffix(close)) {
            t = inner.trim();
        }
    }
    let sep = ['\n', ';', '|', ',']
        .into_iter()
        .find(|&c| t.contains(c))
        .unwrap_or('\n');
    let pieces: Vec<&str> = t.split(sep).collect();
    let mut items: Vec<String> = Vec::new();
    let mut i = 0;
    while i < pieces.len() {
        // Longest run of pieces that, rejoined, is an expected item ("Globex, Inc.").
        let take = (2..=3.min(pieces.len() - i))
            .rev()
            .find(|&k| known.contains(&canon(&pieces[i..i + k].join(&sep.to_string()))))
            .unwrap_or(1);
        items.push(pieces[i..i + take].join(&sep.to_string()));
        i += take;
    }
    let and_inside = known.iter().any(|k| k.contains(" and "));
    let mut out = Vec::new();
    for item in items {
        let mut item = item.trim();
        if sep == '\n' {
            item = strip_bullet(item);
        }
        if let Some(rest) = strip_prefix_ci(item, "and ").filter(|_| !known.contains(&canon(item)))
        {
            item = rest.trim_start();
        }
        let parts: Vec<&str> = if and_inside || known.contains(&canon(item)) {
            vec![item]
        } else {
            split_and(item)
        };
        out.extend(
            parts
                .into_iter()
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(str::to_string),
        );
    }
    out
}

/// "A and B" as two items (case-insensitive "and" between spaces).
fn split_and(item: &str) -> Vec<&str> {
    // ASCII lower-casing keeps byte offsets, so `at` indexes `item` too.
    match item.to_ascii_lowercase().find(" and ") {
        Some(at) => vec![&item[..at], &item[at + 5..]],
        None => vec![item],
    }
}

/// A list line without its bullet or number ("- A", "* A", "• A", "1. A", "2) A").
fn strip_bullet(line: &str) -> &str {
    let t = line.trim_start();
    for b in ["- ", "* ", "• ", "– "] {
        if let Some(rest) = t.strip_prefix(b) {
            return rest.trim_start();
        }
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0
        && let Some(rest) = t[digits..]
            .strip_prefix(". ")
            .or_else(|| t[digits..].strip_prefix(") "))
    {
        return rest.trim_start();
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn num(s: &str) -> Option<(f64, Vec<&'static str>)> {
        read_number(&json!(s)).map(|(x, n)| (x, n.into_iter().map(Norm::name).collect()))
    }

    #[test]
    fn numbers_as_people_write_them() {
        assert_eq!(num("10 units"), Some((10.0, vec!["unit"])));
        assert_eq!(
            num("14 days."),
            Some((14.0, vec!["trailing_period", "unit"]))
        );
        assert_eq!(
            num("$1,234.50"),
            Some((1234.5, vec!["currency", "thousands"]))
        );
        assert_eq!(num("12.50 EUR"), Some((12.5, vec!["currency"])));
        assert_eq!(num("15%"), Some((15.0, vec!["percent"])));
        assert_eq!(num("15 percent"), Some((15.0, vec!["percent"])));
        assert_eq!(num("'42'"), Some((42.0, vec!["quotes"])));
        assert_eq!(num("12"), Some((12.0, vec!["number_as_text"])));
        assert_eq!(
            num("1 234 units"),
            Some((1234.0, vec!["unit", "thousands"]))
        );
        assert_eq!(num("3 distinct categories"), Some((3.0, vec!["unit"])));
        for bad in [
            "10 or 12",
            "10 thousand",
            "about 10",
            "12,34",
            "ten",
            "The total is 1234.",
            "10-12",
            "USD",
            "",
        ] {
            assert_eq!(num(bad), None, "{bad}");
        }
    }

    #[test]
    fn text_quotes_periods_case_and_timestamps() {
        let names =
            |n: Option<Vec<Norm>>| n.map(|v| v.into_iter().map(Norm::name).collect::<Vec<_>>());
        assert_eq!(names(match_text("USD", "USD")), Some(vec![]));
        assert_eq!(names(match_text("USD", "'USD'")), Some(vec!["quotes"]));
        assert_eq!(
            names(match_text("USD", "“usd”")),
            Some(vec!["quotes", "case_whitespace"])
        );
        assert_eq!(
            names(match_text("Canada", "Canada.")),
            Some(vec!["trailing_period"])
        );
        assert_eq!(
            names(match_text("Globex, Inc.", "Globex, Inc.")),
            Some(vec![])
        );
        assert_eq!(match_text("Globex, Inc.", "Globex, Inc"), None);
        assert_eq!(
            names(match_text("2023-05-01T10:00:00Z", "2023-05-01 10:00:00")),
            Some(vec!["timestamp"])
        );
        assert_eq!(
            match_text("2023-05-01T10:00:00Z", "2023-05-01 12:00:00+02:00"),
            None
        );
        assert_eq!(match_text("PROD-000001", "PROD-000010"), None);
        assert_eq!(
            match_bool(true, &json!("Yes")),
            Some(vec![Norm::BooleanWord])
        );
        assert_eq!(match_bool(true, &json!("no")), None);
        assert_eq!(match_null(&json!("N/A")), Some(vec![Norm::NullWord]));
    }

    #[test]
    fn lists_split_at_the_separator_people_use() {
        let known: Vec<String> = ["globex, inc.", "acme corp", "home & kitchen"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(split_list("A; B; C", &known), ["A", "B", "C"]);
        assert_eq!(split_list("A | B | C", &known), ["A", "B", "C"]);
        assert_eq!(split_list("- A\n- B\n3. C", &known), ["A", "B", "C"]);
        assert_eq!(split_list("A, B, and C", &known), ["A", "B", "C"]);
        assert_eq!(split_list("A, B and C", &known), ["A", "B", "C"]);
        assert_eq!(
            split_list("Globex, Inc., Acme Corp", &known),
            ["Globex, Inc.", "Acme Corp"]
        );
        assert_eq!(split_list("[Home & Kitchen]", &known), ["Home & Kitchen"]);
        assert_eq!(numbers_in("about 1,234 units"), vec![1234.0]);
        assert_eq!(numbers_in("10 or 12").len(), 2);
        assert_eq!(numbers_in("PROD-000012").len(), 0);
    }
}
