//! `bench perf harness`: a local mock OpenAI-compatible server in-process (fixed latency,
//! optional RPM limit answering 429 with Retry-After, optional injected faults) and N calls
//! through the real runner, against the ideal bound max(N·latency/concurrency, N/RPM).

pub mod mock;

use crate::dataset::{Structure, Variant};
use crate::formats::Format;
use crate::providers::{self, ModelConfig};
use crate::runner::progress::Silent;
use crate::runner::{self, Model, Options, Plan, QuestionMode, RetryPolicy, Stop};
use crate::tokens::Tokenizer;
use anyhow::Result;
use mock::{MockConfig, MockServer};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What to measure.
#[derive(Debug, Clone)]
pub struct Harness {
    /// Calls to make.
    pub calls: u32,
    /// Mock latency per answer.
    pub latency: Duration,
    /// Calls in flight.
    pub concurrency: usize,
    /// Requests per minute (mock limit and runner limit).
    pub rpm: Option<u32>,
}

/// What was measured.
#[derive(Debug, Clone)]
pub struct Report {
    /// Result lines written.
    pub results: usize,
    /// Of which failed.
    pub errors: usize,
    /// From the first call's start to the last call's end.
    pub wall: Duration,
    /// max(N·latency/concurrency, N/RPM).
    pub ideal: Duration,
    /// Requests the mock received.
    pub requests: u64,
    /// Requests it answered 429.
    pub throttled: u64,
}

impl Report {
    /// wall / ideal.
    pub fn ratio(&self) -> f64 {
        self.wall.as_secs_f64() / self.ideal.as_secs_f64()
    }

    /// 429s per request, percent.
    pub fn throttled_pct(&self) -> f64 {
        100.0 * self.throttled as f64 / self.requests.max(1) as f64
    }
}

/// Runs the harness; the run log goes to a temporary folder that is removed afterwards.
pub async fn run(h: &Harness) -> Result<Report> {
    let server = MockServer::start(MockConfig {
        latency: h.latency,
        rpm: h.rpm,
        ..MockConfig::default()
    })
    .await?;
    let out = std::env::temp_dir().join(format!("bench-perf-{}", std::process::id()));
    let plan = Plan {
        formats: vec![Format::Csv],
        structures: vec![Structure::Flat],
        variants: vec![Variant::Mandatory],
        records: vec![31],
        seed: crate::dataset::DEFAULT_SEED,
        runs: h.calls,
        tokenizers: vec![Tokenizer::O200kBase],
        output_root: out.clone(),
        question_mode: QuestionMode::OnePrompt,
        prompt_variants: 1,
        shuffle: false,
        shard: None,
        primers: vec![false],
        suite: crate::suites::product(),
    };
    let config = ModelConfig {
        provider: "openai-compatible".into(),
        model: "mock".into(),
        base_url: Some(server.base_url()),
        concurrency: Some(h.concurrency),
        rpm: h.rpm,
        max_tokens: Some(256),
        ..ModelConfig::default()
    };
    let model = Model {
        provider: providers::build(&config, &|_| None)?,
        config,
    };
    let opts = Options {
        warmup: Some(false),
        cache: None,
        budget_usd: None,
        retry: RetryPolicy::default(),
        batch: None,
        margin_pp: None,
    };
    let started = Instant::now();
    let outcome = runner::run(
        &plan,
        vec![model],
        opts,
        None,
        Arc::new(Silent),
        Arc::new(Stop::default()),
    )
    .await;
    let total = started.elapsed();
    let stats = server.stats();
    let _ = std::fs::remove_dir_all(&out);
    let outcome = outcome?;
    let (first, last) = server.span().unwrap_or((started, started + total));
    let n = f64::from(h.calls);
    let mut ideal = n * h.latency.as_secs_f64() / h.concurrency as f64;
    if let Some(rpm) = h.rpm {
        ideal = ideal.max(n * 60.0 / f64::from(rpm));
    }
    Ok(Report {
        results: outcome.summary.total_samples,
        errors: outcome.failed_calls,
        wall: last - first,
        ideal: Duration::from_secs_f64(ideal),
        requests: stats.requests,
        throttled: stats.throttled,
    })
}
