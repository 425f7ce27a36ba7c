//! The decision of each family: which formats are shown non-inferior to the most accurate
//! within the margin, and the format to use — the cheapest of those — or, while a cheaper
//! format is neither shown non-inferior nor shown worse, how many runs would settle it. The
//! tests themselves are in `sql/paired_comparison.sql` (Tango's score test, Holm); this module
//! only reads them, adding the bootstrap half of the rule (`ComparisonRow::noninferior`).
//! Also each family's verdict row (most accurate, not significantly worse, fewest tokens).
//! Pure functions of the report data: no wording here, so the report, the JSON files and
//! `bench view` read the same decisions.

use crate::report::data::{AccuracyRow, ComparisonRow, Family, ReportData, best_per_family};
use std::collections::{BTreeMap, BTreeSet};

/// One family's decision, as the report and `analytics_results.json` carry it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Decision {
    /// The margin, percentage points.
    pub margin_pp: f64,
    /// Formats shown non-inferior to the most accurate within the margin, fewest tokens first.
    pub noninferior: Vec<String>,
    /// The format to use: the one with the fewest data tokens among the most accurate and the
    /// non-inferior formats.
    pub recommendation: String,
    /// Its data tokens (on the family's token basis).
    pub recommendation_tokens: Option<i64>,
    /// False while a format cheaper than the recommendation is neither shown non-inferior nor
    /// shown worse and more runs could show it.
    pub decided: bool,
    /// Those formats, fewest tokens first.
    pub undecided: Vec<String>,
    /// Runs beyond this run's that would settle the cheapest of them (80 % power, if the
    /// observed difference and discordance hold).
    pub more_runs: Option<i64>,
}

/// The decision of `family`, whose most accurate format is `best`.
pub fn decide(d: &ReportData, family: &Family, best: &str) -> Decision {
    let tokens = |f: &str| {
        d.accuracy
            .iter()
            .find(|r| &r.family == family && r.format == f)
            .and_then(|r| r.data_tokens)
    };
    let by_tokens = |fs: &mut Vec<&ComparisonRow>| {
        fs.sort_by_key(|c| (tokens(&c.format).unwrap_or(i64::MAX), c.format.clone()));
    };
    let rows: Vec<&ComparisonRow> = d
        .versus_best
        .iter()
        .filter(|c| &c.family == family)
        .collect();
    let mut ni: Vec<&ComparisonRow> = rows.iter().copied().filter(|c| c.noninferior()).collect();
    by_tokens(&mut ni);
    let mut pick = (best.to_string(), tokens(best));
    if let Some(c) = ni.first()
        && tokens(&c.format).unwrap_or(i64::MAX) < pick.1.unwrap_or(i64::MAX)
    {
        pick = (c.format.clone(), tokens(&c.format));
    }
    let cheaper =
        |c: &&ComparisonRow| tokens(&c.format).unwrap_or(i64::MAX) < pick.1.unwrap_or(i64::MAX);
    let mut open: Vec<&ComparisonRow> = rows
        .iter()
        .copied()
        .filter(cheaper)
        .filter(|c| !c.noninferior() && !c.worse() && c.runs_needed_ni.is_some())
        .collect();
    by_tokens(&mut open);
    let more_runs = open
        .iter()
        .filter_map(|c| c.runs_needed_ni.map(|n| (n - c.runs).max(1)))
        .min();
    Decision {
        margin_pp: d.run.margin_pp(),
        noninferior: ni.iter().map(|c| c.format.clone()).collect(),
        recommendation: pick.0,
        recommendation_tokens: pick.1,
        decided: open.is_empty(),
        undecided: open.iter().map(|c| c.format.clone()).collect(),
        more_runs,
    }
}

/// Whether rows vary in record count / primer, so labels must name them.
pub fn varies(rows: &[AccuracyRow]) -> (bool, bool) {
    let sizes: BTreeSet<i64> = rows.iter().map(|r| r.family.records).collect();
    let primers: BTreeSet<bool> = rows.iter().map(|r| r.family.primer).collect();
    (sizes.len() > 1, primers.len() > 1)
}

/// Whether the run includes the offline reference answerer.
pub fn has_reference(d: &ReportData) -> bool {
    d.accuracy.iter().any(|r| r.family.provider == "reference")
}

/// The verdict of one family, as computed once for the report and analytics_results.json.
#[derive(Debug, Clone, serde::Serialize)]
pub struct VerdictRow {
    /// Comparison family.
    #[serde(flatten)]
    pub family: Family,
    /// The most accurate format (weighted accuracy; ties: fewer tokens).
    pub most_accurate: String,
    /// Its weighted accuracy, 0..1.
    pub weighted_accuracy: Option<f64>,
    /// Its bootstrap 95 % lower bound.
    pub weighted_low: Option<f64>,
    /// Its bootstrap 95 % upper bound.
    pub weighted_high: Option<f64>,
    /// Formats not significantly worse than it (Holm-adjusted McNemar), fewest tokens first.
    pub not_significantly_worse: Vec<String>,
    /// The format with the fewest data tokens among the most accurate and those.
    pub fewest_tokens: String,
    /// Its data tokens (on the family's token basis).
    pub fewest_tokens_count: Option<i64>,
    /// What the data tokens rest on, and the offline order where it differs.
    #[serde(flatten)]
    pub tokens: TokenBasis,
    /// The format with the highest weighted accuracy % per 1,000 data tokens.
    pub best_per_1k_tokens: Option<String>,
    /// Non-inferiority within the margin and the format to use.
    #[serde(flatten)]
    pub decision: Decision,
    /// Its efficiency.
    pub best_efficiency: Option<f64>,
}

