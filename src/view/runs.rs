//! The Runs page (`/`): every run folder under the root, what each asked about and how it
//! ended.

use super::html::{esc, href, link, page, path_of};
use super::respond::AppState;
use super::run_list::Run;
use crate::report::data::RunInfo;
use axum::extract::State as Shared;
use axum::response::{Html, IntoResponse, Response};
use std::path::Path;

/// `GET /`.
pub async fn handler(Shared(s): Shared<AppState>) -> Response {
    Html(page_of(&s.runs, &s.root)).into_response()
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
    // `run_info` refused a metadata line whose suite fields do not read.
    let data = crate::suites::lookup::DataMeta::of(m).ok().flatten();
    let own = crate::suites::panel(&i.suite).runs_line(m);
    if let Some(i) = &m.imported {
        format!("answers imported from {} · {sizes} questions", i.name)
    } else if let Some(d) = &data {
        format!(
            "{} · {} of {} records",
            file(&d.file),
            d.records,
            d.total_records
        )
    } else if let Some(line) = own {
        line
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
