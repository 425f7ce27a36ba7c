//! Instruction wordings (`--prompt-variants K`): the same request in other words and layouts,
//! shipped as data (`benchmarks/prompts/lookups.json`, embedded in the binary). A format
//! verdict measured under one wording may be a property of that wording; asking under several
//! shows whether it holds.

use serde::Deserialize;
use std::sync::LazyLock;

/// One wording of the lookup prompt.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Wording {
    /// Name in the run log and the report (`default`, `numbered`, …).
    pub id: String,
    /// A one-line role put before everything else, if any.
    pub role: Option<String>,
    /// The data block comes first (cacheable), else the instructions and questions do.
    pub data_first: bool,
    /// The instructions up to the question list; `{noun}` names the data.
    pub text: String,
}

/// Where a task wording puts the data block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DataAt {
    /// Where the task's template puts it.
    Inline,
    /// Before the template, which then names it with the wording's placeholder.
    First,
    /// After the template.
    Last,
}

/// One wording of the tasks suite: a layout around the task's own instructions (a task file's
/// template is the user's, so bench moves the data and adds a role, it does not reword).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct TaskWording {
    /// Name in the run log and the report.
    pub id: String,
    /// A one-line role put before everything else, if any.
    pub role: Option<String>,
    /// Where the data block goes.
    pub data_at: DataAt,
    /// The line above a moved data block; `{format_name}` names the format.
    #[serde(default)]
    pub header: String,
    /// What replaces the template's data placeholder when the data moved.
    #[serde(default)]
    pub placeholder: String,
}

/// One wording of the write suite: the request for each kind of case, and the closing line.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct WriteWording {
    /// Name in the run log and the report.
    pub id: String,
    /// A one-line role put before everything else, if any.
    pub role: Option<String>,
    /// The facts, source document or edits come before the request.
    pub given_first: bool,
    /// The request for a document holding facts; `{name}` is the output format.
    pub facts: String,
    /// The request to rewrite a document given in `{from}`.
    pub rewrite: String,
    /// The request to apply edits.
    pub edit: String,
    /// The closing line; `{document}` is "document" or "whole edited document".
    pub reply: String,
}

#[derive(Deserialize)]
struct File<W> {
    wordings: Vec<W>,
}

fn load<W: serde::de::DeserializeOwned>(name: &str, text: &str) -> Vec<W> {
    let file: File<W> = serde_json::from_str(text)
        .unwrap_or_else(|e| panic!("benchmarks/prompts/{name} is invalid: {e} (tested)"));
    file.wordings
}

static LOOKUPS: LazyLock<Vec<Wording>> = LazyLock::new(|| {
    load(
        "lookups.json",
        include_str!("../../benchmarks/prompts/lookups.json"),
    )
});

static TASKS: LazyLock<Vec<TaskWording>> = LazyLock::new(|| {
    load(
        "tasks.json",
        include_str!("../../benchmarks/prompts/tasks.json"),
    )
});

static WRITES: LazyLock<Vec<WriteWording>> = LazyLock::new(|| {
    load(
        "write.json",
        include_str!("../../benchmarks/prompts/write.json"),
    )
});

/// A wording of any suite, known by its id.
pub trait Named: 'static {
    /// Its name in the run log and the report.
    fn id(&self) -> &str;
}

macro_rules! named {
    ($($t:ty),*) => {$(impl Named for $t {
        fn id(&self) -> &str {
            &self.id
        }
    })*};
}
named!(Wording, TaskWording, WriteWording);

/// The names of `all`, in order.
pub fn ids<W: Named>(all: &'static [W]) -> Vec<&'static str> {
    all.iter().map(Named::id).collect()
}

/// The wording of `all` that `slot` names; the first (the default) when it names none.
pub fn for_slot<W: Named>(all: &'static [W], slot: &RunSlot) -> &'static W {
    all.iter()
        .find(|w| Some(w.id()) == slot.wording)
        .unwrap_or(&all[0])
}

/// The wordings of the tasks suite; the first is the template as written.
pub fn tasks() -> &'static [TaskWording] {
    &TASKS
}

/// The wordings of the write suite; the first is the default.
pub fn writes() -> &'static [WriteWording] {
    &WRITES
}

