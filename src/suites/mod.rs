//! Suites: what a run measures. A suite is inspect_ai's Task: a dataset (what it renders in
//! each format), a solver (the prompts it builds) and a scorer (how a reply is graded). Every
//! stage — plan, estimate, call, batch, rescore, report — works through the two traits here
//! without asking which suite it runs; a new suite is one module and one line in [`REGISTRY`].
//!
//! Traits, not an enum: an enum would put a `match` over every suite back into each stage (the
//! two `Option`s this replaced did exactly that), while a trait object lets a suite keep its
//! own types (a task file, a user's data file) behind one interface. The reference answerer
//! answers each suite's own request through `providers::Answerable`, which the suite
//! implements, and a suite's fields of the run log are its own types, read and written by key
//! (`runlog::Payload`).
//!
//! The folder is a tree (tests/integration/module_graph.rs): `plan` (the traits and the plan
//! they take) and `asked` (the command line's plan options, [`Entry`], [`Select`]) are the
//! trunk; `lookup` (what the lookup suites share), `render` (render-or-skip) and `panel` (what
//! a suite adds to `bench view`'s answer page) are leaves the suites share; each suite imports
//! those and never another suite's file nor this one, and this file, the registry, imports
//! every suite.

pub mod asked;
pub mod corrupted;
pub mod data;
pub mod formats;
pub mod lookup;
pub mod panel;
pub mod plan;
pub mod render;
pub mod sections;
pub mod tasks;
pub mod user_data;
pub mod write;

use crate::runlog::{Metadata, ResultRecord};
use crate::tokens::Tokenizer;
use anyhow::Result;
use std::path::PathBuf;
use std::sync::Arc;

pub use crate::runlog::meta::Skip;
pub use asked::{Asked, Entry, FromMetadata, OwnFlags, Planned, Select};
pub use formats::product;
pub use lookup::weights;
pub use plan::{CallSettings, ForReference, Plan, Scored, Scorer, Suite};
// The payload of an imported TeaLeaf reply, scored by the rubric alone (the import writes it).
pub use tasks::rubric_payload as task_rubric_payload;
// A suite's own command: `bench list-tasks` lists the tasks suite's tasks by its selection flags.
pub use tasks::{TaskArgs, list::listing as task_listing};

impl Entry {
    /// Whether it is the default suite (`formats`).
    pub fn is_default(&self) -> bool {
        self.kind == formats::SUITE
    }
}

