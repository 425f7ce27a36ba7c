//! A run folder as a report reads it: its one run log, that log's typed metadata line and its
//! summary line, read without going through the log.

use crate::runlog::{Line, Metadata, SummaryRecord};
use anyhow::{Context, Result};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A run as its report reads it: the typed metadata line and the summary line.
#[derive(Debug, Clone)]
pub struct RunInfo {
    /// The run folder.
    pub dir: PathBuf,
    /// Suite name (the JSONL file stem).
    pub suite: String,
    /// The metadata line.
    pub metadata: Metadata,
    /// The summary line's `data` object; None while a run is going or after a crash.
    pub summary: Option<Map<String, Value>>,
}

impl RunInfo {
    /// Category weights from the metadata, by category name.
    pub fn weights(&self) -> BTreeMap<String, f64> {
        self.metadata
            .weights
            .as_object()
            .map(|o| {
                o.iter()
                    .filter_map(|(k, v)| v.as_f64().map(|w| (k.clone(), w)))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The non-inferiority margin the report decides with, percentage points: the run's
    /// `--margin` (or `bench report --margin`), else the default.
    pub fn margin_pp(&self) -> f64 {
        self.metadata
            .margin_pp
            .unwrap_or(crate::stats::DEFAULT_MARGIN_PP)
    }

    /// Why the numbers cover only part of the plan, if they do: a run stopped early (Ctrl-C,
    /// budget) or with no summary line (still going, or killed).
    pub fn incomplete(&self) -> Option<String> {
        match &self.summary {
            None => {
                Some("its log has no summary line (the run is still going, or was killed)".into())
            }
            Some(_) => self
                .stopped_early()
                .map(|why| format!("it stopped early ({why})")),
        }
    }

    /// Why the run stopped early, when its summary line (read as the typed [`SummaryRecord`])
    /// says it did: its `stop_reason`, else `interrupted`. None for a run that ran to its
    /// end or has no summary line.
    pub fn stopped_early(&self) -> Option<String> {
        let s = SummaryRecord::deserialize(self.summary.as_ref()?).ok()?;
        s.interrupted
            .then(|| s.stop_reason.unwrap_or_else(|| "interrupted".into()))
    }
}

/// The JSONL run log of a run folder (the one `.jsonl` file in it).
pub fn run_log(dir: &Path) -> Result<PathBuf> {
    let mut logs = crate::runlog::run_logs(dir)
        .with_context(|| format!("cannot read run folder '{}'", dir.display()))?;
    match logs.len() {
        0 => Err(crate::UsageError::new(format!(
            "'{}' has no run log (*.jsonl); is it a data/benchmarks/<timestamp> folder?",
            dir.display()
        ))
        .into()),
        1 => Ok(logs.remove(0)),
        _ => Err(crate::UsageError::new(format!(
            "'{}' holds {} run logs; a run folder holds one",
            dir.display(),
            logs.len()
        ))
        .into()),
    }
}

/// Reads the metadata line (the first line) and the summary line (the last, if it is one) of a
/// run folder's log, streaming it so a large log is never held in memory.
pub fn run_info(dir: &Path) -> Result<RunInfo> {
    use std::io::BufRead;
    let log = run_log(dir)?;
    if let Some(e) = crate::runlog::holds_no_lines(&log) {
        return Err(e.into());
    }
    let file =
        std::fs::File::open(&log).with_context(|| format!("cannot read '{}'", log.display()))?;
    let mut lines = std::io::BufReader::new(file).lines();
    let first = lines
        .next()
        .transpose()
        .with_context(|| format!("cannot read '{}'", log.display()))?
        .unwrap_or_default();
    let line: Value = serde_json::from_str(&first)
        .with_context(|| format!("{}:1: not a JSON line", log.display()))?;
    if line.get("type").and_then(Value::as_str) != Some("metadata") {
        return Err(crate::UsageError::new(format!(
            "{}:1: the first line is not a metadata line",
            log.display()
        ))
        .into());
    }
    let read = serde_json::from_value::<Line>(line).map_err(anyhow::Error::from);
    // A suite's own fields are read by the suite: checked here, so readers may take them as read.
    let read = read.and_then(|l| match l {
        Line::Metadata(m) => crate::suites::check_own(&m).map(|()| m),
        _ => unreachable!("a line of type metadata reads as one"),
    });
    let metadata = match read {
        Ok(m) => *m,
        Err(e) => {
            return Err(crate::UsageError::new(format!(
                "{}:1: the metadata line does not read: {e}",
                log.display()
            ))
            .into());
        }
    };
    // Read from the end: a log of millions of answers is not read through for its last line.
    let last = crate::runlog::last_line(&log)
        .with_context(|| format!("cannot read '{}'", log.display()))?
        .filter(|(at, _)| *at > 0)
        .map(|(_, l)| l);
    let summary = last
        .and_then(|l| serde_json::from_str::<Value>(&l).ok())
        .filter(|l| l.get("type").and_then(Value::as_str) == Some("summary"))
        .and_then(|l| l.get("data").and_then(Value::as_object).cloned());
    Ok(RunInfo {
        summary,
        dir: dir.to_path_buf(),
        suite: log
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        metadata,
    })
}
