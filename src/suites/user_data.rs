//! A user's data file as the suites plan it (`--data FILE`): loaded through DuckDB at each
//! `--records` size, its questions synthesised with SQL answers, rendered in a format or
//! skipped with the reason. The data suite asks lookups about it; the formats and corrupted
//! suites, `generate --data` and a sweep plan it the same way.

use super::Skip;
use super::asked::{Asked, Planned};
use super::lookup::{Column, DataMeta};
use super::plan::Suite;
use crate::UsageError;
use crate::dataset::user::{self, LoadOptions, Sample, UserData};
use crate::dataset::{Record, Structure, Variant};
use crate::formats::{self, Format};
use crate::layout::{self, Rendering};
use crate::questions::Category;
use crate::questions::synth::{self, Synthesis};
use crate::tokens::Tokenizer;
use anyhow::{Context, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The `--data` file of `a`, loaded at each `--records` size (all its records when none), and
/// its questions synthesised; with the lines that say what was loaded, and what the synthesis
/// could not do as asked.
pub fn from_asked(a: &Asked) -> Result<(DataPlan, Vec<String>)> {
    let path = &a.data.as_ref().expect("a --data plan").path;
    // `--records 31,62,…`: one sample per size, asked in one run.
    let sizes: Vec<Option<usize>> = match a.records.as_slice() {
        [] => vec![None],
        list => list.iter().map(|&n| Some(n as usize)).collect(),
    };
    let largest: Vec<u32> = a.records.iter().max().copied().into_iter().collect();
    let plan = DataPlan::sized(path, a.load_options(&largest)?, a.synth_options(), &sizes)?;
    let mut notes = vec![format!(
        "{}; {} questions, records identified by {}",
        plan.data.line(path, plan.data.records.len()),
        plan.synthesis.questions.len(),
        plan.synthesis.id.describe()
    )];
    for level in &plan.smaller {
        notes.push(format!(
            "data: also at {} records ({} questions)",
            level.data.records.len(),
            level.synthesis.questions.len()
        ));
    }
    notes.extend(plan.data.notes.iter().map(|n| format!("note: {n}")));
    notes.extend(
        plan.synthesis
            .notices
            .iter()
            .map(|n| format!("questions: {n}")),
    );
    Ok((plan, notes))
}

/// What a `--data` run asks: the file, how it was read, and the questions.
#[derive(Debug, Clone)]
pub struct DataPlan {
    /// The data file.
    pub file: PathBuf,
    /// How it was read and sampled.
    pub load: LoadOptions,
    /// The synthesis options.
    pub synth: synth::Options,
    /// The records.
    pub data: UserData,
    /// The questions.
    pub synthesis: Synthesis,
    /// Flat when every record is flat, else nested.
    pub structure: Structure,
    /// `optional` when some record lacks a field (at any depth) or holds a null, else
    /// `mandatory`.
    pub variant: Variant,
    /// The categories asked: the four, or with a question file the four and its own names.
    pub categories: &'static [Category],
    /// Smaller samples of the same file asked in the same run (`--records 31,62,…`, a
    /// sweep's earlier steps), smallest first; each has none of its own.
    pub smaller: Vec<DataPlan>,
    /// The samples of the file loaded so far by [`Suite::at_sizes`], by size.
    loaded: Loaded,
}

/// The samples of a `--data` file loaded by size, shared by the plans a sweep makes from one
/// another (each step asks every size up to its own, so each is loaded once).
#[derive(Clone, Default)]
struct Loaded(Arc<Mutex<BTreeMap<u32, DataPlan>>>);

impl std::fmt::Debug for Loaded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.0.lock().map_or(0, |l| l.len());
        write!(f, "Loaded({n} samples)")
    }
}

