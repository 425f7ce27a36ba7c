//! Gathers everything a report shows from one staged run ([`crate::analytics::Analytics`]):
//! the SQL files of `sql/` on two connections at once, plus the bootstrap intervals.

use super::bootstrap::{bootstrap_accuracy, comparisons};
use super::{
    AccuracyRow, CategoryRow, ComparisonRow, Family, ParetoRow, RunInfo, TokenEfficiencyRow,
    best_per_family, run_info, run_sql, typed,
};
use crate::analytics::{Analytics, Table, sql};
use crate::suites::sections::Facts;
use anyhow::Result;
use std::collections::BTreeMap;
use std::path::Path;

/// Everything one report shows.
#[derive(Debug, Clone)]
pub struct ReportData {
    /// The run.
    pub run: RunInfo,
    /// Baseline format of the comparisons.
    pub baseline: String,
    /// Accuracy per rendering.
    pub accuracy: Vec<AccuracyRow>,
    /// Every format against the baseline.
    pub comparisons: Vec<ComparisonRow>,
    /// Every format against the most accurate format of its family.
    pub versus_best: Vec<ComparisonRow>,
    /// Accuracy per category.
    pub categories: Vec<CategoryRow>,
    /// Pareto frontier membership.
    pub pareto: Vec<ParetoRow>,
    /// Token efficiency per tokenizer.
    pub tokens: Vec<TokenEfficiencyRow>,
    /// Usage, cost and latency (`sql/usage.sql`), as returned.
    pub usage: Table,
    /// Failed answers by kind (`sql/failure_modes.sql`), as returned.
    pub failure_modes: Table,
    /// The first [`WRONG_SHOWN`] wrong answers of each rendering (`sql/wrong_answers.sql`),
    /// each row with `wrong`, the rendering's count of them.
    pub wrong_answers: Table,
    /// Questions whose key every answer contradicts in agreement (`sql/key_check.sql`).
    pub key_check: Table,
    /// Accuracy per format under each instruction wording (`sql/prompt_wording.sql`).
    pub prompt_wording: Table,
    /// Tokens and accuracy against record count, when the run swept sizes.
    pub scaling: Option<Table>,
    /// Retrieval accuracy by position.
    pub position: Option<Table>,
    /// The tables the run's suite's own sections read ([`super::suite::own_tables`]).
    pub own: Vec<Table>,
}

/// Wrong answers a report shows per model and rendering; the rest are counted.
pub const WRONG_SHOWN: usize = 5;

/// Reads everything a report of `dir` shows; `baseline` names the comparisons' baseline.
pub fn gather(dir: &Path, baseline: &str) -> Result<ReportData> {
    gather_run(run_info(dir)?, baseline)
}

/// Every format against the most accurate format of its family (`best`, from
/// [`best_per_family`]): one pass per distinct best format (the decision needs the tests and
/// the Δ intervals).
fn versus_best(
    a: &Analytics,
    run: &RunInfo,
    best: &BTreeMap<Family, String>,
) -> Result<Vec<ComparisonRow>> {
    let mut versus_best = Vec::new();
    let mut bests: Vec<&str> = best.values().map(String::as_str).collect();
    bests.sort_unstable();
    bests.dedup();
    for b in bests {
        versus_best.extend(
            comparisons(a, run, b)?
                .into_iter()
                .filter(|c| best.get(&c.family).is_some_and(|f| f == b)),
        );
    }
    Ok(versus_best)
}

/// The tables of a report that need nothing but the staged run (not its accuracy rows):
/// [`gather_staged`] computes them on a second connection while the first computes the
/// accuracy and the comparisons against each family's best format.
struct Tables {
    comparisons: Vec<ComparisonRow>,
    categories: Vec<CategoryRow>,
    pareto: Vec<ParetoRow>,
    tokens: Vec<TokenEfficiencyRow>,
    usage: Table,
    failure_modes: Table,
    wrong_answers: Table,
    key_check: Table,
    prompt_wording: Table,
    position: Table,
    own: Vec<Table>,
}

