//! The `summary` line: per-provider aggregates, per-question comparisons and format rankings,
//! computed from the result records of the run (warm-ups excluded).

use super::ResultRecord;
use super::rankings::RankingRow;
use crate::dataset::{Structure, Variant};
use crate::formats::Format;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// The `summary` line.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SummaryRecord {
    /// Run id.
    pub benchmark_id: String,
    /// Start time of the run.
    pub timestamp: String,
    /// Suite name.
    pub suite_name: String,
    /// Non-warm-up calls.
    pub total_samples: usize,
    /// Distinct provider/model pairs.
    pub total_providers: usize,
    /// Aggregates per `provider/model`.
    pub provider_summaries: Map<String, Value>,
    /// Best and worst provider per question.
    pub metric_comparisons: Map<String, Value>,
    /// Overall best/worst and durations.
    pub overall: Value,
    /// Format ranking.
    pub rankings: Vec<RankingRow>,
    /// Whether the run stopped early.
    pub interrupted: bool,
    /// Why it stopped early (Ctrl-C, budget, a provider failing for good).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// Providers that gave no answer at all, or were stopped with calls left: each says why
    /// and how many calls it left undone (the ranking holds no rows of a provider that never
    /// answered).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub provider_issues: Vec<ProviderIssue>,
}

/// A provider the run got no answer from, or stopped calling before its plan was done.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProviderIssue {
    /// `provider/model`.
    pub provider: String,
    /// Whether none of its measured calls succeeded: "no answers from" it.
    pub no_answers: bool,
    /// Its measured calls that failed (written as results with `error`).
    pub failed_calls: usize,
    /// Its planned calls never sent, because it (or the run) was stopped; `bench run --resume`
    /// sends them.
    pub not_sent: usize,
    /// Why: the message it was stopped with, else its first failed call's error.
    pub reason: Option<String>,
}

impl ProviderIssue {
    /// What happened, without why: `no answers from P (N failed, M calls not sent)`.
    pub fn headline(&self) -> String {
        let unsent = if self.not_sent > 0 {
            format!(", {} calls not sent", self.not_sent)
        } else {
            String::new()
        };
        let counts = format!("({} failed{unsent})", self.failed_calls);
        if self.no_answers {
            format!("no answers from {} {counts}", self.provider)
        } else {
            format!("{} was stopped {counts}", self.provider)
        }
    }

    /// The headline and why, on one line.
    pub fn describe(&self) -> String {
        match &self.reason {
            Some(why) => format!("{}: {why}", self.headline()),
            None => self.headline(),
        }
    }
}

fn key(r: &ResultRecord) -> String {
    format!("{}/{}", r.provider_config.provider, r.provider_config.model)
}

fn mean(xs: impl Iterator<Item = f64>) -> f64 {
    let (s, n) = xs.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    if n == 0 { 0.0 } else { s / n as f64 }
}

