//! `bench sweep`: where format starts to matter for a model. The record count grows
//! geometrically (31, 62, 124, … up to `--max-records`), every size a step of one run folder
//! (resumed, so earlier sizes stay), until the most accurate format falls below `--until` for
//! every model and data shape, or the next step would exceed the budget (its estimate, before
//! anything is spent). Then, per format, the largest size at which it is shown non-inferior to
//! the most accurate format of that size (the report's rule, `stats::noninferior`).

use crate::report::data::{AccuracyRow, ComparisonRow, ReportData, best_per_family, run_info};
use crate::runner::progress::Observer;
use crate::runner::{self, Model, Options, Plan, Stop, resume};
use anyhow::Result;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// How the steps run and when they stop.
pub struct Settings<'a> {
    /// Stop once the most accurate format of every shape is below this, percent.
    pub until_pct: f64,
    /// The sizes to try, in order.
    pub sizes: Vec<u32>,
    /// Spend at most this over all steps.
    pub budget_usd: Option<f64>,
    /// The run options of a step.
    pub options: &'a (dyn Fn() -> Options + Sync),
    /// What a step of `plan` (one size) may cost at most, USD.
    pub step_cost: &'a (dyn Fn(&Plan) -> Result<f64> + Sync),
    /// The largest prompt a step may send, tokens, and what sets it (`--max-tokens-in`, a
    /// model's context window).
    pub max_prompt: Option<(u32, String)>,
}

/// `plan` asking its data at `sizes`: the suite's own samples when it loads them
/// (`Suite::at_sizes`, a `--data` file's), else the record counts alone (the product records).
pub fn at_sizes(plan: &Plan, sizes: &[u32]) -> Result<Plan> {
    let mut p = plan.clone();
    p.records = sizes.to_vec();
    if let Some((suite, records)) = plan.suite.at_sizes(sizes)? {
        p.suite = suite;
        p.records = records;
    }
    Ok(p)
}

/// The largest prompt of `matrix`, o200k_base tokens (the count the estimate uses).
fn largest_of(matrix: &crate::suites::plan::Matrix) -> u32 {
    matrix
        .combos
        .iter()
        .flat_map(|c| c.units.iter().map(|u| u.tokens))
        .max()
        .unwrap_or(0)
}

/// The largest prompt of `plan`, o200k_base tokens (the count the estimate uses).
pub fn largest_prompt(plan: &Plan) -> Result<u32> {
    let (matrix, _) = crate::suites::plan::build_all(plan)?;
    Ok(largest_of(&matrix))
}

/// Why the step of `n` records (`plan` asks it) is not run: its largest prompt is over
/// `limit`, set by `why`. Over it at the `first` step is an error naming the first size that
/// fits, counted: the sweep would run nothing.
pub fn over_limit(
    plan: &Plan,
    n: u32,
    first: bool,
    (limit, why): &(u32, String),
) -> Result<Option<String>> {
    let (matrix, _) = crate::suites::plan::build_all(plan)?;
    let tokens = largest_of(&matrix);
    if tokens <= *limit {
        return Ok(None);
    }
    let records = match n {
        1 => "1 record makes".to_string(),
        n => format!("{n} records make"),
    };
    let what = format!("{records} a prompt of {tokens} tokens, over {limit} ({why})");
    if first {
        use crate::runner::fits::{Fit, records_that_fit};
        // At one record the rest of the prompt (instructions, questions) is what does not fit.
        let none =
            "not even one record fits: choose a model with a larger window or fewer questions";
        let fit = if n == 1 {
            Fit::None
        } else {
            records_that_fit(plan, &matrix, &|_| *limit)
        };
        let way_out = match fit {
            Fit::Records(k) => format!(
                "start with --records {k} (each rendering's prompt counted at that size fits)"
            ),
            Fit::None => none.to_string(),
            Fit::Below(k) => format!("start with fewer than --records {k}"),
        };
        anyhow::bail!(crate::UsageError::new(format!(
            "nothing to sweep: {what}; {way_out}"
        )));
    }
    Ok(Some(format!("the prompt limit: {what}")))
}

/// What one size shows of a format against the most accurate format of that size (the
/// report's tests, `sql/paired_comparison.sql` and `stats::noninferior`).
#[derive(Debug, Clone, PartialEq)]
pub enum Standing {
    /// The most accurate format (on a tie, the one with fewest data tokens: the others are
    /// compared with it).
    MostAccurate,
    /// Shown non-inferior within the margin.
    NonInferior,
    /// Shown worse (Holm-adjusted exact McNemar).
    Worse,
    /// Neither: the data cannot decide yet.
    Undecided {
        /// Its weighted accuracy equals the most accurate's.
        tied: bool,
        /// Runs beyond this size's that would decide with 80 % power if the observed
        /// difference and discordance hold (the report's `runs_needed_ni`, or `runs_needed`
        /// for an observed loss beyond the margin); `None` without an estimate.
        more_runs: Option<i64>,
    },
}

