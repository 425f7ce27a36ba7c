//! `bench perf harness`: measures the runner against a local mock server; `bench perf tokens`:
//! token counting speed, side by side with python tiktoken.

use crate::UsageError;
use crate::cli::{HarnessArgs, PerfArgs, PerfCommand, PerfTokensArgs};
use crate::perf::{self, Harness};
use anyhow::{Context, Result};
use serde_json::Value;
use std::time::{Duration, Instant};

/// Runs the chosen measurement.
pub fn execute(args: &PerfArgs) -> Result<()> {
    match &args.what {
        PerfCommand::Harness(h) => harness(h),
        PerfCommand::Tokens(t) => tokens(t),
    }
}

/// The best of `repeat` timings of `f`, with its last result.
fn best<T>(repeat: u32, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut out = None;
    let mut fastest = Duration::MAX;
    for _ in 0..repeat {
        let t0 = Instant::now();
        let r = f();
        fastest = fastest.min(t0.elapsed());
        out = Some(r);
    }
    (fastest, out.expect("repeat >= 1"))
}

/// Python tiktoken's counts and best times per encoding, from `tools/perf_tokens.py`.
fn python_peer(python: &std::path::Path, a: &PerfTokensArgs) -> Result<Value> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/perf_tokens.py");
    let out = std::process::Command::new(python)
        .arg(script)
        .arg(&a.file)
        .args(["--repeat", &a.repeat.to_string()])
        .output()
        .map_err(|e| {
            UsageError::new(format!(
                "--python {}: cannot start it: {e}",
                python.display()
            ))
        })?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(UsageError::new(format!(
            "--python {}: {script} failed: {}",
            python.display(),
            crate::error::one_line(err.trim())
        ))
        .into());
    }
    serde_json::from_slice(&out.stdout).context("tools/perf_tokens.py printed no JSON")
}

/// `bench perf tokens FILE`: MB/s per tokenizer, one core (`count_whole`) and every core
/// (`count`), and python tiktoken's MB/s and the ratio when `--python` is given. The counts
/// must agree, or the speeds compare different work.
fn tokens(a: &PerfTokensArgs) -> Result<()> {
    let text = std::fs::read_to_string(&a.file).map_err(|e| {
        UsageError::new(format!(
            "{}: cannot read as UTF-8 text: {e}",
            a.file.display()
        ))
    })?;
    let mb = text.len() as f64 / 1e6;
    let peer = match &a.python {
        Some(p) => Some(python_peer(p, a)?),
        None => None,
    };
    crate::outln!(
        "{}: {:.1} MB, best of {} (cores: {})",
        a.file.display(),
        mb,
        a.repeat,
        crate::cores()
    )?;
    crate::outln!(
        "{:<12} {:>12} {:>14} {:>16} {:>16} {:>10}",
        "tokenizer",
        "tokens",
        "bench 1 core",
        "bench all cores",
        "python tiktoken",
        "ratio"
    )?;
    for &t in a.tokenizers.iter() {
        let (one, n) = best(a.repeat, || t.count_whole(&text));
        let (all, m) = best(a.repeat, || t.count(&text));
        if n != m {
            anyhow::bail!("{t}: counts differ between one core ({n}) and every core ({m})");
        }
        let speed = |d: Duration| mb / d.as_secs_f64().max(1e-9);
        let (py, ratio) = match peer.as_ref().and_then(|p| p.get(t.name())) {
            Some(p) => {
                let want = p["tokens"].as_u64().unwrap_or(0) as usize;
                if want != n {
                    anyhow::bail!("{t}: bench counts {n} tokens, python tiktoken {want}");
                }
                let s = mb / p["seconds"].as_f64().unwrap_or(f64::NAN);
                (format!("{s:.1} MB/s"), format!("{:.1}x", speed(all) / s))
            }
            None => ("-".to_string(), "-".to_string()),
        };
        crate::outln!(
            "{:<12} {:>12} {:>14} {:>16} {:>16} {:>10}",
            t.name(),
            n,
            format!("{:.1} MB/s", speed(one)),
            format!("{:.1} MB/s", speed(all)),
            py,
            ratio
        )?;
    }
    Ok(())
}

/// Runs the harness and prints wall time, the ideal bound and their ratio.
fn harness(h: &HarnessArgs) -> Result<()> {
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
    crate::outln!("results written:  {} ({} errors)", r.results, r.errors)?;
    crate::outln!(
        "wall time:        {:.2} s (first request to last answer; {:.2} s with setup and summary)",
        r.wall.as_secs_f64(),
        total.as_secs_f64()
    )?;
    crate::outln!("ideal bound:      {:.2} s", r.ideal.as_secs_f64())?;
    crate::outln!("ratio:            {:.3}x", r.ratio())?;
    crate::outln!(
        "429 answers:      {} of {} requests ({:.2} %)",
        r.throttled,
        r.requests,
        r.throttled_pct()
    )?;
    Ok(())
}
