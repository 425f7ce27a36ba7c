//! Encoder/decoder timing on the benchmark data set (see bench.mjs).
//!
//!   cargo run --release --bin toon_bench -- bench-data.json [runs]
//!
//! Prints best wall time per mode, peak RSS (VmHWM) after loading and after
//! encoding, and whether the output is byte-identical to the reference output
//! files `bench.mjs time` wrote next to the data (ours are written there too).

#[path = "../../../src/formats/toon/mod.rs"]
mod toon;

use std::time::Instant;

use serde_json::Value;
use toon::{DecodeOptions, EncodeOptions, KeyFolding, decode, encode};

/// Peak resident set size of this process in MB (Linux only; 0 elsewhere).
fn peak_rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "bench-data.json".into());
    let runs: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(3);
    let text =
        std::fs::read_to_string(&path).expect("benchmark data (run `node bench.mjs gen`)");
    let t0 = Instant::now();
    let data: Value = serde_json::from_str(&text).expect("valid JSON");
    println!(
        "serde_json parse of the input (for scale): {:.0} ms",
        t0.elapsed().as_secs_f64() * 1e3
    );
    drop(text);
    let rss_loaded = peak_rss_mb();
    let modes = [("off", KeyFolding::Off), ("safe", KeyFolding::Safe)];
    let opts = |folding| EncodeOptions {
        key_folding: folding,
        ..EncodeOptions::default()
    };
    for (label, folding) in modes {
        let mut best = f64::INFINITY;
        let mut out = String::new();
        for _ in 0..runs {
            drop(std::mem::take(&mut out));
            let t0 = Instant::now();
            out = encode(&data, &opts(folding));
            best = best.min(t0.elapsed().as_secs_f64() * 1e3);
        }
        std::fs::write(format!("{path}.ours-{label}.toon"), &out).expect("write output");
        let reference = std::fs::read_to_string(format!("{path}.ref-{label}.toon")).ok();
        let identical = match &reference {
            Some(r) if *r == out => "byte-identical to reference",
            Some(_) => "DIFFERS from reference",
            None => "no reference output to compare",
        };
        println!(
            "ours encode {label}: best {best:.0} ms of {runs}, {:.1} MB output, {identical}",
            out.len() as f64 / 1e6
        );
    }
    println!(
        "ours peak RSS: {rss_loaded:.1} MB after load, {:.1} MB after encoding",
        peak_rss_mb()
    );
    for (label, folding) in modes {
        let out = encode(&data, &opts(folding));
        let dopts = DecodeOptions {
            expand_paths: folding == KeyFolding::Safe,
            ..DecodeOptions::default()
        };
        let t0 = Instant::now();
        let back = decode(&out, &dopts).expect("own output decodes");
        println!(
            "ours decode {label}: {:.0} ms, round trip {}",
            t0.elapsed().as_secs_f64() * 1e3,
            if back == data { "exact" } else { "MISMATCH" }
        );
    }
}
