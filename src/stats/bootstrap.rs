//! Cluster bootstrap over questions: resample question ids with replacement within each
//! category (so every category keeps its size and weight), keep every run of a drawn question
//! (answers to one question are correlated across runs, so the question is the unit), and
//! recompute weighted accuracy. The 95 % interval is the 2.5th and 97.5th percentile of the
//! resampled statistics (linear interpolation between order statistics).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sha2::{Digest, Sha256};

/// Resamples per interval.
pub const RESAMPLES: usize = 2000;

/// One question's answers in one rendering, summed over runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cluster {
    /// Index of the question's category in the weights slice.
    pub category: usize,
    /// Answers graded right.
    pub passed: u32,
    /// Answers graded.
    pub total: u32,
}

/// One question answered in two renderings, summed over the runs where both answered it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairedCluster {
    /// Index of the question's category in the weights slice.
    pub category: usize,
    /// Right answers of the format compared.
    pub passed: u32,
    /// Right answers of the baseline.
    pub baseline_passed: u32,
    /// Pairs (runs where both answered).
    pub total: u32,
}

/// A point estimate with its bootstrap 95 % interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// The statistic on the observed data.
    pub estimate: f64,
    /// 2.5th percentile of the resampled statistic.
    pub low: f64,
    /// 97.5th percentile of the resampled statistic.
    pub high: f64,
}

/// A seed derived from a fixed salt and `key` (the group's identity), so the same run gives the
/// same interval and different groups draw independent streams.
pub fn seed_for(key: &str) -> u64 {
    let digest = Sha256::digest(format!("bench-bootstrap-v1\0{key}").as_bytes());
    u64::from_le_bytes(digest[..8].try_into().expect("8 bytes"))
}

/// Σ weight · accuracy over the categories with answers, divided by their weights.
fn weighted_of(sums: &[(f64, f64)], weights: &[f64]) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    for ((passed, total), w) in sums.iter().zip(weights) {
        if *total > 0.0 {
            num += w * passed / total;
            den += w;
        }
    }
    if den == 0.0 { 0.0 } else { num / den }
}

/// The clusters of each category as (right answers of the format, of the baseline, answers);
/// the unpaired statistic leaves the baseline column at zero.
type Groups = Vec<Vec<(f64, f64, f64)>>;

/// Clusters (category, right answers, baseline's right answers, answers) grouped by category;
/// None when no cluster has an answer.
fn groups(
    categories: usize,
    clusters: impl Iterator<Item = (usize, u32, u32, u32)>,
) -> Option<Groups> {
    let mut out: Groups = vec![Vec::new(); categories];
    let mut answers = 0u64;
    for (category, passed, baseline, total) in clusters {
        answers += u64::from(total);
        out[category].push((f64::from(passed), f64::from(baseline), f64::from(total)));
    }
    (answers > 0).then_some(out)
}

/// Weighted accuracy of the format and of the baseline over per-category sums.
fn both(sums: &[(f64, f64, f64)], weights: &[f64]) -> (f64, f64) {
    let a: Vec<(f64, f64)> = sums.iter().map(|s| (s.0, s.2)).collect();
    let b: Vec<(f64, f64)> = sums.iter().map(|s| (s.1, s.2)).collect();
    (weighted_of(&a, weights), weighted_of(&b, weights))
}

