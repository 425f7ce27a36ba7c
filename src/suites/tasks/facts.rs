//! Fact accuracy: whether a free-text answer states each expected value correctly, checked
//! against the true value computed from the data — what TeaLeaf's rubric never does.
//!
//! A value counts only when it appears near its description: the reply is cut into segments
//! (lines; a long line into sentences; a Markdown table row; each body cell paired with its
//! column header), and a segment is near when it holds at least half of the description's
//! keywords. A near heading-like line without a number ("**Total revenue**", "Top region:") also
//! lends its next line. Numbers are read as written — "$1,234.5", "1 234", "12.5%", "(1,234)",
//! "-€3", "5.2k", "3.4 million" — and dates or times are not numbers.

use regex::Regex;
use serde::Serialize;
use serde_json::Value;
use std::sync::LazyLock;

/// One value a correct answer must state, with the truth computed from the data.
#[derive(Debug, Clone, PartialEq)]
pub struct Fact {
    /// Phrase the answer would use next to the value; its keywords locate the value.
    pub description: String,
    /// The true value: number, string, list (every item anywhere), bool, or null ("none").
    pub value: Value,
    /// Absolute tolerance; `None` is exact for integers and 0.5 % relative otherwise.
    pub tolerance: Option<f64>,
}

/// The verdict on one fact, with what was read so a wrong verdict can be audited.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FactCheck {
    /// The fact's description.
    pub description: String,
    /// The true value.
    pub expected: Value,
    /// The text that matched, or else the closest candidate near the description.
    pub found: Option<String>,
    /// Whether the reply states the value correctly.
    pub correct: bool,
}

/// Relative tolerance for non-integer truths without an explicit one, since models round.
const DEFAULT_RELATIVE: f64 = 0.005;

/// Lines longer than this many bytes are split into sentences: a paragraph states many values,
/// and one description must not be credited with another sentence's number.
const LONG_LINE: usize = 160;

/// Words that say nothing about which value is meant.
const STOPWORDS: &[&str] = &[
    "the", "and", "for", "with", "from", "per", "each", "all", "that", "this", "into", "over",
    "its", "are", "was", "were", "has", "have", "what", "which", "who", "how", "many", "much",
    "does", "did", "any", "than", "between", "across", "among",
];

/// What an answer says when the true value is null or an empty list.
const NONE_WORDS: &[&str] = &["none", "null", "n/a", "no", "nil", "nobody", "nothing"];

/// List markers and headings at the start of a line, whose "1." is not a stated value.
static MARKER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:(?:#{1,6}|[-*+•]|\**\d{1,3}[.)]\**)\s+)*").expect("valid regex")
});

/// Dates, year-months and clock times, blanked before numbers are read.
static DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"\b\d{4}[-/]\d{1,2}[-/]\d{1,2}",
        r"(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b",
        r"|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b|\b\d{4}-\d{2}\b|\b\d{1,2}:\d{2}(?::\d{2})?\b",
    ))
    .expect("valid regex")
});

/// A written number with its sign, currency, grouping, percent and scale word.
static NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        (?P<open>\(\s*)?
        (?P<sign>[-−])?
        (?:[$€£]\s?)?
        (?P<sign2>[-−])?
        (?P<num>
            \d{1,3}(?:,\d{3})+(?:\.\d+)?
          | \d{1,3}(?:[\x20\xA0\x{202F}]\d{3})+(?:\.\d+)?\b
          | \d+(?:\.\d+)?
          | \.\d+
        )
        (?:\s?%)?
        (?:\s?(?P<word>(?i:thousand|million|billion|trillion|bn|mn))\b | (?P<letter>[kKMB])\b)?
        (?P<close>\s*\))?",
    )
    .expect("valid regex")
});

/// Checks every fact against `reply`, in order.
pub fn check(reply: &str, facts: &[Fact]) -> Vec<FactCheck> {
    let segments = segments(reply);
    facts
        .iter()
        .map(|fact| {
            let (correct, found) = verdict(reply, &segments, fact);
            FactCheck {
                description: fact.description.clone(),
                expected: fact.value.clone(),
                found,
                correct,
            }
        })
        .collect()
}

