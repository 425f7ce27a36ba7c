//! `bench report`: writes the report of a run (BENCHMARK_REPORT.md, report.html, metrics.json,
//! analytics_results.json, charts) into its artifact folder; `bench run` and `bench rescore`
//! call it at the end.

use crate::UsageError;
use crate::analytics::Analytics;
use crate::cli::ReportArgs;
use crate::dataset::Structure;
use crate::formats::Format;
use crate::report::{self, data};
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

/// The baseline to compare against: the one asked for (which the run must contain), else
/// json_compact, else the run's first format that renders every structure of the run (with a
/// notice), so no data shape is left without comparisons.
fn baseline_for(info: &data::RunInfo, asked: Option<Format>) -> Result<String> {
    let formats: Vec<String> = info
        .metadata
        .formats
        .iter()
        .map(|f| f.name().to_string())
        .collect();
    let has = |f: &str| formats.iter().any(|x| x == f);
    // An imported run compares against its source's own baseline unless told otherwise.
    let source = info.metadata.imported.as_ref().and_then(|i| i.baseline);
    match asked.or(source) {
        Some(f) if has(f.name()) => Ok(f.name().to_string()),
        Some(f) => Err(UsageError::new(format!(
            "--baseline {f}: the run has no such format (it has {})",
            formats.join(", ")
        ))
        .into()),
        None if has(Format::JsonCompact.name()) || formats.is_empty() => {
            Ok(Format::JsonCompact.name().to_string())
        }
        None => {
            let structures: &[Structure] = &info.metadata.structures;
            let everywhere = |f: &&String| {
                Format::from_name(f).is_some_and(|f| structures.iter().all(|&s| f.supports(s)))
            };
            let pick = formats.iter().find(everywhere).unwrap_or(&formats[0]);
            eprintln!(
                "report: the run has no json_compact; comparing against {pick} (--baseline FMT picks another)"
            );
            Ok(pick.clone())
        }
    }
}

/// Writes the report of `run_dir` and prints where it went.
/// `margin` overrides the run's non-inferiority margin.
pub fn write_for_run(run_dir: &Path, baseline: Option<Format>, margin: Option<f64>) -> Result<()> {
    write_for_staged_run(run_dir, baseline, margin, None)
}

/// [`write_for_run`] from the run's log already staged in `staged` when given (`bench run`
/// passes the DuckDB its ranking read).
pub fn write_for_staged_run(
    run_dir: &Path,
    baseline: Option<Format>,
    margin: Option<f64>,
    staged: Option<&Analytics>,
) -> Result<()> {
    let mut info = data::run_info(run_dir)?;
    if let Some(m) = margin {
        info.metadata.margin_pp = Some(m);
    }
    let baseline = baseline_for(&info, baseline)?;
    let written = report::write_staged_report(info, &baseline, staged)?;
    let (charts, files): (Vec<&String>, Vec<&String>) = written
        .files
        .iter()
        .filter(|f| f.as_str() != "BENCHMARK_REPORT.md" && !f.ends_with(".svg"))
        .partition(|f| f.ends_with(".png"));
    let files: Vec<&str> = files.iter().map(|f| f.as_str()).collect();
    let charts = match charts.len() {
        0 => String::new(),
        n => format!(", {n} charts"),
    };
    crate::outln!(
        "report:    {} ({}{charts})",
        written.dir.join("BENCHMARK_REPORT.md").display(),
        files.join(", "),
    )?;
    Ok(())
}

/// `bench report [RUN_DIR|latest]`.
pub fn execute(args: &ReportArgs) -> Result<()> {
    let dir = resolve_run(&args.run, &args.root)?;
    write_for_run(&dir, args.baseline, args.margin)
}
