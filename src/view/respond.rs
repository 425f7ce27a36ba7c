//! What every page's handler shares: the server's state as axum hands it over, a failed page,
//! and blocking work run off the async workers.

use super::html;
use super::state::State;
use anyhow::Result;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use std::sync::Arc;

/// The state every handler receives.
pub type AppState = Arc<State>;

/// A page that failed: its status and one line saying why, as a small HTML page.
pub fn failure(status: u16, why: &str) -> Response {
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
pub async fn blocking<F>(f: F) -> Response
where
    F: FnOnce() -> Result<String, (u16, String)> + Send + 'static,
{
    match tokio::task::spawn_blocking(f).await {
        Ok(Ok(body)) => Html(body).into_response(),
        Ok(Err((status, why))) => failure(status, &why),
        Err(e) => failure(500, &format!("the page failed: {e}")),
    }
}