/// Share of correct checks; callers pass at least one (every task has facts), none scores 0.0.
pub fn accuracy(checks: &[FactCheck]) -> f64 {
    // No facts is a caller error, not a perfect or undefined score: loud in debug builds.
    debug_assert!(!checks.is_empty(), "fact accuracy of no facts");
    let correct = checks.iter().filter(|c| c.correct).count();
    correct as f64 / checks.len().max(1) as f64
}

/// A piece of the reply that can sit next to a description.
struct Segment {
    /// Its text.
    text: String,
    /// A line or sentence (can lend its successor to a heading), not a synthetic header-cell pair.
    line: bool,
}

/// Cuts the reply into lines, sentences of long lines, table rows and header-cell pairs.
fn segments(reply: &str) -> Vec<Segment> {
    let mut out = Vec::new();
    let (mut header, mut previous): (Option<Vec<String>>, Option<Vec<String>>) = (None, None);
    for line in reply.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let Some(cells) = table_cells(line) else {
            (header, previous) = (None, None);
            let pieces: Vec<&str> = if line.len() > LONG_LINE {
                sentences(line)
            } else {
                vec![line]
            };
            out.extend(pieces.into_iter().map(|p| Segment {
                text: p.to_owned(),
                line: true,
            }));
            continue;
        };
        if is_separator(&cells) {
            // The row above a |---| row is the header; its cells name the columns below.
            header = previous.take();
            continue;
        }
        out.push(Segment {
            text: line.to_owned(),
            line: true,
        });
        for (name, cell) in header.iter().flatten().zip(&cells) {
            out.push(Segment {
                text: format!("{name}: {cell}"),
                line: false,
            });
        }
        previous = Some(cells);
    }
    out
}

/// The cells of a Markdown table row, or `None` for other lines.
fn table_cells(line: &str) -> Option<Vec<String>> {
    let inner = line.strip_prefix('|')?;
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    Some(inner.split('|').map(|c| c.trim().to_owned()).collect())
}

/// Whether a row is the |---|:--:| line under a table header.
fn is_separator(cells: &[String]) -> bool {
    cells.iter().all(|c| {
        !c.is_empty() && c.contains('-') && c.chars().all(|ch| matches!(ch, '-' | ':' | ' '))
    })
}

/// Splits at ". ", "! " or "? " before anything but a lower-case letter ("e.g. the" stays).
fn sentences(line: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut start = 0;
    for (i, c) in line.char_indices() {
        let rest = &line[i + c.len_utf8()..];
        let next = rest.trim_start().chars().next();
        if matches!(c, '.' | '!' | '?')
            && rest.starts_with(char::is_whitespace)
            && next.is_some_and(|n| !n.is_lowercase())
        {
            pieces.push(line[start..=i].trim());
            start = i + 1;
        }
    }
    pieces.push(line[start..].trim());
    pieces.retain(|p| !p.is_empty());
    pieces
}

/// Lower-cased alphanumeric words of `text`.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// Folds plural endings so "salaries"/"salary" and "orders"/"order" meet.
fn stem(word: &str) -> String {
    let n = word.len();
    if n > 4 && word.ends_with("ies") {
        format!("{}y", &word[..n - 3])
    } else if n > 4
        && ["ses", "xes", "zes", "ches", "shes"]
            .iter()
            .any(|e| word.ends_with(e))
    {
        word[..n - 2].to_owned()
    } else if n > 3 && word.ends_with('s') && !["ss", "us", "is"].iter().any(|e| word.ends_with(e))
    {
        word[..n - 1].to_owned()
    } else {
        word.to_owned()
    }
}

/// The description's stemmed keywords: no stopwords, no words under three characters.
fn keywords(description: &str) -> Vec<String> {
    let mut out: Vec<String> = words(description)
        .filter(|w| w.chars().count() >= 3 && !STOPWORDS.contains(&w.as_str()))
        .map(|w| stem(&w))
        .collect();
    out.dedup();
    out
}

