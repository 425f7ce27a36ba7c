//! The rows a report reads from the SQL files of `sql/` (accuracy, paired comparisons,
//! categories, Pareto, token efficiency), keyed by [`Family`]; the field names are the
//! `analytics_results.json` contract.

use crate::stats;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// One comparison family: the data and model a set of formats was compared on.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Family {
    /// Provider name.
    pub provider: String,
    /// Model id.
    pub model: String,
    /// `flat` or `nested`.
    pub structure: String,
    /// `mandatory` or `optional`.
    pub variant: String,
    /// Records in the data.
    pub records: i64,
    /// Whether a format primer preceded the data.
    pub primer: bool,
}

impl Family {
    /// `provider/model`.
    pub fn model_label(&self) -> String {
        format!("{}/{}", self.provider, self.model)
    }

    /// A short label of the data: `flat · mandatory` (plus records and primer when given).
    pub fn data_label(&self, with_records: bool, with_primer: bool) -> String {
        let mut s = shape_label(&self.structure, &self.variant, self.records, with_records);
        if with_primer {
            s.push_str(if self.primer {
                " · primer"
            } else {
                " · no primer"
            });
        }
        s
    }
}

/// A data shape in words: `flat · optional` (with ` · 31 records` when sizes vary), or `12 tasks`
/// for a family whose data is a set of items (views.sql `result_keys`; the suite that counts
/// them says so: [`crate::suites::counted`]).
pub fn shape_label(structure: &str, variant: &str, records: i64, with_records: bool) -> String {
    if let Some(items) = crate::suites::counted(structure) {
        format!("{records} {}", items.noun(records))
    } else if with_records {
        format!("{structure} · {variant} · {records} records")
    } else {
        format!("{structure} · {variant}")
    }
}

/// Accuracy of one rendering: `sql/accuracy.sql` plus the bootstrap interval of weighted
/// accuracy. Field names are the `analytics_results.json` contract.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AccuracyRow {
    /// Comparison family.
    #[serde(flatten)]
    pub family: Family,
    /// Format.
    pub format: String,
    /// Answers graded (successful calls, warm-ups excluded).
    pub n_answers: i64,
    /// Answers right.
    pub n_correct: i64,
    /// Plain accuracy, 0..1.
    pub accuracy: Option<f64>,
    /// Wilson 95 % lower bound.
    pub wilson_low: Option<f64>,
    /// Wilson 95 % upper bound.
    pub wilson_high: Option<f64>,
    /// Weighted accuracy, mean over successful runs, 0..1.
    pub weighted_accuracy: Option<f64>,
    /// Bootstrap 95 % lower bound of weighted accuracy.
    #[serde(default)]
    pub weighted_low: Option<f64>,
    /// Bootstrap 95 % upper bound of weighted accuracy.
    #[serde(default)]
    pub weighted_high: Option<f64>,
    /// Successful runs.
    pub runs: i64,
    /// Lowest weighted accuracy of a run.
    pub weighted_min: Option<f64>,
    /// Highest weighted accuracy of a run.
    pub weighted_max: Option<f64>,
    /// Sample standard deviation over runs (null with one run).
    pub weighted_stdev: Option<f64>,
    /// Calls made (per-question mode: one per question).
    pub calls: i64,
    /// Calls that failed.
    pub failed_calls: i64,
    /// Data tokens as ranked: the model's own counts where its provider counted them, else
    /// o200k_base (`token_basis` says which).
    pub data_tokens: Option<i64>,
    /// Data tokens under o200k_base, for comparison.
    #[serde(default)]
    pub data_tokens_o200k: Option<i64>,
    /// What `data_tokens` rests on (`anthropic count_tokens`, `o200k_base`).
    #[serde(default)]
    pub token_basis: Option<String>,
    /// Weighted accuracy % per 1,000 data tokens.
    pub efficiency: Option<f64>,
    /// Rank by weighted accuracy within the family (sql/accuracy.sql; ties share a rank).
    #[serde(default)]
    pub rank_weighted: Option<i64>,
    /// Rank by plain accuracy within the family.
    #[serde(default)]
    pub rank_accuracy: Option<i64>,
    /// Rank by efficiency within the family.
    #[serde(default)]
    pub rank_efficiency: Option<i64>,
}

/// One format against the baseline: `sql/paired_comparison.sql` plus the bootstrap interval of
/// Δ weighted accuracy. Field names are the `analytics_results.json` contract.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ComparisonRow {
    /// Comparison family.
    #[serde(flatten)]
    pub family: Family,
    /// Format compared.
    pub format: String,
    /// Baseline format.
    pub baseline: String,
    /// Δ weighted accuracy, percentage points.
    pub delta_weighted_pp: Option<f64>,
    /// Bootstrap 95 % lower bound of Δ weighted accuracy, pp.
    #[serde(default)]
    pub delta_low_pp: Option<f64>,
    /// Bootstrap 95 % upper bound of Δ weighted accuracy, pp.
    #[serde(default)]
    pub delta_high_pp: Option<f64>,
    /// Δ plain accuracy over the pairs, pp.
    pub delta_accuracy_pp: Option<f64>,
    /// Paired answers.
    pub n_pairs: i64,
    /// Pairs only the format got right.
    pub discordant_format_only: i64,
    /// Pairs only the baseline got right.
    pub discordant_baseline_only: i64,
    /// Exact McNemar p.
    pub p_value: f64,
    /// Holm-adjusted p across the family.
    pub p_holm: f64,
    /// p_holm < 0.05.
    pub significant: bool,
    /// Data tokens of the format / of the baseline (o200k_base).
    pub token_ratio: Option<f64>,
    /// Runs paired.
    pub runs: i64,
    /// Smallest detectable plain-accuracy difference (80 % power), pp.
    pub mde_pp: Option<f64>,
    /// Runs that would detect the observed difference (when not significant).
    pub runs_needed: Option<i64>,
    /// Non-inferiority margin, pp.
    #[serde(default)]
    pub margin_pp: f64,
    /// Lower bound of Tango's 90 % interval of Δ plain accuracy, pp.
    #[serde(default)]
    pub ni_low_pp: Option<f64>,
    /// One-sided p of Tango's test of Δ ≤ −margin.
    #[serde(default)]
    pub ni_p: Option<f64>,
    /// Its Holm-adjusted p across the family.
    #[serde(default)]
    pub ni_p_holm: Option<f64>,
    /// ni_p_holm < 0.05.
    #[serde(default)]
    pub ni_significant: bool,
    /// Runs that would show non-inferiority (when neither it nor a loss is shown).
    #[serde(default)]
    pub runs_needed_ni: Option<i64>,
}

