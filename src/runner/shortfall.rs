//! What a run owes its user about each provider: which one gave no answer at all, which one was
//! stopped with calls never sent, and why. The summary line keeps it, the screen and the exit
//! status say it, and the ranking holds no row of a provider that never answered (a row of
//! zeros would read as a result).

use super::plan::SampleKey;
use super::state::ProviderRun;
use crate::runlog::{ProviderIssue, RankingRow, ResultRecord};
use std::collections::HashSet;
use std::sync::Arc;

/// Each provider with planned calls that got no successful measured call, or was stopped for
/// good with planned calls not sent; `stopped` is why the whole run ended early, if it did.
pub(super) fn issues(
    runs: &[Arc<ProviderRun>],
    planned: &[SampleKey],
    have: &HashSet<SampleKey>,
    results: &[ResultRecord],
    stopped: Option<&str>,
) -> Vec<ProviderIssue> {
    let mut out = Vec::new();
    for p in runs {
        let (name, model) = (p.provider.name(), p.provider.model());
        let mine: Vec<&SampleKey> = planned
            .iter()
            .filter(|k| k.provider == name && k.model == model)
            .collect();
        if mine.is_empty() {
            continue;
        }
        let measured: Vec<&ResultRecord> = results
            .iter()
            .filter(|r| {
                !r.warmup && r.provider_config.provider == name && r.provider_config.model == model
            })
            .collect();
        // A conversation whose later turn failed still got answers (its `turns`).
        let answered = measured
            .iter()
            .any(|r| r.error.is_none() || !r.turns.is_empty());
        let fatal = p.fatal.get();
        if answered && fatal.is_none() {
            continue;
        }
        let failed: Vec<&str> = measured.iter().filter_map(|r| r.error.as_deref()).collect();
        let not_sent = mine.iter().filter(|k| !have.contains(k)).count();
        let reason = fatal
            .cloned()
            .or_else(|| failed.first().map(|e| e.to_string()))
            .or_else(|| {
                (not_sent > 0)
                    .then(|| stopped.map(str::to_string))
                    .flatten()
            });
        out.push(ProviderIssue {
            provider: format!("{name}/{model}"),
            no_answers: !answered,
            failed_calls: failed.len(),
            not_sent,
            reason,
        });
    }
    out
}

/// The ranking without the rows of providers that never answered: their accuracy is not
/// zero, it is unknown (the summary's `provider_issues` says so instead).
pub(super) fn ranked(rows: Vec<RankingRow>, issues: &[ProviderIssue]) -> Vec<RankingRow> {
    let silent: HashSet<&str> = issues
        .iter()
        .filter(|i| i.no_answers)
        .map(|i| i.provider.as_str())
        .collect();
    rows.into_iter()
        .filter(|r| !silent.contains(r.provider.as_str()))
        .collect()
}
