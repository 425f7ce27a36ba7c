//! What a suite adds to its runs' report: its own sections and charts, and the words for its
//! data. The report finds the run's suite in the registry ([`Entry::report`](super::Entry))
//! and calls these with plain data (the SQL tables it gathered for the suite, which renderings
//! its decisions found worse), so a suite's report lives in its folder and the suites never
//! import the report: both write in [`crate::doc`], below them.

use crate::analytics::Table;
use crate::doc::Block;
use crate::doc::charts::Figure;
use crate::runlog::Metadata;

/// What the report hands a suite's sections: the tables it gathered for the suite and what
/// its decisions found, as plain data.
pub struct Facts<'a> {
    /// The suite's own tables, one per [`Sections::tables`] entry, in that order.
    pub tables: &'a [Table],
    /// The renderings significantly worse than the most accurate format of their family (the
    /// report's paired comparisons against it), each `(provider, model, format)`.
    pub worse_than_best: Vec<(String, String, String)>,
}

impl Facts<'_> {
    /// Whether `format` of `provider/model` is significantly worse than its family's best.
    pub fn worse(&self, provider: &str, model: &str, format: &str) -> bool {
        self.worse_than_best
            .iter()
            .any(|(p, m, f)| p == provider && m == model && f == format)
    }
}

/// A suite's verdict section, given the blocks of its own charts to place in it.
pub type Verdict = fn(&Facts, Vec<Block>) -> Vec<Block>;

/// A suite's own part of its runs' report; every part is optional.
pub struct Sections {
    /// The SQL files its sections read, each (the file as the report cites it, its text),
    /// gathered with the report's own tables ([`Facts::tables`]).
    pub tables: &'static [(&'static str, &'static str)],
    /// The keys of its first tables in analytics_results.json, one per table in order: their
    /// rows in its runs' file, `null` in every other run's (`[]` with `json_in_every_run`).
    pub json_keys: &'static [&'static str],
    /// Its tables are in every run's analytics_results.json, with no rows in another suite's
    /// run (`[]`, not `null`).
    pub json_in_every_run: bool,
    /// Its verdict in place of the formats' verdict, given the blocks of its own charts.
    pub verdict: Option<Verdict>,
    /// Its own tables after the ranking (a tasks run: each task × format).
    pub after_ranking: Option<fn(&Facts) -> Vec<Block>>,
    /// Its evidence, after the prompt wordings' section.
    pub evidence: Option<fn(&Facts) -> Vec<Block>>,
    /// Its charts, drawn before the report's own.
    pub figures: Option<fn(&Facts) -> Vec<Figure>>,
    /// How its comparison families count their data, when in items (not records).
    pub counted: Option<Counted>,
    /// What its runs say in the Setup section about their data, from the metadata line.
    pub setup: Option<fn(&Metadata) -> Option<Setup>>,
    /// Its families' record counts are counts of its items (tasks, cases), not sizes of one
    /// data set: several of them are no size sweep, so the report draws no scaling.
    pub items_not_sizes: bool,
}

/// A suite's lines in the report's Setup section.
pub struct Setup {
    /// The line that says what data was asked about (in place of the report's own).
    pub data: String,
    /// The renderings not made, one line each.
    pub skipped: Vec<String>,
    /// The sentence before them.
    pub skipped_intro: &'static str,
}

impl Sections {
    /// No part of its own: the start of a suite's literal that adds one or two
    /// (`Sections { counted: …, ..Sections::NONE }`).
    pub const NONE: Sections = Sections {
        tables: &[],
        json_keys: &[],
        json_in_every_run: false,
        verdict: None,
        after_ranking: None,
        evidence: None,
        figures: None,
        counted: None,
        setup: None,
        items_not_sizes: false,
    };
}

/// A comparison family whose data is a set of items (views.sql `result_keys` keys it with
/// this structure and records = the items): the report names its data by their count.
pub struct Counted {
    /// The structure key of its families.
    pub structure: &'static str,
    /// One item, in words (`task`).
    pub one: &'static str,
    /// Several items (`tasks`).
    pub many: &'static str,
}

impl Counted {
    /// The noun for `n` items.
    pub fn noun(&self, n: i64) -> &'static str {
        if n == 1 { self.one } else { self.many }
    }
}