impl ComparisonRow {
    /// Non-inferior within the margin: Tango's test after Holm, and the question-clustered
    /// bootstrap interval of Δ weighted above −margin (repeated runs of one question are not
    /// independent pairs).
    pub fn noninferior(&self) -> bool {
        self.noninferior_at(0.05)
    }

    /// [`noninferior`](Self::noninferior) with the Holm-adjusted test at level `alpha`.
    pub fn noninferior_at(&self, alpha: f64) -> bool {
        stats::noninferior(self.ni_p_holm, self.delta_low_pp, self.margin_pp, alpha)
    }

    /// Significantly worse than its baseline (Holm-adjusted exact McNemar).
    pub fn worse(&self) -> bool {
        self.worse_at(0.05)
    }

    /// [`worse`](Self::worse) at level `alpha`.
    pub fn worse_at(&self, alpha: f64) -> bool {
        self.p_holm < alpha && self.delta_accuracy_pp.is_some_and(|d| d < 0.0)
    }
}

/// `sql/category_accuracy.sql`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CategoryRow {
    /// Comparison family.
    #[serde(flatten)]
    pub family: Family,
    /// Format.
    pub format: String,
    /// Question category.
    pub category: String,
    /// Answers.
    pub n_answers: i64,
    /// Right answers.
    pub n_correct: i64,
    /// Plain accuracy.
    pub accuracy: f64,
    /// Wilson 95 % lower bound.
    pub wilson_low: f64,
    /// Wilson 95 % upper bound.
    pub wilson_high: f64,
}

/// `sql/pareto.sql`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ParetoRow {
    /// Comparison family.
    #[serde(flatten)]
    pub family: Family,
    /// Format.
    pub format: String,
    /// Weighted accuracy.
    pub weighted_accuracy: f64,
    /// Data tokens (o200k_base); null when the log has no o200k count.
    pub data_tokens: Option<i64>,
    /// Whether no format beats it on both accuracy and tokens.
    pub on_frontier: bool,
    /// Formats that beat it on both.
    pub dominated_by: Option<String>,
}

/// `sql/token_efficiency.sql`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TokenEfficiencyRow {
    /// Format.
    pub format: String,
    /// Structure.
    pub structure: String,
    /// Variant.
    pub variant: String,
    /// Records.
    pub records: i64,
    /// Tokenizer.
    pub tokenizer: String,
    /// Data tokens.
    pub tokens: i64,
    /// Characters per token.
    pub chars_per_token: f64,
    /// Tokens per non-null value.
    pub tokens_per_value: f64,
    /// Tokens per object.
    pub tokens_per_object: Option<f64>,
    /// Rank by characters per token within the data shape and tokenizer
    /// (sql/token_efficiency.sql; ties share a rank).
    pub rank_chars_per_token: i64,
    /// Rank by tokens per value (fewest first).
    pub rank_tokens_per_value: i64,
    /// Rank by tokens per object (fewest first).
    pub rank_tokens_per_object: Option<i64>,
}

/// The family key of a row of any of the SQL results.
pub(crate) fn family_of(cols: &[String], row: &[Value]) -> Option<(Family, String)> {
    let get = |name: &str| cols.iter().position(|c| c == name).map(|i| &row[i]);
    let s = |name: &str| get(name).and_then(Value::as_str).map(str::to_string);
    Some((
        Family {
            provider: s("provider")?,
            model: s("model")?,
            structure: s("structure")?,
            variant: s("variant")?,
            records: get("records")?.as_i64()?,
            primer: get("primer")?.as_bool()?,
        },
        s("format")?,
    ))
}

/// The most accurate format of each family (ties: fewer data tokens, then name).
pub fn best_per_family(accuracy: &[AccuracyRow]) -> BTreeMap<Family, &AccuracyRow> {
    let mut best: BTreeMap<Family, &AccuracyRow> = BTreeMap::new();
    for r in accuracy.iter().filter(|r| r.weighted_accuracy.is_some()) {
        let better = |b: &&AccuracyRow| {
            let (wa, wb) = (
                r.weighted_accuracy.unwrap_or(0.0),
                b.weighted_accuracy.unwrap_or(0.0),
            );
            wa > wb + 1e-12
                || ((wa - wb).abs() <= 1e-12
                    && (r.data_tokens.unwrap_or(i64::MAX), &r.format)
                        < (b.data_tokens.unwrap_or(i64::MAX), &b.format))
        };
        match best.get(&r.family) {
            Some(b) if !better(b) => {}
            _ => {
                best.insert(r.family.clone(), r);
            }
        }
    }
    best
}
