//! Suites: what a run measures. A suite is inspect_ai's Task: a dataset (what it renders in
//! each format), a solver (the prompts it builds) and a scorer (how a reply is graded). Every
//! stage — plan, estimate, call, batch, rescore, report — works through the two traits here
//! without asking which suite it runs; a new suite is one module and one line in [`REGISTRY`].
//!
//! Traits, not an enum: an enum would put a `match` over every suite back into each stage (the
//! two `Option`s this replaced did exactly that), while a trait object lets a suite keep its
//! own types (a task file, a user's data file) behind one interface. The reference answerer is
//! the one reader of a suite's own payload, which it downcasts.

pub mod asked;
pub mod corrupted;
pub mod data;
pub mod formats;
pub mod plan;
pub mod tasks;
pub mod write;

use crate::grading::Metric;
use crate::layout::Writer;
use crate::questions::Category;
use crate::runlog::Metadata;
use anyhow::Result;
use plan::{Matrix, Plan, Size, Unit};
use std::any::Any;
use std::sync::Arc;

pub use crate::runlog::meta::Skip;
pub use asked::{Asked, Planned, Select};

/// What a suite asks of the reference answerer, opaque to every other provider.
pub type Payload = Arc<dyn Any + Send + Sync>;

/// A kind of measurement: the renderings it asks about and how it records itself.
pub trait Suite: Send + Sync + std::fmt::Debug {
    /// Names its run log (`<name>.jsonl`): `formats` (a `--data` run too), `tasks`, ….
    fn name(&self) -> String;
    /// One sentence for the metadata line: what the run measures.
    fn description(&self) -> &'static str;
    /// The answer categories it grades, with their weights.
    fn categories(&self) -> &'static [Category];
    /// Prompts per provider and run, before skips.
    fn renderings(&self, plan: &Plan) -> usize;
    /// Renders every combination and its prompts, with the renderings a format cannot
    /// produce and why.
    fn build(&self, plan: &Plan) -> Result<(Matrix, Vec<Skip>)>;
    /// sha256 of each data document asked about, in plan order (pins the data in the log).
    fn data_hashes(&self, matrix: &Matrix) -> Vec<String>;
    /// Writes its own part of the metadata line (`tasks`, `data`).
    fn record(&self, _meta: &mut Metadata, _skipped: &[Skip]) {}
    /// Writes its questions and data files into the artifacts folder before the calls.
    fn artifacts(&self, _plan: &Plan, _matrix: &Matrix, _w: &mut Writer) -> Result<()> {
        Ok(())
    }
    /// The `dataset` entry of the artifacts' `metadata.json` (written after the calls, since
    /// it lists every file), if the suite has one data set to describe.
    fn data_description(&self, _sizes: &[Size]) -> Option<serde_json::Value> {
        None
    }
    /// Whether its prompts start with the data block, so a caching provider gains from a
    /// warm-up call (task prompts put instructions first).
    fn data_first(&self) -> bool {
        true
    }
    /// Whether each rendering sets its own output limit and temperature.
    fn own_call_settings(&self) -> bool {
        false
    }
    /// The names of its instruction wordings (`--prompt-variants K` asks the first K), the
    /// default first.
    fn wording_ids(&self) -> Vec<&'static str> {
        crate::prompt::wording::ids(crate::prompt::wording::lookups())
    }
    /// This suite asking its data at `records` records, so a size can be checked by building
    /// it (a `--data` file is loaded again at that size, its questions synthesised from that
    /// sample); `None` when the plan's record count alone sizes it (the product records).
    fn at_records(&self, _records: u32) -> Result<Option<Arc<dyn Suite>>> {
        Ok(None)
    }
    /// The SQL file whose table `bench run` prints as the ranking; `None` prints the lookup
    /// ranking of the run summary.
    fn ranking_sql(&self) -> Option<&'static str> {
        None
    }
}

pub use crate::providers::CallSettings;

