//! `bench view`: a local web app over a root's run logs. Server-rendered pages (plain HTML, a
//! little inline CSS and JS compiled in; no network, no CDN), one URL per page so each can be
//! bookmarked: `/` the runs, `/answers?…` the answers filtered, `/answer?…` one answer,
//! `/report/<run>/` a run's report, `/compare?a=…&b=…` two runs. Every route is GET: nothing
//! the server offers writes. A page is one file holding its handler (`pub async fn handler`, with
//! `respond`'s shared pieces) and one `.route` line in [`router`].

mod answer;
mod answers;
mod compare;
mod files;
mod html;
mod respond;
mod run_list;
mod runs;
mod state;
mod store;

use anyhow::{Context, Result};
use axum::Router;
use axum::routing::get;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

pub use state::State;

/// `name` percent-encoded as one URL path segment (a run folder's name in `/report/<run>/`).
pub fn segment(name: &str) -> String {
    html::path_of(&[name])[1..].to_string()
}

/// The routes over a loaded state.
pub fn router(state: State) -> Router {
    Router::new()
        .route("/", get(runs::handler))
        .route("/answers", get(answers::handler))
        .route("/answer", get(answer::handler))
        .route("/compare", get(compare::handler))
        .route("/report/{run}", get(files::report_redirect))
        .route("/report/{run}/", get(files::report_page))
        .route("/report/{run}/{*path}", get(files::artifact_file))
        // Browsers ask every site for an icon; "none" is an answer, a 404 is a console error.
        .route(
            "/favicon.ico",
            get(|| async { axum::http::StatusCode::NO_CONTENT }),
        )
        .fallback(|| async { respond::failure(404, "no such page") })
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
