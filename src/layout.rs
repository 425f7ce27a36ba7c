//! The on-disk layout of the original file-format benchmark, shared by `bench generate` and the
//! artifacts of `bench run`:
//! `data/{format}/{format}_with_{variant}_{N}_{structure}_records.{ext}`, `questions/`,
//! `answers_template/`, `answers_validation/` and `metadata.json`.

use crate::dataset::{self, Dataset, Structure, Variant};
use crate::formats::Format;
use crate::prompt::template;
use crate::questions::Question;
use crate::tokens::{DataStats, Tokenizer};
use anyhow::{Context, Result};
use serde::Serialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

/// One format × structure × variant rendering with its measurements.
#[derive(Debug, Clone)]
pub struct Rendering {
    /// Format.
    pub format: Format,
    /// Structure.
    pub structure: Structure,
    /// Variant.
    pub variant: Variant,
    /// The rendered text.
    pub text: String,
    /// Size and token figures.
    pub stats: DataStats,
}

/// Renders and measures one combination.
pub fn render(
    doc: &Value,
    format: Format,
    structure: Structure,
    variant: Variant,
    tokenizers: &[Tokenizer],
) -> Result<Rendering> {
    render_counted(
        doc,
        dataset::count_values(doc),
        format,
        structure,
        variant,
        tokenizers,
    )
}

/// [`render`] of `{key: records}` in each of `formats`, without building that document: the
/// texts are joined from chunks of the records ([`crate::formats::stream::render_all`]), the
/// same bytes, and measured on every core.
pub fn render_records(
    key: &str,
    records: &[serde_json::Map<String, Value>],
    formats: &[Format],
    structure: Structure,
    variant: Variant,
    tokenizers: &[Tokenizer],
) -> Vec<Result<Rendering>> {
    use crate::formats::stream;
    use rayon::prelude::*;
    let values: usize = records
        .iter()
        .flat_map(|r| r.values())
        .map(dataset::count_values)
        .sum();
    let texts = stream::render_all(formats, key, records, stream::CHUNK_RECORDS);
    formats
        .par_iter()
        .zip(texts)
        .map(|(&format, text)| {
            let combination = (format, structure, variant);
            measured(text, combination, values, records.len(), tokenizers)
        })
        .collect()
}

/// [`render`] of a document whose leaf values were counted once for all its formats.
fn render_counted(
    doc: &Value,
    values: usize,
    format: Format,
    structure: Structure,
    variant: Variant,
    tokenizers: &[Tokenizer],
) -> Result<Rendering> {
    let products = crate::formats::records(format.name(), doc).map_or(0, |r| r.items.len());
    let combination = (format, structure, variant);
    measured(
        format.encode(doc),
        combination,
        values,
        products,
        tokenizers,
    )
}

/// The rendering of one combination measured, or its encoder's error naming the combination.
fn measured(
    text: Result<String, crate::formats::FormatError>,
    (format, structure, variant): (Format, Structure, Variant),
    values: usize,
    products: usize,
    tokenizers: &[Tokenizer],
) -> Result<Rendering> {
    let text = text.with_context(|| format!("rendering {format} {structure} {variant}"))?;
    let stats = DataStats::measure(&text, values, products, tokenizers);
    Ok(Rendering {
        format,
        structure,
        variant,
        text,
        stats,
    })
}

