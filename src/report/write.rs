//! Writes the report of one run into its artifact folder: BENCHMARK_REPORT.md, report.html,
//! metrics.json, analytics_results.json and charts/ (SVG + PNG).

use super::charts;
use super::data::{ReportData, RunInfo, gather_run, run_info};
use super::doc::{self, Block};
use super::figures::figures;
use super::{corrupted, wording};
use super::{json, sections, verdict};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// What a report wrote.
#[derive(Debug, Clone)]
pub struct Written {
    /// The artifact folder the files are in.
    pub dir: PathBuf,
    /// Every file written, relative to `dir`.
    pub files: Vec<String>,
}

fn write(path: &Path, bytes: impl AsRef<[u8]>) -> Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("cannot write '{}'", path.display()))
}

/// The document: verdict first, then the evidence.
fn document(
    d: &ReportData,
    verdicts: &[verdict::VerdictRow],
    findings: &[String],
    charts: &[(String, String, String)],
) -> Vec<Block> {
    let chart = |stem: &str| {
        charts
            .iter()
            .filter(|(name, _, _)| name.starts_with(stem))
            .map(|(name, title, svg)| Block::Chart {
                title: title.clone(),
                png: format!("charts/{name}.png"),
                svg: svg.clone(),
            })
            .collect::<Vec<_>>()
    };
    let mut out = vec![
        Block::Heading(1, format!("bench report — `{}` suite", d.run.suite)),
        Block::Para(format!(
            "Which format gives the most correct answers per token? Run `{}` of {}.",
            d.run.metadata.benchmark_id, d.run.metadata.timestamp
        )),
    ];
    match &d.write {
        // A write run's verdict is about output tokens per exact document, not data tokens.
        Some(t) => out.extend(super::writing::section(
            d,
            t,
            chart("write_exact_vs_tokens"),
        )),
        None => {
            out.extend(verdict::verdict(d, verdicts, findings));
            out.extend(chart("accuracy_vs_tokens"));
        }
    }
    out.extend(sections::setup(d));
    out.extend(sections::ranking(d));
    out.extend(chart("weighted_accuracy"));
    out.extend(sections::tasks(d));
    out.extend(sections::comparisons(d));
    out.extend(wording::section(d));
    out.extend(corrupted::section(d));
    out.extend(sections::tokens(d));
    out.extend(chart("tokens_per_format"));
    out.extend(sections::categories(d));
    out.extend(chart("category_heatmap"));
    out.extend(sections::tables(d));
    if d.scaling.is_some() {
        out.extend(chart("accuracy_vs_records"));
    }
    out.extend(sections::methodology(d));
    out
}

/// The report.html of the run folder `run_dir` as a String, computed from the views as
/// [`write_report`] does (charts inline as SVG), writing nothing: what `bench view` serves.
pub fn html_of(run_dir: &Path, baseline: &str) -> Result<String> {
    let d = gather_run(run_info(run_dir)?, baseline)?;
    let mut rendered = Vec::new();
    for f in figures(&d) {
        let r = charts::render(&f.chart).with_context(|| format!("drawing chart {}", f.name))?;
        rendered.push((f.name, f.title, r.svg));
    }
    let verdicts = verdict::verdict_rows(&d);
    let findings = verdict::findings(&d, &verdicts);
    let blocks = document(&d, &verdicts, &findings, &rendered);
    let title = format!(
        "bench report — {} — {}",
        d.run.suite, d.run.metadata.benchmark_id
    );
    Ok(doc::html(&title, &blocks))
}

/// Writes the report of the run folder `run_dir` with `baseline` as the comparisons' baseline.
pub fn write_report(run_dir: &Path, baseline: &str) -> Result<Written> {
    write_run_report(run_info(run_dir)?, baseline)
}

/// [`write_report`] for a run whose log lines were already read.
pub fn write_run_report(run: RunInfo, baseline: &str) -> Result<Written> {
    let d = gather_run(run, baseline)?;
    let dir = d.run.dir.join(&d.run.suite);
    let chart_dir = dir.join("charts");
    std::fs::create_dir_all(&chart_dir)
        .with_context(|| format!("cannot create '{}'", chart_dir.display()))?;
    // Charts of an earlier report of this run (another baseline or bench version) would
    // otherwise linger beside the new ones.
    for old in std::fs::read_dir(&chart_dir)?.flatten().map(|e| e.path()) {
        if old.extension().is_some_and(|x| x == "svg" || x == "png") {
            std::fs::remove_file(&old)
                .with_context(|| format!("cannot replace '{}'", old.display()))?;
        }
    }
    let mut files = Vec::new();
    let mut rendered = Vec::new();
    for f in figures(&d) {
        let r = charts::render(&f.chart).with_context(|| format!("drawing chart {}", f.name))?;
        write(&chart_dir.join(format!("{}.svg", f.name)), &r.svg)?;
        write(&chart_dir.join(format!("{}.png", f.name)), &r.png)?;
        files.push(format!("charts/{}.svg", f.name));
        files.push(format!("charts/{}.png", f.name));
        rendered.push((f.name, f.title, r.svg));
    }
    let verdicts = verdict::verdict_rows(&d);
    let findings = verdict::findings(&d, &verdicts);
    let blocks = document(&d, &verdicts, &findings, &rendered);
    let title = format!(
        "bench report — {} — {}",
        d.run.suite, d.run.metadata.benchmark_id
    );
    for (name, text) in [
        ("BENCHMARK_REPORT.md", doc::markdown(&blocks)),
        ("report.html", doc::html(&title, &blocks)),
    ] {
        write(&dir.join(name), text)?;
        files.push(name.into());
    }
    for (name, value) in [
        ("metrics.json", json::metrics(&d)),
        (
            "analytics_results.json",
            json::analytics_results(&d, &verdicts, &findings),
        ),
    ] {
        write(
            &dir.join(name),
            serde_json::to_string_pretty(&value)? + "\n",
        )?;
        files.push(name.into());
    }
    Ok(Written { dir, files })
}
