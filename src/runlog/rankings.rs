//! What the summary line takes from SQL: the run's ranking as `sql/rankings.sql` computes it
//! (the table `bench run` prints; ties share a rank) and each model's weighted accuracy as
//! `sql/provider_comparison.sql` computes it, so neither is defined twice.

use crate::analytics::{Analytics, sql};
use crate::dataset::{Structure, Variant};
use crate::formats::Format;
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// One row of the ranking (a row of `sql/rankings.sql`): a (format, structure, variant,
/// provider/model) averaged over runs.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RankingRow {
    /// 1-based rank by weighted accuracy, then fewer data tokens; ties share a rank.
    pub rank: usize,
    /// Format.
    pub format: Format,
    /// Structure.
    pub structure: Structure,
    /// Variant.
    pub variant: Variant,
    /// Records in the data.
    #[serde(default)]
    pub records: usize,
    /// The data asked about, in words (`orders.csv · 60 records`; empty in older logs).
    #[serde(default)]
    pub dataset: String,
    /// Whether the format primer preceded the data.
    #[serde(default)]
    pub primer: bool,
    /// `provider/model`.
    pub provider: String,
    /// Successful runs averaged.
    pub runs: usize,
    /// Failed calls.
    pub errors: usize,
    /// Mean weighted accuracy, 0..1.
    pub weighted_accuracy: f64,
    /// Mean accuracy per category name.
    pub accuracy_by_category: BTreeMap<String, f64>,
    /// Data tokens: the model's own counts where its provider counted them, else o200k_base.
    pub data_tokens: usize,
    /// Data tokens per non-null value (same basis).
    pub tokens_per_value: f64,
    /// What the data tokens rest on (`anthropic count_tokens`, `o200k_base`; empty in older
    /// logs, which ranked by o200k_base).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub token_basis: String,
}

/// One row of `sql/rankings.sql` as it comes back (percentages, nullable accuracies).
#[derive(Deserialize)]
struct Row {
    rank: usize,
    format: crate::formats::Format,
    structure: crate::dataset::Structure,
    variant: crate::dataset::Variant,
    provider: String,
    records: usize,
    dataset: String,
    primer: bool,
    weighted_accuracy_pct: Option<f64>,
    data_tokens: Option<usize>,
    tokens_per_value: Option<f64>,
    runs: usize,
    errors: usize,
    category_accuracy_pct: Option<BTreeMap<String, f64>>,
    #[serde(default)]
    token_basis: Option<String>,
}

/// The summary line's figures from SQL.
pub struct Figures {
    /// The rows of `sql/rankings.sql` (none for a `tasks` run, which `task_scores.sql` ranks).
    pub rankings: Vec<RankingRow>,
    /// Weighted accuracy (0..1) of each `provider/model`: the mean over the run's experiments
    /// (the sizes of a sweep) of its weighted accuracy over their complete runs.
    pub weighted_by_model: BTreeMap<String, f64>,
}

/// The figures of the run in `run_dir`.
pub fn of_run(run_dir: &Path) -> Result<Figures> {
    of_staged(&Analytics::open_run(run_dir)?)
}

/// The figures of the run `db` holds ([`Analytics::open_run`]), so that a caller with more to
/// ask of the run (`bench run`'s report) stages its log once.
pub fn of_staged(db: &Analytics) -> Result<Figures> {
    let by_model = db
        .query(sql::PROVIDER_COMPARISON)
        .context("running sql/provider_comparison.sql")?;
    // sql/provider_comparison.sql keeps experiments apart: one row per model and size.
    let mut per_model: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for (name, pct) in by_model.objects().filter_map(|o| {
        let name = format!(
            "{}/{}",
            o.get("provider")?.as_str()?,
            o.get("model")?.as_str()?
        );
        Some((name, o.get("weighted_accuracy_pct")?.as_f64()?))
    }) {
        per_model.entry(name).or_default().push(pct / 100.0);
    }
    let weighted_by_model = per_model
        .into_iter()
        .map(|(name, xs)| (name, xs.iter().sum::<f64>() / xs.len() as f64))
        .collect();
    Ok(Figures {
        rankings: rankings(db)?,
        weighted_by_model,
    })
}

/// The rows of `sql/rankings.sql`. A rendering with no successful run has weighted accuracy 0.
fn rankings(db: &Analytics) -> Result<Vec<RankingRow>> {
    let table = db
        .query(sql::RANKINGS)
        .context("running sql/rankings.sql")?;
    table
        .objects()
        .map(|o| {
            let r: Row = serde_json::from_value(o.into()).context("a row of sql/rankings.sql")?;
            Ok(RankingRow {
                rank: r.rank,
                format: r.format,
                structure: r.structure,
                variant: r.variant,
                records: r.records,
                dataset: r.dataset,
                primer: r.primer,
                provider: r.provider,
                runs: r.runs,
                errors: r.errors,
                weighted_accuracy: r.weighted_accuracy_pct.unwrap_or(0.0) / 100.0,
                accuracy_by_category: r
                    .category_accuracy_pct
                    .unwrap_or_default()
                    .into_iter()
                    .map(|(k, v)| (k, v / 100.0))
                    .collect(),
                data_tokens: r.data_tokens.unwrap_or(0),
                tokens_per_value: r.tokens_per_value.unwrap_or(0.0),
                token_basis: r.token_basis.unwrap_or_default(),
            })
        })
        .collect()
}
