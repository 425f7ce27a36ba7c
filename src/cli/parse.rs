//! Parsers of flag values: names with a "did you mean", sizes, shares, counts.

use crate::dataset::{RECORDS_RANGE, Structure, Variant};
use crate::formats::Format;
use crate::names::one_of;
use crate::suites::asked::QuestionsArg;
use crate::tokens::Tokenizer;
use std::path::PathBuf;

/// A DuckDB memory size: a number and a unit (`400MB`, `1.5GB`, `512MiB`).
pub fn parse_memory(s: &str) -> Result<String, String> {
    let t = s.trim();
    let unit_at = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (n, unit) = t.split_at(unit_at);
    let units = ["B", "KB", "MB", "GB", "TB", "KIB", "MIB", "GIB", "TIB"];
    if n.parse::<f64>().is_ok_and(|x| x > 0.0)
        && units.contains(&unit.trim().to_uppercase().as_str())
    {
        Ok(format!("{n}{}", unit.trim()))
    } else {
        Err(format!("'{s}' is not a size such as 400MB or 2GB"))
    }
}

/// Digits are a count (1 to 100000), anything else a file (`./124` names a file called 124).
pub(crate) fn parse_questions(s: &str) -> Result<QuestionsArg, String> {
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        return match s.parse::<usize>() {
            Ok(n @ 1..=100_000) => Ok(QuestionsArg::Count(n)),
            _ => Err(format!(
                "{s} is not a count from 1 to 100000 (or a question file)"
            )),
        };
    }
    Ok(QuestionsArg::File(PathBuf::from(s)))
}

/// A `--formats` selection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Formats(pub Vec<Format>);

impl std::ops::Deref for Formats {
    type Target = [Format];
    fn deref(&self) -> &[Format] {
        &self.0
    }
}

pub(crate) fn parse_formats(s: &str) -> Result<Formats, String> {
    match s {
        "all" => Ok(Formats(Format::ALL.to_vec())),
        "default" => Ok(Formats(Format::defaults())),
        list => list
            .split(',')
            .map(|item| {
                one_of("format", item.trim(), Format::ALL, Format::name)
                    .map_err(|e| e.replace(")", ", all)"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Formats),
    }
}

pub(crate) fn parse_format(s: &str) -> Result<Format, String> {
    crate::names::format(s)
}

pub(crate) fn parse_structure(s: &str) -> Result<Structure, String> {
    one_of("structure", s, &Structure::ALL, Structure::name)
}

pub(crate) fn parse_variant(s: &str) -> Result<Variant, String> {
    one_of("variant", s, &Variant::ALL, Variant::name)
}

/// A `--tokenizers` selection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tokenizers(pub Vec<Tokenizer>);

impl std::ops::Deref for Tokenizers {
    type Target = [Tokenizer];
    fn deref(&self) -> &[Tokenizer] {
        &self.0
    }
}

pub(crate) fn parse_tokenizers(s: &str) -> Result<Tokenizers, String> {
    if s == "all" {
        return Ok(Tokenizers(Tokenizer::ALL.to_vec()));
    }
    let mut out: Vec<Tokenizer> = Vec::new();
    for item in s.split(',') {
        let t = one_of("tokenizer", item.trim(), &Tokenizer::ALL, Tokenizer::name)
            .map_err(|e| e.replace(")", ", all)"))?;
        if !out.contains(&t) {
            out.push(t);
        }
    }
    Ok(Tokenizers(out))
}

/// A non-inferiority margin: percentage points above 0 and below 100.
pub(crate) fn parse_margin(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(m) if m.is_finite() && m > 0.0 && m < 100.0 => Ok(m),
        _ => Err(format!(
            "'{s}' is not a margin in percentage points (a number above 0 and below 100)"
        )),
    }
}

/// A share of the calls, 0 to 1.
pub(crate) fn parse_share(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!(
            "'{s}' is not a share of the calls (a number from 0 to 1, such as 0.1)"
        )),
    }
}

/// A budget in USD: a finite number, 0 or more (checked with `--dry-run` too).
pub(crate) fn parse_budget(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(b) if b.is_finite() && b >= 0.0 => Ok(b),
        _ => Err(format!(
            "'{s}' is not an amount of USD (a number, 0 or more)"
        )),
    }
}

/// A poll interval: seconds above 0 and at most a day.
pub(crate) fn parse_poll(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(p) if p.is_finite() && p > 0.0 && p <= 86_400.0 => Ok(p),
        _ => Err(format!(
            "'{s}' is not a number of seconds above 0 and at most 86400"
        )),
    }
}

pub(crate) fn parse_records(s: &str) -> Result<u32, String> {
    let n: u32 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a whole number (allowed: 1 to 100000)"))?;
    if RECORDS_RANGE.contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "{n} records is out of range (allowed: 1 to 100000)"
        ))
    }
}
