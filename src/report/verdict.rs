//! The verdict and the key findings, written from the numbers only: a format is called better or
//! worse only when its Holm-adjusted exact McNemar test says so at α = 0.05, and every accuracy
//! claim carries its p-value; token claims are exact counts, not estimates.

use super::data::{AccuracyRow, ComparisonRow, Family, ReportData, best_per_family};
use super::doc::{Block, Cell};
use std::collections::{BTreeMap, BTreeSet};

pub use crate::numfmt::percent as pct;

pub use crate::numfmt::interval;

pub use crate::numfmt::points as pp;

pub use crate::numfmt::p_value as p;

pub use crate::numfmt::thousands as int;

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

/// The note every report of a reference run carries.
pub const REFERENCE_NOTE: &str = "`reference` is bench's offline self-check, not a model: it decodes each rendering \
     with the format's own decoder and answers from what it decoded, so 100 % proves the rendering is lossless \
     and the answer key consistent. Its accuracy says nothing about how an LLM reads a format; its token counts \
     are real.";

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
    /// Its data tokens (o200k_base).
    pub fewest_tokens_count: Option<i64>,
    /// The format with the highest weighted accuracy % per 1,000 data tokens.
    pub best_per_1k_tokens: Option<String>,
    /// Non-inferiority within the margin and the format to use.
    #[serde(flatten)]
    pub decision: super::decision::Decision,
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
            decision: super::decision::decide(d, family, &b.format),
            best_efficiency: efficient.and_then(|e| e.efficiency),
        });
    }
    rows
}

