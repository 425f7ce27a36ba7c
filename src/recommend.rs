//! `bench recommend`: the shortest honest path to "use format X". The candidates are the
//! baseline (json_compact) and every format that holds the data in fewer tokens; each round is
//! one more run of every surviving candidate through the normal runner (limits, cache, batch,
//! resume) into one run folder; after each round the paired tests of the report
//! (`sql/paired_comparison.sql`) are read at α / max-rounds (Bonferroni over the planned looks,
//! so stopping early is valid): candidates shown worse than the most accurate are dropped, and
//! the run stops once the cheapest survivor is shown non-inferior to the most accurate and to
//! the baseline, or when the rounds or the budget run out. Candidates are chosen and ordered by
//! their data tokens as the model's provider counts them (`runner::tokens::ranking_basis`); a provider without
//! a counter has them chosen by o200k_base, then ordered by the prompt tokens it reports in
//! round 1.

use crate::formats::Format;
use crate::report::data::{ComparisonRow, ReportData, best_per_family, run_info};
use crate::runner::progress::Observer;
use crate::runner::{self, Model, Options, Plan, Stop, resume};
use anyhow::Result;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// How the rounds run and decide.
pub struct Settings<'a> {
    /// Non-inferiority margin, percentage points.
    pub margin_pp: f64,
    /// Rounds at most; each look tests at 0.05 / this.
    pub max_rounds: u32,
    /// Spend at most this over all rounds.
    pub budget_usd: Option<f64>,
    /// The format the user would otherwise use.
    pub baseline: Format,
    /// The runner's options for each round (its budget is set to what is left).
    pub options: &'a (dyn Fn() -> Options + Sync),
}

/// The candidates of `plan`'s data: the baseline, every format whose rendering holds the data
/// in fewer o200k_base tokens, and the `forced` ones; cheapest first, with their tokens.
pub fn candidates(plan: &Plan, baseline: Format, forced: &[Format]) -> Result<Vec<(Format, u64)>> {
    let (matrix, _) = runner::plan::build_all(plan)?;
    let tokens: BTreeMap<Format, u64> = matrix
        .combos
        .iter()
        .map(|c| {
            let r = &c.rendering;
            (
                r.format,
                r.stats.tokens.get("o200k_base").copied().unwrap_or(0) as u64,
            )
        })
        .collect();
    choose(&tokens, baseline, forced)
}

/// [`candidates`] by the data tokens `model`'s provider counts (one line on stderr says what it
/// counted, or why it falls back to o200k_base), with the basis in words; counts are kept in
/// `counts` (`runner::tokens::ranking_basis::counts_dir`).
pub async fn billed_candidates(
    plan: &Plan,
    model: &Model,
    (baseline, forced): (Format, &[Format]),
    counts: Option<&std::path::Path>,
    observer: &dyn Observer,
) -> Result<(Vec<(Format, u64)>, String)> {
    let (matrix, _) = runner::plan::build_all(plan)?;
    let models = std::slice::from_ref(model);
    let basis = runner::tokens::ranking_basis::count(models, &matrix.combos, counts, observer)
        .await
        .pop()
        .and_then(runner::tokens::ranking_basis::Basis::billed);
    let Some(billed) = basis else {
        return Ok((
            candidates(plan, baseline, forced)?,
            runner::tokens::ranking_basis::FALLBACK.into(),
        ));
    };
    let tokens: BTreeMap<Format, u64> = matrix
        .combos
        .iter()
        .filter_map(|c| Some((c.rendering.format, billed.of(&c.rendering.text)?)))
        .collect();
    Ok((choose(&tokens, baseline, forced)?, billed.basis))
}

/// The baseline, every format in fewer `tokens` than it, and the `forced` ones; cheapest
/// first.
fn choose(
    tokens: &BTreeMap<Format, u64>,
    baseline: Format,
    forced: &[Format],
) -> Result<Vec<(Format, u64)>> {
    let Some(&base) = tokens.get(&baseline) else {
        anyhow::bail!(crate::UsageError::new(format!(
            "the baseline {baseline} cannot render this data, so there is nothing to compare with"
        )));
    };
    let mut out: Vec<(Format, u64)> = tokens
        .iter()
        .filter(|(f, t)| **f == baseline || **t < base || forced.contains(f))
        .map(|(f, t)| (*f, *t))
        .collect();
    out.sort_by_key(|&(f, t)| (t, f.name()));
    Ok(out)
}