/// Builds the summary from every result of the run and the figures SQL computes for it
/// (`runlog::rankings::of_run`: the ranking and each model's weighted accuracy are defined
/// once, in SQL).
pub fn build_summary(
    id: &str,
    timestamp: &str,
    suite: &str,
    results: &[ResultRecord],
    figures: super::rankings::Figures,
    interrupted: bool,
) -> SummaryRecord {
    let merged = merge_questions(results);
    let scored: Vec<&ResultRecord> = merged.iter().filter(|r| !r.warmup).collect();
    let mut by_provider: BTreeMap<String, Vec<&ResultRecord>> = BTreeMap::new();
    for r in &scored {
        by_provider.entry(key(r)).or_default().push(r);
    }
    let mut provider_summaries = Map::new();
    let mut per_question: BTreeMap<String, BTreeMap<String, (f64, f64, usize)>> = BTreeMap::new();
    for (p, rs) in &by_provider {
        let ok: Vec<&&ResultRecord> = rs.iter().filter(|r| r.error.is_none()).collect();
        let mut metrics: BTreeMap<String, (f64, f64, usize)> = BTreeMap::new();
        for r in &ok {
            for m in &r.metrics {
                let e = metrics.entry(m.metric.clone()).or_default();
                e.0 += f64::from(m.passed);
                e.1 += m.score;
                e.2 += 1;
            }
        }
        let metric_json: Map<String, Value> = metrics
            .iter()
            .map(|(k, (p, s, n))| {
                (
                    k.clone(),
                    json!({"pass_rate": p / *n as f64, "avg_score": s / *n as f64}),
                )
            })
            .collect();
        for (k, v) in metrics {
            per_question.entry(k).or_default().insert(p.clone(), v);
        }
        provider_summaries.insert(
            p.clone(),
            json!({
                "total_evaluations": rs.len(),
                "errors": rs.len() - ok.len(),
                "avg_pass_rate": mean(ok.iter().map(|r| r.summary.pass_rate)),
                "avg_weighted_accuracy": figures.weighted_by_model.get(p).copied().unwrap_or(0.0),
                "avg_latency_ms": mean(rs.iter().map(|r| r.timing.provider_latency_ms as f64)),
                "total_cost": rs.iter().filter_map(|r| r.cost_usd).sum::<f64>(),
                "metrics": metric_json,
            }),
        );
    }
    let metric_comparisons = per_question
        .into_iter()
        .map(|(q, ps)| {
            let rate = |(p, s, n): &(f64, f64, usize)| (p / *n as f64, s / *n as f64);
            let best = ps
                .iter()
                .max_by(|a, b| rate(a.1).partial_cmp(&rate(b.1)).expect("finite"))
                .expect("non-empty");
            let worst = ps
                .iter()
                .min_by(|a, b| rate(a.1).partial_cmp(&rate(b.1)).expect("finite"))
                .expect("non-empty");
            let spread = rate(best.1).0 - rate(worst.1).0;
            (
                q,
                json!({"best_provider": best.0, "worst_provider": worst.0, "spread": spread}),
            )
        })
        .collect();
    let accuracy = |p: &str| {
        provider_summaries[p]["avg_weighted_accuracy"]
            .as_f64()
            .unwrap_or(0.0)
    };
    let names: Vec<&String> = provider_summaries.keys().collect();
    let best = names
        .iter()
        .max_by(|a, b| accuracy(a).total_cmp(&accuracy(b)));
    let worst = names
        .iter()
        .min_by(|a, b| accuracy(a).total_cmp(&accuracy(b)));
    let overall = json!({
        "best_provider": best,
        "worst_provider": worst,
        "avg_duration_ms": mean(scored.iter().map(|r| r.sample.duration_ms as f64)),
        "total_duration_ms": scored.iter().map(|r| r.sample.duration_ms).sum::<u64>(),
    });
    SummaryRecord {
        benchmark_id: id.into(),
        timestamp: timestamp.into(),
        suite_name: suite.into(),
        total_samples: scored.len(),
        total_providers: by_provider.len(),
        provider_summaries,
        metric_comparisons,
        overall,
        rankings: figures.rankings,
        interrupted,
        stop_reason: None,
        provider_issues: Vec::new(),
    }
}

/// provider/model, format, structure, variant, records, primer, run.
type RunKey = (String, Format, Structure, Variant, usize, bool, u32);

/// In per-question mode, the calls of one run (one per question) become one record whose
/// metrics are those of its successful calls; it failed only if every call failed. Batch
/// results pass through unchanged.
fn merge_questions(results: &[ResultRecord]) -> Vec<ResultRecord> {
    let mut out: Vec<ResultRecord> = Vec::new();
    let mut runs: BTreeMap<RunKey, Vec<&ResultRecord>> = BTreeMap::new();
    for r in results {
        if r.question.is_none() {
            out.push(r.clone());
        } else {
            runs.entry((
                key(r),
                r.format,
                r.structure,
                r.variant,
                r.records,
                r.primer,
                r.run,
            ))
            .or_default()
            .push(r);
        }
    }
    for calls in runs.into_values() {
        let ok: Vec<&&ResultRecord> = calls.iter().filter(|r| r.error.is_none()).collect();
        let mut m = calls[0].clone();
        m.question = None;
        m.metrics = ok.iter().flat_map(|r| r.metrics.iter().cloned()).collect();
        m.summary = crate::grading::summarize(&m.metrics);
        // Like a failed batch call, a run with a failed question is left out of the averages
        // and counted as an error (its answers stay in the log).
        let failed = calls.len() - ok.len();
        m.error = calls.iter().find_map(|r| r.error.clone()).map(|first| {
            format!(
                "{failed} of {} per-question calls failed; first: {first}",
                calls.len()
            )
        });
        m.timing.provider_latency_ms = calls.iter().map(|r| r.timing.provider_latency_ms).sum();
        m.sample.duration_ms = calls.iter().map(|r| r.sample.duration_ms).sum();
        m.cost_usd = calls.iter().map(|r| r.cost_usd).sum();
        out.push(m);
    }
    out
}