/// A reply's grades: one metric per item asked, and the task's scores when a task was asked.
#[derive(Debug, Clone, Default)]
pub struct Scored {
    /// One metric per question or expected value.
    pub metrics: Vec<Metric>,
    /// The task's rubric scores (`tasks` suite).
    pub task_scores: Option<crate::tasks::grade::TaskScores>,
    /// The written document's grades, first shot and final (`write` suite).
    pub write: Option<crate::write::WriteScores>,
}

/// How the replies about one rendering are graded; every combination carries one.
pub trait Scorer: Send + Sync {
    /// The item this rendering asks about beyond its data (a task id); part of the sample key.
    fn item(&self) -> Option<&str> {
        None
    }
    /// The call's own output limit and temperature.
    fn call_settings(&self) -> CallSettings {
        CallSettings::default()
    }
    /// Grades `reply` to `unit`: `None` when the call failed, `cut` when it stopped at the
    /// output limit (what it answered before the cut still counts).
    fn score(&self, unit: &Unit, reply: Option<&str>, cut: bool) -> Scored;
    /// The text of a perfect reply to `unit` (the estimate counts its tokens).
    fn answer_key(&self, unit: &Unit) -> String;
    /// The output mode beyond the format (`json_schema`); part of the sample key.
    fn mode(&self) -> Option<&str> {
        None
    }
    /// The JSON Schema a provider must constrain the reply to (structured output), if any.
    fn response_schema(&self) -> Option<&serde_json::Value> {
        None
    }
    /// The next user message after `reply`, the reply to `turn` earlier follow-ups (a repair
    /// request for a document that does not parse); `None` ends the conversation.
    fn follow_up(&self, _unit: &Unit, _reply: &str, _turn: u32) -> Option<String> {
        None
    }
    /// The most follow-ups [`follow_up`](Self::follow_up) gives one sample (for estimates).
    fn max_follow_ups(&self) -> u32 {
        0
    }
    /// Grades a conversation's replies in order (the first, then one per follow-up); `failed`
    /// when its last call failed. One reply is graded by [`score`](Self::score).
    fn score_turns(&self, unit: &Unit, replies: &[&str], failed: bool, cut: bool) -> Scored {
        self.score(unit, replies.last().copied().filter(|_| !failed), cut)
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
    /// How `--suite` names it and how it plans from the command line; `None` for a suite
    /// `--suite` does not name (a `--data` run is the formats suite's).
    pub select: Option<Select>,
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

    /// Whether it is the default suite (`formats`).
    pub fn is_default(&self) -> bool {
        self.kind == formats::SUITE
    }
}

/// The suites `--suite` names, the default first (the registry's claim order reversed).
pub fn selectable() -> impl Iterator<Item = (&'static Entry, &'static Select)> {
    REGISTRY
        .iter()
        .rev()
        .filter_map(|e| e.select.as_ref().map(|s| (e, s)))
}

/// `--suite`'s parser: a suite of [`selectable`], each value listed with its line of help.
pub fn parser() -> impl clap::builder::TypedValueParser<Value = &'static Entry> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values = selectable().map(|(e, s)| PossibleValue::new(e.kind).help(s.about));
    PossibleValuesParser::new(values).map(|kind: String| {
        selectable()
            .find(|(e, _)| e.kind == kind)
            .expect("clap accepts only the possible values")
            .0
    })
}

/// The default suite's entry (`formats`).
pub fn default_entry() -> &'static Entry {
    selectable()
        .map(|(e, _)| e)
        .find(|e| e.is_default())
        .expect("the registry has the formats suite")
}

/// Every flag only one suite reads, by clap id (`cases`, `task_ids`, …).
pub fn own_flags() -> impl Iterator<Item = &'static str> {
    selectable().flat_map(|(_, s)| s.flags.iter().copied())
}

/// The suites' own flags that `a` sets away from their defaults, as typed (`--task-ids`).
pub fn own_flags_given(a: &Asked) -> Vec<String> {
    selectable()
        .flat_map(|(_, s)| (s.given)(a))
        .map(|id| format!("--{}", id.replace('_', "-")))
        .collect()
}

