//! What a run asks of its suite: the command line's plan options (`cli::RunArgs::asked`), which
//! each suite turns into its part of the plan, or refuses with the reason ([`Select::plan`]).
//! A suite's own flags (`--cases`, `--tasks`, …) are defined in its module and carried here, so
//! a new suite adds its module and one registry line, and no command handler changes.

use super::panel::Panel;
use super::plan::{QuestionMode, Suite};
use crate::UsageError;
use crate::dataset::user::{LoadOptions, Sample};
use crate::dataset::{DEFAULT_RECORDS, Structure, Variant};
use crate::formats::Format;
use crate::questions::synth;
use crate::runlog::{Metadata, ResultRecord};
use anyhow::Result;
use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `--questions`: how many to synthesise, or the user's own question file.
#[derive(Debug, Clone, PartialEq)]
pub enum QuestionsArg {
    /// Synthesise this many.
    Count(usize),
    /// Ask the questions of this file.
    File(PathBuf),
}

/// `--data FILE` and how to read it.
#[derive(Debug, Clone)]
pub struct DataFile {
    /// The file.
    pub path: PathBuf,
    /// `--root-key`: the array of records in a .json object holding several.
    pub root_key: Option<String>,
    /// `--sample`: which records `--records N` keeps.
    pub sample: Option<Sample>,
    /// `--id-field`: the field(s) that identify a record.
    pub id_field: Option<String>,
}

/// The plan options of `bench run` (and of the commands that plan as it does), as parsed.
#[derive(Debug, Clone)]
pub struct Asked {
    /// `--formats`, or `None` for the default set.
    pub formats: Option<Vec<Format>>,
    /// `--structures`.
    pub structures: Vec<Structure>,
    /// `--variants`.
    pub variants: Vec<Variant>,
    /// `--records` as given (empty: the suite's default sizes, or all of `--data`'s records).
    pub records: Vec<u32>,
    /// `--seed`.
    pub seed: u64,
    /// `--data`.
    pub data: Option<DataFile>,
    /// `--questions`.
    pub questions: QuestionsArg,
    /// `--question-mode`.
    pub question_mode: QuestionMode,
    /// Whether any rendering gets the format's primer (`--primer on` or `both`).
    pub primer: bool,
    /// `--shuffle`.
    pub shuffle: bool,
    /// `--prompt-variants`.
    pub prompt_variants: u32,
    /// Each suite's own flag group as the command line gave it (read with [`Asked::own`]).
    pub own: OwnFlags,
}

/// The suites' own flag groups (`--cases`, `--tasks`, …) as the command line parsed them, by
/// type. The command line hands each group over untouched and each suite reads its own with
/// [`Asked::own`], so `Asked` names no suite: a new suite's flags reach it without a field
/// here.
#[derive(Clone, Default)]
pub struct OwnFlags(HashMap<TypeId, Arc<dyn Any + Send + Sync>>);

impl OwnFlags {
    /// These flags with the group `flags` added (a second group of one type replaces the first).
    pub fn with<T: Any + Send + Sync>(mut self, flags: T) -> Self {
        self.0.insert(TypeId::of::<T>(), Arc::new(flags));
        self
    }
}

/// A suite's own flag group as clap takes it: the flags it adds to a command, and how its
/// values are read back into [`OwnFlags`] (the registry's `clap::Args` for [`OwnFlags`] goes
/// over every suite's group, so a command flattens one type for all of them).
#[derive(Clone, Copy)]
pub struct FlagGroup {
    /// Adds the group's flags to a command (its `clap::Args::augment_args`).
    pub augment: fn(clap::Command) -> clap::Command,
    /// The flags read so far with the group, as `matches` give it, added.
    pub read: fn(&clap::ArgMatches, OwnFlags) -> Result<OwnFlags, clap::Error>,
}

impl FlagGroup {
    /// The group of the clap `Args` type `T` (a suite's `TaskArgs`, `WriteArgs`).
    pub const fn of<T: clap::Args + clap::FromArgMatches + Send + Sync + 'static>() -> Self {
        Self {
            augment: T::augment_args,
            read: read_group::<T>,
        }
    }
}

/// `own` with the group `T` as `m` gives it.
fn read_group<T: clap::FromArgMatches + Send + Sync + 'static>(
    m: &clap::ArgMatches,
    own: OwnFlags,
) -> Result<OwnFlags, clap::Error> {
    Ok(own.with(T::from_arg_matches(m)?))
}

impl std::fmt::Debug for OwnFlags {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "OwnFlags({} groups)", self.0.len())
    }
}

