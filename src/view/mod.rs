//! `bench view`: a local web app over a root's run logs. Server-rendered pages (plain HTML, a
//! little inline CSS and JS compiled in; no network, no CDN), one URL per page so each can be
//! bookmarked: `/` the runs, `/answers?…` the answers filtered, `/answer?…` one answer,
//! `/report/<run>/` a run's report, `/compare?a=…&b=…` two runs. Every route is GET: nothing
//! the server offers writes.

mod answer;
mod answers;
mod compare;
mod files;
mod html;
mod runs;
mod state;
mod store;
mod suites;

use anyhow::{Context, Result};
use axum::Router;
use axum::extract::{Path as UrlPath, Query, State as Shared};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

pub use state::State;

type AppState = Arc<State>;

/// A page that failed: its status and one line saying why, as a small HTML page.
fn failure(status: u16, why: &str) -> Response {
    let code = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let body = html::page(
        "bench view — error",
        &format!(
            "<h1>{}</h1><p class=\"error\" id=\"error\">{}</p>",
            code,
            html::esc(why)
        ),
    );
    (code, Html(body)).into_response()
}

/// Runs blocking work (DuckDB, file reads) off the async workers.
async fn blocking<F>(f: F) -> Response
where
    F: FnOnce() -> Result<String, (u16, String)> + Send + 'static,
{
    match tokio::task::spawn_blocking(f).await {
        Ok(Ok(body)) => Html(body).into_response(),
        Ok(Err((status, why))) => failure(status, &why),
        Err(e) => failure(500, &format!("the page failed: {e}")),
    }
}

async fn runs_page(Shared(s): Shared<AppState>) -> Response {
    Html(runs::page_of(&s.runs, &s.root)).into_response()
}

async fn answers_page(Shared(s): Shared<AppState>, Query(f): Query<answers::Filter>) -> Response {
    blocking(move || answers::page_of(&s, &f).map_err(|e| (400, e))).await
}

async fn answer_page(Shared(s): Shared<AppState>, Query(k): Query<answer::Key>) -> Response {
    blocking(move || answer::page_of(&s, &k)).await
}

async fn compare_page(Shared(s): Shared<AppState>, Query(p): Query<compare::Pick>) -> Response {
    blocking(move || compare::page_of(&s, &p)).await
}

async fn report_page(Shared(s): Shared<AppState>, UrlPath(run): UrlPath<String>) -> Response {
    blocking(move || files::report(&s, &run)).await
}

async fn report_redirect(UrlPath(run): UrlPath<String>) -> Response {
    let to = html::path_of(&["report", &run, ""]);
    (StatusCode::PERMANENT_REDIRECT, [(header::LOCATION, to)]).into_response()
}

async fn artifact(
    Shared(s): Shared<AppState>,
    UrlPath((run, rel)): UrlPath<(String, String)>,
) -> Response {
    let got = tokio::task::spawn_blocking(move || files::artifact(&s, &run, &rel)).await;
    match got {
        Ok(Ok((path, bytes))) => (
            [
                (header::CONTENT_TYPE, files::content_type(&path)),
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

/// `name` percent-encoded as one URL path segment (a run folder's name in `/report/<run>/`).
pub fn segment(name: &str) -> String {
    html::path_of(&[name])[1..].to_string()
}

/// The routes over a loaded state.
pub fn router(state: State) -> Router {
    Router::new()
        .route("/", get(runs_page))
        .route("/answers", get(answers_page))
        .route("/answer", get(answer_page))
        .route("/compare", get(compare_page))
        .route("/report/{run}", get(report_redirect))
        .route("/report/{run}/", get(report_page))
        .route("/report/{run}/{*path}", get(artifact))
        // Browsers ask every site for an icon; "none" is an answer, a 404 is a console error.
        .route(
            "/favicon.ico",
            get(|| async { axum::http::StatusCode::NO_CONTENT }),
        )
        .fallback(|| async { failure(404, "no such page") })
        .with_state(Arc::new(state))
}

/// A server bound to its address, not yet serving.
pub struct Bound {
    /// The address it listens on (the port chosen when 0 was asked).
    pub addr: SocketAddr,
    listener: tokio::net::TcpListener,
    app: Router,
}

/// Loads `root` (its runs, its answers into DuckDB) and binds `addr`.
pub async fn bind(root: &Path, addr: SocketAddr) -> Result<Bound> {
    let root = root.to_path_buf();
    let state = tokio::task::spawn_blocking(move || State::load(&root))
        .await
        .context("loading the root")??;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr}"))?;
    let addr = listener.local_addr()?;
    Ok(Bound {
        addr,
        listener,
        app: router(state),
    })
}

impl Bound {
    /// Serves until the process ends.
    pub async fn serve(self) -> Result<()> {
        axum::serve(self.listener, self.app)
            .await
            .context("serving the viewer")
    }
}
