//! The write suite's own fields in the run log: its [`WriteMeta`] in the metadata line and a
//! written document's scores in a result line. A file of its own so the suite (`mod.rs`) and
//! its panel both read them without importing each other.

use super::cases::Case;
use super::request::WriteScores;
use crate::formats::Format;
use crate::runlog::meta::Skip;
use crate::runlog::{Metadata, ResultRecord};
use anyhow::Result;
use serde::{Deserialize, Serialize};

/// What a `write` run's metadata line records: its cases in full (so `--resume` and `bench
/// rescore` need no file), how they were asked, and what was skipped and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WriteMeta {
    /// Every case, with its gold and schema.
    pub cases: Vec<Case>,
    /// Input format of `transcode` cases (`--write-from`).
    pub from: Format,
    /// Repair requests allowed per sample (`--repairs`).
    pub repairs: u32,
    /// Whether the structured-output baseline (`json_schema` mode) was asked for.
    pub json_schema: bool,
    /// Where the cases came from, one line each.
    pub sources: Vec<String>,
    /// Renderings a format could not produce, and why.
    pub skipped: Vec<Skip>,
    /// Providers that left out a mode, and why (`provider:model: reason`).
    #[serde(default)]
    pub skipped_modes: Vec<String>,
}

/// The write suite's key in both lines: its [`WriteMeta`] in the metadata line, a written
/// document's [`WriteScores`] in a result line.
pub(super) const KEY: &str = "write";

impl WriteMeta {
    /// The write suite's part of a metadata line; `None` for another suite's run.
    pub fn of(m: &Metadata) -> Result<Option<Self>> {
        m.payload.own(KEY)
    }

    /// Whether the metadata line is a write run's.
    pub fn is_in(m: &Metadata) -> bool {
        m.payload.has(KEY)
    }

    /// Writes it into the metadata line.
    pub fn set(&self, m: &mut Metadata) {
        m.payload.set_own(KEY, self);
    }
}

/// How a result line's written document fared, first shot and after repairs; `None` for
/// another suite's line.
pub fn scores(r: &ResultRecord) -> Result<Option<WriteScores>> {
    r.payload.own(KEY)
}

/// The output mode beyond the format a result line was asked in (`json_schema`; `None` for
/// plain text and other suites' lines): part of its sample key. Read alone and untyped, as
/// every line's key is made (on `--resume` too); the report reads the whole scores, typed,
/// and refuses a line whose scores do not read.
pub(super) fn mode_of(r: &ResultRecord) -> Option<String> {
    let mode = r.payload.get(KEY)?.get("mode")?.as_str()?;
    (mode != "text").then(|| mode.to_string())
}
