//! The verdict and the key findings, written from the numbers only: a format is called better or
//! worse only when its Holm-adjusted exact McNemar test says so at α = 0.05, and every accuracy
//! claim carries its p-value; token claims are exact counts, not estimates. The numbers come
//! from `decision`; this module only words them.

use crate::doc::{Block, Cell};
use crate::numfmt::{interval, p_value as p, percent, points as pp, thousands as int};
use crate::report::data::{ComparisonRow, Family, ReportData};
use crate::report::decisions::family::{
    Decision, VerdictRow, families_with_nothing_right, has_reference, varies,
};
use std::collections::{BTreeMap, BTreeSet};

/// The note every report of a reference run carries.
pub const REFERENCE_NOTE: &str = "`reference` is bench's offline self-check, not a model: it decodes each rendering \
     with the format's own decoder and answers from what it decoded, so 100 % proves the rendering is lossless \
     and the answer key consistent. Its accuracy says nothing about how an LLM reads a format; its token counts \
     are real.";

/// The recommendation cell of the verdict table, with the basis of its token count.
fn decision_cell(v: &Decision, basis: &str) -> String {
    let chosen = format!(
        "**`{}`** ({} tokens, {basis})",
        v.recommendation,
        v.recommendation_tokens.map_or("–".into(), int)
    );
    if v.decided {
        return chosen;
    }
    let which: Vec<String> = v.undecided.iter().map(|f| format!("`{f}`")).collect();
    format!(
        "{chosen} for now; not yet decided: about {} more run(s) would settle {}",
        v.more_runs.map_or("–".into(), int),
        which.join(", ")
    )
}

/// The evidence of one comparison against the most accurate format.
fn evidence(c: &ComparisonRow) -> String {
    format!(
        "Δ {:+.1} pp of the paired answers, 90 % lower bound {:+.1} pp; one-sided Tango p = {}, Holm {}; \
         question-clustered 95 % lower bound of Δ weighted {:+.1} pp",
        c.delta_accuracy_pp.unwrap_or(0.0),
        c.ni_low_pp.unwrap_or(f64::NAN),
        c.ni_p.map_or("–".into(), p),
        c.ni_p_holm.map_or("–".into(), p),
        c.delta_low_pp.unwrap_or(f64::NAN),
    )
}

/// The decision of one family in words: the recommended format's evidence when it is not the
/// most accurate, the other non-inferior formats in one line, and what is still open.
fn decision_findings(d: &ReportData, v: &VerdictRow, label: &str) -> Vec<String> {
    let dv = &v.decision;
    let row = |f: &str| {
        d.versus_best
            .iter()
            .find(|c| c.family == v.family && c.format == f)
    };
    let mut out = Vec::new();
    if let Some(c) = row(&dv.recommendation) {
        let ratio = c
            .token_ratio
            .map_or(String::new(), |r| format!(", at {r:.2}× its data tokens"));
        out.push(format!(
            "**{label}**: use `{}`: it is within {} points of the most accurate `{}` ({}){ratio}.",
            c.format,
            dv.margin_pp,
            v.most_accurate,
            evidence(c)
        ));
    }
    let others: Vec<String> = dv
        .noninferior
        .iter()
        .filter(|f| **f != dv.recommendation)
        .map(|f| format!("`{f}`"))
        .collect();
    let are = if others.len() == 1 { "is" } else { "are" };
    if !others.is_empty() && dv.recommendation != v.most_accurate {
        out.push(format!(
            "**{label}**: {} {are} also within {} points of `{}` (same test), with more data tokens than `{}`.",
            others.join(", "),
            dv.margin_pp,
            v.most_accurate,
            dv.recommendation
        ));
    } else if !others.is_empty() {
        out.push(format!(
            "**{label}**: {} {are} within {} points of the most accurate `{}` (Tango's test, Holm-adjusted, and the \
             question-clustered bootstrap), but none has fewer data tokens, so `{}` is the one to use.",
            others.join(", "),
            dv.margin_pp,
            v.most_accurate,
            v.most_accurate
        ));
    }
    for f in &dv.undecided {
        if let Some(c) = row(f) {
            out.push(format!(
                "**{label}**: `{f}` is neither shown within {} points of `{}` nor shown worse ({}); about {} \
                 runs in all (this run has {}) would settle it if the observed difference holds.",
                dv.margin_pp,
                v.most_accurate,
                evidence(c),
                c.runs_needed_ni.map_or("–".into(), int),
                c.runs
            ));
        }
    }
    out
}

