//! TeaLeaf's accuracy-benchmark evidence (github krishjag/tealeaf, MIT):
//! `accuracy-benchmark/evidence/<run>/` holds `analysis.tl` (every call's tokens and latency in
//! `responses`, TeaLeaf's four rubric scores of every reply in `analysis_results`) and
//! `responses/{source}-{task}-{provider}-{format}.txt`, each reply as the model wrote it. Its
//! task file (`accuracy-benchmark/tasks/real.json`, given as another SOURCE or found beside the
//! folder) names each task's expected elements. TeaLeaf grades whole replies with scores in
//! 0..=1; bench makes each expected element a question, detected or not by its copy of that
//! rubric (`grading::rubric`), and checks its scores of each reply against TeaLeaf's.

use super::source::{
    Answer, Element, Importer, Options, Published, bad, commit_beside, read_hashed,
};
use crate::dataset::{Structure, Variant};
use crate::formats::Format;
use crate::grading::rubric::{self, ExpectedElement, OutputType};
use crate::runlog::meta::{Imported, ImportedFile};
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The `--from tealeaf` importer.
pub struct Tealeaf;

/// A row of `analysis.tl`'s `responses` table (the fields bench reads).
#[derive(Deserialize)]
struct Call {
    task_id: String,
    provider: String,
    format: String,
    model: Option<String>,
    input_tokens: u64,
    output_tokens: u64,
    latency_ms: f64,
    status: String,
}

/// A row of `analysis.tl`'s `analysis_results` table: TeaLeaf's scores of one reply.
#[derive(Deserialize)]
struct Scores {
    task_id: String,
    provider: String,
    format: String,
    completeness: f64,
    relevance: f64,
    coherence: f64,
    factual_accuracy: f64,
}

/// The task file: only the tasks are read.
#[derive(Deserialize)]
struct TaskFile {
    tasks: Vec<TaskDef>,
}

/// A task of the task file: the fields its rubric reads (the task file schema's names and
/// defaults, as the tasks suite loads them).
#[derive(Deserialize)]
struct TaskDef {
    id: String,
    category: String,
    #[serde(default, alias = "expected_output_type")]
    output_type: OutputType,
    #[serde(default)]
    expected_elements: Vec<ExpectedElement>,
}

/// TeaLeaf's format names as bench's: its JSON is indented, its TOON the `toon-format` crate's.
fn format_of(name: &str) -> Option<Format> {
    Some(match name {
        "json" => Format::JsonPretty,
        "tl" => Format::Tealeaf,
        "toon" => Format::ToonDefault,
        _ => return None,
    })
}

/// TeaLeaf publishes its scores rounded to 3 decimals.
const ROUNDING: f64 = 0.0005 + 1e-9;

impl Importer for Tealeaf {
    fn name(&self) -> &'static str {
        "tealeaf"
    }

    fn about(&self) -> &'static str {
        "TeaLeaf's evidence folder (analysis.tl, responses/) and its task file"
    }

    fn read(&self, paths: &[PathBuf], _: &Options) -> anyhow::Result<Vec<Published>> {
        let (folders, task_files): (Vec<&PathBuf>, Vec<&PathBuf>) =
            paths.iter().partition(|p| p.is_dir());
        let mut runs = Vec::new();
        for dir in folders {
            let task_file = match task_files.first() {
                Some(f) => (*f).clone(),
                None => find_task_file(dir)?,
            };
            runs.push(read_run(dir, &task_file)?);
        }
        if runs.is_empty() {
            let given = paths.first().map_or(Path::new("."), |p| p.as_path());
            return Err(bad(
                given,
                "",
                "no evidence folder given (the folder holding analysis.tl and responses/)",
            ));
        }
        Ok(runs)
    }
}

/// `real.json` or `tasks.json` beside the folder or one level up (the repository keeps it in
/// `accuracy-benchmark/tasks/`, so a copy is expected beside the evidence).
fn find_task_file(dir: &Path) -> anyhow::Result<PathBuf> {
    let names = ["real.json", "tasks.json"];
    [Some(dir), dir.parent()]
        .into_iter()
        .flatten()
        .flat_map(|d| names.iter().map(move |n| d.join(n)))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            bad(
                dir,
                "",
                "no task file (real.json) in it or beside it: TeaLeaf's \
                 accuracy-benchmark/tasks/real.json names each task's expected elements; give it \
                 as another SOURCE",
            )
        })
}

