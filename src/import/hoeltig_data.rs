//! The data files the seed benchmark's models read, where they are shipped beside its runs
//! (`benchmark_<model>/data/<format>/<format>_with_<variant>_<N>_<structure>_records.<ext>`):
//! each is decoded by bench's decoder of its format (so a file that is not what its name says
//! is refused) and its tokens are counted offline with every tokenizer of bench, the counting
//! `bench tokens` does. The seed publishes no tokens per answer; its `metrics.json` states
//! `readTokens`, Claude Code's usage for reading each file, which is shown beside bench's count.

use super::source::{bad, read_hashed};
use crate::formats::Format;
use crate::numfmt::thousands;
use crate::tokens::{DataStats, Tokenizer};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The token counter named on an imported seed run whose data files were measured.
pub const COUNTER: &str = "o200k_base count of the seed's published data file (bench's tokenizer; \
                           the seed publishes no tokens per answer)";

/// One data file: the format and variant the seed names it by, and what bench measured.
struct Measured {
    /// `csv mandatory` (the seed's format name, its variant).
    label: String,
    /// bench's measure of it; None when the file is not shipped.
    stats: Option<Arc<DataStats>>,
    /// Where it is (or would be).
    path: PathBuf,
    /// Why bench's decoder of the format refuses it, when it does (its tokens are still the
    /// text the model read, so they are counted).
    refused: Option<String>,
}

/// The data files of one model folder, measured once each, and what to say about them.
pub struct DataFiles {
    model_dir: PathBuf,
    files: BTreeMap<(String, String, usize, String), Measured>,
}

impl DataFiles {
    /// No file measured yet for the model folder `model_dir`.
    pub fn new(model_dir: &Path) -> Self {
        crate::tokens::preload(&Tokenizer::ALL);
        Self {
            model_dir: model_dir.to_path_buf(),
            files: BTreeMap::new(),
        }
    }

    /// bench's measure of the data file of the seed's `format` (its own name, `toon_safe`)
    /// read as bench's `as_format`, for `variant`, `n` records and `structure`; None when the
    /// file is not shipped (the run's notes name it). A shipped file bench's decoder refuses,
    /// or that does not hold `n` records, is an error naming it.
    pub fn stats(
        &mut self,
        format: &str,
        as_format: Format,
        variant: &str,
        n: usize,
        structure: &str,
    ) -> anyhow::Result<Option<Arc<DataStats>>> {
        let key = (format.into(), variant.into(), n, structure.into());
        if let Some(m) = self.files.get(&key) {
            return Ok(m.stats.clone());
        }
        let path = data_path(&self.model_dir, format, variant, n, structure);
        let (stats, refused) = if path.is_file() {
            let (stats, refused) = measure(&path, as_format, n)?;
            (Some(Arc::new(stats)), refused)
        } else {
            (None, None)
        };
        let label = format!("{format} {variant}");
        self.files.insert(
            key,
            Measured {
                label,
                stats: stats.clone(),
                path,
                refused,
            },
        );
        Ok(stats)
    }

    /// Whether any data file was found.
    pub fn any(&self) -> bool {
        self.files.values().any(|m| m.stats.is_some())
    }

    /// The run's notes: each data file's tokens by bench beside the seed's own count from the
    /// `metrics.json` of `results_dirs` (where it states one), and every data file missing.
    pub fn notes(&self, results_dirs: &[PathBuf]) -> anyhow::Result<Vec<String>> {
        let stated = read_tokens(results_dirs)?;
        let mut out = Vec::new();
        if self.any() {
            let whose = if stated.is_empty() {
                "the seed states no token count of its data files (no metrics.json with \
                 readTokens beside its results)"
                    .to_string()
            } else {
                "beside it the seed's own count from its metrics.json: readTokens, Claude Code's \
                 usage for reading the file (Claude's tokenizer, the Read tool's line numbers \
                 included; one figure per read)"
                    .to_string()
            };
            out.push(format!(
                "data tokens: bench's o200k_base count of each data file under {}, which \
                 rankings and the token ratio use; {whose}:",
                self.model_dir.join("data").display()
            ));
        }
        for ((format, variant, n, structure), m) in &self.files {
            let Some(s) = &m.stats else { continue };
            let seed = stated
                .get(&(format.clone(), variant.clone(), *n, structure.clone()))
                .map(|v| {
                    let v: Vec<String> = v.iter().map(|t| thousands(*t)).collect();
                    format!("; seed's readTokens {}", v.join(", "))
                })
                .unwrap_or_default();
            out.push(format!(
                "  {}: {} o200k_base tokens, {} cl100k_base ({} chars){seed}",
                m.label,
                thousands(s.tokens_of(Tokenizer::O200kBase) as i64),
                thousands(s.tokens_of(Tokenizer::Cl100kBase) as i64),
                thousands(s.chars as i64),
            ));
        }
        for m in self.files.values() {
            if let Some(why) = &m.refused {
                out.push(format!(
                    "not valid {}: {} (the data file of {}): {why}; its tokens are counted as the text \
                     the model read",
                    m.label.split(' ').next().unwrap_or_default(),
                    m.path.display(),
                    m.label
                ));
            }
        }
        for m in self.files.values().filter(|m| m.stats.is_none()) {
            out.push(format!(
                "missing: {} (the data file of {}): its answers have no data tokens",
                m.path.display(),
                m.label
            ));
        }
        Ok(out)
    }
}