/// Whether `text` holds at least half of the keywords (at least one; any text when none).
fn is_near(text: &str, keywords: &[String]) -> bool {
    if keywords.is_empty() {
        return true;
    }
    let stems: Vec<String> = words(text).map(|w| stem(&w)).collect();
    let hits = keywords
        .iter()
        .filter(|k| {
            // A keyword of four or more letters also matches as a prefix ("revenue" in "revenues").
            stems
                .iter()
                .any(|w| w == *k || (k.len() >= 4 && w.starts_with(k.as_str())))
        })
        .count();
    hits >= 1 && 2 * hits >= keywords.len()
}

/// Segments near the description, each heading-like one followed by the next line.
fn near_segments<'a>(segments: &'a [Segment], description: &str) -> Vec<&'a str> {
    let keywords = keywords(description);
    let mut out = Vec::new();
    for (i, segment) in segments.iter().enumerate() {
        if !is_near(&segment.text, &keywords) {
            continue;
        }
        out.push(segment.text.as_str());
        if segment.line
            && is_heading(&segment.text)
            && let Some(next) = segments[i + 1..].iter().find(|s| s.line)
        {
            out.push(next.text.as_str());
        }
    }
    out
}

/// Whether a line announces a value on the next line: "## Total revenue", "**Top region**",
/// "Order count:" or a short unpunctuated phrase, without a number of its own. Table rows never
/// are, so a row with a blank value does not take the next row's.
fn is_heading(text: &str) -> bool {
    let t = text.trim();
    let unbold = t.trim_end_matches(['*', '_']);
    let heading = t.starts_with('#')
        || unbold.ends_with(':')
        || (t.starts_with("**") && t.trim_end_matches(':').ends_with("**"))
        || (!t.ends_with(['.', '!', '?', ';']) && t.split_whitespace().count() <= 6);
    heading && !t.starts_with('|') && numbers(t).is_empty()
}

/// A number read from text.
struct Number {
    /// Its value as written (scale applied).
    value: f64,
    /// Parenthesised: an accounting negative or a prose aside, so either sign is accepted.
    either_sign: bool,
    /// The text it was read from.
    text: String,
}