impl DataPlan {
    /// Loads `file` and synthesises its questions; every error is one line naming the file.
    pub fn new(file: &Path, load: LoadOptions, synth: synth::Options) -> Result<Self> {
        let data = user::load(file, &load)?;
        let mut synthesis = synth::synthesize(&data.records, &synth)
            .map_err(|e| UsageError::new(format!("{}: {e}", file.display())))?;
        if let Some(qfile) = &synth.file {
            synthesis.questions = crate::questions::file::load(qfile, &data.records, |v, e, a| {
                crate::grading::validate(v, e, a).passed
            })
            .map_err(UsageError::new)?;
            // The synthesis's notices are about questions no longer asked.
            synthesis.notices.clear();
            let given: Vec<&str> = synthesis
                .questions
                .iter()
                .filter(|q| q.query == crate::questions::Query::Given)
                .map(|q| q.id.as_str())
                .collect();
            if !given.is_empty() {
                synthesis.notices.push(format!(
                    "{}: {} question(s) have a given answer and no sql ({}); the reference \
                     answerer has no query to evaluate and is not graded on them (models are)",
                    qfile.display(),
                    given.len(),
                    if given.len() > 5 {
                        format!("{}, …", given[..5].join(", "))
                    } else {
                        given.join(", ")
                    }
                ));
            }
        }
        let categories = Category::with_others(synthesis.questions.iter().map(|q| q.category));
        let structure = formats::structure_of_records(&data.records);
        let sparse = synthesis.profile.fields.iter().any(|f| f.sparse());
        Ok(Self {
            file: file.to_path_buf(),
            load,
            synth,
            data,
            synthesis,
            structure,
            categories,
            smaller: Vec::new(),
            loaded: Loaded::default(),
            variant: if sparse {
                Variant::Optional
            } else {
                Variant::Mandatory
            },
        })
    }

    /// Loads `file` at each of `sizes` (`None`: every record), the largest as the plan and the
    /// others as its smaller samples; sizes that keep the same records (both past the file's
    /// end) are asked once.
    pub fn sized(
        file: &Path,
        load: LoadOptions,
        synth: synth::Options,
        sizes: &[Option<usize>],
    ) -> Result<Self> {
        let mut sizes = sizes.to_vec();
        // `None` (every record) sorts last, as the largest.
        sizes.sort_by_key(|n| n.unwrap_or(usize::MAX));
        sizes.dedup();
        let (largest, rest) = sizes.split_last().expect("at least one size");
        let at = |n: Option<usize>| {
            let load = LoadOptions {
                records: n,
                ..load.clone()
            };
            DataPlan::new(file, load, synth.clone())
        };
        let mut plan = at(*largest)?;
        for &n in rest {
            let level = at(n)?;
            let kept = level.data.records.len();
            let seen = plan.smaller.iter().map(|l| l.data.records.len());
            if kept < plan.data.records.len() && !seen.clone().any(|k| k == kept) {
                plan.smaller.push(level);
            }
        }
        Ok(plan)
    }

    /// Every sample asked, smallest first (the plan itself last).
    pub fn levels(&self) -> impl Iterator<Item = &DataPlan> {
        self.smaller.iter().chain(std::iter::once(self))
    }

    /// The record count of each sample asked, smallest first.
    pub fn sizes(&self) -> Vec<u32> {
        self.levels().map(|l| l.data.records.len() as u32).collect()
    }

    /// The plan at each of `sizes` (ascending, one at least): the largest with the others as
    /// its smaller samples, each loaded once and shared with the plans made from this one.
    pub fn at_sizes(&self, sizes: &[u32]) -> Result<DataPlan> {
        let mut loaded = self.loaded.0.lock().expect("not poisoned");
        let mut levels = Vec::new();
        for &n in sizes {
            if let std::collections::btree_map::Entry::Vacant(e) = loaded.entry(n) {
                let load = LoadOptions {
                    records: Some(n as usize),
                    ..self.load.clone()
                };
                e.insert(DataPlan::new(&self.file, load, self.synth.clone())?);
            }
            levels.push(loaded[&n].clone());
        }
        let mut largest = levels.pop().expect("one size at least");
        largest.smaller = levels;
        // The plan made here shares the samples loaded so far (the cached ones keep their own,
        // empty: nothing refers back to itself).
        largest.loaded = self.loaded.clone();
        Ok(largest)
    }

    /// The columns as DuckDB typed them.
    fn schema(&self) -> Vec<Column> {
        self.data
            .schema
            .iter()
            .map(|(name, ty)| Column {
                name: name.clone(),
                duckdb_type: ty.clone(),
            })
            .collect()
    }

    /// The `dataset` entry of the artifacts' `metadata.json`.
    pub fn describe(&self) -> serde_json::Value {
        serde_json::json!({
            "file": self.file,
            "records": self.data.records.len(),
            "total_records": self.data.total,
            "sha256": self.data.sha256,
            "schema": self.schema(),
            "id_field": self.synthesis.id.field_list(),
            "id_by": self.synthesis.id.by(),
            "questions": self.synthesis.questions.len(),
        })
    }

