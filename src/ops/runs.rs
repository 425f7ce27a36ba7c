//! Which run a command means: `latest`, `latest~N`, a run folder or its run log, resolved
//! under a root's `benchmarks/` (every command that reads a run takes these names), and the
//! views opened on them with a warning for each line DuckDB will skip.

use crate::UsageError;
use crate::analytics::{Analytics, VIEWS_SQL, run_location, scan_logs};
use crate::report::data;
use anyhow::Result;
use std::path::{Path, PathBuf};

/// The newest run folder under `root/benchmarks` (names are timestamps; `_N` suffixes of runs
/// started in the same second sort numerically).
pub fn latest_run(root: &Path) -> Result<PathBuf> {
    nth_latest(root, 0)
}

/// The `n`-th run folder before the newest under `root/benchmarks` (0: the newest).
pub fn nth_latest(root: &Path, n: usize) -> Result<PathBuf> {
    let dir = root.join("benchmarks");
    let key = |p: &Path| {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match name.rsplit_once('_') {
            Some((stamp, n)) if n.bytes().all(|b| b.is_ascii_digit()) && !n.is_empty() => {
                (stamp.to_string(), n.parse::<u64>().unwrap_or(0))
            }
            _ => (name, 1),
        }
    };
    let mut runs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .ok()
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| data::run_log(p).is_ok())
        .collect();
    runs.sort_by_key(|p| std::cmp::Reverse(key(p)));
    let count = runs.len();
    runs.into_iter().nth(n).ok_or_else(|| {
        let why = if count == 0 {
            format!("no runs under {} — run `bench run` first", dir.display())
        } else {
            format!(
                "latest~{n} needs {} runs under {}, and there are {count}",
                n + 1,
                dir.display()
            )
        };
        UsageError::new(why).into()
    })
}

/// `latest` or `latest~N` resolved under `root`; any other path as given (the command checks it).
pub fn latest_or(path: &Path, root: &Path) -> Result<PathBuf> {
    match path.to_str() {
        Some(s) if s == "latest" || s.starts_with("latest~") => resolve_run(s, root),
        _ => Ok(path.to_path_buf()),
    }
}

/// A run named on the command line: `latest`, `latest~N`, a run folder or its run log.
pub fn resolve_run(spec: &str, root: &Path) -> Result<PathBuf> {
    let back = match spec {
        "latest" => Some(0),
        s => s
            .strip_prefix("latest~")
            .map(|n| {
                n.parse::<usize>().map_err(|_| {
                    UsageError::new(format!("'{spec}': expected latest~N with N a whole number"))
                })
            })
            .transpose()?,
    };
    if let Some(n) = back {
        return nth_latest(root, n);
    }
    let p = PathBuf::from(spec);
    // A run log file names its folder.
    let dir = if p.extension().is_some_and(|x| x == "jsonl") {
        p.parent().map(Path::to_path_buf).unwrap_or(p)
    } else {
        p
    };
    if !dir.is_dir() {
        return Err(UsageError::new(format!(
            "'{}' is not a run folder (expected data/benchmarks/<timestamp>, `latest` or `latest~N`)",
            dir.display()
        ))
        .into());
    }
    Ok(dir)
}

/// Opens the views (compiled-in or from `views`) on `root`, or on the one run `run` names
/// (`latest`, `latest~N`, a run folder or its log), after printing one warning per line
/// DuckDB will skip.
pub fn open_warned(root: &Path, run: Option<&str>, views: Option<&Path>) -> Result<Analytics> {
    let run_dir = run.map(|spec| resolve_run(spec, root)).transpose()?;
    let (root, name): (PathBuf, Option<String>) = match &run_dir {
        Some(dir) => {
            let (root, name) = run_location(dir)?;
            (root.to_path_buf(), Some(name.to_string()))
        }
        None => (root.to_path_buf(), None),
    };
    let (logs, bad) = scan_logs(&root, name.as_deref())?;
    // An empty log among others is skipped with a warning; the one log asked for is an error.
    for e in logs.iter().filter_map(|l| crate::runlog::holds_no_lines(l)) {
        if name.is_some() {
            return Err(e.into());
        }
        eprintln!("warning: {e} (skipped)");
    }
    for b in &bad {
        eprintln!(
            "warning: {}:{}: truncated or corrupt line skipped",
            b.file.display(),
            b.line
        );
    }
    let (sql, origin) = match views {
        None => (VIEWS_SQL.to_string(), "sql/views.sql".to_string()),
        Some(path) => {
            let sql = crate::bundle::read_to_string(path).map_err(|e| {
                UsageError::new(format!("cannot read views file '{}': {e}", path.display()))
            })?;
            (sql, path.display().to_string())
        }
    };
    Analytics::open_scoped(&root, name.as_deref(), &sql, &origin)
}
