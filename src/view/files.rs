//! A run's report, computed live from the views (`report::html_of`), and its artifact files,
//! read-only: a path is served only when, symlinks resolved, it lies inside the run's artifact
//! folder under the root.

use super::html;
use super::respond::{AppState, blocking, failure};
use super::state::State;
use axum::extract::{Path as UrlPath, State as Shared};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::path::{Path, PathBuf};

/// `GET /report/<run>/`: the run's report.
pub async fn report_page(Shared(s): Shared<AppState>, UrlPath(run): UrlPath<String>) -> Response {
    blocking(move || report(&s, &run)).await
}

/// `GET /report/<run>`: to `/report/<run>/`, so the report's relative links resolve.
pub async fn report_redirect(UrlPath(run): UrlPath<String>) -> Response {
    let to = html::path_of(&["report", &run, ""]);
    (StatusCode::PERMANENT_REDIRECT, [(header::LOCATION, to)]).into_response()
}

/// `GET /report/<run>/<path>`: a file of the run's artifacts (a chart, a response).
pub async fn artifact_file(
    Shared(s): Shared<AppState>,
    UrlPath((run, rel)): UrlPath<(String, String)>,
) -> Response {
    let got = tokio::task::spawn_blocking(move || artifact(&s, &run, &rel)).await;
    match got {
        Ok(Ok((path, bytes))) => (
            [
                (header::CONTENT_TYPE, content_type(&path)),
                // A file from a run folder never runs script in the viewer's origin.
                (
                    header::CONTENT_SECURITY_POLICY,
                    "sandbox; default-src 'none'; style-src 'unsafe-inline'",
                ),
            ],
            bytes,
        )
            .into_response(),
        Ok(Err((status, why))) => failure(status, &why),
        Err(e) => failure(500, &e.to_string()),
    }
}

/// The report of run `name` as HTML, or (status, one-line reason).
pub fn report(state: &State, name: &str) -> Result<String, (u16, String)> {
    let run = state
        .run(name)
        .ok_or_else(|| (404, format!("no run folder '{name}' under the root")))?;
    let info = run.info.as_ref().map_err(|e| (404, e.clone()))?;
    let formats: Vec<&str> = info.metadata.formats.iter().map(|f| f.name()).collect();
    // As `bench report` picks it: json_compact when the run has it, else its first format.
    let baseline = if formats.contains(&"json_compact") || formats.is_empty() {
        "json_compact"
    } else {
        formats[0]
    };
    if let Some(html) = state
        .reports
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(name)
    {
        return Ok(html.clone());
    }
    let html = crate::report::html_of(&run.dir, baseline).map_err(|e| (500, format!("{e:#}")))?;
    state
        .reports
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(name.to_string(), html.clone());
    Ok(html)
}

/// The artifact file `rel` of run `name`, after the checks; (status, reason) when refused.
pub fn artifact(state: &State, name: &str, rel: &str) -> Result<(PathBuf, Vec<u8>), (u16, String)> {
    let run = state
        .run(name)
        .ok_or_else(|| (404, format!("no run folder '{name}' under the root")))?;
    let base = run
        .artifacts()
        .ok_or_else(|| (404, format!("the log of '{name}' does not read")))?;
    let target = inside(&state.root, &base, rel)?;
    let bytes = std::fs::read(&target).map_err(|e| (404, format!("cannot read '{rel}': {e}")))?;
    Ok((target, bytes))
}

/// `base/rel`, canonical, when it exists and lies inside both `base` and `root`.
pub fn inside(root: &Path, base: &Path, rel: &str) -> Result<PathBuf, (u16, String)> {
    let refuse = || (403, format!("'{rel}' is outside the run's folder"));
    // Refused as written, before the file system is asked (which would tell what exists).
    let parent = |c: std::path::Component| matches!(c, std::path::Component::ParentDir);
    if Path::new(rel).is_absolute() || Path::new(rel).components().any(parent) {
        return Err(refuse());
    }
    let base = base
        .canonicalize()
        .map_err(|e| (404, format!("no artifact folder: {e}")))?;
    let target = base
        .join(rel)
        .canonicalize()
        .map_err(|_| (404, format!("no file '{rel}' in the run's folder")))?;
    if !target.starts_with(&base) || !target.starts_with(root) {
        return Err(refuse());
    }
    if !target.is_file() {
        return Err((404, format!("'{rel}' is not a file")));
    }
    Ok(target)
}

/// The content type of a served file, by extension (text shown as plain text, never as HTML
/// from a log's folder, except the report bench wrote itself).
pub fn content_type(path: &Path) -> &'static str {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
    {
        "png" => "image/png",
        "svg" => "image/svg+xml",
        "json" => "application/json; charset=utf-8",
        _ => "text/plain; charset=utf-8",
    }
}