/// What the rounds concluded.
#[derive(Debug, Clone)]
pub struct Recommendation {
    /// The run folder holding every round.
    pub run_dir: PathBuf,
    /// Rounds run.
    pub rounds: u32,
    /// The level each look tested at.
    pub alpha: f64,
    /// The format to use, when shown.
    pub format: Option<String>,
    /// Its comparisons (against the most accurate and the baseline) that decided it.
    pub evidence: Vec<ComparisonRow>,
    /// Candidates dropped as shown worse than the most accurate, with the round.
    pub dropped: Vec<(String, u32)>,
    /// The cheapest survivor when undecided, and why the run stopped.
    pub open: Option<(String, String)>,
    /// Dollars spent over all rounds (None when unpriced).
    pub spent_usd: f64,
}

/// Runs rounds until the decision or the end of rounds or budget. `make_model` builds the
/// model afresh for each round.
pub async fn recommend(
    mut plan: Plan,
    make_model: &(dyn Fn() -> Result<Model> + Sync),
    s: &Settings<'_>,
    observer: Arc<dyn Observer>,
    stop: Arc<Stop>,
) -> Result<Recommendation> {
    let alpha = 0.05 / f64::from(s.max_rounds);
    let mut out = Recommendation {
        run_dir: PathBuf::new(),
        rounds: 0,
        alpha,
        format: None,
        evidence: Vec::new(),
        dropped: Vec::new(),
        open: None,
        spent_usd: 0.0,
    };
    for round in 1..=s.max_rounds {
        plan.runs = round;
        let resumed = (round > 1)
            .then(|| resume::load(&out.run_dir, false))
            .transpose()?;
        let mut opts = (s.options)();
        opts.margin_pp = Some(s.margin_pp);
        opts.budget_usd = s.budget_usd.map(|b| (b - out.spent_usd).max(0.0));
        let outcome = runner::run(
            &plan,
            vec![make_model()?],
            opts,
            resumed,
            observer.clone(),
            stop.clone(),
        )
        .await?;
        out.run_dir = outcome
            .jsonl
            .parent()
            .expect("a run log has a folder")
            .into();
        out.rounds = round;
        let (spent_usd, reported, billed) = usage(&out.run_dir)?;
        out.spent_usd = spent_usd;
        if let Some(why) = outcome.stopped {
            let why = match why {
                runner::StopReason::Budget(b) => format!(
                    "not decided: round {round} stopped at the budget (${b:.2} left of --budget-usd)"
                ),
                runner::StopReason::Interrupted => {
                    format!("not decided: round {round} was interrupted")
                }
            };
            let cheapest = plan.formats.first().map(|f| f.name().to_string());
            out.open = cheapest.map(|f| (f, why));
            return Ok(out);
        }
        // Candidates the provider counted are in its order already.
        if round == 1 && !billed {
            by_reported_tokens(&reported, &mut plan.formats);
        }
        let d = crate::report::data::gather::gather_staged(
            run_info(&out.run_dir)?,
            s.baseline.name(),
            &outcome.staged,
        )?;
        let seen = look(&d, s.baseline.name(), alpha, &plan.formats);
        // A dropped format keeps its earlier rounds in the folder, so later looks see it
        // worse again: it is recorded once, at the round that dropped it.
        let new: Vec<String> = seen
            .dropped
            .iter()
            .filter(|f| !out.dropped.iter().any(|(d, _)| d == *f))
            .cloned()
            .collect();
        out.dropped.extend(new.into_iter().map(|f| (f, round)));
        plan.formats
            .retain(|f| !seen.dropped.contains(&f.name().to_string()));
        if seen.decided {
            out.format = Some(seen.cheapest);
            out.evidence = seen.evidence;
            out.open = None;
            return Ok(out);
        }
        out.open = Some((seen.cheapest, seen.why));
    }
    if let Some((_, why)) = out.open.as_mut() {
        *why = format!("{why}; no rounds left (--max-rounds {})", s.max_rounds);
    }
    Ok(out)
}

