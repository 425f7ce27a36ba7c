//! The TOON benchmark's published answers (github toon-format/toon, MIT):
//! `benchmarks/results/accuracy/models/<model>`, one JSON array per model of `questionId,
//! format, model, expected, actual, isCorrect, inputTokens, outputTokens, latencyMs`. Every
//! file given makes one run (the set behind its README table).

use super::source::{
    Answer, Importer, Options, Published, bad, commit_beside, files_of, read_hashed,
};
use crate::dataset::{Structure, Variant};
use crate::formats::Format;
use crate::runlog::meta::{Imported, ImportedFile};
use serde::Deserialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The `--from toon` importer.
pub struct Toon;

/// One element of a model file.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Row {
    question_id: String,
    format: String,
    model: String,
    expected: Value,
    actual: Value,
    is_correct: bool,
    input_tokens: Option<u64>,
    output_tokens: Option<u64>,
    latency_ms: Option<f64>,
}

/// The TOON benchmark's format names as bench's: `toon` is the current spec (v4: nested field
/// groups); its XML is indented.
fn format_of(name: &str) -> Option<Format> {
    Some(match name {
        "json-pretty" => Format::JsonPretty,
        "json-compact" => Format::JsonCompact,
        "toon" => Format::ToonV4,
        "csv" => Format::Csv,
        "xml" => Format::XmlPretty,
        "yaml" => Format::Yaml,
        _ => return None,
    })
}

impl Importer for Toon {
    fn name(&self) -> &'static str {
        "toon"
    }

    fn about(&self) -> &'static str {
        "the TOON benchmark's per-model answer files"
    }

    fn read(&self, paths: &[PathBuf], _: &Options) -> anyhow::Result<Vec<Published>> {
        let files = files_of(paths)?;
        let mut answers = Vec::new();
        let mut read = Vec::new();
        for f in &files {
            let (n, sha256) = read_file(f, &mut answers)?;
            read.push(ImportedFile {
                path: f.clone(),
                sha256,
                answers: n,
            });
        }
        let models: std::collections::BTreeSet<&str> =
            answers.iter().map(|a| a.model.as_str()).collect();
        let about = Imported {
            source: self.name().into(),
            name: "the TOON benchmark".into(),
            url: "https://github.com/toon-format/toon".into(),
            commit: files.first().and_then(|f| commit_beside(f)),
            licence: "MIT".into(),
            files: read,
            token_counter: "the provider's billed input tokens of the whole prompt (inputTokens)"
                .into(),
            baseline: Some(Format::JsonPretty),
            grade: String::new(),
            skipped: Vec::new(),
            notes: Vec::new(),
        };
        Ok(vec![Published {
            about,
            description: format!(
                "the TOON benchmark's retrieval answers of {} models",
                models.len()
            ),
            answers,
        }])
    }
}

/// Reads one model file into `out`; returns how many answers it held and its sha256.
fn read_file(f: &Path, out: &mut Vec<Answer>) -> anyhow::Result<(usize, String)> {
    let (bytes, sha256) = read_hashed(f)?;
    let before = out.len();
    let rows: Vec<Value> = serde_json::from_slice(&bytes).map_err(|e| {
        bad(
            f,
            &format!("line {} column {}", e.line(), e.column()),
            format!("not a JSON array of answers: {e}"),
        )
    })?;
    for (i, raw) in rows.into_iter().enumerate() {
        let place = format!("answer {}", i + 1);
        let row: Row = serde_json::from_value(raw).map_err(|e| bad(f, &place, e))?;
        let place = format!("answer {} (questionId {})", i + 1, row.question_id);
        let format = format_of(&row.format).ok_or_else(|| {
            bad(
                f,
                &place,
                format!(
                    "unknown format '{}' (the TOON benchmark's are json-pretty, json-compact, \
                     toon, csv, xml, yaml)",
                    row.format
                ),
            )
        })?;
        out.push(Answer {
            model: row.model,
            format,
            question: row.question_id,
            category: "question".into(),
            expected: Some(row.expected),
            actual: row.actual,
            source_passed: Some(row.is_correct),
            input_tokens: row.input_tokens,
            output_tokens: row.output_tokens,
            latency_ms: row.latency_ms,
            run: 1,
            structure: Structure::Flat,
            variant: Variant::Mandatory,
            place: format!("{}: {place}", f.display()),
            rule: None,
            element: None,
            data: None,
        });
    }
    Ok((out.len() - before, sha256))
}