/// The statistic on the observed data and its percentile interval over `resamples` draws of
/// question ids within each category; `stat` maps (format, baseline) weighted accuracy to the
/// statistic. When every cluster of a category is the same, every draw is the same, so the
/// interval is the estimate itself and no draw is made.
fn interval(
    groups: &Groups,
    weights: &[f64],
    resamples: usize,
    seed: u64,
    stat: impl Fn((f64, f64)) -> f64,
) -> Interval {
    let totals: Vec<(f64, f64, f64)> = groups
        .iter()
        .map(|g| {
            g.iter()
                .fold((0.0, 0.0, 0.0), |s, c| (s.0 + c.0, s.1 + c.1, s.2 + c.2))
        })
        .collect();
    let estimate = stat(both(&totals, weights));
    let constant = groups.iter().all(|g| g.windows(2).all(|w| w[0] == w[1]));
    if constant {
        return Interval {
            estimate,
            low: estimate,
            high: estimate,
        };
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut sums = vec![(0.0, 0.0, 0.0); groups.len()];
    let mut values: Vec<f64> = (0..resamples)
        .map(|_| {
            for (g, sum) in groups.iter().zip(sums.iter_mut()) {
                *sum = (0.0, 0.0, 0.0);
                for _ in 0..g.len() {
                    let c = g[rng.random_range(0..g.len())];
                    sum.0 += c.0;
                    sum.1 += c.1;
                    sum.2 += c.2;
                }
            }
            stat(both(&sums, weights))
        })
        .collect();
    values.sort_by(f64::total_cmp);
    Interval {
        estimate,
        low: quantile(&values, 0.025),
        high: quantile(&values, 0.975),
    }
}

/// The q-quantile of sorted values, interpolating linearly between order statistics
/// (Hyndman & Fan type 7, the default of R and numpy).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * q;
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// Weighted accuracy of one rendering with its cluster-bootstrap 95 % interval; `weights[c]`
/// is category c's weight. None without answers.
pub fn weighted(
    clusters: &[Cluster],
    weights: &[f64],
    resamples: usize,
    seed: u64,
) -> Option<Interval> {
    let groups = groups(
        weights.len(),
        clusters.iter().map(|c| (c.category, c.passed, 0, c.total)),
    )?;
    (resamples > 0).then(|| interval(&groups, weights, resamples, seed, |(a, _)| a))
}

/// Difference in weighted accuracy (format − baseline) over paired answers, with its
/// cluster-bootstrap 95 % interval: both formats are resampled with the same question ids, so
/// the interval reflects the pairing. None without pairs.
pub fn paired_delta(
    clusters: &[PairedCluster],
    weights: &[f64],
    resamples: usize,
    seed: u64,
) -> Option<Interval> {
    let groups = groups(
        weights.len(),
        clusters
            .iter()
            .map(|c| (c.category, c.passed, c.baseline_passed, c.total)),
    )?;
    (resamples > 0).then(|| interval(&groups, weights, resamples, seed, |(a, b)| a - b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clusters(passed: &[(usize, u32, u32)]) -> Vec<Cluster> {
        passed
            .iter()
            .map(|&(category, passed, total)| Cluster {
                category,
                passed,
                total,
            })
            .collect()
    }

    #[test]
    fn same_seed_same_interval_other_seed_other_interval() {
        let cs: Vec<Cluster> = (0..124)
            .map(|i| Cluster {
                category: i % 4,
                passed: (i % 3 != 0) as u32 * 3,
                total: 3,
            })
            .collect();
        let w = [0.375, 0.29167, 0.20833, 0.125];
        let a = weighted(&cs, &w, RESAMPLES, seed_for("x")).unwrap();
        let b = weighted(&cs, &w, RESAMPLES, seed_for("x")).unwrap();
        let c = weighted(&cs, &w, RESAMPLES, seed_for("y")).unwrap();
        assert_eq!(a, b);
        assert_ne!((a.low, a.high), (c.low, c.high));
        assert!(a.low < a.estimate && a.estimate < a.high);
    }

    #[test]
    fn single_category_matches_the_normal_approximation() {
        // 60 of 100 questions right, one run: the bootstrap distribution of a proportion is
        // close to normal, 0.6 ± 1.96·√(0.24/100) = (0.504, 0.696).
        let cs: Vec<Cluster> = (0..100)
            .map(|i| Cluster {
                category: 0,
                passed: u32::from(i < 60),
                total: 1,
            })
            .collect();
        let i = weighted(&cs, &[1.0], 20_000, seed_for("normal")).unwrap();
        assert!((i.estimate - 0.6).abs() < 1e-12);
        assert!((i.low - 0.504).abs() < 0.015, "{i:?}");
        assert!((i.high - 0.696).abs() < 0.015, "{i:?}");
    }

    #[test]
    fn weights_combine_category_accuracies() {
        // Category 0: 1/2 right, category 1: 2/2 right; weights 3:1 → (3·0.5 + 1·1)/4.
        let cs = clusters(&[(0, 1, 1), (0, 0, 1), (1, 1, 1), (1, 1, 1)]);
        let i = weighted(&cs, &[3.0, 1.0], 500, 1).unwrap();
        assert!((i.estimate - 0.625).abs() < 1e-12);
        // A perfect category never varies; the interval comes from category 0 alone.
        assert!(i.low >= 0.25 - 1e-12 && i.high <= 1.0);
        let all_right = clusters(&[(0, 3, 3), (1, 3, 3)]);
        let i = weighted(&all_right, &[1.0, 1.0], 500, 1).unwrap();
        assert_eq!((i.estimate, i.low, i.high), (1.0, 1.0, 1.0));
        assert_eq!(weighted(&[], &[1.0], 500, 1), None);
    }

    #[test]
    fn identical_formats_have_a_zero_delta_and_a_degenerate_interval() {
        let cs: Vec<PairedCluster> = (0..50)
            .map(|i| PairedCluster {
                category: i % 2,
                passed: (i % 3) as u32,
                baseline_passed: (i % 3) as u32,
                total: 3,
            })
            .collect();
        let d = paired_delta(&cs, &[0.5, 0.5], RESAMPLES, 7).unwrap();
        assert_eq!((d.estimate, d.low, d.high), (0.0, 0.0, 0.0));
    }

    #[test]
    fn a_consistent_loss_gives_an_interval_below_zero() {
        // The format is wrong on 20 of 100 questions where the baseline is right.
        let cs: Vec<PairedCluster> = (0..100)
            .map(|i| PairedCluster {
                category: 0,
                passed: if i < 20 { 0 } else { 3 },
                baseline_passed: 3,
                total: 3,
            })
            .collect();
        let d = paired_delta(&cs, &[1.0], RESAMPLES, 7).unwrap();
        assert!((d.estimate + 0.2).abs() < 1e-12);
        assert!(d.high < 0.0 && d.low > -0.35, "{d:?}");
    }

    #[test]
    fn quantile_interpolates_like_r_type_7() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(quantile(&v, 1.0), 4.0);
        assert!((quantile(&v, 0.5) - 2.5).abs() < 1e-12);
        assert!((quantile(&v, 0.025) - 1.075).abs() < 1e-12);
    }
}