/// The wordings of the lookup prompt (formats suite and `--data`); the first is the default.
pub fn lookups() -> &'static [Wording] {
    &LOOKUPS
}

/// The default wording.
pub fn default_lookup() -> &'static Wording {
    &lookups()[0]
}

/// Which runs ask a combination's prompts: every run, or, when a run option makes prompts
/// differ by run (`--prompt-variants`), the runs with a given remainder.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunSlot {
    /// The wording the prompts use (`None`: the default, not recorded per result).
    pub wording: Option<&'static str>,
    /// This slot's index among `of`.
    pub index: u32,
    /// How many slots share the runs; 0 or 1: one slot asks every run.
    pub of: u32,
    /// The seed of the record order its prompts show (`--shuffle`; `None`: the data's order).
    pub order_seed: Option<u64>,
}

impl RunSlot {
    /// Whether this slot asks run `run` (1-based; 0 is the warm-up, asked by slot 0 only, whose
    /// data block the others share or do not cache).
    pub fn asks(&self, run: u32) -> bool {
        if self.of <= 1 {
            return true;
        }
        match run {
            0 => self.index == 0,
            r => (r - 1) % self.of == self.index,
        }
    }

    /// How many of runs 1..=`runs` this slot asks.
    pub fn runs(&self, runs: u32) -> u32 {
        (1..=runs).filter(|&r| self.asks(r)).count() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_wordings_differ_and_the_first_is_the_default() {
        let w = lookups();
        assert!(w.len() >= 4, "{w:?}");
        for (i, a) in w.iter().enumerate() {
            assert!(a.text.contains("{noun}"), "{}", a.id);
            for b in &w[i + 1..] {
                assert_ne!(a.text, b.text);
                assert_ne!(a.id, b.id);
            }
        }
        assert_eq!(w[0].id, "default");
        assert!(w[0].data_first && w[0].role.is_none());
        assert!(w.iter().any(|x| !x.data_first), "one puts the data last");
        assert!(w.iter().any(|x| x.role.is_some()), "one has a role");
    }

    #[test]
    fn task_and_write_wordings_differ_and_the_first_changes_nothing() {
        let t = tasks();
        assert!(t.len() >= 3, "{t:?}");
        assert_eq!(t[0].id, "default");
        assert!(t[0].data_at == DataAt::Inline && t[0].role.is_none());
        for w in t.iter().filter(|w| w.data_at != DataAt::Inline) {
            assert!(w.header.contains("{format_name}") && !w.placeholder.is_empty());
        }
        let w = writes();
        assert!(w.len() >= 3, "{w:?}");
        assert_eq!(w[0].id, "default");
        assert!(!w[0].given_first && w[0].role.is_none());
        for (i, a) in w.iter().enumerate() {
            for text in [&a.facts, &a.rewrite, &a.edit, &a.reply] {
                assert!(text.contains("{name}"), "{}: {text}", a.id);
            }
            assert!(a.rewrite.contains("{from}") && a.reply.contains("{document}"));
            for b in &w[i + 1..] {
                assert!(a.id != b.id && a.facts != b.facts && a.edit != b.edit);
            }
        }
        let ids =
            |v: Vec<&String>| v.len() == v.iter().collect::<std::collections::HashSet<_>>().len();
        assert!(ids(t.iter().map(|w| &w.id).collect()));
    }

    #[test]
    fn slots_split_the_runs_and_only_the_first_warms_up() {
        let s = |index| RunSlot {
            wording: Some("x"),
            index,
            of: 3,
            order_seed: None,
        };
        assert_eq!(
            (1..=7).filter(|&r| s(0).asks(r)).collect::<Vec<_>>(),
            [1, 4, 7]
        );
        assert_eq!(
            (1..=7).filter(|&r| s(2).asks(r)).collect::<Vec<_>>(),
            [3, 6]
        );
        assert!(s(0).asks(0) && !s(1).asks(0));
        assert_eq!(s(1).runs(7), 2);
        assert_eq!(RunSlot::default().runs(5), 5);
    }
}