/// One size of one model and data shape.
#[derive(Debug, Clone)]
pub struct Step {
    /// Model and data shape (`provider/model, structure · variant`).
    pub shape: String,
    /// Records.
    pub records: u32,
    /// The most accurate format and its weighted accuracy, percent (ties: fewest data tokens).
    pub best: (String, f64),
    /// Every format's weighted accuracy, percent.
    pub accuracy: BTreeMap<String, f64>,
    /// Formats shown non-inferior to the most accurate at this size (itself included).
    pub noninferior: Vec<String>,
    /// Formats whose weighted accuracy equals the most accurate's, itself first (empty without
    /// a tie).
    pub tied: Vec<String>,
    /// Every format's standing against the most accurate.
    pub standing: BTreeMap<String, Standing>,
    /// Complete runs of the most accurate format at this size.
    pub runs: i64,
}

/// What a sweep found.
#[derive(Debug, Clone)]
pub struct Sweep {
    /// The run folder holding every step.
    pub run_dir: PathBuf,
    /// Every size run, per shape.
    pub steps: Vec<Step>,
    /// Why it stopped.
    pub stopped: String,
    /// Spent over all steps, USD.
    pub spent_usd: f64,
}

impl Sweep {
    /// Per shape and format, the largest size at which the format was shown non-inferior to
    /// the most accurate (`None`: at none).
    pub fn holds(&self) -> BTreeMap<(String, String), Option<u32>> {
        let mut out = BTreeMap::new();
        for s in &self.steps {
            for f in s.accuracy.keys() {
                let e = out.entry((s.shape.clone(), f.clone())).or_insert(None);
                if s.noninferior.contains(f) {
                    *e = Some(e.map_or(s.records, |n: u32| n.max(s.records)));
                }
            }
        }
        out
    }

    /// Per shape and format, its standing at every size, smallest first.
    pub fn standings(&self) -> BTreeMap<(String, String), Vec<(u32, Standing)>> {
        let mut out: BTreeMap<(String, String), Vec<(u32, Standing)>> = BTreeMap::new();
        for s in &self.steps {
            for (f, st) in &s.standing {
                out.entry((s.shape.clone(), f.clone()))
                    .or_default()
                    .push((s.records, st.clone()));
            }
        }
        out
    }
}

/// Runs the steps.
pub async fn sweep(
    mut plan: Plan,
    make_models: &(dyn Fn() -> Result<Vec<Model>> + Sync),
    s: &Settings<'_>,
    observer: Arc<dyn Observer>,
    stop: Arc<Stop>,
) -> Result<Sweep> {
    let mut out = Sweep {
        run_dir: PathBuf::new(),
        steps: Vec::new(),
        stopped: String::new(),
        spent_usd: 0.0,
    };
    for (k, &n) in s.sizes.iter().enumerate() {
        if let Some(limit) = &s.max_prompt
            && let Some(why) = over_limit(&at_sizes(&plan, &[n])?, n, k == 0, limit)?
        {
            out.stopped = why;
            return Ok(out);
        }
        if let Some(budget) = s.budget_usd {
            let cost = (s.step_cost)(&at_sizes(&plan, &[n])?)?;
            let left = budget - out.spent_usd;
            if cost > left {
                out.stopped = format!(
                    "the budget: {n} records would cost up to ${cost:.4}, ${left:.4} is left of \
                     --budget-usd {budget}"
                );
                return Ok(out);
            }
        }
        plan = at_sizes(&plan, &s.sizes[..=k])?;
        let resumed = (k > 0)
            .then(|| resume::load(&out.run_dir, false))
            .transpose()?;
        let mut opts = (s.options)();
        opts.budget_usd = s.budget_usd.map(|b| (b - out.spent_usd).max(0.0));
        let outcome = runner::run(
            &plan,
            make_models()?,
            opts,
            resumed,
            observer.clone(),
            stop.clone(),
        )
        .await?;
        out.run_dir = outcome.jsonl.parent().expect("a log has a folder").into();
        out.spent_usd = spent(&out.run_dir)?;
        if let Some(why) = outcome.stopped {
            out.stopped = match why {
                runner::StopReason::Budget(_) => format!("the budget, during {n} records"),
                runner::StopReason::Interrupted => format!("interrupted during {n} records"),
            };
            return Ok(out);
        }
        let d = crate::report::data::gather::gather_staged(
            run_info(&out.run_dir)?,
            "json_compact",
            &outcome.staged,
        )?;
        let steps = steps_at(&d, n);
        let all_below = !steps.is_empty() && steps.iter().all(|st| st.best.1 < s.until_pct);
        out.steps.extend(steps);
        if all_below {
            out.stopped = format!(
                "the most accurate format fell below {}% at {n} records",
                s.until_pct
            );
            return Ok(out);
        }
    }
    out.stopped = format!(
        "the largest size, {} records",
        s.sizes.last().copied().unwrap_or(0)
    );
    Ok(out)
}