/// A suite's part of a plan: the suite, and the formats and data shapes it asks about.
pub struct Planned {
    /// The suite, loaded.
    pub suite: Arc<dyn Suite>,
    /// Formats, in the order given.
    pub formats: Vec<Format>,
    /// Structures asked.
    pub structures: Vec<Structure>,
    /// Variants asked.
    pub variants: Vec<Variant>,
    /// Record counts asked.
    pub records: Vec<u32>,
    /// Lines for the screen: what was loaded or synthesised, and from where.
    pub notes: Vec<String>,
}

impl Planned {
    /// `suite` over the product records in the shapes `a` asks (`--structures`, `--variants`,
    /// `--records`, default 31), in `--formats` or the default set.
    pub fn product(a: &Asked, suite: Arc<dyn Suite>, notes: Vec<String>) -> Self {
        Self {
            suite,
            formats: a.formats_or_default(),
            structures: unique(&a.structures),
            variants: unique(&a.variants),
            records: unique(&a.product_sizes()),
            notes,
        }
    }
}

/// The suite a metadata line describes, or `None` when the line is another suite's.
pub type FromMetadata = fn(&Metadata) -> Result<Option<Arc<dyn Suite>>>;

/// How a suite is found again from a run log's metadata line.
pub struct Entry {
    /// The suite's kind, as `--suite` names it (`data` for a `--data` run).
    pub kind: &'static str,
    /// The suite a metadata line describes, or `None` when the line is another suite's.
    pub from_metadata: FromMetadata,
    /// Whether each call asks about one item (a task, a case, a defect): `item_sets` in
    /// sql/views.sql counts the items of these suites' logs, which it finds by name.
    pub items: bool,
    /// The SQL file that ranks its runs (`bench query` names it when another file finds
    /// nothing to rank in them).
    pub ranked_by: &'static str,
    /// The output mode beyond the format a result line of this suite was asked in, read from
    /// its payload (`json_schema`; `None` for plain text): part of the line's sample key.
    /// `None` for a suite whose replies have one mode.
    pub result_mode: Option<fn(&ResultRecord) -> Option<String>>,
    /// Reads its own fields of a metadata line as its types, so a line whose field does not
    /// fit is refused where the line is read, in one line naming the field.
    pub check_own: fn(&Metadata) -> Result<()>,
    /// How `--suite` names it and how it plans from the command line; `None` for a suite
    /// `--suite` does not name (a `--data` run is the formats suite's).
    pub select: Option<Select>,
    /// What it adds to one answer's page of `bench view`; `None` adds nothing.
    pub panel: Option<&'static dyn Panel>,
    /// Its own part of its runs' report (sections, charts, the words for its data); `None`
    /// for a suite whose report is the formats suite's.
    pub report: Option<super::sections::Sections>,
}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.kind)
    }
}

impl Entry {
    /// Its part of the plan of a run that asks `a`: what [`Select::plan`] makes of it.
    pub fn plan(&self, a: &Asked) -> Result<Planned> {
        let select = self
            .select
            .as_ref()
            .expect("--suite names a suite it can plan");
        (select.plan)(a)
    }
}

/// How `--suite` names a suite, and how the suite plans from the command line.
pub struct Select {
    /// One line for `--suite`'s help.
    pub about: &'static str,
    /// Its part of the plan, or a usage error naming the option that does not apply and why.
    pub plan: fn(&Asked) -> Result<Planned>,
    /// Its own flag group on the command line (`--tasks`, `--cases`, …), which the commands
    /// that plan take through [`OwnFlags`]; `None` for a suite with none.
    pub group: Option<FlagGroup>,
    /// The flags only this suite reads, by clap id (`write_from` for `--write-from`): `sweep`
    /// and `recommend`, which run the formats suite, leave them out of their help and refuse
    /// them, and `--resume` (whose plan comes from the run log) conflicts with them.
    pub flags: &'static [&'static str],
    /// Which of [`flags`](Self::flags) `asked` sets away from their defaults.
    pub given: fn(&Asked) -> Vec<&'static str>,
}