/// The rows of `table` in the decoded `analysis.tl`, each read as `T`.
fn rows<T: for<'de> Deserialize<'de>>(
    doc: &Value,
    table: &str,
    file: &Path,
) -> anyhow::Result<Vec<T>> {
    let list = doc
        .get(table)
        .and_then(Value::as_array)
        .ok_or_else(|| bad(file, "", format!("no '{table}' table")))?;
    list.iter()
        .enumerate()
        .map(|(i, row)| {
            serde_json::from_value(row.clone())
                .map_err(|e| bad(file, &format!("{table} row {}", i + 1), e))
        })
        .collect()
}

/// Reads one evidence folder into one run.
fn read_run(dir: &Path, task_file: &Path) -> anyhow::Result<Published> {
    let analysis = dir.join("analysis.tl");
    let (bytes, sha) = read_hashed(&analysis)?;
    let text = String::from_utf8(bytes).map_err(|_| bad(&analysis, "", "not UTF-8 text"))?;
    let doc = Format::Tealeaf.decode(&text).map_err(|e| {
        bad(
            &analysis,
            "",
            format!("not a TeaLeaf document bench reads: {e}"),
        )
    })?;
    let calls: Vec<Call> = rows(&doc, "responses", &analysis)?;
    let scores: Vec<Scores> = rows(&doc, "analysis_results", &analysis)?;
    let (task_bytes, task_sha) = read_hashed(task_file)?;
    let tasks: TaskFile = serde_json::from_slice(&task_bytes).map_err(|e| {
        bad(
            task_file,
            &format!("line {} column {}", e.line(), e.column()),
            format!("not a TeaLeaf task file: {e}"),
        )
    })?;
    let tasks: BTreeMap<&str, &TaskDef> = tasks.tasks.iter().map(|t| (t.id.as_str(), t)).collect();
    let theirs: BTreeMap<(&str, &str, &str), &Scores> = scores
        .iter()
        .map(|s| {
            (
                (s.task_id.as_str(), s.provider.as_str(), s.format.as_str()),
                s,
            )
        })
        .collect();
    let mut answers = Vec::new();
    let mut files = vec![
        ImportedFile {
            path: analysis.clone(),
            sha256: sha,
            answers: 0,
        },
        ImportedFile {
            path: task_file.to_path_buf(),
            sha256: task_sha,
            answers: 0,
        },
    ];
    let (mut same, mut differ) = (0usize, Vec::new());
    let mut skipped = Vec::new();
    let mut replies = Vec::new();
    for (i, call) in calls.iter().enumerate() {
        let place = format!(
            "responses row {} ({} {} {})",
            i + 1,
            call.task_id,
            call.provider,
            call.format
        );
        let format = format_of(&call.format).ok_or_else(|| {
            bad(
                &analysis,
                &place,
                format!(
                    "unknown format '{}' (TeaLeaf's are json, tl, toon)",
                    call.format
                ),
            )
        })?;
        if call.status != "success" {
            skipped.push(format!("{place}: status {} (no reply saved)", call.status));
            continue;
        }
        let task = tasks.get(call.task_id.as_str()).ok_or_else(|| {
            bad(
                &analysis,
                &place,
                format!("task '{}' is not in {}", call.task_id, task_file.display()),
            )
        })?;
        let reply_file = reply_path(dir, call)?;
        let (reply, reply_sha) = read_hashed(&reply_file)?;
        let reply = String::from_utf8(reply).map_err(|_| bad(&reply_file, "", "not UTF-8 text"))?;
        let rubric = rubric::score(&reply, &task.expected_elements, task.output_type);
        let key = (
            call.task_id.as_str(),
            call.provider.as_str(),
            call.format.as_str(),
        );
        match theirs.get(&key) {
            Some(s) => match differences(s, &rubric) {
                d if d.is_empty() => same += 1,
                d => differ.push(format!("{} {} {}: {}", key.0, key.1, key.2, d.join(", "))),
            },
            None => differ.push(format!(
                "{} {} {}: no TeaLeaf score published",
                key.0, key.1, key.2
            )),
        }
        for (j, e) in task.expected_elements.iter().enumerate() {
            answers.push(Answer {
                model: call.model.clone().unwrap_or_else(|| call.provider.clone()),
                format,
                question: format!("{}/{}", task.id, j + 1),
                category: task.category.clone(),
                expected: None,
                actual: Value::String(reply.clone()),
                source_passed: None,
                input_tokens: Some(call.input_tokens),
                output_tokens: Some(call.output_tokens),
                latency_ms: Some(call.latency_ms),
                run: 1,
                structure: Structure::Nested,
                variant: Variant::Mandatory,
                place: format!("{}: {place}", analysis.display()),
                rule: None,
                element: Some(Box::new(Element {
                    task: task.id.clone(),
                    description: e.description.clone(),
                    pattern: e.validation_pattern.clone(),
                    found: rubric::detected(&reply, e),
                    rubric,
                })),
                data: None,
            });
        }
        let name = reply_file.file_name().unwrap_or_default().to_string_lossy();
        replies.push(format!("{reply_sha}  {name}"));
    }
    files[0].answers = answers.len();
    // One entry for the replies: the sha256 of their `sha256sum`-style list, so the Setup
    // names the folder once rather than 84 files.
    files.push(ImportedFile {
        path: dir.join("responses"),
        sha256: crate::layout::sha256_hex(replies.join("\n").as_bytes()),
        answers: answers.len(),
    });
    let graded = same + differ.len();
    let mut notes = vec![format!(
        "TeaLeaf grades whole replies (four rubric scores in 0..1, 3 decimals, analysis.tl); bench \
         makes each expected element of a task a question, detected or not by its copy of that \
         rubric (the element's regex, else a keyword of its description), never checked against \
         the data; bench's scores of the reply equal TeaLeaf's on {same} of {graded} replies"
    )];
    notes.extend(differ.iter().map(|d| format!("scores differ: {d}")));
    let models: BTreeSet<String> = answers.iter().map(|a| a.model.clone()).collect();
    let asked: BTreeSet<&str> = calls.iter().map(|c| c.task_id.as_str()).collect();
    let about = Imported {
        source: "tealeaf".into(),
        name: "TeaLeaf's accuracy benchmark".into(),
        url: "https://github.com/krishjag/tealeaf".into(),
        commit: commit_beside(&analysis).or_else(|| commit_beside(dir)),
        licence: "MIT".into(),
        files,
        token_counter: "the provider's billed input tokens of the whole prompt (api_response \
                        input_tokens)"
            .into(),
        baseline: Some(Format::JsonPretty),
        grade: String::new(),
        skipped,
        notes,
    };
    Ok(Published {
        about,
        description: format!(
            "TeaLeaf's analysis tasks ({} tasks, {} models: {}), one question per expected element",
            asked.len(),
            models.len(),
            models.into_iter().collect::<Vec<_>>().join(", ")
        ),
        answers,
    })
}