/// USD spent so far in the run folder.
fn spent(dir: &std::path::Path) -> Result<f64> {
    let a = crate::analytics::Analytics::open_run(dir)?;
    let t = a.query("SELECT coalesce(sum(cost_usd), 0)::DOUBLE FROM results")?;
    Ok(t.rows.first().and_then(|r| r[0].as_f64()).unwrap_or(0.0))
}

/// The steps of size `n`: per model and data shape, every format's accuracy, the most
/// accurate (ties named), and each format's standing against it.
fn steps_at(d: &ReportData, n: u32) -> Vec<Step> {
    let pct = |a: &AccuracyRow| 100.0 * a.weighted_accuracy.unwrap_or(0.0);
    let mut out = Vec::new();
    for (family, best) in best_per_family(&d.accuracy)
        .into_iter()
        .filter(|(f, _)| f.records == i64::from(n))
    {
        let rows: Vec<&AccuracyRow> = d.accuracy.iter().filter(|a| a.family == family).collect();
        let top = pct(best);
        let tie = |a: &AccuracyRow| (pct(a) - top).abs() < 1e-9;
        let mut tied: Vec<String> = vec![best.format.clone()];
        tied.extend(
            rows.iter()
                .filter(|a| a.format != best.format && tie(a))
                .map(|a| a.format.clone()),
        );
        if tied.len() == 1 {
            tied.clear();
        }
        let standing: BTreeMap<String, Standing> = rows
            .iter()
            .map(|a| {
                let c = d
                    .versus_best
                    .iter()
                    .find(|c| c.family == family && c.format == a.format);
                let st = if a.format == best.format {
                    Standing::MostAccurate
                } else {
                    standing_of(c, tie(a))
                };
                (a.format.clone(), st)
            })
            .collect();
        let noninferior = std::iter::once(best.format.clone())
            .chain(
                standing
                    .iter()
                    .filter(|(_, st)| **st == Standing::NonInferior)
                    .map(|(f, _)| f.clone()),
            )
            .collect();
        let shape = format!(
            "{}/{}, {} · {}{}",
            family.provider,
            family.model,
            family.structure,
            family.variant,
            if family.primer { " · primer" } else { "" }
        );
        out.push(Step {
            shape,
            records: n,
            best: (best.format.clone(), top),
            accuracy: rows.iter().map(|a| (a.format.clone(), pct(a))).collect(),
            noninferior,
            tied,
            standing,
            runs: best.runs,
        });
    }
    out
}

/// A format's standing from its comparison with the most accurate (none: it has no complete
/// run to pair).
fn standing_of(c: Option<&ComparisonRow>, tied: bool) -> Standing {
    match c {
        Some(c) if c.noninferior() => Standing::NonInferior,
        Some(c) if c.worse() => Standing::Worse,
        Some(c) => Standing::Undecided {
            tied,
            more_runs: c
                .runs_needed_ni
                .or(c.runs_needed)
                .map(|n| (n - c.runs).max(1)),
        },
        None => Standing::Undecided {
            tied,
            more_runs: None,
        },
    }
}

/// Sizes from `start`, doubling (rounded), up to `max` (the last is `max` itself when a
/// doubling would pass it).
pub fn sizes(start: u32, max: u32) -> Vec<u32> {
    let mut out = vec![start.min(max)];
    let mut k = 1;
    while *out.last().expect("one") < max {
        let next = (f64::from(start) * 2f64.powi(k)).round() as u32;
        // Within 10 % of the maximum: the maximum itself, not a near-twin before it.
        out.push(if f64::from(next) > 0.9 * f64::from(max) {
            max
        } else {
            next
        });
        k += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes_double_from_the_start_and_end_at_the_maximum() {
        assert_eq!(super::sizes(31, 1000), [31, 62, 124, 248, 496, 1000]);
        assert_eq!(super::sizes(31, 500), [31, 62, 124, 248, 500]);
        assert_eq!(super::sizes(31, 31), [31]);
        assert_eq!(super::sizes(100, 50), [50]);
    }
}
