//! Finds the run logs under a root and the lines DuckDB will skip, so they can be named.

use anyhow::{Result, bail};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

/// A line of a run log that is not valid JSON (a crash mid-write leaves one).
#[derive(Debug, Clone, PartialEq)]
pub struct BadLine {
    /// The file.
    pub file: PathBuf,
    /// 1-based line number.
    pub line: usize,
}

/// Lists `root/benchmarks/*/*.jsonl` and the lines in them that do not parse. Fails with a hint
/// when there is no run log at all.
pub fn scan_runs(root: &Path) -> Result<(Vec<PathBuf>, Vec<BadLine>)> {
    scan_logs(root, None)
}

/// [`scan_runs`] over one run folder of `root` (`run`, its name) when given.
pub fn scan_logs(root: &Path, run: Option<&str>) -> Result<(Vec<PathBuf>, Vec<BadLine>)> {
    let dir = root.join("benchmarks");
    let mut files = Vec::new();
    if let Ok(runs) = std::fs::read_dir(&dir) {
        let chosen = |p: &PathBuf| run.is_none_or(|n| p.file_name().is_some_and(|f| f == n));
        for run in runs
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir() && chosen(p))
        {
            if let Ok(entries) = std::fs::read_dir(&run) {
                files.extend(
                    entries
                        .flatten()
                        .map(|e| e.path())
                        .filter(|p| p.extension().is_some_and(|x| x == "jsonl")),
                );
            }
        }
    }
    if files.is_empty() {
        bail!(crate::UsageError::new(format!(
            "no runs under {} — run `bench run` first",
            dir.display()
        )));
    }
    files.sort();
    let mut bad = Vec::new();
    for file in &files {
        let reader = BufReader::new(std::fs::File::open(file)?);
        for (i, line) in reader.split(b'\n').enumerate() {
            let line = line?;
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            if serde_json::from_slice::<serde::de::IgnoredAny>(&line).is_err() {
                bad.push(BadLine {
                    file: file.clone(),
                    line: i + 1,
                });
            }
        }
    }
    Ok((files, bad))
}
