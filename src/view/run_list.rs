//! The run folders under the root, read once at start: what each asked about and how it
//! ended (the Runs page, `runs.rs`, lists them).

use crate::report::data::{RunInfo, run_info};
use std::path::{Path, PathBuf};

/// One run folder, `<root>/benchmarks/<name>`.
pub struct Run {
    /// The folder's name (the run's URL key).
    pub name: String,
    /// The folder.
    pub dir: PathBuf,
    /// Its log's metadata and summary, or why they could not be read.
    pub info: Result<RunInfo, String>,
    /// The formats the run's report recommends (its analytics_results.json), if written.
    pub recommended: Vec<String>,
}

impl Run {
    /// The suite (the log's stem), when the log reads.
    pub fn suite(&self) -> Option<&str> {
        self.info.as_ref().ok().map(|i| i.suite.as_str())
    }

    /// The run's artifact folder, `<dir>/<suite>`.
    pub fn artifacts(&self) -> Option<PathBuf> {
        self.suite().map(|s| self.dir.join(s))
    }
}

/// Every run folder under `root/benchmarks`, newest first; one that does not read is listed
/// with the reason.
pub fn scan(root: &Path) -> Vec<Run> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("benchmarks"))
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs.reverse();
    dirs.into_iter()
        .map(|dir| {
            let name = dir
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let info = run_info(&dir).map_err(|e| format!("{e:#}"));
            let recommended = info
                .as_ref()
                .map(|i| recommended(&dir.join(&i.suite)))
                .unwrap_or_default();
            Run {
                name,
                dir,
                info,
                recommended,
            }
        })
        .collect()
}

/// The distinct `recommendation`s of a report's verdict rows, in order.
fn recommended(artifacts: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(artifacts.join("analytics_results.json")) else {
        return Vec::new();
    };
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    let mut out: Vec<String> = Vec::new();
    for v in doc["verdict"].as_array().into_iter().flatten() {
        if let Some(r) = v["recommendation"].as_str()
            && !out.iter().any(|o| o == r)
        {
            out.push(r.to_string());
        }
    }
    out
}