/// The verdict table.
fn verdict_table(d: &ReportData, verdicts: &[VerdictRow]) -> Block {
    let (sizes, primers) = varies(&d.accuracy);
    let nothing_right = families_with_nothing_right(d);
    let rows = verdicts
        .iter()
        .map(|v| {
            let others: Vec<String> = v
                .decision
                .noninferior
                .iter()
                .map(|f| format!("`{f}`"))
                .collect();
            let none_right = nothing_right.contains(&v.family);
            vec![
                Cell::text(v.family.model_label()),
                Cell::text(v.family.data_label(sizes, primers)),
                Cell::text(if none_right {
                    "none: no format got any answer right".to_string()
                } else {
                    format!(
                        "`{}` {} {}",
                        v.most_accurate,
                        pct(v.weighted_accuracy),
                        interval(v.weighted_low, v.weighted_high)
                    )
                }),
                Cell::text(if others.is_empty() {
                    "none".into()
                } else {
                    others.join(", ")
                }),
                Cell::text(super::decision::cell(&v.decision)),
                Cell::text(v.best_per_1k_tokens.as_ref().map_or("–".into(), |f| {
                    format!(
                        "`{f}` ({:.2} %/1k tokens)",
                        v.best_efficiency.unwrap_or(0.0)
                    )
                })),
            ]
        })
        .collect();
    Block::Table {
        columns: [
            "model",
            "data",
            "most accurate (weighted, 95 % CI)",
            "non-inferior within the margin (fewest tokens first)",
            "use",
            "best per 1,000 tokens",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    }
}

/// One sentence per comparison worth reading; the rest of a family summarised in one line.
fn comparison_findings(d: &ReportData) -> Vec<String> {
    let (sizes, primers) = varies(&d.accuracy);
    let mut by_family: BTreeMap<&Family, Vec<&ComparisonRow>> = BTreeMap::new();
    for c in &d.comparisons {
        by_family.entry(&c.family).or_default().push(c);
    }
    let mut out = Vec::new();
    for (family, rows) in by_family {
        let label = format!(
            "{}, {}",
            family.model_label(),
            family.data_label(sizes, primers)
        );
        let mut identical = Vec::new();
        let mut quiet = Vec::new();
        for c in rows {
            let ratio = c.token_ratio.map_or("–".into(), |r| format!("{r:.2}×"));
            // The tested quantity: plain accuracy over the paired answers.
            let delta = c.delta_accuracy_pp.unwrap_or(0.0);
            let weighted = match (c.delta_weighted_pp, c.delta_low_pp, c.delta_high_pp) {
                (Some(w), Some(l), Some(h)) => {
                    format!("; weighted Δ {w:+.1} pp, 95 % CI [{l:+.1}, {h:+.1}]")
                }
                (Some(w), _, _) => format!("; weighted Δ {w:+.1} pp"),
                _ => String::new(),
            };
            let test = format!(
                "exact McNemar p = {}, Holm-adjusted p = {}, {} paired answers{weighted}",
                p(c.p_value),
                p(c.p_holm),
                int(c.n_pairs)
            );
            // The question-clustered interval includes 0: the difference may rest on the same
            // questions repeated across runs, which McNemar counts as independent pairs.
            let unconfirmed = matches!(
                (c.delta_low_pp, c.delta_high_pp),
                (Some(l), Some(h)) if l <= 0.0 && h >= 0.0
            );
            if c.discordant_format_only + c.discordant_baseline_only == 0 {
                identical.push(format!("`{}`", c.format));
            } else if c.significant && !unconfirmed {
                out.push(format!(
                    "**{label}**: `{}` got {:.1} pp {} of the paired answers right than `{}` ({test}) and uses \
                     {ratio} its data tokens.",
                    c.format,
                    delta.abs(),
                    if delta >= 0.0 { "more" } else { "fewer" },
                    c.baseline,
                ));
            } else if c.significant {
                out.push(format!(
                    "**{label}**: `{}` differs from `{}` by {delta:+.1} pp of the paired answers ({test}), but the \
                     question-clustered interval includes zero: the difference may come from the same questions \
                     repeated across runs, so it is not confirmed.",
                    c.format, c.baseline,
                ));
            } else if c.token_ratio.is_some_and(|r| r < 1.0) {
                let more = match c.runs_needed {
                    Some(n) if n > c.runs => format!(
                        "; about {} runs in total (this run has {}) would detect a difference this size with 80 % \
                         power if answers vary between runs, so run {} more to tell",
                        int(n),
                        c.runs,
                        int(n - c.runs)
                    ),
                    Some(_) => {
                        "; a difference this size is near the edge of what this run can detect"
                            .into()
                    }
                    None => String::new(),
                };
                out.push(format!(
                    "**{label}**: `{}` costs {ratio} the data tokens of `{}` and got {:.1} pp {} of the paired answers \
                     right, which is not significant ({test}){more}.",
                    c.format,
                    c.baseline,
                    delta.abs(),
                    if delta >= 0.0 { "more" } else { "fewer" },
                ));
            } else {
                quiet.push(format!(
                    "`{}` ({}, Holm p = {}{})",
                    c.format,
                    pp(c.delta_accuracy_pp),
                    p(c.p_holm),
                    c.token_ratio
                        .map_or(", tokens unknown".into(), |r| format!(", {r:.2}× tokens"))
                ));
            }
        }
        if !identical.is_empty() {
            out.push(format!(
                "**{label}**: {} were graded exactly as `{}` on every paired answer (no discordant pairs, p = 1).",
                identical.join(", "),
                d.baseline
            ));
        }
        if !quiet.is_empty() {
            out.push(format!(
                "**{label}**: no significant difference from `{}` in paired accuracy for {}.",
                d.baseline,
                quiet.join(", ")
            ));
        }
    }
    out
}

/// The fewest-token format of each data shape, by exact o200k_base count.
fn token_findings(d: &ReportData) -> Vec<String> {
    // (records, structure, variant) → (format, tokens).
    type Shape<'a> = (i64, &'a str, &'a str);
    let mut shapes: BTreeMap<Shape, Vec<(&str, i64)>> = BTreeMap::new();
    for t in d.tokens.iter().filter(|t| t.tokenizer == "o200k_base") {
        shapes
            .entry((t.records, t.structure.as_str(), t.variant.as_str()))
            .or_default()
            .push((t.format.as_str(), t.tokens));
    }
    let sizes = shapes.keys().map(|k| k.0).collect::<BTreeSet<_>>().len() > 1;
    shapes
        .into_iter()
        .filter_map(|((records, s, v), mut fs)| {
            fs.sort_by_key(|&(f, n)| (n, f));
            let &(f, n) = fs.first()?;
            let base = fs.iter().find(|(b, _)| *b == d.baseline).map(|&(_, b)| b);
            let ratio = base
                .filter(|&b| b > 0 && f != d.baseline)
                .map(|b| format!(" ({:.2}× `{}`)", n as f64 / b as f64, d.baseline))
                .unwrap_or_default();
            let shape = super::data::shape_label(s, v, records, sizes);
            Some(format!(
                "Fewest data tokens for {shape}: `{f}` with {} o200k_base tokens{ratio} (exact count).",
                int(n)
            ))
        })
        .collect()
}

/// Families where no format got a single answer right: nothing to rank on accuracy.
fn families_with_nothing_right(d: &ReportData) -> BTreeSet<&Family> {
    let mut families: BTreeMap<&Family, bool> = BTreeMap::new();
    for r in &d.accuracy {
        *families.entry(&r.family).or_insert(true) &= r.n_correct == 0;
    }
    families
        .into_iter()
        .filter_map(|(f, none)| none.then_some(f))
        .collect()
}

/// The finding for each family where no format got a single answer right: when no call got
/// any answer at all, that is what it says ("no answers from P"), not a fault of the replies.
fn nothing_right(d: &ReportData) -> Vec<String> {
    let (sizes, primers) = varies(&d.accuracy);
    families_with_nothing_right(d)
        .into_iter()
        .map(|f| {
            let rows = d.accuracy.iter().filter(|r| &r.family == f);
            let (answers, failed) = rows.fold((0, 0), |(a, x), r| (a + r.n_answers, x + r.failed_calls));
            if answers == 0 && failed > 0 {
                return format!(
                    "**{}, {}**: no answers from {}: every call failed ({} failed; their `error` fields \
                     say why), so this run has no accuracy to rank; only the token counts carry \
                     information.",
                    f.model_label(),
                    f.data_label(sizes, primers),
                    f.model_label(),
                    int(failed)
                );
            }
            format!(
                "**{}, {}**: no format got a single answer right, so this run cannot rank formats by accuracy \
                 (the failure modes below say why: unparseable or truncated replies point at the model or \
                 `max_tokens`, not at the format); only the token counts carry information.",
                f.model_label(),
                f.data_label(sizes, primers)
            )
        })
        .collect()
}

/// Every key finding, in report order.
pub fn findings(d: &ReportData, verdicts: &[VerdictRow]) -> Vec<String> {
    let failed: i64 = d.accuracy.iter().map(|r| r.failed_calls).sum();
    let mut findings = nothing_right(d);
    let (sizes, primers) = varies(&d.accuracy);
    for v in verdicts {
        let label = format!(
            "{}, {}",
            v.family.model_label(),
            v.family.data_label(sizes, primers)
        );
        findings.extend(super::decision::findings(d, v, &label));
    }
    findings.extend(comparison_findings(d));
    findings.extend(super::wording::findings(d));
    findings.extend(token_findings(d));
    if failed > 0 {
        findings.push(format!(
            "{} calls failed: plain accuracy uses the questions they did answer, weighted accuracy and the paired \
             comparisons leave their runs out (`bench run --resume DIR --retry-errors` re-runs them).",
            int(failed)
        ));
    }
    findings
}

/// The verdict section: reference note, verdict table, key findings.
pub fn verdict(d: &ReportData, verdicts: &[VerdictRow], findings: &[String]) -> Vec<Block> {
    let mut out = vec![Block::Heading(2, "Verdict".into())];
    if let Some(why) = d.run.incomplete() {
        out.push(Block::Para(format!(
            "**Incomplete run.** This report covers only the calls made so far: {why}. `bench run --resume {}` \
             completes it, then `bench report` again.",
            d.run.dir.display()
        )));
    }
    if has_reference(d) {
        out.push(Block::Para(format!("**Note.** {REFERENCE_NOTE}")));
    }
    out.push(Block::Para(format!(
        "Per model and data shape: the most accurate format by weighted accuracy; the formats shown \
         **non-inferior** to it within a margin of {} percentage points — on the same questions and runs, \
         Tango's score test of a loss of at least the margin rejects it (one-sided α = 0.05, Holm-adjusted \
         across the formats) and the question-clustered bootstrap 95 % interval of Δ weighted accuracy lies \
         above minus the margin; the format to **use**: the one with the fewest data tokens among the most \
         accurate and those, or, while a cheaper format is neither shown non-inferior nor shown worse, how many \
         more runs would settle it; and the highest weighted accuracy per 1,000 data tokens. A format missing \
         from the non-inferior list is not shown to be worse: the comparisons below say which were.",
        d.run.margin_pp()
    )));
    out.push(verdict_table(d, verdicts));
    out.push(Block::Heading(
        3,
        format!("Key findings (baseline `{}`)", d.baseline),
    ));
    out.push(Block::Bullets(findings.to_vec()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_people_write_them() {
        assert_eq!(int(1234567), "1,234,567");
        assert_eq!(int(-1000), "-1,000");
        assert_eq!(int(12), "12");
        assert_eq!(p(0.0004), "< 0.001");
        assert_eq!(p(0.41), "0.410");
        assert_eq!(p(0.0496), "0.0496");
        assert_eq!(p(0.0504), "0.0504");
        assert_eq!(p(0.00149), "0.00149");
        assert_eq!(p(1.0), "1");
        assert_eq!(pp(Some(-1.24)), "-1.2 pp");
        assert_eq!(pp(Some(0.01)), "±0.0 pp");
        assert_eq!(pct(Some(0.8034)), "80.3 %");
        assert_eq!(interval(Some(0.5), Some(0.75)), "[50.0, 75.0]");
    }
}
