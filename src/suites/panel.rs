//! What a suite adds to `bench view`: to one answer's page (`/answer`) and to its run's line
//! on the Runs page. The viewer finds the
//! suite's panel on its registry [`Entry`](super::Entry) and asks no suite's name. A panel
//! hands back plain text or HTML escaped with `crate::html::esc` (the suites never import the
//! viewer); each suite's own is `suites/<name>/panel.rs`.

use crate::runlog::{Metadata, ResultRecord};

/// A suite's pieces of one answer's page; each default adds nothing.
pub trait Panel: Sync {
    /// What the call asked about when the prompt holds no line `<metric>: …`: `item` is the
    /// call's task, case or defect (`ResultRecord::task`), `metric` the answer's id. `None`:
    /// the page says the question is not a line of the prompt.
    fn asked_about(&self, _item: &str, _metric: &str) -> Option<String> {
        None
    }
    /// HTML between the question and the grading (a `corrupted` call's defect).
    fn after_question(&self, _call: &ResultRecord) -> String {
        String::new()
    }
    /// HTML after the raw reply (a `write` call's document against its gold).
    fn after_reply(&self, _meta: &Metadata, _call: &ResultRecord) -> String {
        String::new()
    }
    /// Whether the expected answer names the record to highlight when the question names
    /// none (a `corrupted` call's duplicated or damaged record).
    fn expected_names_record(&self) -> bool {
        false
    }
    /// What the Runs page says a run of the suite asked about (a tasks run's task file, a
    /// write run's cases), from its metadata line; `None`: the page's own words.
    fn runs_line(&self, _meta: &Metadata) -> Option<String> {
        None
    }
}

/// The panel of a suite that adds nothing to the page.
pub struct Plain;

impl Panel for Plain {}