impl Asked {
    /// The flag group `T` of a suite as given, or every flag at its default when the command
    /// did not parse that group (`generate`, `tokens --data`).
    pub fn own<T: clap::Args + clap::FromArgMatches + Clone + 'static>(&self) -> T {
        self.own
            .0
            .get(&TypeId::of::<T>())
            .and_then(|f| f.downcast_ref::<T>())
            .cloned()
            .unwrap_or_else(defaults)
    }

    /// `--formats`, else the default set of the formats suite.
    pub fn formats_or_default(&self) -> Vec<Format> {
        self.formats.clone().unwrap_or_else(Format::defaults)
    }

    /// `--records` for the product records: the 31-record default when none was given.
    pub fn product_sizes(&self) -> Vec<u32> {
        if self.records.is_empty() {
            vec![DEFAULT_RECORDS]
        } else {
            self.records.clone()
        }
    }

    /// How to read the `--data` file: `records` is at most one count (all records when none).
    pub fn load_options(&self, records: &[u32]) -> Result<LoadOptions, UsageError> {
        let records = match records {
            [] => None,
            [n] => Some(*n as usize),
            _ => {
                return Err(UsageError::new(
                    "--data takes one --records value, not a list",
                ));
            }
        };
        let file = self.data.as_ref();
        Ok(LoadOptions {
            root_key: file.and_then(|f| f.root_key.clone()),
            records,
            sample: file.and_then(|f| f.sample).unwrap_or_default(),
            seed: self.seed,
        })
    }

    /// The question synthesis `--questions`, `--id-field` and `--seed` ask for.
    pub fn synth_options(&self) -> synth::Options {
        synth::Options {
            questions: match self.questions {
                QuestionsArg::Count(n) => n,
                QuestionsArg::File(_) => synth::DEFAULT_QUESTIONS,
            },
            id_field: self.data.as_ref().and_then(|f| f.id_field.clone()),
            seed: self.seed,
            file: match &self.questions {
                QuestionsArg::File(f) => Some(f.clone()),
                QuestionsArg::Count(_) => None,
            },
        }
    }

    /// Without `--data`, `--questions` may name a question file about the product records; a
    /// count applies to `--data` only (the product suite asks its 124 generated questions).
    pub fn product_questions(&self) -> Result<Option<&Path>, UsageError> {
        match &self.questions {
            QuestionsArg::File(f) => Ok(Some(f)),
            QuestionsArg::Count(synth::DEFAULT_QUESTIONS) => Ok(None),
            QuestionsArg::Count(n) => Err(UsageError::new(format!(
                "--questions {n} sets how many questions to synthesise from --data; the product \
                 suite asks its 124 generated questions (or give --questions FILE)"
            ))),
        }
    }

    /// Whether `--questions` was given (a count other than the default, or a file).
    pub fn questions_given(&self) -> bool {
        self.questions != QuestionsArg::Count(synth::DEFAULT_QUESTIONS)
    }
}

/// The flags of `flags` that are set (each paired with whether it is), as named there.
pub fn set_flags<const N: usize>(flags: [(&'static str, bool); N]) -> Vec<&'static str> {
    flags
        .into_iter()
        .filter_map(|(flag, set)| set.then_some(flag))
        .collect()
}

/// A usage error with `why` when `given`: one refusal of a suite that does not take an option.
pub fn refuse(given: bool, why: &str) -> Result<(), UsageError> {
    if given {
        Err(UsageError::new(why))
    } else {
        Ok(())
    }
}

/// A suite's flag group with nothing given: every flag at its default.
pub fn defaults<T: clap::Args + clap::FromArgMatches>() -> T {
    let cmd = T::augment_args(clap::Command::new("defaults"));
    T::from_arg_matches(&cmd.get_matches_from(["defaults"])).expect("every flag has a default")
}

/// Refuses the lookup suite's own options (`--questions`, `--shuffle`) for a suite that asks
/// its own items in its data's order.
pub fn refuse_lookup_options(a: &Asked) -> Result<(), UsageError> {
    refuse(
        a.questions_given(),
        "--questions applies to the formats suite (its questions, or --data's); --suite tasks, \
         write and corrupted ask their own",
    )?;
    refuse(
        a.shuffle,
        "--shuffle applies to the formats suite and --data: a task's facts and a written \
         document's gold follow their data's order, and the corrupted suite's damage is placed \
         in the records' order",
    )
}

/// Whether the selection renders anything at all.
pub fn check_selection(
    formats: &[Format],
    structures: &[Structure],
    variants: &[Variant],
) -> Result<(), UsageError> {
    let any = !variants.is_empty()
        && formats
            .iter()
            .any(|f| structures.iter().any(|&s| f.supports(s)));
    if any {
        return Ok(());
    }
    let names = |n: Vec<&str>| n.join(", ");
    Err(UsageError::new(format!(
        "nothing to render: formats [{}] support none of the structures [{}] (csv is flat only)",
        names(formats.iter().map(|f| f.name()).collect()),
        names(structures.iter().map(|s| s.name()).collect()),
    )))
}

/// `items` without repeats, in first-seen order.
pub fn unique<T: PartialEq + Clone>(items: &[T]) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for x in items {
        if !out.contains(x) {
            out.push(x.clone());
        }
    }
    out
}
