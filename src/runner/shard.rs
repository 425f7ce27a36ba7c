//! `bench run --shard K/N`: the K-th of N disjoint slices of a plan, so a run that outgrows one
//! machine or one key can be split and put back together (`bench merge`). A slice is a set of
//! renderings (every run, unit and provider of each), chosen by a hash of what the rendering is,
//! never of who answers it: every provider's shard K holds the same renderings, and the shards of
//! one plan hold each rendering exactly once.

use super::plan::{Combo, Matrix};
use crate::runlog::Metadata;
use crate::suites::plan::Plan;

/// Which of `of` slices a rendering belongs to (0-based).
fn slice_of(c: &Combo, of: u32) -> u32 {
    let r = &c.rendering;
    let key = format!(
        "{}|{}|{}|{}|{}|{}|{}",
        r.format,
        r.structure,
        r.variant,
        c.records,
        c.primer,
        c.scorer.item().unwrap_or(""),
        c.slot.index
    );
    let digest = crate::layout::sha256_hex(key.as_bytes());
    let n = u64::from_str_radix(&digest[..16], 16).expect("hex");
    (n % u64::from(of)) as u32
}

/// The renderings of `matrix` in the plan's shard (all of them without `--shard`).
pub fn slice(plan: &Plan, mut matrix: Matrix) -> Matrix {
    if let Some((k, n)) = plan.shard {
        matrix.combos.retain(|c| slice_of(c, n) == k - 1);
    }
    matrix
}

/// sha256 of what decides a plan's samples: the metadata without the run's identity, its shard,
/// its version and the providers' settings (keys, limits and URLs may differ per machine; the
/// provider and model may not).
pub fn plan_sha256(meta: &Metadata) -> String {
    let mut v = serde_json::to_value(meta).expect("metadata serializes");
    if let Some(o) = v.as_object_mut() {
        for k in [
            "benchmark_id",
            "timestamp",
            "shard",
            "bench_version",
            "margin_pp",
            "providers",
        ] {
            o.remove(k);
        }
        let models: Vec<String> = meta
            .providers
            .iter()
            .map(|p| format!("{}:{}", p.provider, p.model))
            .collect();
        o.insert("models".into(), serde_json::json!(models));
    }
    crate::layout::sha256_hex(v.to_string().as_bytes())
}

/// Parses `K/N` (1 ≤ K ≤ N).
pub fn parse(s: &str) -> Result<(u32, u32), String> {
    let (k, n) = s
        .split_once('/')
        .ok_or_else(|| format!("'{s}' is not K/N (say 2/3)"))?;
    let k: u32 = k
        .trim()
        .parse()
        .map_err(|_| format!("'{k}' is not a number"))?;
    let n: u32 = n
        .trim()
        .parse()
        .map_err(|_| format!("'{n}' is not a number"))?;
    if n == 0 || k == 0 || k > n {
        return Err(format!("shard {k}/{n}: K runs from 1 to N"));
    }
    Ok((k, n))
}
