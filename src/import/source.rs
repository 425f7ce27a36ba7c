//! What an importer reads a source into ([`Published`] runs of [`Answer`]s) and the helpers
//! every importer shares: one-line errors naming the file and place, hashed reads, the files of
//! a folder, the commit a provenance note names. A leaf: the importers and the writer use it,
//! it uses none of them.

use crate::UsageError;
use crate::dataset::{Structure, Variant};
use crate::formats::Format;
use crate::runlog::meta::Imported;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// One published answer, as its source gave it.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The model that answered.
    pub model: String,
    /// The format the data was given in.
    pub format: Format,
    /// The source's question id.
    pub question: String,
    /// The question's category (`question` when the source names none).
    pub category: String,
    /// The expected answer as published (None when the source publishes none).
    pub expected: Option<Value>,
    /// The answer as published.
    pub actual: Value,
    /// The source's own grade (None when it published none).
    pub source_passed: Option<bool>,
    /// Input tokens as the source recorded them.
    pub input_tokens: Option<u64>,
    /// Output tokens as the source recorded them.
    pub output_tokens: Option<u64>,
    /// Latency of the call in ms, where published.
    pub latency_ms: Option<f64>,
    /// The source's run number, 1-based (1 when it ran once).
    pub run: u32,
    /// The data's structure (flat when the source mixes shapes or names none).
    pub structure: Structure,
    /// The data's variant (mandatory when the source names none).
    pub variant: Variant,
    /// Where it was read (`FILE: answer 17`), for errors.
    pub place: String,
    /// The validation rule the source names for the question, when it names one (else bench
    /// reads the rule from the expected value's kind).
    pub rule: Option<crate::questions::Validation>,
    /// The expected element this answer is graded on, when the source's questions are analysis
    /// tasks (`--from tealeaf`): `actual` is then the whole reply.
    pub element: Option<Box<Element>>,
    /// bench's measure of the data file the model was given, when the source publishes that
    /// file (`--from hoeltig`): chars, bytes and tokens counted offline with bench's tokenizers.
    pub data: Option<std::sync::Arc<crate::tokens::DataStats>>,
}

/// One expected element of an analysis task and what bench's copy of TeaLeaf's rubric found of
/// it in a reply: each element is one question, detected or not (`--from tealeaf`).
#[derive(Debug, Clone)]
pub struct Element {
    /// The task it belongs to (`FIN-001`).
    pub task: String,
    /// The element's description, whose long words are its keywords.
    pub description: String,
    /// Its regex, when it has one.
    pub pattern: Option<String>,
    /// What detected it (the regex's match or a keyword); None when not detected.
    pub found: Option<String>,
    /// The whole reply's rubric scores as bench computes them.
    pub rubric: crate::grading::rubric::Rubric,
}

/// One source run: where it came from and every answer of it.
#[derive(Debug, Clone)]
pub struct Published {
    /// Provenance; `grade` is set by [`write_runs`].
    pub about: Imported,
    /// The run in words (`the TOON benchmark's retrieval answers of 4 models`).
    pub description: String,
    /// Its answers.
    pub answers: Vec<Answer>,
}

/// A source of published answers: reads its files into runs, refusing anything it cannot read
/// whole (nothing is written then).
pub trait Importer: Sync {
    /// The `--from` name.
    fn name(&self) -> &'static str;
    /// What it reads, in a few words (for `--help` and errors).
    fn about(&self) -> &'static str;
    /// Reads `paths` (files or folders) into one or more runs.
    fn read(&self, paths: &[PathBuf], opts: &Options) -> anyhow::Result<Vec<Published>>;
}

/// What `bench import` passes every importer besides the paths.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `--map FIELD=COLUMN,…` (`--from table`).
    pub map: Option<String>,
}

/// A one-line input error naming the file and the place in it.
pub(crate) fn bad(file: &Path, place: &str, why: impl std::fmt::Display) -> anyhow::Error {
    let at = if place.is_empty() {
        String::new()
    } else {
        format!(": {place}")
    };
    UsageError::new(format!("{}{at}: {why}", file.display())).into()
}

/// Hex sha256 of a file's bytes, with the bytes.
pub(crate) fn read_hashed(path: &Path) -> anyhow::Result<(Vec<u8>, String)> {
    let bytes = std::fs::read(path).map_err(|e| bad(path, "", format!("cannot read: {e}")))?;
    let hex = crate::layout::sha256_hex(&bytes);
    Ok((bytes, hex))
}

/// The files named: each file as given, each folder's files (sorted; hidden files and
/// Markdown/licence notes left out).
pub(crate) fn files_of(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut inner: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| bad(p, "", format!("cannot read folder: {e}")))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.is_file() && !is_note(f))
                .collect();
            inner.sort();
            out.extend(inner);
        } else if p.is_file() {
            out.push(p.clone());
        } else {
            return Err(bad(p, "", "no such file or folder"));
        }
    }
    Ok(out)
}

/// A file beside published data that is not data: a note, a licence, a hidden file.
fn is_note(f: &Path) -> bool {
    let name = f
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    name.starts_with('.') || name.ends_with(".md") || name.starts_with("licen")
}

/// The 40-hex commit a `PROVENANCE.md` or `SOURCE.md` beside `file` names, if any.
pub(crate) fn commit_beside(file: &Path) -> Option<String> {
    let dir = file.parent()?;
    let re = regex::Regex::new(r"\b[0-9a-f]{40}\b").expect("a valid pattern");
    ["PROVENANCE.md", "SOURCE.md"].iter().find_map(|n| {
        let text = std::fs::read_to_string(dir.join(n)).ok()?;
        re.find(&text).map(|m| m.as_str().to_string())
    })
}