/// The saved reply of `call`: `responses/*-{task}-{provider}-{format}.txt`, task in lower case.
fn reply_path(dir: &Path, call: &Call) -> anyhow::Result<PathBuf> {
    let folder = dir.join("responses");
    let tail = format!(
        "-{}-{}-{}.txt",
        call.task_id.to_lowercase(),
        call.provider,
        call.format
    );
    let mut found: Vec<PathBuf> = std::fs::read_dir(&folder)
        .map_err(|e| bad(&folder, "", format!("cannot read folder: {e}")))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().ends_with(&tail))
        })
        .collect();
    found.sort();
    match found.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(bad(&folder, "", format!("no reply file *{tail}"))),
        [a, b, ..] => Err(bad(
            &folder,
            "",
            format!(
                "two reply files end in {tail}: {} and {}",
                a.display(),
                b.display()
            ),
        )),
    }
}

/// The scores where bench's rubric and TeaLeaf's published one differ beyond its rounding.
fn differences(theirs: &Scores, bench: &rubric::Rubric) -> Vec<String> {
    [
        ("completeness", theirs.completeness, bench.completeness),
        ("relevance", theirs.relevance, bench.relevance),
        ("coherence", theirs.coherence, bench.coherence),
        ("factual", theirs.factual_accuracy, bench.factual),
    ]
    .into_iter()
    .filter(|(_, t, b)| (t - b).abs() > ROUNDING)
    .map(|(name, t, b)| format!("{name} {t:.3} (TeaLeaf) vs {b:.3} (bench)"))
    .collect()
}