/// Per family: the most accurate format, the formats not significantly worse than it, the one
/// of those with the fewest data tokens, and the best accuracy per 1,000 tokens.
pub fn verdict_rows(d: &ReportData) -> Vec<VerdictRow> {
    let best = best_per_family(&d.accuracy);
    let mut rows = Vec::new();
    for (family, b) in &best {
        let tied: Vec<&ComparisonRow> = d
            .versus_best
            .iter()
            .filter(|c| &c.family == family && !(c.significant && c.delta_accuracy_pp < Some(0.0)))
            .collect();
        let tokens_of = |f: &str| {
            d.accuracy
                .iter()
                .find(|r| &r.family == family && r.format == f)
                .and_then(|r| r.data_tokens)
        };
        let mut group: Vec<(&str, Option<i64>)> = vec![(b.format.as_str(), b.data_tokens)];
        group.extend(
            tied.iter()
                .map(|c| (c.format.as_str(), tokens_of(&c.format))),
        );
        group.sort_by_key(|(f, t)| (t.unwrap_or(i64::MAX), f.to_string()));
        let efficient = d
            .accuracy
            .iter()
            .filter(|r| &r.family == family && r.efficiency.is_some())
            .max_by(|x, y| {
                // Ties (e.g. all at 0 %) go to the format with fewer tokens.
                x.efficiency
                    .unwrap_or(0.0)
                    .total_cmp(&y.efficiency.unwrap_or(0.0))
                    .then(
                        y.data_tokens
                            .unwrap_or(i64::MAX)
                            .cmp(&x.data_tokens.unwrap_or(i64::MAX)),
                    )
            });
        rows.push(VerdictRow {
            family: family.clone(),
            most_accurate: b.format.clone(),
            weighted_accuracy: b.weighted_accuracy,
            weighted_low: b.weighted_low,
            weighted_high: b.weighted_high,
            not_significantly_worse: group
                .iter()
                .filter(|(f, _)| *f != b.format)
                .map(|(f, _)| f.to_string())
                .collect(),
            fewest_tokens: group[0].0.to_string(),
            fewest_tokens_count: group[0].1,
            best_per_1k_tokens: efficient.map(|e| e.format.clone()),
            decision: decide(d, family, &b.format),
            tokens: token_basis(d, family),
            best_efficiency: efficient.and_then(|e| e.efficiency),
        });
    }
    rows
}

/// What a family's data tokens rest on, and how o200k_base orders its formats when that
/// differs from the order the ranking used.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct TokenBasis {
    /// What the ranked data tokens rest on (`anthropic count_tokens`, `o200k_base`).
    pub token_basis: String,
    /// The family's formats, fewest ranked data tokens first.
    pub token_order: Vec<String>,
    /// The same formats, fewest o200k_base tokens first, when that order differs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token_order_o200k: Option<Vec<String>>,
}

/// The token basis of `family` (o200k_base when its rows name none: an older log).
pub fn token_basis(d: &ReportData, family: &Family) -> TokenBasis {
    let rows: Vec<&AccuracyRow> = d.accuracy.iter().filter(|r| &r.family == family).collect();
    let order = |tokens: &dyn Fn(&AccuracyRow) -> Option<i64>| {
        let mut fs: Vec<(i64, String)> = rows
            .iter()
            .map(|r| (tokens(r).unwrap_or(i64::MAX), r.format.clone()))
            .collect();
        fs.sort();
        fs.into_iter().map(|(_, f)| f).collect::<Vec<String>>()
    };
    let ranked = order(&|r| r.data_tokens);
    let offline = order(&|r| r.data_tokens_o200k.or(r.data_tokens));
    TokenBasis {
        token_basis: rows
            .iter()
            .find_map(|r| r.token_basis.clone())
            .unwrap_or_else(|| "o200k_base".into()),
        token_order_o200k: (offline != ranked).then_some(offline),
        token_order: ranked,
    }
}

/// Whether the run has answers and not one of them is right, in every family: said once at the
/// top of the report, with nothing recommended and no "check the key" list.
pub fn all_wrong(d: &ReportData) -> bool {
    !d.accuracy.is_empty() && d.accuracy.iter().all(|r| r.n_correct == 0)
}

/// Said at the top of a report whose every answer was wrong.
pub const ALL_WRONG: &str = "**Every answer was wrong.** A broken set-up (the endpoint, a model \
     that does not follow the answer format, a prompt cut short) is likelier than a wrong answer \
     key: check the answers in the artifacts before reading anything into this run. No format is \
     recommended.";

/// Families where no format got a single answer right: nothing to rank on accuracy.
pub fn families_with_nothing_right(d: &ReportData) -> BTreeSet<&Family> {
    let mut families: BTreeMap<&Family, bool> = BTreeMap::new();
    for r in &d.accuracy {
        *families.entry(&r.family).or_insert(true) &= r.n_correct == 0;
    }
    families
        .into_iter()
        .filter_map(|(f, none)| none.then_some(f))
        .collect()
}