/// Renders and measures `formats` of one document, on every core: each format is one rayon
/// task that renders and counts it (its tokenizers one after the other, see
/// [`crate::tokens::count_all`]). `each` gets the renderings on the calling thread, in the
/// order of `formats`, each as soon as it and those before it are done, so writing one
/// overlaps rendering the next. The first error stops the work and is returned.
pub fn render_each(
    doc: &Value,
    formats: &[Format],
    structure: Structure,
    variant: Variant,
    tokenizers: &[Tokenizer],
    mut each: impl FnMut(Rendering) -> Result<()>,
) -> Result<()> {
    let values = dataset::count_values(doc);
    let render = |f| render_counted(doc, values, f, structure, variant, tokenizers);
    // On one of the pool's own threads, blocking on the channel could starve the pool.
    if crate::cores() < 2 || formats.len() < 2 || rayon::current_thread_index().is_some() {
        for &f in formats {
            each(render(f)?)?;
        }
        return Ok(());
    }
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    // In place: the receiving loop (and `each`, which need not be Send) stays on this thread
    // while the pool renders.
    rayon::in_place_scope(|scope| {
        for (i, &f) in formats.iter().enumerate() {
            let (tx, stop, render) = (tx.clone(), &stop, &render);
            scope.spawn(move |_| {
                // The caller stopped at an error: render nothing more.
                if !stop.load(Ordering::Relaxed) {
                    let _ = tx.send((i, render(f)));
                }
            });
        }
        drop(tx);
        let mut done = BTreeMap::new();
        let mut want = 0;
        for (i, r) in rx {
            done.insert(i, r);
            while let Some(r) = done.remove(&want) {
                want += 1;
                if let Err(e) = r.and_then(&mut each) {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
        }
        Ok(())
    })
}

/// Relative path of a data file.
pub fn data_path(r: &Rendering, n: usize) -> PathBuf {
    let f = r.format.name();
    PathBuf::from(format!(
        "data/{f}/{f}_with_{}_{n}_{}_records.{}",
        r.variant,
        r.structure,
        r.format.spec().extension
    ))
}

/// An entry of `metadata.json`'s file list.
#[derive(Debug, Clone, Serialize)]
pub struct FileEntry {
    /// Path relative to the layout root.
    pub path: String,
    /// Hex sha256 of the bytes.
    pub sha256: String,
    /// Size in bytes.
    pub bytes: usize,
    /// Format, structure, variant for data files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<Format>,
    /// Structure of a data file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub structure: Option<Structure>,
    /// Variant of the file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<Variant>,
    /// Measurements of a data file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<DataStats>,
}

/// Writes layout files under a root and collects the metadata file list.
pub struct Writer {
    root: PathBuf,
    files: Vec<FileEntry>,
}

/// Hex sha256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Writer {
    /// Creates the root folder (and parents).
    pub fn create(root: &Path) -> Result<Self> {
        fs::create_dir_all(root)
            .with_context(|| format!("cannot create output directory '{}'", root.display()))?;
        Ok(Self {
            root: root.to_path_buf(),
            files: Vec::new(),
        })
    }

    fn write(&mut self, rel: &Path, bytes: &[u8]) -> Result<FileEntry> {
        let path = self.root.join(rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .with_context(|| format!("cannot create '{}'", parent.display()))?;
        }
        fs::write(&path, bytes).with_context(|| format!("cannot write '{}'", path.display()))?;
        Ok(FileEntry {
            path: rel.to_string_lossy().replace('\\', "/"),
            sha256: sha256_hex(bytes),
            bytes: bytes.len(),
            format: None,
            structure: None,
            variant: None,
            stats: None,
        })
    }

    /// Writes a rendered data file.
    pub fn data(&mut self, r: &Rendering, n: usize) -> Result<()> {
        let mut e = self.write(&data_path(r, n), r.text.as_bytes())?;
        e.format = Some(r.format);
        e.structure = Some(r.structure);
        e.variant = Some(r.variant);
        e.stats = Some(r.stats.clone());
        self.files.push(e);
        Ok(())
    }

    /// Writes the questions, the answer template and the answer key of one variant.
    pub fn questions(&mut self, variant: Variant, n: usize, questions: &[Question]) -> Result<()> {
        let public: Vec<Value> = questions
            .iter()
            .map(|q| json!({"id": q.id, "category": q.category, "question": q.text}))
            .collect();
        let files = [
            (
                format!("questions/questions_with_{variant}_{n}_records.json"),
                serde_json::to_vec_pretty(&public)?,
            ),
            (
                format!("answers_template/answers_with_{variant}_{n}_records_template.json"),
                serde_json::to_vec_pretty(&template(questions))?,
            ),
            (
                format!("answers_validation/questions_and_answers_with_{variant}_{n}_records.json"),
                serde_json::to_vec_pretty(questions)?,
            ),
        ];
        for (rel, bytes) in files {
            let mut e = self.write(Path::new(&rel), &bytes)?;
            e.variant = Some(variant);
            self.files.push(e);
        }
        Ok(())
    }

    /// Writes any extra JSON artifact (not listed in metadata).
    pub fn artifact(&self, rel: &Path, value: &impl Serialize) -> Result<()> {
        let path = self.root.join(rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .with_context(|| format!("cannot create '{}'", parent.display()))?;
        }
        let bytes = serde_json::to_vec_pretty(value)?;
        fs::write(&path, bytes).with_context(|| format!("cannot write '{}'", path.display()))
    }

    /// Writes `metadata.json`: dataset characteristics, parameters and every file written.
    pub fn metadata(&mut self, ds: &Dataset, params: Value) -> Result<PathBuf> {
        self.metadata_of(Self::describe(ds), params)
    }

    /// The `dataset` entry of `metadata.json` for the product dataset.
    pub fn describe(ds: &Dataset) -> Value {
        let n = ds.mandatory.len();
        let fields: Vec<Value> = dataset::schema::FIELDS
            .iter()
            .map(|f| json!({"name": f.name, "nested_path": f.nested.join("."), "optional": f.optional}))
            .collect();
        let nulls: usize = ds
            .records(Variant::Optional)
            .iter()
            .map(|r| r.values().filter(|v| v.is_null()).count())
            .sum();
        json!({
            "records": n,
            "fields": fields,
            "always_set_fields": dataset::schema::FIELDS.iter().filter(|f| !f.optional).count(),
            "optional_fields": dataset::schema::FIELDS.iter().filter(|f| f.optional).count(),
            "null_values_in_optional_variant": nulls,
            "sha256": dataset_hash(ds),
        })
    }

    /// Writes `metadata.json` with `dataset` describing the data (the product dataset or a
    /// user's file), the parameters and every file written.
    pub fn metadata_of(&mut self, dataset: Value, params: Value) -> Result<PathBuf> {
        let by_format = files_per_format(self.files.iter().filter_map(|f| f.format));
        let meta = json!({
            "bench_version": env!("CARGO_PKG_VERSION"),
            "dataset": dataset,
            "parameters": params,
            "files_per_format": by_format,
            "files": std::mem::take(&mut self.files),
        });
        let e = self.write(
            Path::new("metadata.json"),
            &serde_json::to_vec_pretty(&meta)?,
        )?;
        Ok(self.root.join(e.path))
    }
}

/// `metadata.json`'s `files_per_format`: how many data files each format has.
pub fn files_per_format(formats: impl IntoIterator<Item = Format>) -> BTreeMap<String, usize> {
    let mut by_format: BTreeMap<String, usize> = BTreeMap::new();
    for f in formats {
        *by_format.entry(f.name().into()).or_default() += 1;
    }
    by_format
}

/// sha256 of both variants' records as compact JSON: identifies the data a run used.
pub fn dataset_hash(ds: &Dataset) -> String {
    let mut h = Sha256::new();
    for v in Variant::ALL {
        h.update(serde_json::to_vec(&ds.records(v)).expect("records serialize"));
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_each_hands_over_in_order_what_render_makes_and_stops_at_an_error() {
        let (s, v) = (Structure::Nested, Variant::Optional);
        let ds = dataset::generate(40, 7);
        let doc = ds.document(v, s);
        let formats: Vec<Format> = (Format::ALL.iter().copied())
            .filter(|f| f.supports(s))
            .collect();
        assert!(formats.len() > 2, "more formats than workers");
        let mut got = Vec::new();
        render_each(&doc, &formats, s, v, &Tokenizer::OPENAI, |r| {
            got.push(r);
            Ok(())
        })
        .unwrap();
        assert_eq!(got.len(), formats.len());
        for (r, &f) in got.iter().zip(&formats) {
            let alone = render(&doc, f, s, v, &Tokenizer::OPENAI).unwrap();
            assert_eq!(r.format, f);
            assert_eq!(r.text, alone.text, "{f}");
            assert_eq!(r.stats, alone.stats, "{f}");
        }
        let mut calls = 0;
        let e = render_each(&doc, &formats, s, v, &Tokenizer::OPENAI, |_| {
            calls += 1;
            anyhow::bail!("disk full")
        })
        .unwrap_err();
        assert_eq!((e.to_string().as_str(), calls), ("disk full", 1));
    }
}
