//! The ranking with intervals and the paired comparisons against the baseline.

use super::cols;
use crate::doc::{Block, Cell};
use crate::numfmt::{interval, p_value as p, percent, points as pp, thousands as int};
use crate::report::data::{Family, ReportData};
use crate::report::decisions::family::varies;
use std::collections::BTreeMap;

/// The ranking with intervals, one table per model.
pub fn ranking(d: &ReportData) -> Vec<Block> {
    let (sizes, primers) = varies(&d.accuracy);
    let frontier: BTreeMap<(&Family, &str), bool> = d
        .pareto
        .iter()
        .map(|r| ((&r.family, r.format.as_str()), r.on_frontier))
        .collect();
    let mut out = vec![
        Block::Heading(2, "Ranking".into()),
        Block::Para(
            "Weighted accuracy is the mean over runs with its 95 % cluster-bootstrap interval (questions \
             resampled within category, 2,000 resamples); plain accuracy is over every answer with its Wilson \
             95 % interval and n; the run-to-run spread is min–max and standard deviation of weighted accuracy. \
             Efficiency = weighted accuracy % per 1,000 data tokens (o200k_base). Frontier ✓: no other format of \
             the same model and data is at least as accurate with at most as many tokens and better in one of \
             the two. Weighted accuracy, its spread and its interval use complete runs (a run with a failed call \
             is left out); plain accuracy uses every answered question."
                .into(),
        ),
    ];
    let mut models: Vec<String> = d.accuracy.iter().map(|r| r.family.model_label()).collect();
    models.dedup();
    for m in models {
        let mut rows: Vec<_> = d
            .accuracy
            .iter()
            .filter(|r| r.family.model_label() == m)
            .collect();
        // Ranked within each data shape: accuracy first, then fewer tokens.
        rows.sort_by(|a, b| {
            a.family
                .cmp(&b.family)
                .then(
                    b.weighted_accuracy
                        .unwrap_or(-1.0)
                        .total_cmp(&a.weighted_accuracy.unwrap_or(-1.0)),
                )
                .then(a.data_tokens.cmp(&b.data_tokens))
        });
        let mut rank = 0;
        let body = rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                rank = if i > 0 && rows[i - 1].family == r.family {
                    rank + 1
                } else {
                    1
                };
                let i = rank - 1;
                let spread = match (r.weighted_min, r.weighted_max) {
                    (Some(lo), Some(hi)) => format!(
                        "{:.1}–{:.1} (sd {})",
                        100.0 * lo,
                        100.0 * hi,
                        r.weighted_stdev
                            .map_or("–".into(), |s| format!("{:.1}", 100.0 * s))
                    ),
                    _ => "–".into(),
                };
                vec![
                    Cell::num((i + 1).to_string(), Some((i + 1) as f64)),
                    Cell::text(format!("`{}`", r.format)),
                    Cell::text(r.family.data_label(sizes, primers)),
                    Cell::num(percent(r.weighted_accuracy), r.weighted_accuracy),
                    Cell::text(interval(r.weighted_low, r.weighted_high)),
                    Cell::num(percent(r.accuracy), r.accuracy),
                    Cell::text(interval(r.wilson_low, r.wilson_high)),
                    Cell::num(int(r.n_answers), Some(r.n_answers as f64)),
                    Cell::num(
                        if r.failed_calls > 0 {
                            format!("{} ({} calls failed)", r.runs, r.failed_calls)
                        } else {
                            r.runs.to_string()
                        },
                        Some(r.runs as f64),
                    ),
                    Cell::text(spread),
                    Cell::num(
                        r.data_tokens.map_or("–".into(), int),
                        r.data_tokens.map(|t| t as f64),
                    ),
                    Cell::num(
                        r.efficiency.map_or("–".into(), |e| format!("{e:.2}")),
                        r.efficiency,
                    ),
                    Cell::text(
                        if frontier
                            .get(&(&r.family, r.format.as_str()))
                            .copied()
                            .unwrap_or(false)
                        {
                            "✓"
                        } else {
                            ""
                        },
                    ),
                ]
            })
            .collect();
        out.push(Block::Heading(3, format!("`{m}`")));
        out.push(Block::Table {
            columns: cols(&[
                "#",
                "format",
                "data",
                "weighted",
                "95 % CI",
                "accuracy",
                "Wilson 95 %",
                "n",
                "runs",
                "run spread (pp)",
                "data tokens",
                "efficiency",
                "frontier",
            ]),
            rows: body,
        });
    }
    out
}