impl Plan {
    /// The plan a run log's metadata describes.
    pub fn from_metadata(m: &Metadata) -> Result<Self> {
        let tokenizers = m
            .tokenizers
            .iter()
            .map(|t| {
                Tokenizer::ALL
                    .into_iter()
                    .find(|x| x.name() == t)
                    .ok_or_else(|| anyhow::anyhow!("run log names unknown tokenizer '{t}'"))
            })
            .collect::<Result<_>>()?;
        Ok(Self {
            formats: m.formats.clone(),
            structures: m.structures.clone(),
            variants: m.variants.clone(),
            records: m.records.iter().map(|&n| n as u32).collect(),
            seed: m.seed,
            runs: m.runs,
            tokenizers,
            output_root: PathBuf::new(),
            question_mode: m.question_mode,
            prompt_variants: (m.prompt_variants.len() as u32).max(1),
            shuffle: m.shuffle,
            shard: m.shard.as_ref().map(|s| (s.index, s.of)),
            primers: m.primers.clone(),
            suite: from_metadata(m)?,
        })
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

/// Every suite's own flag group (`--tasks`, `--cases`, …) on one command line, in `--suite`'s
/// order: the commands that plan flatten this one type, each suite reads its group back with
/// [`Asked::own`], and a new suite's flags reach every such command from its [`Select`].
impl clap::Args for OwnFlags {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        selectable()
            .filter_map(|(_, s)| s.group)
            .fold(cmd, |cmd, g| (g.augment)(cmd))
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl clap::FromArgMatches for OwnFlags {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        selectable()
            .filter_map(|(_, s)| s.group)
            .try_fold(Self::default(), |own, g| (g.read)(m, own))
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
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

impl plan::SampleKey {
    /// The key of a result line.
    pub fn of(r: &ResultRecord) -> Self {
        Self {
            provider: r.provider_config.provider.clone(),
            model: r.provider_config.model.clone(),
            format: r.format,
            structure: r.structure,
            variant: r.variant,
            records: r.records,
            run: r.run,
            question: r.question.clone(),
            primer: r.primer,
            task: r.task.clone(),
            mode: result_mode(r),
        }
    }
}

/// Reads every suite's own fields of a metadata line as their types: an error names the field
/// that does not fit (the readers of a line refuse it, as they refuse a line that does not
/// parse).
pub fn check_own(m: &Metadata) -> Result<()> {
    REGISTRY.iter().try_for_each(|e| (e.check_own)(m))
}

/// The output mode beyond the format a result line was asked in (`json_schema`), as its suite
/// reads it from the line's payload; `None` for plain text.
pub fn result_mode(r: &ResultRecord) -> Option<String> {
    REGISTRY
        .iter()
        .filter_map(|e| e.result_mode)
        .find_map(|mode| mode(r))
}

/// What the suite whose log is `<suite>.jsonl` adds to one answer's page of `bench view`.
pub fn panel(suite: &str) -> &'static dyn panel::Panel {
    REGISTRY
        .iter()
        .find(|e| e.kind == suite)
        .and_then(|e| e.panel)
        .unwrap_or(&panel::Plain)
}

/// The suite whose run log is `<suite>.jsonl`: a suite's own name, else a `--data` run's (the
/// file's stem).
pub fn of_log(suite: &str) -> &'static Entry {
    REGISTRY
        .iter()
        .find(|e| e.kind == suite)
        .unwrap_or(&data::ENTRY)
}

/// The SQL file that ranks the runs of the suite whose log is `<suite>.jsonl`.
pub fn ranked_by(suite: &str) -> &'static str {
    of_log(suite).ranked_by
}

/// How the comparison families whose structure key is `structure` count their data, when a
/// suite counts them in items (the report then names their data by the count).
pub fn counted(structure: &str) -> Option<&'static sections::Counted> {
    REGISTRY
        .iter()
        .filter_map(|e| e.report.as_ref()?.counted.as_ref())
        .find(|c| c.structure == structure)
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

    /// `bench view` finds a suite's panel by its log's name: the corrupted suite's names its
    /// record and words every defect; a `--data` run's log or an unknown name adds nothing.
    #[test]
    fn the_viewer_finds_each_panel_in_the_registry() {
        let corrupted = super::panel(super::corrupted::SUITE);
        assert!(corrupted.expected_names_record());
        let mut call: crate::runlog::ResultRecord = serde_json::from_value(serde_json::json!({
            "benchmark_id": "b", "provider_config": {"provider": "p", "model": "m",
            "model_params": {}}, "sample": {"duration_ms": 0, "tag": "t", "input": [],
            "output": {"content": ""}, "model": "m", "model_params": {}, "start_time_ms": 0,
            "end_time_ms": 0, "url": null}, "metrics": [], "summary": {"total_metrics": 0,
            "passed_metrics": 0, "avg_score": 0.0, "pass_rate": 0.0, "weighted_accuracy": 0.0,
            "by_category": {}}, "timing": {"provider_latency_ms": 0,
            "evaluation_time_ms": 0}, "format": "csv", "structure": "flat", "variant": "mandatory",
            "records": 1, "run": 1, "warmup": false, "usage": {"input": 0, "output": 0,
            "reasoning": 0, "cache_read": 0, "cache_write": 0}, "data_stats": {"chars": 0, "bytes": 0,
            "values": 0, "objects": 0, "tokens": {}}, "cost_usd": null, "error": null
        }))
        .unwrap();
        for defect in super::corrupted::DEFECTS {
            call.task = Some(defect.id.to_string());
            let line = corrupted.after_question(&call);
            assert!(
                line.contains(&format!("data-defect=\"{}\"", defect.id)),
                "{line}"
            );
            assert!(!line.contains("see the run's metadata"), "{line}");
        }
        let tasks = super::panel(super::tasks::SUITE);
        assert!(
            tasks
                .asked_about("FIN-001", "f1")
                .unwrap()
                .contains("task FIN-001")
        );
        for other in [super::formats::SUITE, "airports", "nosuch"] {
            let p = super::panel(other);
            assert!(p.asked_about("x", "y").is_none() && !p.expected_names_record());
            assert_eq!(p.after_question(&call), "");
        }
    }
}
