//! bench's paired verdict on an imported run, per model: each format against the source's
//! baseline, paired by question. Every number is the report's own (`report::data::gather`:
//! `sql/paired_comparison.sql` for McNemar with Holm and Tango's non-inferiority test, the
//! question-clustered bootstrap of `stats` for Δ's interval, `sql/accuracy.sql` for accuracy
//! per token); this module only puts them in words.

use crate::report::data::{AccuracyRow, ComparisonRow};
use anyhow::Result;
use std::path::Path;

/// One format against the baseline on one model.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Verdict {
    /// The model.
    pub model: String,
    /// The data's variant (the seed asks every format of mandatory and of optional data).
    pub variant: String,
    /// The format.
    pub format: String,
    /// The baseline format.
    pub baseline: String,
    /// Weighted accuracy of the format, percent (plain accuracy when the source has one
    /// category, as the TOON benchmark's).
    pub accuracy_pct: Option<f64>,
    /// Δ weighted accuracy against the baseline, percentage points, over the runs both
    /// answered: the number the bootstrap interval is around.
    pub delta_pp: Option<f64>,
    /// Question-clustered bootstrap 95 % interval of Δ, pp.
    pub delta_low_pp: Option<f64>,
    /// Its upper bound.
    pub delta_high_pp: Option<f64>,
    /// Exact McNemar p, Holm-adjusted across the model's formats.
    pub p_holm: f64,
    /// Non-inferior within the margin (Tango after Holm, and the bootstrap bound).
    pub noninferior: bool,
    /// The margin, pp.
    pub margin_pp: f64,
    /// Tokens of the format / of the baseline: billed, else the o200k_base count of the data.
    pub token_ratio: Option<f64>,
    /// Accuracy % per 1,000 of those tokens.
    pub accuracy_per_1k_tokens: Option<f64>,
    /// Paired questions.
    pub pairs: i64,
    /// The decision in words.
    pub decision: String,
}

/// The decision in words: worse, better, non-inferior at its token ratio (of `tokens`: billed
/// tokens, or the o200k_base count of the data), or undecided with the questions that would
/// decide.
fn decision(c: &ComparisonRow, several_variants: bool, tokens: &str) -> String {
    let m = if several_variants {
        format!("{} ({} data)", c.family.model, c.family.variant)
    } else {
        c.family.model.clone()
    };
    let (f, b) = (&c.format, &c.baseline);
    let ratio = c
        .token_ratio
        .map(|r| format!(" at {r:.2}× its {tokens}"))
        .unwrap_or_default();
    // The Δ the interval is around (weighted), and McNemar's on the (question, run) pairs.
    let delta = c.delta_weighted_pp.unwrap_or(0.0);
    let plain = c.delta_accuracy_pp.unwrap_or(0.0);
    if c.worse() {
        format!(
            "on {m}, {f} is worse than {b} ({delta:+.1} pp; McNemar on the pairs {plain:+.1} pp, \
             Holm p {:.3})",
            c.p_holm
        )
    } else if c.significant && plain > 0.0 {
        format!(
            "on {m}, {f} is better than {b} ({delta:+.1} pp; McNemar on the pairs {plain:+.1} pp, \
             Holm p {:.3}){ratio}",
            c.p_holm
        )
    } else if c.noninferior() {
        format!("on {m}, {f} is non-inferior to {b}{ratio}")
    } else {
        let per_run = c.n_pairs as f64 / c.runs.max(1) as f64;
        let more = c
            .runs_needed_ni
            .or(c.runs_needed)
            .map(|r| ((r - c.runs).max(1) as f64 * per_run).round() as i64);
        match more {
            // Past 20 times the questions asked (Δ on the pairs near −margin), more of the same
            // questions is no practical way to decide; an exact count would mislead.
            Some(n) if n > 20 * c.n_pairs => format!(
                "on {m}, {f} against {b}: undecided: at the pairs' Δ ({plain:+.1} pp) over {} \
                 questions would be needed, so more of the same questions cannot decide it",
                crate::numfmt::thousands(20 * c.n_pairs)
            ),
            Some(n) => format!(
                "on {m}, {f} against {b}: undecided: about {} more questions would decide",
                crate::numfmt::thousands(n)
            ),
            None => format!(
                "on {m}, {f} against {b}: undecided: Δ {delta:+.1} pp is not within the \
                 {:.0} pp margin and not shown worse",
                c.margin_pp
            ),
        }
    }
}

