//! A mock OpenAI-compatible Chat Completions server on 127.0.0.1 (axum): fixed latency, an
//! optional RPM limit (a token bucket of one second's worth, answering 429 with `retry-after`
//! and `retry-after-ms`), and optional injected faults, for the perf harness and fault tests.

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use rand::Rng;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How the mock behaves.
#[derive(Debug, Clone, Default)]
pub struct MockConfig {
    /// Delay before every answer.
    pub latency: Duration,
    /// Requests per minute before 429.
    pub rpm: Option<u32>,
    /// Share of requests answered 429 (with `retry-after-ms: 20`).
    pub p429: f64,
    /// Share answered 500.
    pub p5xx: f64,
    /// Share that stall past any sane client timeout (answered after `stall`).
    pub ptimeout: f64,
    /// How long a stalled request waits.
    pub stall: Duration,
    /// Share answered 200 with a garbage body.
    pub pgarbage: f64,
    /// Answer text (default `{}`).
    pub answer: Option<String>,
}

/// Counters.
#[derive(Debug, Clone, Copy)]
pub struct Stats {
    /// Requests received.
    pub requests: u64,
    /// Answered 429.
    pub throttled: u64,
}

struct Shared {
    cfg: MockConfig,
    bucket: Mutex<(f64, Instant)>,
    requests: AtomicU64,
    throttled: AtomicU64,
    span: Mutex<Option<(Instant, Instant)>>,
}

/// A running mock server; stops when dropped.
pub struct MockServer {
    addr: std::net::SocketAddr,
    shared: Arc<Shared>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for MockServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl MockServer {
    /// Binds a free port and serves.
    pub async fn start(cfg: MockConfig) -> std::io::Result<Self> {
        let burst = cfg
            .rpm
            .map_or(0.0, |r| (f64::from(r) / 60.0).max(1.0).floor());
        let shared = Arc::new(Shared {
            cfg,
            bucket: Mutex::new((burst, Instant::now())),
            requests: AtomicU64::new(0),
            throttled: AtomicU64::new(0),
            span: Mutex::new(None),
        });
        let app = Router::new()
            .route("/v1/chat/completions", post(handle))
            .with_state(shared.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(Self { addr, shared, task })
    }

    /// `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// Counters so far.
    pub fn stats(&self) -> Stats {
        Stats {
            requests: self.shared.requests.load(Ordering::Relaxed),
            throttled: self.shared.throttled.load(Ordering::Relaxed),
        }
    }

    /// First request received to last answer sent.
    pub fn span(&self) -> Option<(Instant, Instant)> {
        *self.shared.span.lock().expect("span lock")
    }
}

/// Takes a token from the bucket, or says how long until one is there.
fn take(s: &Shared, rpm: u32) -> Result<(), Duration> {
    let rate = f64::from(rpm) / 60.0;
    let cap = rate.max(1.0).floor();
    let mut b = s.bucket.lock().expect("bucket lock");
    let now = Instant::now();
    b.0 = (b.0 + (now - b.1).as_secs_f64() * rate).min(cap);
    b.1 = now;
    if b.0 >= 1.0 {
        b.0 -= 1.0;
        Ok(())
    } else {
        Err(Duration::from_secs_f64((1.0 - b.0) / rate))
    }
}

fn throttle(wait: Duration) -> Response {
    let mut h = HeaderMap::new();
    let ms = wait.as_millis().max(1);
    h.insert("retry-after-ms", HeaderValue::from(ms as u64));
    h.insert("retry-after", HeaderValue::from(ms.div_ceil(1000) as u64));
    (
        StatusCode::TOO_MANY_REQUESTS,
        h,
        r#"{"error":{"message":"rate limit exceeded","type":"rate_limit"}}"#,
    )
        .into_response()
}

async fn handle(State(s): State<Arc<Shared>>) -> Response {
    let now = Instant::now();
    s.requests.fetch_add(1, Ordering::Relaxed);
    {
        let mut span = s.span.lock().expect("span lock");
        if span.is_none() {
            *span = Some((now, now));
        }
    }
    let resp = answer(&s).await;
    if let Some(span) = s.span.lock().expect("span lock").as_mut() {
        span.1 = Instant::now();
    }
    resp
}

async fn answer(s: &Shared) -> Response {
    if let Some(rpm) = s.cfg.rpm
        && let Err(wait) = take(s, rpm)
    {
        s.throttled.fetch_add(1, Ordering::Relaxed);
        return throttle(wait);
    }
    let roll: f64 = rand::rng().random();
    let c = &s.cfg;
    if roll < c.p429 {
        s.throttled.fetch_add(1, Ordering::Relaxed);
        return throttle(Duration::from_millis(20));
    }
    if roll < c.p429 + c.p5xx {
        return (StatusCode::INTERNAL_SERVER_ERROR, "upstream exploded").into_response();
    }
    if roll < c.p429 + c.p5xx + c.ptimeout {
        tokio::time::sleep(c.stall).await;
    } else {
        tokio::time::sleep(c.latency).await;
    }
    if roll >= c.p429 + c.p5xx + c.ptimeout && roll < c.p429 + c.p5xx + c.ptimeout + c.pgarbage {
        return (StatusCode::OK, "<html>garbage{{{").into_response();
    }
    let content = c.answer.clone().unwrap_or_else(|| "{}".into());
    let body = serde_json::json!({
        "id": "chatcmpl-mock",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1000, "completion_tokens": 10, "total_tokens": 1010},
    });
    (StatusCode::OK, axum::Json(body)).into_response()
}
