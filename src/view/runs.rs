//! The run folders under the root, read once at start: what each asked about and how it ended,
//! and the Runs page that lists them.

use super::html::{esc, href, link, page, path_of};
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

/// What the run asked about: the data file, the task file, the write cases or the product
/// records of a seed, and its sizes.
fn data_of(i: &RunInfo) -> String {
    let m = &i.metadata;
    let sizes = m
        .records
        .iter()
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let file = |p: &Path| {
        p.file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned()
    };
    if let Some(i) = &m.imported {
        format!("answers imported from {} · {sizes} questions", i.name)
    } else if let Some(d) = &m.data {
        format!(
            "{} · {} of {} records",
            file(&d.file),
            d.records,
            d.total_records
        )
    } else if let Some(t) = &m.tasks {
        format!("{} · {} tasks", file(&t.file), t.ids.len())
    } else if let Some(w) = &m.write {
        format!("write · {} cases", w.cases.len())
    } else {
        format!("products seed {} · {sizes} records", m.seed)
    }
}

/// complete, interrupted, shard K/N, rescored.
fn status_of(i: &RunInfo) -> String {
    let m = &i.metadata;
    let mut s = match &i.summary {
        None => "interrupted (no summary line)".to_string(),
        Some(_) if i.stopped_early().is_some() => "interrupted".into(),
        Some(_) => "complete".into(),
    };
    if let Some(sh) = &m.shard {
        s.push_str(&format!(" · shard {}/{}", sh.index, sh.of));
    }
    if let Some(r) = &m.rescored_from {
        s.push_str(&format!(" · rescored from {}", r.run));
    }
    if let Some(i) = &m.imported {
        s.push_str(&format!(
            " · answers imported from {}, not produced by bench",
            i.name
        ));
    }
    s
}

/// The Runs page: one `<tr data-run=NAME>` per run folder in `table#runs`.
pub fn page_of(runs: &[Run], root: &Path) -> String {
    let mut body = format!(
        "<h1>Runs</h1><p class=\"note\">{} run folders under {}</p>\
         <table id=\"runs\"><thead><tr><th>run</th><th>suite</th><th>data</th><th>models</th>\
         <th>formats</th><th>date</th><th>status</th><th>recommended</th><th>pages</th></tr></thead><tbody>",
        runs.len(),
        esc(&root.join("benchmarks").display().to_string())
    );
    for r in runs {
        let answers = href("/answers", &[("run", &r.name)]);
        let failed = href("/answers", &[("run", &r.name), ("passed", "false")]);
        let report = esc(&path_of(&["report", &r.name, ""]));
        let compare = href("/compare", &[("a", &r.name)]);
        let cells = match &r.info {
            Ok(i) => {
                let m = &i.metadata;
                let models: Vec<String> = m
                    .providers
                    .iter()
                    .map(|p| format!("{}:{}", p.provider, p.model))
                    .collect();
                let formats: Vec<&str> = m.formats.iter().map(|f| f.name()).collect();
                let rec = if r.recommended.is_empty() {
                    "– (no report written)".to_string()
                } else {
                    r.recommended.join(", ")
                };
                format!(
                    "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
                    esc(&i.suite),
                    esc(&data_of(i)),
                    esc(&models.join(", ")),
                    esc(&formats.join(", ")),
                    esc(&m.timestamp),
                    esc(&status_of(i)),
                    esc(&rec)
                )
            }
            Err(e) => format!(
                "<td colspan=\"7\" class=\"error\">unreadable: {}</td>",
                esc(e)
            ),
        };
        body.push_str(&format!(
            "<tr data-run=\"{name}\"><td>{link}</td>{cells}<td><a href=\"{report}\">report</a> · \
             <a href=\"{failed}\">failed</a> · <a href=\"{compare}\">compare</a></td></tr>",
            name = esc(&r.name),
            link = link(&answers, &r.name),
        ));
    }
    body.push_str("</tbody></table>");
    page("bench view — runs", &body)
}
