//! Encoder/decoder timing on the benchmark data set (see bench.mjs).
//!
//!   cargo run --release --bin toon_bench -- bench-data.json [runs]
//!
//! Runs two paths in one process and reports each one's peak RSS (VmHWM, reset
//! in between through /proc/self/clear_refs):
//! 1. compact: read the file, `Json::parse` (strings borrowed from the text), encode;
//! 2. `serde_json::Value` (what bench itself uses): parse, encode, decode round trips.
//!
//! Prints best wall time per mode and whether the output is byte-identical to the
//! reference output files `bench.mjs time` wrote next to the data (ours are written
//! there too). Outputs are compared in chunks so the check does not raise the peak.

#[path = "../../../src/formats/toon/mod.rs"]
#[allow(dead_code, unused_imports)] // the harness uses only part of the engine's API
mod toon;

use std::io::Read;
use std::time::Instant;

use serde_json::Value;
use toon::{DecodeOptions, EncodeOptions, Json, KeyFolding, Spec, decode, encode, encode_node};

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

/// Resets the peak RSS to the current RSS (Linux 4.0+); false if that is not possible.
fn reset_peak_rss() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

fn ms(t0: Instant) -> f64 {
    t0.elapsed().as_secs_f64() * 1e3
}

/// v3 without and with key folding, and v4 (no folding in v4).
const MODES: [(&str, KeyFolding, Spec); 3] = [
    ("off", KeyFolding::Off, Spec::V3),
    ("safe", KeyFolding::Safe, Spec::V3),
    ("v4", KeyFolding::Off, Spec::V4),
];

fn opts(key_folding: KeyFolding, spec: Spec) -> EncodeOptions {
    EncodeOptions {
        spec,
        key_folding,
        ..EncodeOptions::default()
    }
}

/// Best-of-`runs` encode time per mode; writes our output and compares it with the reference.
fn time_modes(
    path: &str,
    runs: usize,
    what: &str,
    mut encode: impl FnMut(&EncodeOptions) -> String,
) {
    for (label, folding, spec) in MODES {
        let mut best = f64::INFINITY;
        let mut out = String::new();
        for _ in 0..runs {
            drop(std::mem::take(&mut out));
            let t0 = Instant::now();
            out = encode(&opts(folding, spec));
            best = best.min(ms(t0));
        }
        std::fs::write(format!("{path}.ours-{label}.toon"), &out).expect("write output");
        let identical = match same_as_file(&format!("{path}.ref-{label}.toon"), &out) {
            Some(true) => "byte-identical to reference",
            Some(false) => "DIFFERS from reference",
            None => "no reference output to compare",
        };
        println!(
            "{what} encode {label}: best {best:.0} ms of {runs}, {:.1} MB output, {identical}",
            out.len() as f64 / 1e6
        );
    }
}

/// Whether the file holds exactly `text`, read in 1 MB chunks; None if it cannot be read.
fn same_as_file(path: &str, text: &str) -> Option<bool> {
    let mut file = std::fs::File::open(path).ok()?;
    let mut buf = vec![0u8; 1 << 20];
    let mut rest = text.as_bytes();
    loop {
        let n = file.read(&mut buf).ok()?;
        if n == 0 {
            return Some(rest.is_empty());
        }
        if rest.len() < n || rest[..n] != buf[..n] {
            return Some(false);
        }
        rest = &rest[n..];
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "bench-data.json".into());
    let runs: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(3);
    let missing = "benchmark data (run `node bench.mjs gen`)";

    // Compact path first, so the peak measured after it is its own.
    let t0 = Instant::now();
    let text = std::fs::read_to_string(&path).expect(missing);
    let read_ms = ms(t0);
    let t0 = Instant::now();
    let tree = Json::parse(&text).expect("valid JSON");
    println!(
        "compact path: read {read_ms:.0} ms, Json::parse {:.0} ms, peak RSS {:.1} MB after parsing",
        ms(t0),
        peak_rss_mb()
    );
    time_modes(&path, runs, "compact", |o| encode_node(&tree, o));
    println!(
        "compact path peak RSS (read + parse + encode): {:.1} MB",
        peak_rss_mb()
    );
    drop(tree);
    drop(text);

    let reset = reset_peak_rss();
    let text = std::fs::read_to_string(&path).expect(missing);
    let t0 = Instant::now();
    let data: Value = serde_json::from_str(&text).expect("valid JSON");
    println!("Value path: serde_json::from_str {:.0} ms", ms(t0));
    drop(text);
    let rss_loaded = peak_rss_mb();
    time_modes(&path, runs, "Value", |o| encode(&data, o));
    println!(
        "Value path peak RSS: {rss_loaded:.1} MB after load, {:.1} MB after encoding{}",
        peak_rss_mb(),
        if reset {
            ""
        } else {
            " (peak not reset: includes the compact path)"
        }
    );
    for (label, folding, spec) in MODES {
        let out = encode(&data, &opts(folding, spec));
        let dopts = DecodeOptions {
            spec,
            expand_paths: folding == KeyFolding::Safe,
            ..DecodeOptions::default()
        };
        let t0 = Instant::now();
        let back = decode(&out, &dopts).expect("own output decodes");
        println!(
            "ours decode {label}: {:.0} ms, round trip {}",
            ms(t0),
            if back == data { "exact" } else { "MISMATCH" }
        );
    }
}