/// What a family's data tokens rest on, in words, and the offline order where it differs
/// ("cheapest under o200k_base: `toon_default`; under claude-sonnet-4-5's own counts: `csv`").
fn basis_sentence(v: &VerdictRow) -> String {
    let t = &v.tokens;
    if t.token_basis == "o200k_base" {
        return " Data tokens are counted with o200k_base.".into();
    }
    let model = &v.family.model;
    let mut s = format!(
        " Data tokens are {model}'s own, as {} counts them.",
        t.token_basis
    );
    let Some(offline) = &t.token_order_o200k else {
        return s;
    };
    let list = |fs: &[String]| {
        fs.iter()
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(" < ")
    };
    match (offline.first(), t.token_order.first()) {
        (Some(a), Some(b)) if a != b => s.push_str(&format!(
            " o200k_base orders them otherwise: cheapest under o200k_base: `{a}`; under \
             {model}'s own counts: `{b}`."
        )),
        _ => s.push_str(&format!(
            " o200k_base orders them otherwise: under o200k_base {}; under {model}'s own \
             counts {}.",
            list(offline),
            list(&t.token_order)
        )),
    }
    s
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
                        percent(v.weighted_accuracy),
                        interval(v.weighted_low, v.weighted_high)
                    )
                }),
                Cell::text(if others.is_empty() {
                    "none".into()
                } else {
                    others.join(", ")
                }),
                Cell::text(if none_right {
                    "none".to_string()
                } else {
                    decision_cell(&v.decision, &v.tokens.token_basis)
                }),
                Cell::text(
                    v.best_per_1k_tokens
                        .as_ref()
                        .filter(|_| !none_right)
                        .map_or("–".into(), |f| {
                            format!(
                                "`{f}` ({:.2} %/1k tokens)",
                                v.best_efficiency.unwrap_or(0.0)
                            )
                        }),
                ),
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
            let shape = crate::report::data::shape_label(s, v, records, sizes);
            Some(format!(
                "Fewest data tokens for {shape}: `{f}` with {} o200k_base tokens{ratio} (exact count).",
                int(n)
            ))
        })
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
        findings.extend(decision_findings(d, v, &label));
    }
    findings.extend(comparison_findings(d));
    findings.extend(super::prompt_wording::findings(d));
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

/// What the numbers were measured on, in words: "these 124 questions × 3 runs" (or "these
/// 12 tasks"), from the most accurate format's graded answers.
fn measured_on(d: &ReportData, v: &VerdictRow) -> String {
    let row = d
        .accuracy
        .iter()
        .find(|r| r.family == v.family && r.format == v.most_accurate);
    let Some(r) = row.filter(|r| r.runs > 0) else {
        return "this run".into();
    };
    let runs = if r.runs > 1 {
        format!(" × {} runs", r.runs)
    } else {
        String::new()
    };
    if let Some(items) = crate::suites::counted(&v.family.structure) {
        format!("these {} {}{runs}", int(v.family.records), items.many)
    } else if r.n_answers % r.runs == 0 {
        format!("these {} questions{runs}", int(r.n_answers / r.runs))
    } else {
        format!("these {} graded answers", int(r.n_answers))
    }
}

