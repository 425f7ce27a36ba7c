//! Statistics that SQL cannot express: the seeded cluster bootstrap of weighted accuracy and of
//! paired differences in it. Wilson intervals, the exact McNemar test, Holm's correction and the
//! power figures are SQL macros and files in `sql/` (views.sql, accuracy.sql,
//! paired_comparison.sql), so each statistic is computed in exactly one place.

mod bootstrap;

/// The default non-inferiority margin, percentage points (`--margin`).
pub const DEFAULT_MARGIN_PP: f64 = 2.0;

/// The non-inferiority rule at level `alpha`: Tango's test rejects a loss of the margin after
/// Holm (`ni_p_holm`, from SQL) *and* the question-clustered bootstrap lower bound of Δ
/// weighted lies above −margin, since repeated runs of one question are not independent pairs.
/// The report, `bench compare` and `bench recommend` all decide with it.
pub fn noninferior(
    ni_p_holm: Option<f64>,
    delta_low_pp: Option<f64>,
    margin_pp: f64,
    alpha: f64,
) -> bool {
    ni_p_holm.is_some_and(|p| p < alpha) && delta_low_pp.is_some_and(|l| l > -margin_pp)
}

/// Runs of `pairs_per_run` pairs each after which answers that keep agreeing (no discordant
/// pair) show non-inferiority within `margin_pp` at `alpha` after Holm over `renderings`:
/// with b = c = 0 Tango's statistic at Δ = −m is √(n·m / (1 − m)), and Holm's first step needs
/// its p below alpha / renderings. `None` when a run has no pairs or the margin is not in (0, 100).
pub fn runs_to_show_noninferior(
    pairs_per_run: f64,
    margin_pp: f64,
    renderings: usize,
    alpha: f64,
) -> Option<u32> {
    let m = margin_pp / 100.0;
    if pairs_per_run <= 0.0 || !(m > 0.0 && m < 1.0) {
        return None;
    }
    let level = alpha / renderings.max(1) as f64;
    // z with P(Z > z) = level, by bisection on the upper tail.
    let (mut lo, mut hi) = (0.0_f64, 40.0_f64);
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if normal_sf(mid) > level {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let pairs = hi * hi * (1.0 - m) / m;
    // The strict inequality: one pair more than the bound itself.
    Some(((pairs + 1.0) / pairs_per_run).ceil().max(1.0) as u32)
}

/// P(Z > x) for the standard normal, x ≥ 0 (Abramowitz & Stegun 26.2.17, as `sql/views.sql`'s
/// `normal_sf`).
fn normal_sf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.2316419 * x);
    let poly = t
        * (0.319381530
            + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
    (-x * x / 2.0).exp() / 2.5066282746310002 * poly
}

pub use bootstrap::{
    Cluster, Interval, PairedCluster, RESAMPLES, paired_delta, seed_for, weighted,
};

#[cfg(test)]
mod tests {
    #[test]
    fn agreeing_runs_needed_grow_with_the_family() {
        // One rendering, 2 pp, 124 pairs a run: z 1.645 needs 133 pairs, so 2 runs.
        assert_eq!(
            super::runs_to_show_noninferior(124.0, 2.0, 1, 0.05),
            Some(2)
        );
        // Holm over 30 renderings: z 2.94 at 0.05/30 needs ~424 pairs, 4 runs of 124.
        assert_eq!(
            super::runs_to_show_noninferior(124.0, 2.0, 30, 0.05),
            Some(4)
        );
        assert_eq!(super::runs_to_show_noninferior(0.0, 2.0, 30, 0.05), None);
    }
}
