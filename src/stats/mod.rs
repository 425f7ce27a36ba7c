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

pub use bootstrap::{
    Cluster, Interval, PairedCluster, RESAMPLES, paired_delta, seed_for, weighted,
};
