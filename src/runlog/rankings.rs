//! The run's ranking as `sql/rankings.sql` computes it, typed for the summary line and the
//! table `bench run` prints: the one definition of the ranking (ties share a rank).

use super::RankingRow;
use crate::analytics::{Analytics, sql};
use anyhow::{Context, Result};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// One row of `sql/rankings.sql` as it comes back (percentages, nullable accuracies).
#[derive(Deserialize)]
struct Row {
    rank: usize,
    format: crate::formats::Format,
    structure: crate::dataset::Structure,
    variant: crate::dataset::Variant,
    provider: String,
    records: usize,
    primer: bool,
    weighted_accuracy_pct: Option<f64>,
    data_tokens: Option<usize>,
    tokens_per_value: Option<f64>,
    runs: usize,
    errors: usize,
    category_accuracy_pct: Option<BTreeMap<String, f64>>,
}

/// The rankings of the run in `run_dir` (none for a `tasks` run, which `task_scores.sql`
/// ranks). A rendering with no successful run has weighted accuracy 0.
pub fn of_run(run_dir: &Path) -> Result<Vec<RankingRow>> {
    let table = Analytics::open_run(run_dir)?
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
            })
        })
        .collect()
}
