//! `bench perf harness`: measures the runner against a local mock server.

use crate::cli::{PerfArgs, PerfCommand};
use crate::perf::{self, Harness};
use anyhow::Result;
use std::time::Duration;

/// Runs the harness and prints wall time, the ideal bound and their ratio.
pub fn execute(args: &PerfArgs) -> Result<()> {
    let PerfCommand::Harness(h) = &args.what;
    let harness = Harness {
        calls: h.calls,
        latency: Duration::from_millis(h.latency_ms),
        concurrency: h.concurrency as usize,
        rpm: h.rpm,
    };
    eprintln!(
        "perf harness: {} calls, {} ms latency, concurrency {}{}",
        h.calls,
        h.latency_ms,
        h.concurrency,
        h.rpm.map(|r| format!(", {r} rpm")).unwrap_or_default()
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let started = std::time::Instant::now();
    let r = runtime.block_on(perf::run(&harness))?;
    let total = started.elapsed();
    println!("results written:  {} ({} errors)", r.results, r.errors);
    println!(
        "wall time:        {:.2} s (first request to last answer; {:.2} s with setup and summary)",
        r.wall.as_secs_f64(),
        total.as_secs_f64()
    );
    println!("ideal bound:      {:.2} s", r.ideal.as_secs_f64());
    println!("ratio:            {:.3}x", r.ratio());
    println!(
        "429 answers:      {} of {} requests ({:.2} %)",
        r.throttled,
        r.requests,
        r.throttled_pct()
    );
    Ok(())
}
