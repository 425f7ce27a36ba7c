//! The question-clustered bootstrap intervals of `stats`, the only statistic SQL cannot
//! compute: of weighted accuracy per rendering, and of Δ weighted accuracy against a format.

use super::rows::family_of;
use super::{AccuracyRow, ComparisonRow, Family, RunInfo, run_sql, typed};
use crate::analytics::{Analytics, Table, sql};
use crate::stats::{self, Cluster, PairedCluster, RESAMPLES};
use anyhow::{Context, Result};

use std::collections::HashMap;

/// The question clusters of a bootstrap query (sql/bootstrap_*.sql), per rendering: read by
/// column name — the family keys, `format`, `category`, then the `counts` columns `make`
/// turns into one cluster.
fn clusters_of<T>(
    t: &Table,
    names: &[String],
    counts: &[&str],
    make: impl Fn(usize, &[u32]) -> T,
) -> Result<HashMap<(Family, String), Vec<T>>> {
    let col = |name: &str| {
        t.columns
            .iter()
            .position(|c| c == name)
            .with_context(|| format!("the bootstrap query has no column '{name}'"))
    };
    let category = col("category")?;
    let counts: Vec<usize> = counts.iter().map(|c| col(c)).collect::<Result<_>>()?;
    let mut out: HashMap<(Family, String), Vec<T>> = HashMap::new();
    for r in &t.rows {
        let Some(key) = family_of(&t.columns, r) else {
            continue;
        };
        let Some(c) = names
            .iter()
            .position(|n| Some(n.as_str()) == r[category].as_str())
        else {
            continue;
        };
        let n: Vec<u32> = counts
            .iter()
            .map(|&i| r[i].as_u64().unwrap_or(0) as u32)
            .collect();
        out.entry(key).or_default().push(make(c, &n));
    }
    Ok(out)
}

/// Category names in weight order, and their weights.
fn weight_table(run: &RunInfo) -> (Vec<String>, Vec<f64>) {
    run.weights().into_iter().unzip()
}

/// Adds the bootstrap interval of weighted accuracy to every accuracy row.
pub(crate) fn bootstrap_accuracy(
    a: &Analytics,
    run: &RunInfo,
    rows: &mut [AccuracyRow],
) -> Result<()> {
    let (names, weights) = weight_table(run);
    let t = run_sql(a, sql::BOOTSTRAP_CLUSTERS, "sql/bootstrap_clusters.sql")?;
    let clusters = clusters_of(&t, &names, &["passed", "total"], |category, n| Cluster {
        category,
        passed: n[0],
        total: n[1],
    })?;
    for row in rows {
        let key = (row.family.clone(), row.format.clone());
        if let Some(cs) = clusters.get(&key)
            && let Some(i) = stats::weighted(
                cs,
                &weights,
                RESAMPLES,
                stats::seed_for(&format!("{key:?}")),
            )
        {
            row.weighted_low = Some(i.low);
            row.weighted_high = Some(i.high);
        }
    }
    Ok(())
}

/// The question-clustered bootstrap interval of Δ weighted accuracy (a proportion) per
/// rendering, from the paired clusters `pairs_sql` returns (sql/bootstrap_pairs.sql,
/// sql/compare_pairs.sql), with `run`'s category weights; seeded by the rendering and `against`.
pub fn paired_intervals(
    a: &Analytics,
    run: &RunInfo,
    pairs_sql: &str,
    what: &str,
    against: &str,
) -> Result<HashMap<(Family, String), stats::Interval>> {
    let (names, weights) = weight_table(run);
    let pairs = run_sql(a, pairs_sql, what)?;
    let clusters = clusters_of(
        &pairs,
        &names,
        &["passed", "baseline_passed", "total"],
        |category, n| PairedCluster {
            category,
            passed: n[0],
            baseline_passed: n[1],
            total: n[2],
        },
    )?;
    Ok(clusters
        .into_iter()
        .filter_map(|(key, cs)| {
            let seed = stats::seed_for(&format!("{key:?} vs {against}"));
            stats::paired_delta(&cs, &weights, RESAMPLES, seed).map(|i| (key, i))
        })
        .collect())
}

/// Runs paired_comparison.sql against `baseline` and adds the bootstrap interval of Δ weighted
/// accuracy to each row.
pub(crate) fn comparisons(
    a: &Analytics,
    run: &RunInfo,
    baseline: &str,
) -> Result<Vec<ComparisonRow>> {
    a.set_variable("bench_baseline", baseline)?;
    let t = run_sql(a, sql::PAIRED_COMPARISON, "sql/paired_comparison.sql")?;
    let mut rows: Vec<ComparisonRow> = typed(&t, "sql/paired_comparison.sql")?;
    let deltas = paired_intervals(
        a,
        run,
        sql::BOOTSTRAP_PAIRS,
        "sql/bootstrap_pairs.sql",
        baseline,
    )?;
    for row in &mut rows {
        if let Some(i) = deltas.get(&(row.family.clone(), row.format.clone())) {
            row.delta_low_pp = Some(100.0 * i.low);
            row.delta_high_pp = Some(100.0 * i.high);
        }
    }
    Ok(rows)
}