    /// The metadata line's record of it, with the renderings skipped.
    pub fn meta(&self, skipped: &[Skip]) -> DataMeta {
        DataMeta {
            file: self.file.clone(),
            sha256: self.data.sha256.clone(),
            root_key: self.load.root_key.clone(),
            sample: match self.load.sample {
                Sample::First => "first".into(),
                Sample::Random => "random".into(),
            },
            records: self.data.records.len(),
            total_records: self.data.total,
            keep: self.load.records,
            schema: self.schema(),
            id_field: self.synthesis.id.field_list(),
            id_by: self.synthesis.id.by().to_string(),
            id_field_asked: self.synth.id_field.clone(),
            questions: self.synthesis.questions.len(),
            questions_asked: self.synth.questions,
            questions_file: self.synth.file.clone(),
            questions_sha256: self
                .synth
                .file
                .as_deref()
                .and_then(crate::questions::file::sha256),
            notices: self
                .data
                .notes
                .iter()
                .chain(&self.synthesis.notices)
                .cloned()
                .collect(),
            skipped: skipped.to_vec(),
            sizes: if self.smaller.is_empty() {
                Vec::new()
            } else {
                self.levels().map(|l| l.load.records).collect()
            },
        }
    }
}

impl Planned {
    /// `suite` over `--data`'s records (`dp`), whose one shape is what the file is, at each of
    /// its sizes, in `--formats` or the default set.
    pub fn data(a: &Asked, dp: &DataPlan, suite: Arc<dyn Suite>, notes: Vec<String>) -> Self {
        Self {
            suite,
            formats: a.formats_or_default(),
            structures: vec![dp.structure],
            variants: vec![dp.variant],
            records: dp.sizes(),
            notes,
        }
    }
}

impl DataMeta {
    /// Loads the file again with the recorded options and checks it is the same file.
    pub fn plan(&self, seed: u64) -> Result<DataPlan> {
        let load = LoadOptions {
            root_key: self.root_key.clone(),
            records: self.keep,
            sample: if self.sample == "random" {
                Sample::Random
            } else {
                Sample::First
            },
            seed,
        };
        let synth = synth::Options {
            questions: self.questions_asked,
            id_field: self.id_field_asked.clone(),
            seed,
            file: self.questions_file.clone(),
        };
        if let Some(f) = &self.questions_file {
            let now = crate::questions::file::sha256(f);
            if now != self.questions_sha256 {
                return Err(UsageError::new(format!(
                    "{}: the question file changed since the run started (or is gone); the \
                     questions would differ",
                    f.display()
                ))
                .into());
            }
        }
        let plan = if self.sizes.is_empty() {
            DataPlan::new(&self.file, load, synth)?
        } else {
            DataPlan::sized(&self.file, load, synth, &self.sizes)?
        };
        if plan.data.sha256 != self.sha256 {
            return Err(UsageError::new(format!(
                "{}: the file changed since the run started (sha256 {} now, {} then); the \
                 questions would differ",
                self.file.display(),
                plan.data.sha256,
                self.sha256
            ))
            .into());
        }
        Ok(plan)
    }
}

/// One rendering, or the [`Skip`] of a format that cannot represent the records.
pub fn render(
    dp: &DataPlan,
    format: Format,
    tokenizers: &[Tokenizer],
) -> Result<Result<Rendering, Skip>> {
    Ok(render_in(dp, &dp.data.records, &[format], tokenizers)?
        .pop()
        .expect("one format"))
}

/// [`render`] of `records` (the plan's, or in another order with `--shuffle`) in each of
/// `formats`, rendered together by chunks of records (`layout::render_records`): no document
/// holds a second copy of them all.
pub(super) fn render_in(
    dp: &DataPlan,
    records: &[Record],
    formats: &[Format],
    tokenizers: &[Tokenizer],
) -> Result<Vec<Result<Rendering, Skip>>> {
    let key = user::root_name(&dp.data.name);
    let rendered =
        layout::render_records(&key, records, formats, dp.structure, dp.variant, tokenizers);
    formats
        .iter()
        .zip(rendered)
        .map(|(&format, r)| {
            super::render::or_skip(r, &key, format).with_context(|| dp.file.display().to_string())
        })
        .collect()
}
