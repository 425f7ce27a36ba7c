//! The flag groups that say what to ask about: the data, a data file and its questions
//! (shared by run, generate, tokens and dump-prompts); each suite's own flags come from the
//! registry as one group (`suites::OwnFlags`).

/// `bench list-tasks` lists the tasks suite's tasks by its own selection flags (the one
/// command that is a single suite's, reached through the registry).
pub use crate::suites::TaskArgs;
pub use crate::suites::asked::QuestionsArg;

use super::help;
use super::parse::*;
use crate::dataset::{DEFAULT_RECORDS, DEFAULT_SEED, Structure, Variant};
use crate::formats::Format;
use crate::suites::asked::{Asked, DataFile, OwnFlags};
use crate::suites::plan::QuestionMode;
use clap::Args;
use std::path::PathBuf;

/// What data to render: shared by every command.
#[derive(Debug, Clone, Args)]
pub struct DataArgs {
    /// Formats, comma-separated, `default` or `all` (the help text counts them).
    #[arg(long, value_parser = parse_formats, help = help::formats(false))]
    pub formats: Option<Formats>,
    /// Structures, comma-separated.
    #[arg(long, value_delimiter = ',', value_parser = parse_structure, default_values = ["flat", "nested"])]
    pub structures: Vec<Structure>,
    /// Variants, comma-separated.
    #[arg(long, value_delimiter = ',', value_parser = parse_variant, default_values = ["mandatory", "optional"])]
    pub variants: Vec<Variant>,
    /// Records in the dataset; a comma list runs each size.
    #[arg(long, value_delimiter = ',', value_parser = parse_records, default_values_t = [DEFAULT_RECORDS],
          help = help::records())]
    pub records: Vec<u32>,
    /// Seed of the dataset and question generators.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Tokenizers to count with, comma-separated, or `all` (the help text names them).
    #[arg(long, value_parser = parse_tokenizers, default_value = "o200k_base,cl100k_base",
          help = help::tokenizers())]
    pub tokenizers: Tokenizers,
}

impl DataArgs {
    /// The chosen formats, or `fallback` when `--formats` was not given.
    pub fn formats_or(&self, fallback: Vec<Format>) -> Vec<Format> {
        self.formats.as_ref().map_or(fallback, |f| f.0.clone())
    }
}

/// A user's data file instead of the product dataset: shared by `run`, `generate`, `tokens`.
#[derive(Debug, Clone, Args)]
pub struct DataFileArgs {
    /// Your own records instead of the product dataset (the help text names the extensions).
    #[arg(long = "data", value_name = "FILE", help = help::data_file())]
    pub data_file: Option<PathBuf>,
    /// With --data: the key of the array of records when a .json file's top-level object holds
    /// several arrays (default: the first).
    #[arg(long, value_name = "KEY", requires = "data_file")]
    pub root_key: Option<String>,
    /// With --data and --records: the first N records (default), or N drawn with --seed (kept
    /// in file order).
    #[arg(long, value_enum, requires = "data_file")]
    pub sample: Option<crate::dataset::user::Sample>,
}

/// The questions synthesised from a `--data` file: shared by `run` and `generate`.
#[derive(Debug, Clone, Args)]
pub struct SynthArgs {
    /// With --data: the field that identifies records (a dotted path may name a nested one),
    /// or a comma list of up to three that do together; default: the first unique, always-set
    /// string or integer field (`id` preferred), else the smallest unique combination of up to
    /// three, else the record's position.
    #[arg(long, value_name = "FIELD[,FIELD…]", requires = "data_file")]
    pub id_field: Option<String>,
    /// With --data: questions in all, split 55 : 27 : 21 : 21 over retrieval, structure,
    /// filtering and aggregation like the formats suite; or a question file (JSON, JSONL or
    /// CSV rows, or the original benchmark's questionnaire or answer key) asked instead, about
    /// --data's records or the product records; see docs/questions.md.
    #[arg(long, value_name = "N|FILE", default_value = "124", value_parser = parse_questions)]
    pub questions: QuestionsArg,
}

/// What `data`, `file` and `synth` ask of a suite, every other plan option at `bench run`'s
/// default (`generate`, `bench tokens --data` and `bench run` start from it; `tokens` has no
/// question options).
pub fn asked_of(data: &DataArgs, file: &DataFileArgs, synth: Option<&SynthArgs>) -> Asked {
    asked_with(data, file, synth, OwnFlags::default())
}

/// As [`asked_of`], with the suites' own flag groups given.
pub(super) fn asked_with(
    data: &DataArgs,
    file: &DataFileArgs,
    synth: Option<&SynthArgs>,
    own: OwnFlags,
) -> Asked {
    Asked {
        formats: data.formats.as_ref().map(|f| f.0.clone()),
        structures: data.structures.clone(),
        variants: data.variants.clone(),
        records: data.records.clone(),
        seed: data.seed,
        data: file.data_file.as_ref().map(|path| DataFile {
            path: path.clone(),
            root_key: file.root_key.clone(),
            sample: file.sample,
            id_field: synth.and_then(|s| s.id_field.clone()),
        }),
        questions: synth.map_or(
            QuestionsArg::Count(crate::questions::synth::DEFAULT_QUESTIONS),
            |s| s.questions.clone(),
        ),
        question_mode: QuestionMode::OnePrompt,
        primer: false,
        shuffle: false,
        prompt_variants: 1,
        own,
    }
}
