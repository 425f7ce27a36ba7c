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

#[derive(Deserialize)]
struct File {
    wordings: Vec<Wording>,
}

static LOOKUPS: LazyLock<Vec<Wording>> = LazyLock::new(|| {
    let file: File = serde_json::from_str(include_str!("../../benchmarks/prompts/lookups.json"))
        .expect("benchmarks/prompts/lookups.json is valid (tested)");
    file.wordings
});

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
