//! The decision of each family: which formats are shown non-inferior to the most accurate
//! within the margin, and the format to use — the cheapest of those — or, while a cheaper
//! format is neither shown non-inferior nor shown worse, how many runs would settle it. The
//! tests themselves are in `sql/paired_comparison.sql` (Tango's score test, Holm); this module
//! only reads them, adding the bootstrap half of the rule (`ComparisonRow::noninferior`).

use super::data::{ComparisonRow, Family, ReportData};
use super::verdict::{int, p};

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
    /// Its data tokens (o200k_base).
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

/// The recommendation cell of the verdict table.
pub fn cell(v: &Decision) -> String {
    let chosen = format!(
        "**`{}`** ({} tokens)",
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
pub fn findings(d: &ReportData, v: &super::verdict::VerdictRow, label: &str) -> Vec<String> {
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