/// Orders `formats` by the prompt tokens the provider reported in round 1 (its own tokenizer),
/// when it reported them for every format; the o200k_base counts stand in until then.
fn by_reported_tokens(reported: &BTreeMap<String, f64>, formats: &mut [Format]) {
    if formats.iter().all(|f| reported.contains_key(f.name())) {
        formats.sort_by(|x, y| reported[x.name()].total_cmp(&reported[y.name()]));
    }
}

/// From one reading of the run log in `dir`: the dollars spent so far, the mean prompt
/// tokens the provider reported per call of each format (complete runs, only where it
/// reported some), and whether the provider counted the data tokens itself.
fn usage(dir: &std::path::Path) -> Result<(f64, BTreeMap<String, f64>, bool)> {
    let a = crate::analytics::Analytics::open_run(dir)?;
    let t = a.query("SELECT coalesce(sum(cost_usd), 0)::DOUBLE FROM results")?;
    let spent = t.rows.first().and_then(|r| r[0].as_f64()).unwrap_or(0.0);
    let t = a.query(
        "SELECT format, avg(input_tokens)::DOUBLE FROM runs WHERE NOT failed GROUP BY format",
    )?;
    let reported = t
        .rows
        .iter()
        .filter_map(|r| Some((r[0].as_str()?.to_string(), r[1].as_f64()?)))
        .filter(|(_, n)| *n > 0.0)
        .collect();
    let t = a.query("SELECT count(*) FROM results WHERE billed_data_tokens IS NOT NULL")?;
    let billed = t.rows.first().and_then(|r| r[0].as_i64()).unwrap_or(0) > 0;
    Ok((spent, reported, billed))
}

/// One look at the data so far.
struct Look {
    /// Shown worse than the most accurate at `alpha`.
    dropped: Vec<String>,
    /// The cheapest candidate not dropped.
    cheapest: String,
    /// Whether it is shown non-inferior to the most accurate and to the baseline.
    decided: bool,
    /// The comparisons that decide it.
    evidence: Vec<ComparisonRow>,
    /// Why it is not decided yet.
    why: String,
}

/// Reads the paired tests of one round at level `alpha`. `formats` are this round's
/// candidates, cheapest first.
fn look(d: &ReportData, baseline: &str, alpha: f64, formats: &[Format]) -> Look {
    let best = best_per_family(&d.accuracy)
        .values()
        .next()
        .map(|r| r.format.clone())
        .unwrap_or_else(|| baseline.to_string());
    let dropped: Vec<String> = d
        .versus_best
        .iter()
        .filter(|c| c.worse_at(alpha))
        .map(|c| c.format.clone())
        .collect();
    let cheapest = formats
        .iter()
        .map(|f| f.name().to_string())
        .find(|f| !dropped.contains(f))
        .unwrap_or_else(|| best.clone());
    let mut evidence = Vec::new();
    let mut missing = Vec::new();
    for (against, rows) in [
        (&best, &d.versus_best),
        (&baseline.to_string(), &d.comparisons),
    ] {
        if cheapest == *against
            || evidence
                .iter()
                .any(|c: &ComparisonRow| &c.baseline == against)
        {
            continue;
        }
        match rows.iter().find(|c| c.format == cheapest) {
            Some(c) => evidence.push(c.clone()),
            None => missing.push(format!("no answers paired with `{against}` yet")),
        }
    }
    let open: Vec<String> = missing
        .into_iter()
        .chain(evidence
        .iter()
        .filter(|c| !c.noninferior_at(alpha))
        .map(|c| {
            format!(
                "not yet shown within {} pp of `{}` (Δ {:+.1} pp, Tango p Holm {} against α {alpha:.4})",
                c.margin_pp,
                c.baseline,
                c.delta_accuracy_pp.unwrap_or(0.0),
                c.ni_p_holm.map_or("–".into(), crate::numfmt::p_value)
            )
        }))
        .collect();
    Look {
        dropped,
        decided: open.is_empty(),
        why: open.join("; "),
        cheapest,
        evidence,
    }
}
