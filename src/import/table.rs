//! Any harness's own table of answers, CSV or JSONL (a promptfoo export flattened, inspect_ai's
//! `samples_df` written as CSV, a plain file): `--map question=COL,format=COL,model=COL,…`
//! names the column of each field. Required: question, format, model, and correct or actual;
//! optional: expected, actual, correct, input_tokens, output_tokens, latency_ms, run, category.
//! Formats are bench's names (`json_compact`; `-` read as `_`). Every file makes one run.

use super::source::{Answer, Importer, Options, Published, bad, read_hashed};
use crate::dataset::{Structure, Variant};
use crate::formats::Format;
use crate::runlog::meta::{Imported, ImportedFile};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The `--from table` importer.
pub struct Table;

/// Every field a column can be mapped to.
const FIELDS: [&str; 11] = [
    "question",
    "format",
    "model",
    "correct",
    "expected",
    "actual",
    "input_tokens",
    "output_tokens",
    "latency_ms",
    "run",
    "category",
];

/// `--map` read: field → column.
fn mapping(map: Option<&str>) -> anyhow::Result<BTreeMap<&'static str, String>> {
    let map = map.ok_or_else(|| {
        crate::UsageError::new(
            "--from table needs --map question=COL,format=COL,model=COL,correct=COL (or actual=COL)",
        )
    })?;
    let mut out = BTreeMap::new();
    for pair in map.split(',').filter(|p| !p.trim().is_empty()) {
        let (k, v) = pair.split_once('=').ok_or_else(|| {
            crate::UsageError::new(format!("--map: '{pair}' is not FIELD=COLUMN"))
        })?;
        let field = FIELDS.iter().find(|f| **f == k.trim()).ok_or_else(|| {
            crate::UsageError::new(format!(
                "--map: unknown field '{}' (fields: {})",
                k.trim(),
                FIELDS.join(", ")
            ))
        })?;
        out.insert(*field, v.trim().to_string());
    }
    for need in ["question", "format", "model"] {
        if !out.contains_key(need) {
            anyhow::bail!(crate::UsageError::new(format!(
                "--map: no column for '{need}' (question, format and model are required)"
            )));
        }
    }
    if !out.contains_key("correct") && !out.contains_key("actual") {
        anyhow::bail!(crate::UsageError::new(
            "--map: no column for 'correct' or 'actual' (a grade or an answer to grade is needed)"
        ));
    }
    Ok(out)
}

/// A file's rows, each with its place (`row 3`, `line 3`).
type PlacedRows = Vec<(String, Map<String, Value>)>;

/// The column names and rows of a CSV or JSONL file as objects.
fn rows(f: &Path, bytes: &[u8]) -> anyhow::Result<(Vec<String>, PlacedRows)> {
    let jsonl = f
        .extension()
        .is_some_and(|x| x == "jsonl" || x == "ndjson" || x == "json");
    let mut out = Vec::new();
    let mut columns: Vec<String> = Vec::new();
    if jsonl {
        let text = std::str::from_utf8(bytes).map_err(|e| bad(f, "", e))?;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let place = format!("line {}", i + 1);
            let v: Value = serde_json::from_str(line)
                .map_err(|e| bad(f, &place, format!("not a JSON object: {e}")))?;
            let Value::Object(o) = v else {
                return Err(bad(f, &place, "not a JSON object"));
            };
            for k in o.keys() {
                if !columns.contains(k) {
                    columns.push(k.clone());
                }
            }
            out.push((place, o));
        }
    } else {
        let mut r = csv::Reader::from_reader(bytes);
        columns = r
            .headers()
            .map_err(|e| bad(f, "header", e))?
            .iter()
            .map(str::to_string)
            .collect();
        for (i, rec) in r.records().enumerate() {
            let place = format!("row {}", i + 2);
            let rec = rec.map_err(|e| bad(f, &place, e))?;
            let o = columns
                .iter()
                .zip(rec.iter())
                .map(|(c, v)| (c.clone(), Value::String(v.to_string())))
                .collect();
            out.push((place, o));
        }
    }
    Ok((columns, out))
}

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn boolean(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => n.as_f64().map(|x| x != 0.0),
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" | "c" | "correct" => Some(true),
            "false" | "0" | "no" | "i" | "incorrect" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) if s.trim().is_empty() => None,
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