/// The paired comparisons against the baseline.
pub fn comparisons(d: &ReportData) -> Vec<Block> {
    let (sizes, primers) = varies(&d.accuracy);
    let mut out = vec![
        Block::Heading(2, format!("Paired comparisons against `{}`", d.baseline)),
        Block::Para(format!(
            "Each format against `{}` on the same questions of the same runs (same model, structure, variant, \
             record count and primer). Δ weighted with its 95 % paired cluster-bootstrap interval; Δ accuracy over \
             the paired answers; discordant pairs +/− = (question, run) pairs only the format / only the baseline got right; \
             exact McNemar p (two-sided binomial on the discordant pairs) and Holm-adjusted p across the formats \
             of each model and data shape; significant when Holm p < 0.05. MDE = the smallest accuracy difference \
             these pairs detect with 80 % power at α = 0.05, from the observed discordance rate; runs needed = runs \
             that would detect the observed difference (not significant ones only).",
            d.baseline
        )),
    ];
    let rows = d
        .comparisons
        .iter()
        .map(|c| {
            vec![
                Cell::text(c.family.model_label()),
                Cell::text(c.family.data_label(sizes, primers)),
                Cell::text(format!("`{}`", c.format)),
                Cell::num(pp(c.delta_weighted_pp), c.delta_weighted_pp),
                Cell::text(match (c.delta_low_pp, c.delta_high_pp) {
                    (Some(l), Some(h)) => format!("[{l:+.1}, {h:+.1}]"),
                    _ => "–".into(),
                }),
                Cell::num(pp(c.delta_accuracy_pp), c.delta_accuracy_pp),
                Cell::num(int(c.n_pairs), Some(c.n_pairs as f64)),
                Cell::text(format!(
                    "+{} / −{}",
                    c.discordant_format_only, c.discordant_baseline_only
                )),
                Cell::num(p(c.p_value), Some(c.p_value)),
                Cell::num(p(c.p_holm), Some(c.p_holm)),
                Cell::text(if c.significant { "**yes**" } else { "no" }),
                Cell::num(
                    c.token_ratio.map_or("–".into(), |r| format!("{r:.2}×")),
                    c.token_ratio,
                ),
                Cell::num(
                    c.mde_pp.map_or("–".into(), |m| format!("{m:.1} pp")),
                    c.mde_pp,
                ),
                Cell::num(
                    c.runs_needed.map_or("–".into(), int),
                    c.runs_needed.map(|n| n as f64),
                ),
            ]
        })
        .collect();
    let compared: std::collections::BTreeSet<&Family> =
        d.comparisons.iter().map(|c| &c.family).collect();
    let mut missing: Vec<String> = d
        .accuracy
        .iter()
        .map(|r| &r.family)
        .filter(|f| !compared.contains(f))
        .filter(|f| d.accuracy.iter().filter(|r| &r.family == *f).count() > 1)
        .map(|f| format!("{}, {}", f.model_label(), f.data_label(sizes, primers)))
        .collect();
    missing.dedup();
    if !missing.is_empty() {
        out.push(Block::Para(format!(
            "No comparisons for {}: `{}` has no complete run there (a flat-only format in nested data, or every call \
             failed); `bench report --baseline FMT` picks another baseline.",
            missing.join("; "),
            d.baseline
        )));
    }
    out.push(Block::Table {
        columns: cols(&[
            "model",
            "data",
            "format",
            "Δ weighted",
            "95 % CI (pp)",
            "Δ accuracy",
            "pairs",
            "discordant +/−",
            "p",
            "Holm p",
            "significant",
            "token ratio",
            "MDE",
            "runs needed",
        ]),
        rows,
    });
    out
}