/// Every number written in `text`, skipping list markers, dates and numbers glued to words.
fn numbers(text: &str) -> Vec<Number> {
    let start = MARKER.find(text).map_or(0, |m| m.end());
    let body = &text[start..];
    // Dates are ASCII, so blanking keeps byte offsets into `body` valid.
    let blanked = DATE.replace_all(body, |c: &regex::Captures| " ".repeat(c[0].len()));
    let mut out = Vec::new();
    for caps in NUMBER.captures_iter(&blanked) {
        let whole = caps.get(0).expect("group 0");
        let before = blanked[..whole.start()].chars().next_back();
        let mut negative = caps.name("sign").or(caps.name("sign2")).is_some();
        // A currency symbol may follow letters ("US$5"); a digit or sign may not.
        let glued = before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !whole.as_str().starts_with(['$', '€', '£']);
        if glued {
            // "Q3", "E-104", "v2.1" are names; "2020-2024" is a range of positive numbers.
            let range = caps.name("sign").is_some() && before.is_some_and(|c| c.is_ascii_digit());
            if !range {
                continue;
            }
            negative = false;
        }
        let digits: String = caps["num"]
            .chars()
            .filter(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let Ok(mut value) = digits.parse::<f64>() else {
            continue;
        };
        let scale = caps.name("word").or(caps.name("letter"));
        value *= match scale.map(|s| s.as_str().to_lowercase()).as_deref() {
            Some("k" | "thousand") => 1e3,
            Some("m" | "mn" | "million") => 1e6,
            Some("b" | "bn" | "billion") => 1e9,
            Some("trillion") => 1e12,
            _ => 1.0,
        };
        out.push(Number {
            value: if negative { -value } else { value },
            either_sign: caps.name("open").is_some() && caps.name("close").is_some(),
            text: body[whole.range()].trim().to_owned(),
        });
    }
    out
}

/// Whether `x` equals the truth within the fact's tolerance (plus float noise).
fn within(x: f64, truth: f64, tolerance: Option<f64>) -> bool {
    let allowed = tolerance.unwrap_or(if truth.fract() == 0.0 {
        0.0
    } else {
        DEFAULT_RELATIVE * truth.abs()
    });
    (x - truth).abs() <= allowed + 1e-9 * truth.abs().max(1.0)
}

/// Whether `number` can be read as the truth.
fn number_matches(number: &Number, truth: f64, tolerance: Option<f64>) -> bool {
    within(number.value, truth, tolerance)
        || (number.either_sign && within(-number.value, truth, tolerance))
}

/// Whether `phrase` occurs in `text`, case-insensitive, not inside a word or a number.
fn has_phrase(text: &str, phrase: &str) -> bool {
    let (text, phrase) = (text.to_lowercase(), phrase.trim().to_lowercase());
    if phrase.is_empty() {
        return false;
    }
    let inside = |c: Option<char>, beyond: Option<char>| {
        c.is_some_and(|c| c.is_alphanumeric())
            || (matches!(c, Some('.' | ',')) && beyond.is_some_and(|b| b.is_ascii_digit()))
    };
    text.match_indices(&phrase).any(|(i, _)| {
        let mut before = text[..i].chars().rev();
        let mut after = text[i + phrase.len()..].chars();
        !inside(before.next(), before.next()) && !inside(after.next(), after.next())
    })
}

/// Verdict and found text for one fact.
fn verdict(reply: &str, segments: &[Segment], fact: &Fact) -> (bool, Option<String>) {
    let near = || near_segments(segments, &fact.description);
    let says = |phrases: &[&str]| {
        let near = near();
        let hit = near
            .iter()
            .find(|s| phrases.iter().any(|p| has_phrase(s, p)));
        (hit.is_some(), hit.or(near.first()).map(|s| s.to_string()))
    };
    match &fact.value {
        Value::Null => says(NONE_WORDS),
        Value::Array(items) if items.is_empty() => says(NONE_WORDS),
        Value::String(s) if s.trim().is_empty() => says(NONE_WORDS),
        Value::String(s) => says(&[s.as_str()]),
        Value::Bool(true) => says(&["true", "yes"]),
        Value::Bool(false) => says(&["false", "no"]),
        Value::Number(n) => {
            let truth = n.as_f64().unwrap_or(f64::NAN);
            let near = near();
            let candidates: Vec<Number> = near.iter().flat_map(|s| numbers(s)).collect();
            number_verdict(&candidates, truth, fact.tolerance)
        }
        Value::Array(items) => list_verdict(reply, segments, items, fact.tolerance),
        Value::Object(_) => (false, None),
    }
}

/// The first candidate equal to the truth, else the one closest in value.
fn number_verdict(
    candidates: &[Number],
    truth: f64,
    tolerance: Option<f64>,
) -> (bool, Option<String>) {
    if let Some(hit) = candidates
        .iter()
        .find(|n| number_matches(n, truth, tolerance))
    {
        return (true, Some(hit.text.clone()));
    }
    let closest = candidates
        .iter()
        .min_by(|a, b| (a.value - truth).abs().total_cmp(&(b.value - truth).abs()));
    (false, closest.map(|n| n.text.clone()))
}

/// Every item stated anywhere in the reply; found lists the items seen.
fn list_verdict(
    reply: &str,
    segments: &[Segment],
    items: &[Value],
    tolerance: Option<f64>,
) -> (bool, Option<String>) {
    let all_numbers: Vec<Number> = segments
        .iter()
        .filter(|s| s.line)
        .flat_map(|s| numbers(&s.text))
        .collect();
    let seen: Vec<String> = items
        .iter()
        .filter_map(|item| {
            let stated = |t: f64| all_numbers.iter().any(|x| number_matches(x, t, tolerance));
            // Numbers, and numbers as text ("distinct" gives strings), are read as numbers, so
            // "104" is not found inside "E-104" or "1,104".
            let present = match item {
                Value::Number(n) => n.as_f64().is_some_and(stated),
                Value::String(s) => match s.trim().parse::<f64>() {
                    Ok(t) if t.is_finite() => stated(t),
                    _ => has_phrase(reply, s),
                },
                other => has_phrase(reply, &other.to_string()),
            };
            present.then(|| {
                item.as_str()
                    .map_or_else(|| item.to_string(), str::to_owned)
            })
        })
        .collect();
    let found = (!seen.is_empty()).then(|| seen.join(", "));
    (seen.len() == items.len(), found)
}

#[cfg(test)]
mod tests;
