//! Writing a run's report and saying where it went: the baseline it compares against (the one
//! asked for, the source's for an imported run, else json_compact or the first format that
//! renders every structure). `bench report`, `run`, `rescore`, `merge`, `sweep` and
//! `recommend` call it.

use crate::UsageError;
use crate::analytics::Analytics;
use crate::dataset::Structure;
use crate::formats::Format;
use crate::report::{self, data};
use anyhow::Result;
use std::path::Path;

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
