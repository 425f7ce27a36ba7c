//! Reading back a run log to resume it: the metadata, every finished result, and a clean file
//! to append to — a line cut mid-write and an old summary are dropped (with a notice), so the
//! resumed log never holds a sample twice.

use crate::UsageError;
use crate::runlog::{Line, Metadata, ResultRecord};
use anyhow::{Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A run log read back.
pub struct Resumed {
    /// The run log file.
    pub jsonl: PathBuf,
    /// Its metadata line.
    pub metadata: Metadata,
    /// Results kept (all, or all without errors with `--retry-errors`).
    pub kept: Vec<ResultRecord>,
    /// What was dropped and why, for the user.
    pub notices: Vec<String>,
}

/// Finds the run log in `dir` (a `benchmarks/<timestamp>` folder or the `.jsonl` itself).
fn find_log(dir: &Path) -> Result<PathBuf, UsageError> {
    if dir.is_file() {
        return Ok(dir.to_path_buf());
    }
    let logs = crate::runlog::run_logs(dir)
        .map_err(|e| UsageError::new(format!("cannot resume '{}': {e}", dir.display())))?;
    match logs.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(UsageError::new(format!(
            "cannot resume '{}': no .jsonl run log in it",
            dir.display()
        ))),
        _ => Err(UsageError::new(format!(
            "cannot resume '{}': several .jsonl files; pass the one to resume",
            dir.display()
        ))),
    }
}

/// Reads the log in `dir` and rewrites it (atomically) with only its metadata and the kept
/// results, ready for appending.
pub fn load(dir: &Path, retry_errors: bool) -> Result<Resumed> {
    let jsonl = find_log(dir)?;
    let text = std::fs::read_to_string(&jsonl)
        .with_context(|| format!("cannot read '{}'", jsonl.display()))?;
    let mut metadata = None;
    let mut kept = Vec::new();
    let mut notices = Vec::new();
    let mut retried = 0;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for (i, raw) in lines.iter().enumerate() {
        let at = format!("{}:{}", jsonl.display(), i + 1);
        if !raw.ends_with('\n') {
            notices.push(format!(
                "{at}: last line was cut mid-write ({} bytes); dropped, its call runs again",
                raw.len()
            ));
            continue;
        }
        if raw.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Line>(raw) {
            Ok(Line::Metadata(m)) if metadata.is_none() => metadata = Some(*m),
            Ok(Line::Metadata(_)) => notices.push(format!("{at}: second metadata line dropped")),
            Ok(Line::Result(r)) if retry_errors && r.error.is_some() => retried += 1,
            Ok(Line::Result(r)) => kept.push(*r),
            Ok(Line::Summary(_)) => {}
            Err(e) => notices.push(format!(
                "{at}: unreadable line dropped ({e}); its call runs again"
            )),
        }
    }
    let metadata = metadata.ok_or_else(|| {
        UsageError::new(format!(
            "cannot resume '{}': no metadata line",
            jsonl.display()
        ))
    })?;
    // Before the log is rewritten: an imported run keeps its summary and is never continued.
    metadata.refuse_imported("resume", &jsonl)?;
    if retried > 0 {
        notices.push(format!(
            "{retried} failed calls will run again (--retry-errors)"
        ));
    }
    rewrite(&jsonl, &metadata, &kept)?;
    Ok(Resumed {
        jsonl,
        metadata,
        kept,
        notices,
    })
}

/// Writes metadata + results to a temporary file beside the log and renames it over the log.
fn rewrite(path: &Path, metadata: &Metadata, kept: &[ResultRecord]) -> Result<()> {
    let tmp = path.with_extension("jsonl.resume-tmp");
    let mut out = std::io::BufWriter::new(
        std::fs::File::create(&tmp).with_context(|| format!("cannot write '{}'", tmp.display()))?,
    );
    let mut write = |line: &Line| -> Result<()> {
        serde_json::to_writer(&mut out, line)?;
        out.write_all(b"\n")?;
        Ok(())
    };
    write(&Line::Metadata(Box::new(metadata.clone())))?;
    for r in kept {
        write(&Line::Result(Box::new(r.clone())))?;
    }
    let file = out.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot replace '{}'", path.display()))?;
    Ok(())
}

/// Replaces the first line of the run log `jsonl` (its metadata) with `meta`, for a run that
/// grew (a sweep's next size, recommend's next runs) so its log describes every sample it
/// holds. Written to a temporary file and renamed over the log, so a crash leaves the old log
/// or the new one, never half of each; no writer holds the log between steps.
pub fn rewrite_metadata(jsonl: &Path, meta: &Metadata) -> Result<()> {
    let text = std::fs::read_to_string(jsonl)
        .with_context(|| format!("cannot read '{}'", jsonl.display()))?;
    let rest = text.split_once('\n').map_or("", |(_, rest)| rest);
    let line = serde_json::to_string(&Line::Metadata(Box::new(meta.clone())))?;
    let tmp = jsonl.with_extension("jsonl.tmp");
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        std::io::Write::write_all(&mut f, format!("{line}\n{rest}").as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, jsonl)
    };
    write().with_context(|| format!("cannot rewrite the metadata of '{}'", jsonl.display()))
}