impl Tables {
    fn gather(a: &Analytics, run: &RunInfo, baseline: &str) -> Result<Self> {
        let mut wrong_answers = run_sql(
            a,
            &format!(
                "SELECT * FROM ({}) WHERE nth <= {WRONG_SHOWN} \
                 ORDER BY provider, format, structure, variant, records, primer, experiment, nth",
                sql::WRONG_ANSWERS.trim().trim_end_matches(';')
            ),
            "sql/wrong_answers.sql",
        )?;
        super::asked_records::add_asked_records(&mut wrong_answers, &run.dir.join(&run.suite));
        Ok(Self {
            comparisons: comparisons(a, run, baseline)?,
            categories: typed(
                &run_sql(a, sql::CATEGORY_ACCURACY, "sql/category_accuracy.sql")?,
                "sql/category_accuracy.sql",
            )?,
            pareto: typed(
                &run_sql(a, sql::PARETO, "sql/pareto.sql")?,
                "sql/pareto.sql",
            )?,
            tokens: typed(
                &run_sql(a, sql::TOKEN_EFFICIENCY, "sql/token_efficiency.sql")?,
                "sql/token_efficiency.sql",
            )?,
            usage: run_sql(a, sql::USAGE, "sql/usage.sql")?,
            failure_modes: run_sql(a, sql::FAILURE_MODES, "sql/failure_modes.sql")?,
            wrong_answers,
            key_check: run_sql(a, sql::KEY_CHECK, "sql/key_check.sql")?,
            prompt_wording: run_sql(a, sql::PROMPT_WORDING, "sql/prompt_wording.sql")?,
            position: run_sql(a, sql::POSITION_EFFECT, "sql/position_effect.sql")?,
            own: super::suite::own_tables(a, run)?,
        })
    }
}

/// [`gather`] for a run whose log lines were already read.
pub fn gather_run(run: RunInfo, baseline: &str) -> Result<ReportData> {
    let a = Analytics::open_run(&run.dir)?;
    gather_staged(run, baseline, &a)
}

/// [`gather_run`] over the run's log staged in `a` ([`Analytics::open_run`]): `bench run`
/// passes the one its summary's ranking read. Binding, not reading, is most of these queries'
/// time, and DuckDB binds a query on the thread that asks it: the tables that need no
/// accuracy rows ([`Tables`]: the comparisons against the baseline, categories, tokens…) are
/// computed on a second connection on another thread while the accuracy and the comparisons
/// against each family's best format are computed here, about as long (each query is the
/// same, so are its rows).
pub fn gather_staged(run: RunInfo, baseline: &str, a: &Analytics) -> Result<ReportData> {
    let margin = run.margin_pp().to_string();
    a.set_variable("bench_margin", &margin)?;
    let second = a.try_clone()?;
    second.set_variable("bench_margin", &margin)?;
    let (lane_run, lane_baseline) = (run.clone(), baseline.to_string());
    let lane = std::thread::spawn(move || Tables::gather(&second, &lane_run, &lane_baseline));
    let t = run_sql(a, sql::ACCURACY, "sql/accuracy.sql")?;
    let mut accuracy: Vec<AccuracyRow> = typed(&t, "sql/accuracy.sql")?;
    anyhow::ensure!(
        !accuracy.is_empty(),
        "'{}' has no result lines to report on",
        run.dir.display()
    );
    bootstrap_accuracy(a, &run, &mut accuracy)?;
    let best: BTreeMap<Family, String> = best_per_family(&accuracy)
        .into_iter()
        .map(|(family, r)| (family, r.format.clone()))
        .collect();
    let versus_best = versus_best(a, &run, &best)?;
    let sizes = accuracy
        .iter()
        .map(|r| r.family.records)
        .collect::<std::collections::BTreeSet<_>>();
    // A suite whose record counts count its items (tasks, cases) swept no size.
    let items = super::suite::sections(&run).is_some_and(|s| s.items_not_sizes);
    let scaling = if sizes.len() > 1 && !items {
        Some(run_sql(a, sql::SCALING, "sql/scaling.sql")?)
    } else {
        None
    };
    let t = lane
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
    Ok(ReportData {
        run,
        baseline: baseline.to_string(),
        accuracy,
        comparisons: t.comparisons,
        versus_best,
        categories: t.categories,
        pareto: t.pareto,
        tokens: t.tokens,
        usage: t.usage,
        failure_modes: t.failure_modes,
        wrong_answers: t.wrong_answers,
        key_check: t.key_check,
        prompt_wording: t.prompt_wording,
        scaling,
        position: (!t.position.rows.is_empty()).then_some(t.position),
        own: t.own,
    })
}

impl ReportData {
    /// What the run's suite's sections read: its tables, and the renderings the paired
    /// comparisons found significantly worse than their family's most accurate format.
    pub fn facts(&self) -> Facts<'_> {
        Facts {
            tables: &self.own,
            worse_than_best: self
                .versus_best
                .iter()
                .filter(|c| c.significant && c.delta_weighted_pp.unwrap_or(0.0) < 0.0)
                .map(|c| {
                    (
                        c.family.provider.clone(),
                        c.family.model.clone(),
                        c.format.clone(),
                    )
                })
                .collect(),
        }
    }
}