/// Where the seed keeps the data file of `format`, `variant`, `n` records and `structure`.
fn data_path(model_dir: &Path, format: &str, variant: &str, n: usize, structure: &str) -> PathBuf {
    let ext = match format.split('_').next().unwrap_or(format) {
        "json" => "json",
        "toon" => "toon",
        "xml" => "xml",
        "yaml" => "yaml",
        _ => "csv",
    };
    model_dir.join("data").join(format).join(format!(
        "{format}_with_{variant}_{n}_{structure}_records.{ext}"
    ))
}

/// Counts the tokens of `path`, and decodes it as `format` to check it holds `n` records. A file
/// bench's decoder refuses is still counted (it is what the model read: the seed's yaml files
/// indent their fields less than their `- product:` keys, which YAML does not allow) and the
/// refusal is returned to be said; one that decodes to another number of records is an error.
fn measure(path: &Path, format: Format, n: usize) -> anyhow::Result<(DataStats, Option<String>)> {
    let (bytes, _) = read_hashed(path)?;
    let text = String::from_utf8(bytes).map_err(|e| bad(path, "", format!("not UTF-8: {e}")))?;
    let (values, records, refused) = match format.decode(&text) {
        Ok(doc) => (crate::dataset::count_values(&doc), records_of(&doc), None),
        Err(e) => {
            let why = e.to_string();
            let first = why.split(" — ").next().unwrap_or(&why).to_string();
            (
                0,
                n,
                Some(format!("bench's {format} decoder refuses it ({first})")),
            )
        }
    };
    if records != n {
        return Err(bad(
            path,
            "",
            format!("holds {records} records, its name says {n}"),
        ));
    }
    let stats = DataStats::measure(&text, values, records, &Tokenizer::ALL);
    Ok((stats, refused))
}

/// The records of a decoded data file: a bare array, or the array under its one root key.
fn records_of(doc: &Value) -> usize {
    match doc {
        Value::Array(a) => a.len(),
        Value::Object(o) if o.len() == 1 => o.values().next().map_or(0, records_of),
        _ => 1,
    }
}

type Key = (String, String, usize, String);

/// The seed's `readTokens` per data file, from the `metrics.json` of each results folder.
fn read_tokens(results_dirs: &[PathBuf]) -> anyhow::Result<BTreeMap<Key, Vec<i64>>> {
    let mut out: BTreeMap<Key, Vec<i64>> = BTreeMap::new();
    for dir in results_dirs {
        let path = dir.join("metrics.json");
        if !path.is_file() {
            continue;
        }
        let (bytes, _) = read_hashed(&path)?;
        let v: Value =
            serde_json::from_slice(&bytes).map_err(|e| bad(&path, "", format!("not JSON: {e}")))?;
        for f in v["read"]["files"].as_array().into_iter().flatten() {
            let (Some(format), Some(variant), Some(n), Some(structure), Some(t)) = (
                f["format"].as_str(),
                f["variant"].as_str(),
                f["recordCount"].as_u64(),
                f["structure"].as_str(),
                f["readTokens"].as_i64(),
            ) else {
                continue;
            };
            out.entry((format.into(), variant.into(), n as usize, structure.into()))
                .or_default()
                .push(t);
        }
    }
    Ok(out)
}
