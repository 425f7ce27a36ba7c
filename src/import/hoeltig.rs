//! The seed benchmark's published runs (github thoeltig/file-format-token-accuracy-benchmark-
//! results, no licence file): `benchmark_<model>/results_*/results/<format>_<structure>_
//! <variant>_<N>_validation.json`, each holding every run's answer to each of its 124 questions
//! with the seed validator's `correct`. The validation rule of each question comes from the
//! model folder's `answers_validation/questions_and_answers_with_<variant>_<N>_records.json`.
//! Every model folder given (or the folder holding the files given) makes one run.

use super::hoeltig_data::{self, DataFiles};
use super::source::{Answer, Importer, Options, Published, bad, files_of, read_hashed};
use crate::dataset::{Structure, Variant};
use crate::formats::Format;
use crate::runlog::meta::{Imported, ImportedFile};
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// The `--from hoeltig` importer.
pub struct Hoeltig;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct File {
    format: String,
    structure: String,
    variant: String,
    record_count: usize,
    questions_and_provided_answers: Vec<Question>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Question {
    question_id: Value,
    category: String,
    expected_answer: Value,
    answers: Vec<Given>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Given {
    given_answer: Value,
    correct: Option<bool>,
}

/// The seed's format names as bench's: its `toon_default` and `toon_safe` are TOON v3 without
/// and with safe key folding. `Err` names a seed format bench has no equivalent of.
fn format_of(name: &str) -> Option<Result<Format, &'static str>> {
    Some(Ok(match name {
        "toon_safe" => Format::ToonKeyfold,
        "toon_unsafe" => {
            return Some(Err(
                "TOON with unsafe key folding, which bench has no format for",
            ));
        }
        n => Format::from_name(n)?,
    }))
}

/// The model a `benchmark_<model>` folder names (`benchmark_sonnet_4_6` → claude-sonnet-4-6).
fn model_of(folder: &str) -> String {
    let m = folder.strip_prefix("benchmark_").unwrap_or(folder);
    format!("claude-{}", m.replace('_', "-"))
}

/// The `benchmark_*` folder above a validation file.
fn model_folder(f: &Path) -> Option<&Path> {
    f.ancestors().find(|a| {
        a.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("benchmark_"))
    })
}

/// Each question id's validation rule from the answer key beside the run, when present.
fn rules(model: &Path, variant: &str, n: usize) -> HashMap<String, crate::questions::Validation> {
    use crate::questions::Validation;
    let key = model.join("answers_validation").join(format!(
        "questions_and_answers_with_{variant}_{n}_records.json"
    ));
    let Ok(text) = std::fs::read_to_string(key) else {
        return HashMap::new();
    };
    let Ok(v) = serde_json::from_str::<Value>(&text) else {
        return HashMap::new();
    };
    let mut out = HashMap::new();
    for q in v["answersAndQuestions"].as_array().into_iter().flatten() {
        let e = &q["expectedAnswer"];
        let rule = match e["validationMethod"].as_str() {
            Some("exact") => Validation::Exact,
            Some("numeric") => Validation::Numeric {
                tolerance: e["tolerance"].as_f64().unwrap_or(0.0),
            },
            Some("array_set") => Validation::ArraySet,
            Some("fuzzy") => Validation::Fuzzy,
            _ => continue,
        };
        out.insert(q["id"].to_string(), rule);
    }
    out
}

impl Importer for Hoeltig {
    fn name(&self) -> &'static str {
        "hoeltig"
    }

    fn about(&self) -> &'static str {
        "the seed benchmark's *_validation.json runs"
    }

    fn read(&self, paths: &[PathBuf], _: &Options) -> anyhow::Result<Vec<Published>> {
        let mut by_model: BTreeMap<PathBuf, Vec<PathBuf>> = BTreeMap::new();
        for f in validation_files(paths)? {
            let model = model_folder(&f)
                .ok_or_else(|| bad(&f, "", "not inside a benchmark_<model> folder"))?;
            by_model.entry(model.to_path_buf()).or_default().push(f);
        }
        by_model
            .into_iter()
            .map(|(model_dir, files)| read_model(&model_dir, &files))
            .collect()
    }
}

