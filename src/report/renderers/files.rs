//! Writes the report of one run into its artifact folder: BENCHMARK_REPORT.md, report.html,
//! metrics.json, analytics_results.json and charts/ (SVG + PNG).

use super::json;
use crate::analytics::Analytics;
use crate::doc::charts;
use crate::doc::{self, Block};
use crate::report::data::gather::{gather_run, gather_staged};
use crate::report::data::suite;
use crate::report::data::{ReportData, RunInfo, run_info};
use crate::report::decisions::family;
use crate::report::sections::figures::{figures, own_figures};
use crate::report::sections::{self, prompt_wording, verdict, wrong_answers};
use crate::suites::lookup::DataMeta;
use anyhow::{Context, Result};
use rayon::prelude::*;
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
    verdicts: &[family::VerdictRow],
    findings: &[String],
    charts: &[(String, String, charts::Rendered)],
    own: usize,
) -> Vec<Block> {
    let block = |(name, title, r): &(String, String, charts::Rendered)| Block::Chart {
        title: title.clone(),
        png: format!("charts/{name}.png"),
        svg: r.svg.clone(),
    };
    let chart = |stem: &str| {
        charts[own..]
            .iter()
            .filter(|(name, _, _)| name.starts_with(stem))
            .map(block)
            .collect::<Vec<_>>()
    };
    // The charts of the run's suite's own sections, the first `own`.
    let own_charts: Vec<Block> = charts[..own].iter().map(block).collect();
    let mut out = vec![
        Block::Heading(1, title(d)),
        Block::Para(format!(
            "Which format gives the most correct answers per token? Run `{}` of {}.",
            d.run.metadata.benchmark_id, d.run.metadata.timestamp
        )),
    ];
    if family::all_wrong(d) {
        out.push(Block::Para(family::ALL_WRONG.into()));
    }
    // The run's suite's own sections, handed the same facts.
    let sections_own = suite::sections(&d.run);
    let facts = d.facts();
    // A suite's own verdict replaces the formats' (a write run's is about output tokens per
    // exact document, not data tokens) and places its charts.
    match sections_own.and_then(|s| s.verdict) {
        Some(own_verdict) => out.extend(own_verdict(&facts, own_charts)),
        None => {
            out.extend(verdict::verdict(d, verdicts, findings));
            out.extend(own_charts);
            out.extend(chart("accuracy_vs_tokens"));
        }
    }
    out.extend(sections::setup::setup(d));
    out.extend(sections::ranking::ranking(d));
    out.extend(chart("weighted_accuracy"));
    if let Some(after_ranking) = sections_own.and_then(|s| s.after_ranking) {
        out.extend(after_ranking(&facts));
    }
    out.extend(sections::ranking::comparisons(d));
    out.extend(prompt_wording::section(d));
    if let Some(evidence) = sections_own.and_then(|s| s.evidence) {
        out.extend(evidence(&facts));
    }
    out.extend(sections::tokens(d));
    out.extend(chart("tokens_per_format"));
    out.extend(sections::categories(d));
    out.extend(chart("category_heatmap"));
    out.extend(sections::tables(d));
    out.extend(wrong_answers::section(d));
    if d.scaling.is_some() {
        out.extend(chart("accuracy_vs_records"));
    }
    out.extend(sections::methodology(d));
    out
}

/// A report built in memory: its charts (file stem, caption, drawing), verdicts, findings,
/// document and title.
struct Built {
    d: ReportData,
    charts: Vec<(String, String, charts::Rendered)>,
    verdicts: Vec<family::VerdictRow>,
    findings: Vec<String>,
    blocks: Vec<Block>,
    title: String,
}

/// Gathers the run's data (from `staged` when given, else from its log) and builds its report,
/// writing nothing.
fn build(run: RunInfo, baseline: &str, staged: Option<&Analytics>) -> Result<Built> {
    let d = match staged {
        Some(a) => gather_staged(run, baseline, a)?,
        None => gather_run(run, baseline)?,
    };
    // The charts on every core (each is drawn twice and deflated: a tenth of a report's time);
    // collect keeps their order.
    let mut all = own_figures(&d);
    let own = all.len();
    all.extend(figures(&d));
    let rendered = all
        .into_par_iter()
        .map(|f| {
            let r =
                charts::render(&f.chart).with_context(|| format!("drawing chart {}", f.name))?;
            Ok((f.name, f.title, r))
        })
        .collect::<Result<Vec<_>>>()?;
    let verdicts = family::verdict_rows(&d);
    let findings = verdict::findings(&d, &verdicts);
    let blocks = document(&d, &verdicts, &findings, &rendered, own);
    let title = format!(
        "bench report — {} — {}",
        d.run.suite, d.run.metadata.benchmark_id
    );
    Ok(Built {
        d,
        charts: rendered,
        verdicts,
        findings,
        blocks,
        title,
    })
}

/// The report.html of the run folder `run_dir` as a String (charts inline as SVG), computed
/// as [`write_report`] does but writing nothing: what `bench view` serves.
pub fn html_of(run_dir: &Path, baseline: &str) -> Result<String> {
    let b = build(run_info(run_dir)?, baseline, None)?;
    Ok(doc::html(&b.title, &b.blocks))
}

/// Writes the report of the run folder `run_dir` with `baseline` as the comparisons' baseline.
pub fn write_report(run_dir: &Path, baseline: &str) -> Result<Written> {
    write_run_report(run_info(run_dir)?, baseline)
}

/// [`write_report`] for a run whose log lines were already read.
pub fn write_run_report(run: RunInfo, baseline: &str) -> Result<Written> {
    write_staged_report(run, baseline, None)
}

/// [`write_run_report`] from the run's log already staged in `staged` when given (`bench run`
/// passes the DuckDB its summary's ranking read: the log is parsed once, not twice).
pub fn write_staged_report(
    run: RunInfo,
    baseline: &str,
    staged: Option<&Analytics>,
) -> Result<Written> {
    let b = build(run, baseline, staged)?;
    let dir = b.d.run.dir.join(&b.d.run.suite);
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
    for (name, _, r) in &b.charts {
        write(&chart_dir.join(format!("{name}.svg")), &r.svg)?;
        write(&chart_dir.join(format!("{name}.png")), &r.png)?;
        files.push(format!("charts/{name}.svg"));
        files.push(format!("charts/{name}.png"));
    }
    for (name, text) in [
        ("BENCHMARK_REPORT.md", doc::markdown(&b.blocks)),
        ("report.html", doc::html(&b.title, &b.blocks)),
    ] {
        write(&dir.join(name), text)?;
        files.push(name.into());
    }
    for (name, value) in [
        ("metrics.json", json::metrics(&b.d)),
        (
            "analytics_results.json",
            json::analytics_results(&b.d, &b.verdicts, &b.findings),
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

/// `bench report — `formats` suite`, with the data set's own name when it is a user's file:
/// `` `formats` suite over `orders.csv` ``.
fn title(d: &ReportData) -> String {
    // `run_info` refused a metadata line whose `--data` field does not read.
    match DataMeta::of(&d.run.metadata).ok().flatten() {
        Some(data) => format!(
            "bench report — `{}` suite over `{}`",
            d.run.suite,
            data.file.file_name().map_or_else(
                || data.file.display().to_string(),
                |n| n.to_string_lossy().into()
            )
        ),
        None => format!("bench report — `{}` suite", d.run.suite),
    }
}