impl Importer for Table {
    fn name(&self) -> &'static str {
        "table"
    }

    fn about(&self) -> &'static str {
        "a CSV or JSONL table of answers, with --map"
    }

    fn read(&self, paths: &[PathBuf], opts: &Options) -> anyhow::Result<Vec<Published>> {
        let map = mapping(opts.map.as_deref())?;
        super::source::files_of(paths)?
            .iter()
            .map(|f| read_table(f, &map))
            .collect()
    }
}

fn read_table(f: &Path, map: &BTreeMap<&'static str, String>) -> anyhow::Result<Published> {
    let (bytes, sha256) = read_hashed(f)?;
    let (columns, rows) = rows(f, &bytes)?;
    for (field, col) in map {
        if !columns.contains(col) {
            return Err(bad(
                f,
                "header",
                format!(
                    "no column '{col}' (mapped to {field}); its columns: {}",
                    columns.join(", ")
                ),
            ));
        }
    }
    let mut answers = Vec::new();
    for (place, o) in rows {
        let get = |field: &str| {
            map.get(field)
                .and_then(|c| o.get(c))
                .filter(|v| !v.is_null())
        };
        let need = |field: &str| {
            get(field)
                .map(text)
                .filter(|s| !s.trim().is_empty())
                .ok_or_else(|| {
                    bad(
                        f,
                        &place,
                        format!("empty {field} (column '{}')", map[field]),
                    )
                })
        };
        let name = need("format")?;
        let format = Format::from_name(&name.trim().replace('-', "_")).ok_or_else(|| {
            bad(
                f,
                &place,
                format!(
                    "unknown format '{name}' (column '{}'; `bench formats` lists bench's)",
                    map["format"]
                ),
            )
        })?;
        let source_passed = match get("correct") {
            None => None,
            Some(v) => Some(boolean(v).ok_or_else(|| {
                bad(
                    f,
                    &place,
                    format!(
                        "correct is '{}', not true/false/1/0 (column '{}')",
                        text(v),
                        map["correct"]
                    ),
                )
            })?),
        };
        let run = match get("run") {
            None => 1,
            Some(v) => number(v)
                .filter(|n| *n >= 1.0 && n.fract() == 0.0)
                .ok_or_else(|| {
                    bad(
                        f,
                        &place,
                        format!("run is '{}', not a whole number from 1", text(v)),
                    )
                })? as u32,
        };
        let tokens = |field: &str| get(field).and_then(number).map(|n| n.max(0.0) as u64);
        answers.push(Answer {
            model: need("model")?,
            format,
            question: need("question")?,
            category: get("category")
                .map(text)
                .unwrap_or_else(|| "question".into()),
            expected: get("expected").cloned(),
            actual: get("actual").cloned().unwrap_or(Value::Null),
            source_passed,
            input_tokens: tokens("input_tokens"),
            output_tokens: tokens("output_tokens"),
            latency_ms: get("latency_ms").and_then(number),
            run,
            structure: Structure::Flat,
            variant: Variant::Mandatory,
            place: format!("{}: {place}", f.display()),
            rule: None,
            element: None,
            data: None,
        });
    }
    let about = Imported {
        source: "table".into(),
        name: format!(
            "the table {}",
            f.file_name().unwrap_or_default().to_string_lossy()
        ),
        url: f.display().to_string(),
        commit: None,
        licence: "as the table's owner states".into(),
        files: vec![ImportedFile {
            path: f.to_path_buf(),
            sha256,
            answers: answers.len(),
        }],
        token_counter: match map.get("input_tokens") {
            Some(c) => format!("the table's column '{c}'"),
            None => "none given".into(),
        },
        baseline: None,
        grade: String::new(),
        skipped: Vec::new(),
        notes: Vec::new(),
    };
    Ok(Published {
        about,
        description: format!("answers of the table {}", f.display()),
        answers,
    })
}
