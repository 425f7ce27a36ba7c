//! The tasks suite's fields in the run log: its part of the metadata line ([`TaskMeta`]) and
//! of each result line (a reply's [`TaskScores`]), under its own keys of the payload.

use super::grade::TaskScores;
use crate::grading::rubric::Rubric;
use crate::runlog::meta::Skip;
use crate::runlog::{self, Metadata, ResultRecord};
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// What a `tasks` run's metadata line records: enough to plan it again on `--resume`, and the
/// renderings skipped with their reasons.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskMeta {
    /// The task file.
    pub file: PathBuf,
    /// Selected task ids, in file order.
    pub ids: Vec<String>,
    /// Renderings a format could not produce.
    pub skipped: Vec<Skip>,
}

/// The tasks suite's key in the metadata line (its [`TaskMeta`]).
const META_KEY: &str = "tasks";

/// A task's key in a result line (its [`TaskScores`]).
const SCORES_KEY: &str = "task_scores";

/// A task reply's fact accuracy and rubric scores of a result line; `None` for another suite's.
pub fn scores(r: &ResultRecord) -> Result<Option<TaskScores>> {
    r.payload.own(SCORES_KEY)
}

/// A result line's payload holding a task reply's `scores`.
pub fn scores_payload(scores: &TaskScores) -> runlog::Payload {
    let mut p = runlog::Payload::default();
    p.set_own(SCORES_KEY, scores);
    p
}

/// The payload of a reply scored by TeaLeaf's rubric alone, with no expected value to check
/// (an imported TeaLeaf reply): the composite is its score.
pub fn rubric_payload(rubric: &Rubric) -> runlog::Payload {
    scores_payload(&TaskScores {
        fact_accuracy: None,
        rubric: *rubric,
        score: rubric.composite,
    })
}

impl TaskMeta {
    /// The tasks suite's part of a metadata line; `None` for another suite's run.
    pub fn of(m: &Metadata) -> Result<Option<Self>> {
        m.payload.own(META_KEY)
    }

    /// Whether the metadata line is a tasks run's.
    pub fn is_in(m: &Metadata) -> bool {
        m.payload.has(META_KEY)
    }

    /// Writes it into the metadata line.
    pub fn set(&self, m: &mut Metadata) {
        m.payload.set_own(META_KEY, self);
    }
}
