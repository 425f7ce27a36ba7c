//! Statistics that SQL cannot express: the seeded cluster bootstrap of weighted accuracy and of
//! paired differences in it. Wilson intervals, the exact McNemar test, Holm's correction and the
//! power figures are SQL macros and files in `sql/` (views.sql, accuracy.sql,
//! paired_comparison.sql), so each statistic is computed in exactly one place.

mod bootstrap;

/// The default non-inferiority margin, percentage points (`--margin`).
pub const DEFAULT_MARGIN_PP: f64 = 2.0;

pub use bootstrap::{
    Cluster, Interval, PairedCluster, RESAMPLES, paired_delta, seed_for, weighted,
};