/// One plain sentence per model and data shape, before the statistics: the format to use and
/// why, in the decision's own terms ("within N points" is the non-inferiority margin the
/// decision tested, never a measured difference).
fn plain_sentences(d: &ReportData, verdicts: &[VerdictRow]) -> Vec<String> {
    // Every answer wrong: said once at the top of the report, not again per model.
    if crate::report::decisions::family::all_wrong(d) {
        return Vec::new();
    }
    let (sizes, primers) = varies(&d.accuracy);
    let models: BTreeSet<String> = verdicts.iter().map(|v| v.family.model_label()).collect();
    let nothing_right = families_with_nothing_right(d);
    let tokens = |v: &VerdictRow, f: &str| {
        d.accuracy
            .iter()
            .find(|r| r.family == v.family && r.format == f)
            .and_then(|r| r.data_tokens)
    };
    verdicts
        .iter()
        .map(|v| {
            let dv = &v.decision;
            let mut who = v.family.data_label(sizes, primers);
            if models.len() > 1 {
                who = format!("{}, {who}", v.family.model_label());
            }
            if nothing_right.contains(&v.family) {
                return format!(
                    "**{who}**: no format got any answer right, so there is no format to recommend."
                );
            }
            let on = measured_on(d, v);
            let margin = dv.margin_pp;
            let rec = &dv.recommendation;
            let ratio = |of: &str| match (tokens(v, rec), tokens(v, of)) {
                (Some(a), Some(b)) if b > 0 && of != rec => {
                    format!(", at {:.2}× the data tokens of `{of}`", a as f64 / b as f64)
                }
                _ => String::new(),
            };
            let mut line = if *rec != v.most_accurate {
                format!(
                    "**{who}**: use `{rec}`: shown within {margin} points (the non-inferiority margin) of \
                     the most accurate `{}` on {on}{}.",
                    v.most_accurate,
                    ratio(&v.most_accurate)
                )
            } else {
                let cheaper = d.accuracy.iter().any(|r| {
                    r.family == v.family
                        && r.data_tokens.unwrap_or(i64::MAX) < dv.recommendation_tokens.unwrap_or(i64::MAX)
                });
                let why = if cheaper {
                    format!("no format with fewer data tokens is shown within {margin} points of it")
                } else {
                    format!("it also has the fewest data tokens{}", ratio(&d.baseline))
                };
                format!(
                    "**{who}**: use `{rec}`: the most accurate on {on} ({} weighted), and {why}.",
                    percent(v.weighted_accuracy)
                )
            };
            if !dv.decided {
                let open: Vec<String> = dv.undecided.iter().map(|f| format!("`{f}`")).collect();
                line.push_str(&format!(
                    " Not settled yet: {} {} fewer data tokens but {} neither shown within {margin} points nor \
                     shown worse; about {} more run(s) would tell.",
                    open.join(", "),
                    if open.len() == 1 { "has" } else { "have" },
                    if open.len() == 1 { "is" } else { "are" },
                    dv.more_runs.map_or("–".into(), int)
                ));
            }
            line.push_str(&basis_sentence(v));
            line
        })
        .collect()
}

/// The verdict section: incomplete-run warning, the plain answer, reference note, verdict
/// table, key findings.
pub fn verdict(d: &ReportData, verdicts: &[VerdictRow], findings: &[String]) -> Vec<Block> {
    let mut out = vec![Block::Heading(2, "Verdict".into())];
    if let Some(why) = d.run.incomplete() {
        out.push(Block::Para(format!(
            "**Incomplete run.** This report covers only the calls made so far: {why}. `bench run --resume {}` \
             completes it, then `bench report` again.",
            d.run.dir.display()
        )));
    }
    // The plain answer first: after the incomplete-run warning, before every statistic.
    match plain_sentences(d, verdicts).as_slice() {
        [] => {}
        [one] => out.push(Block::Para(one.clone())),
        many => out.push(Block::Bullets(many.to_vec())),
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
         accurate and those (data tokens as the model's provider counts them where it does, else o200k_base; \
         the cell names which), or, while a cheaper format is neither shown non-inferior nor shown worse, how many \
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
        assert_eq!(percent(Some(0.8034)), "80.3 %");
        assert_eq!(interval(Some(0.5), Some(0.75)), "[50.0, 75.0]");
    }
}