/// Each suite's own flags that `a` sets, as typed (`--task-ids`), for the suites with any.
fn flags_given_by_suite(a: &Asked) -> Vec<(&'static Entry, Vec<String>)> {
    selectable()
        .map(|(e, s)| {
            let flags = (s.given)(a)
                .into_iter()
                .map(|id| format!("--{}", id.replace('_', "-")))
                .collect::<Vec<_>>();
            (e, flags)
        })
        .filter(|(_, flags)| !flags.is_empty())
        .collect()
}

/// The suite a command plans: `--suite` as given (`explicit`), else the one suite whose own
/// flags `a` sets, else the formats suite; with the line to say when a flag chose it. A flag
/// of a suite that is not selected is never ignored: it is refused in one line naming
/// `--suite`, as are flags of two suites without `--suite`.
pub fn choose(
    explicit: Option<&'static Entry>,
    a: &Asked,
) -> Result<(&'static Entry, Option<String>), crate::UsageError> {
    let given = flags_given_by_suite(a);
    let named = |g: &[(&Entry, Vec<String>)]| {
        g.iter()
            .map(|(e, f)| format!("{} (--suite {})", f.join(", "), e.kind))
            .collect::<Vec<_>>()
            .join(" and ")
    };
    if let Some(e) = explicit {
        let others: Vec<_> = given
            .into_iter()
            .filter(|(o, _)| o.kind != e.kind)
            .collect();
        if others.is_empty() {
            return Ok((e, None));
        }
        return Err(crate::UsageError::new(format!(
            "--suite {} does not take {}: drop the flag, or choose the suite it belongs to",
            e.kind,
            named(&others)
        )));
    }
    match given.as_slice() {
        [] => Ok((default_entry(), None)),
        [(e, flags)] => Ok((
            *e,
            Some(format!(
                "{} selects --suite {} (give --suite to choose another)",
                flags.join(", "),
                e.kind
            )),
        )),
        _ => Err(crate::UsageError::new(format!(
            "{} belong to different suites: choose one with --suite",
            named(&given)
        ))),
    }
}

/// Every suite. The first whose `from_metadata` claims a metadata line is its suite; the
/// product questions claim every line, so they come last.
pub const REGISTRY: &[Entry] = &[
    corrupted::ENTRY,
    write::ENTRY,
    tasks::ENTRY,
    data::ENTRY,
    formats::ENTRY,
];

/// The suite a run log's metadata line describes.
pub fn from_metadata(m: &Metadata) -> Result<Arc<dyn Suite>> {
    for e in REGISTRY {
        if let Some(s) = (e.from_metadata)(m)? {
            return Ok(s);
        }
    }
    anyhow::bail!(
        "no suite claims the run log's metadata (suite_name '{}')",
        m.suite_name
    )
}

/// The SQL file that ranks the runs of the suite whose log is `<suite>.jsonl`: a suite's own
/// name, else a `--data` run's (the file's stem).
pub fn ranked_by(suite: &str) -> &'static str {
    REGISTRY
        .iter()
        .find(|e| e.kind == suite)
        .unwrap_or(&data::ENTRY)
        .ranked_by
}

/// The product questions over the generated data set: the default suite.
pub fn product() -> Arc<dyn Suite> {
    Arc::new(formats::Formats::generated())
}

#[cfg(test)]
mod tests {
    /// `item_sets` in sql/views.sql reads the logs of exactly the suites with items, by name:
    /// a suite missing from its list would leave its calls without a record count.
    #[test]
    fn views_count_the_items_of_every_suite_with_items() {
        let sql = crate::analytics::VIEWS_SQL;
        let view = &sql[sql.find("CREATE OR REPLACE VIEW item_sets").unwrap()..];
        let list = &view[view.find(") IN (").unwrap() + ") IN (".len()..];
        let list = &list[..list.find(')').unwrap()];
        let mut listed: Vec<&str> = list
            .split(',')
            .map(|n| n.trim().trim_matches('\''))
            .collect();
        let mut items: Vec<&str> = super::REGISTRY
            .iter()
            .filter(|e| e.items)
            .map(|e| e.kind)
            .collect();
        listed.sort_unstable();
        items.sort_unstable();
        assert_eq!(listed, items);
    }
}