/// The `*_validation.json` files under the paths given.
fn validation_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack: Vec<PathBuf> = paths.to_vec();
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            for e in std::fs::read_dir(&p).map_err(|e| bad(&p, "", e))? {
                stack.push(e.map_err(|e| bad(&p, "", e))?.path());
            }
        } else if p
            .file_name()
            .is_some_and(|n| n.to_string_lossy().ends_with("_validation.json"))
            || paths.contains(&p)
        {
            out.extend(files_of(std::slice::from_ref(&p))?);
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn read_model(model_dir: &Path, files: &[PathBuf]) -> anyhow::Result<Published> {
    let folder = model_dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let model = model_of(&folder);
    let mut answers = Vec::new();
    let mut read = Vec::new();
    let mut skipped = Vec::new();
    let mut data = DataFiles::new(model_dir);
    let mut results_dirs: Vec<PathBuf> = Vec::new();
    for f in files {
        let (bytes, sha256) = read_hashed(f)?;
        let before = answers.len();
        let v: File = serde_json::from_slice(&bytes).map_err(|e| {
            bad(
                f,
                &format!("line {} column {}", e.line(), e.column()),
                format!("not a seed validation file: {e}"),
            )
        })?;
        let format = match format_of(&v.format) {
            Some(Ok(format)) => format,
            Some(Err(why)) => {
                let n: usize = v
                    .questions_and_provided_answers
                    .iter()
                    .map(|q| q.answers.len())
                    .sum();
                skipped.push(format!(
                    "{} ({}: {why}; its {n} answers are not imported)",
                    f.display(),
                    v.format
                ));
                continue;
            }
            None => {
                return Err(bad(
                    f,
                    "format",
                    format!("unknown format '{}' (bench has no such format)", v.format),
                ));
            }
        };
        let structure = match v.structure.as_str() {
            "flat" => Structure::Flat,
            "nested" => Structure::Nested,
            s => return Err(bad(f, "structure", format!("unknown structure '{s}'"))),
        };
        let variant = match v.variant.as_str() {
            "mandatory" => Variant::Mandatory,
            "optional" => Variant::Optional,
            s => return Err(bad(f, "variant", format!("unknown variant '{s}'"))),
        };
        let rules = rules(model_dir, &v.variant, v.record_count);
        let stats = data.stats(&v.format, format, &v.variant, v.record_count, &v.structure)?;
        // `results_*/results/X_validation.json`: the seed's metrics.json is in `results_*`.
        if let Some(dir) = f.parent().and_then(Path::parent)
            && !results_dirs.iter().any(|d| d == dir)
        {
            results_dirs.push(dir.to_path_buf());
        }
        for (qi, q) in v.questions_and_provided_answers.iter().enumerate() {
            let id = match &q.question_id {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            for (ri, g) in q.answers.iter().enumerate() {
                answers.push(Answer {
                    model: model.clone(),
                    format,
                    question: id.clone(),
                    category: q.category.clone(),
                    expected: Some(q.expected_answer.clone()),
                    actual: g.given_answer.clone(),
                    source_passed: g.correct,
                    input_tokens: None,
                    output_tokens: None,
                    latency_ms: None,
                    run: ri as u32 + 1,
                    structure,
                    variant,
                    place: format!(
                        "{}: question {} (questionId {id}) run {}",
                        f.display(),
                        qi + 1,
                        ri + 1
                    ),
                    rule: rules.get(&id).cloned(),
                    element: None,
                    data: stats.clone(),
                });
            }
        }
        read.push(ImportedFile {
            path: f.clone(),
            sha256,
            answers: answers.len() - before,
        });
    }
    let about = Imported {
        source: "hoeltig".into(),
        name: "the seed benchmark (thoeltig/file-format-token-accuracy-benchmark-results)".into(),
        url: "https://github.com/thoeltig/file-format-token-accuracy-benchmark-results".into(),
        // Its files were taken at several commits; each file's sha256 identifies it.
        commit: None,
        licence: "none found in the repository".into(),
        files: read,
        token_counter: if data.any() {
            hoeltig_data::COUNTER.into()
        } else {
            "none published per answer".into()
        },
        baseline: Some(Format::JsonCompact),
        grade: String::new(),
        skipped,
        notes: data.notes(&results_dirs)?,
    };
    Ok(Published {
        about,
        description: format!("the seed benchmark's runs of {model}"),
        answers,
    })
}