/// What the token ratio counts: the source's billed tokens, or (where it published none, as the
/// seed) bench's o200k_base count of the data file (`ranked_tokens` in sql/views.sql).
fn tokens_named(a: Option<&AccuracyRow>) -> &'static str {
    match a.and_then(|a| a.token_basis.as_deref()) {
        Some("o200k_base") => "data tokens (o200k_base)",
        _ => "billed tokens",
    }
}

/// The verdicts of the run in `dir` against `baseline`, model by model.
pub fn verdicts(dir: &Path, baseline: &str) -> Result<Vec<Verdict>> {
    let d = crate::report::data::gather::gather(dir, baseline)?;
    let acc = |c: &ComparisonRow| -> Option<&AccuracyRow> {
        d.accuracy
            .iter()
            .find(|a| a.family == c.family && a.format == c.format)
    };
    let several = d
        .comparisons
        .iter()
        .any(|c| c.family.variant != d.comparisons[0].family.variant);
    let mut out: Vec<Verdict> = d
        .comparisons
        .iter()
        .map(|c| Verdict {
            model: c.family.model.clone(),
            variant: c.family.variant.clone(),
            format: c.format.clone(),
            baseline: c.baseline.clone(),
            accuracy_pct: acc(c).and_then(|a| a.weighted_accuracy).map(|x| 100.0 * x),
            delta_pp: c.delta_weighted_pp,
            delta_low_pp: c.delta_low_pp,
            delta_high_pp: c.delta_high_pp,
            p_holm: c.p_holm,
            noninferior: c.noninferior(),
            margin_pp: c.margin_pp,
            token_ratio: c.token_ratio,
            accuracy_per_1k_tokens: acc(c).and_then(|a| a.efficiency),
            pairs: c.n_pairs,
            decision: decision(c, several, tokens_named(acc(c))),
        })
        .collect();
    out.sort_by(|a, b| (&a.model, &a.variant, &a.format).cmp(&(&b.model, &b.variant, &b.format)));
    Ok(out)
}

/// The verdicts as an aligned text table, one block per model.
pub fn table(vs: &[Verdict]) -> String {
    let pct = |x: Option<f64>| x.map_or("–".into(), |v| format!("{v:.1}"));
    let mut out = String::new();
    let several = vs.iter().any(|v| v.variant != vs[0].variant);
    let mut group = String::new();
    for v in vs {
        let name = if several {
            format!("{} · {} data", v.model, v.variant)
        } else {
            v.model.clone()
        };
        if name != group {
            group = name;
            out.push_str(&format!(
                "\n{group} (against {}, margin {:.0} pp)\n  {:<13} {:>6} {:>24} {:>8} {:>6} {:>7} {:>9}\n",
                v.baseline,
                v.margin_pp,
                "format",
                "w.acc%",
                "Δ w. pp [95 % bootstrap]",
                "Holm p",
                "pairs",
                "tokens",
                "acc%/1k",
            ));
        }
        let interval = format!(
            "{} [{}, {}]",
            v.delta_pp.map_or("–".into(), |d| format!("{d:+.1}")),
            pct(v.delta_low_pp),
            pct(v.delta_high_pp)
        );
        out.push_str(&format!(
            "  {:<13} {:>6} {:>24} {:>8.3} {:>6} {:>7} {:>9}\n  → {}\n",
            v.format,
            pct(v.accuracy_pct),
            interval,
            v.p_holm,
            v.pairs,
            v.token_ratio.map_or("–".into(), |r| format!("{r:.2}×")),
            pct(v.accuracy_per_1k_tokens),
            v.decision
        ));
    }
    out
}
