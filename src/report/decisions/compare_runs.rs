//! Two runs of one suite on the same data, answer by answer: the rows of `sql/compare.sql`
//! (Δ, exact McNemar with Holm, Tango's non-inferiority) with the bootstrap interval of
//! `sql/compare_pairs.sql` and the decision. One computation: `bench compare` prints it and
//! `bench view` shows it.

use crate::UsageError;
use crate::analytics::{Analytics, Table};
use crate::report::data::{self, RunInfo, paired_intervals, run_sql, typed};
use crate::suites::lookup::DataMeta;
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Two runs compared: the runs, the margin and the rows.
pub struct Comparison {
    /// Run A (the reference side).
    pub a: RunInfo,
    /// Run B.
    pub b: RunInfo,
    /// The non-inferiority margin used, pp.
    pub margin: f64,
    /// One row per rendering both runs completed.
    pub rows: Vec<CompareRow>,
    /// Per task fact accuracy of A and B (`sql/compare_tasks.sql`; empty outside tasks runs).
    pub tasks: Table,
}

/// Compares the run folders `a_dir` and `b_dir` (refusing runs that cannot be paired, naming
/// why), with `margin` pp or run A's own margin.
pub fn compare_runs(a_dir: &Path, b_dir: &Path, margin: Option<f64>) -> Result<Comparison> {
    let (a, b) = (data::run_info(a_dir)?, data::run_info(b_dir)?);
    comparable(&a, &b)?;
    let margin = margin.unwrap_or_else(|| a.margin_pp());
    let an = Analytics::open_runs(&[a_dir, b_dir])?;
    an.set_variable("bench_a", &a.metadata.benchmark_id)?;
    an.set_variable("bench_b", &b.metadata.benchmark_id)?;
    an.set_variable("bench_margin", &margin.to_string())?;
    same_questions(&an, a_dir, b_dir)?;
    let rows = compared(&an, &a)?;
    let tasks = run_sql(
        &an,
        crate::analytics::sql::COMPARE_TASKS,
        "sql/compare_tasks.sql",
    )?;
    if rows.is_empty() {
        return Err(UsageError::new(format!(
            "'{}' and '{}' have no rendering with complete runs in common to pair",
            a_dir.display(),
            b_dir.display()
        ))
        .into());
    }
    Ok(Comparison {
        a,
        b,
        margin,
        rows,
        tasks,
    })
}

/// One rendering of `sql/compare.sql`, with the bootstrap interval and the decision added.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CompareRow {
    /// Run A's provider.
    pub provider: String,
    /// Run A's model.
    pub model: String,
    /// Format.
    pub format: String,
    /// Structure.
    pub structure: String,
    /// Variant.
    pub variant: String,
    /// Records.
    pub records: i64,
    /// Primer setting.
    pub primer: bool,
    /// Paired answers.
    pub n_pairs: i64,
    /// Run indexes paired.
    pub runs: i64,
    /// Plain accuracy of A over the pairs.
    pub a_accuracy: f64,
    /// Plain accuracy of B over the pairs.
    pub b_accuracy: f64,
    /// Weighted accuracy of A over the run indexes both completed.
    pub a_weighted: Option<f64>,
    /// The same for B.
    pub b_weighted: Option<f64>,
    /// Δ weighted accuracy, B − A, pp.
    pub delta_weighted_pp: Option<f64>,
    /// Its question-clustered bootstrap 95 % lower bound, pp.
    #[serde(default)]
    pub delta_low_pp: Option<f64>,
    /// Its upper bound, pp.
    #[serde(default)]
    pub delta_high_pp: Option<f64>,
    /// Δ plain accuracy over the pairs, B − A, pp.
    pub delta_accuracy_pp: f64,
    /// Pairs only B got right.
    pub b_only: i64,
    /// Pairs only A got right.
    pub a_only: i64,
    /// Exact McNemar p.
    pub p_value: f64,
    /// Holm-adjusted across the renderings.
    pub p_holm: f64,
    /// B significantly worse (Holm).
    pub regression: bool,
    /// B significantly better (Holm).
    pub improvement: bool,
    /// Margin, pp.
    pub margin_pp: f64,
    /// Lower bound of Tango's 90 % interval of Δ plain accuracy, pp.
    pub ni_low_pp: Option<f64>,
    /// One-sided Tango p of a loss of at least the margin.
    pub ni_p: Option<f64>,
    /// Holm-adjusted.
    pub ni_p_holm: Option<f64>,
    /// ni_p_holm < 0.05.
    pub ni_significant: bool,
    /// Write runs: first-shot exact rate of A over the paired cases and runs.
    #[serde(default)]
    pub a_first_exact: Option<f64>,
    /// The same for B.
    #[serde(default)]
    pub b_first_exact: Option<f64>,
    /// Δ first-shot exact rate, B − A, pp (the final rate is `delta_accuracy_pp`).
    #[serde(default)]
    pub delta_first_exact_pp: Option<f64>,
    /// B shown non-inferior to A: ni_significant and the bootstrap lower bound above −margin.
    #[serde(default)]
    pub noninferior: bool,
}

impl CompareRow {
    /// `csv · flat · mandatory · 31` (and `· primer`).
    pub fn rendering(&self) -> String {
        let primer = if self.primer { " · primer" } else { "" };
        format!(
            "{} · {} · {} · {}{primer}",
            self.format, self.structure, self.variant, self.records
        )
    }

    /// One word for the row.
    pub fn verdict(&self) -> &'static str {
        if self.regression {
            "regression"
        } else if self.improvement {
            "improvement"
        } else if self.noninferior {
            "non-inferior"
        } else if self.a_only + self.b_only == 0 {
            "same answers"
        } else {
            "not shown"
        }
    }
}

/// The rows of compare.sql with the bootstrap interval of Δ weighted and the decision.
fn compared(an: &Analytics, a: &RunInfo) -> Result<Vec<CompareRow>> {
    let t = run_sql(an, crate::analytics::sql::COMPARE, "sql/compare.sql")?;
    let mut rows: Vec<CompareRow> = typed(&t, "sql/compare.sql")?;
    let deltas = paired_intervals(
        an,
        a,
        crate::analytics::sql::COMPARE_PAIRS,
        "sql/compare_pairs.sql",
        "run A",
    )?;
    for r in &mut rows {
        let key = (
            data::Family {
                provider: r.provider.clone(),
                model: r.model.clone(),
                structure: r.structure.clone(),
                variant: r.variant.clone(),
                records: r.records,
                primer: r.primer,
            },
            r.format.clone(),
        );
        if let Some(i) = deltas.get(&key) {
            r.delta_low_pp = Some(100.0 * i.low);
            r.delta_high_pp = Some(100.0 * i.high);
        }
        r.noninferior = crate::stats::noninferior(r.ni_p_holm, r.delta_low_pp, r.margin_pp, 0.05);
    }
    Ok(rows)
}

/// Refuses two runs that cannot be paired, naming the difference.
fn comparable(a: &RunInfo, b: &RunInfo) -> Result<()> {
    let (ma, mb) = (&a.metadata, &b.metadata);
    let refuse = |why: String| -> Result<()> { Err(UsageError::new(why).into()) };
    if ma.benchmark_id == mb.benchmark_id {
        return refuse(format!(
            "RUN_A and RUN_B are the same run ({}): compare needs two runs",
            ma.benchmark_id
        ));
    }
    if a.suite != b.suite {
        return refuse(format!(
            "RUN_A is a `{}` run and RUN_B a `{}` run: compare pairs two runs of one suite",
            a.suite, b.suite
        ));
    }
    // A run over several sizes (`--records 31,62`) stores one hash per size, comma-joined:
    // runs sharing a size are compared on it, the other sizes said in the "Left out" line.
    let (ha, hb) = (hashes(&ma.dataset_hash), hashes(&mb.dataset_hash));
    if !ha.iter().any(|h| hb.contains(h)) {
        let sizes = |r: &RunInfo| {
            r.metadata
                .records
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        };
        // The data in words: the user's file, else the product records.
        // `run_info` refused a metadata line whose `--data` field does not read.
        let data = |r: &RunInfo| match DataMeta::of(&r.metadata).ok().flatten() {
            Some(d) => format!("`{}`", d.file.display()),
            None => "the product records".to_string(),
        };
        let why = if data(a) != data(b) {
            format!("RUN_A asked about {} and RUN_B about {}", data(a), data(b))
        } else if sizes(a) != sizes(b) && !sizes(a).is_empty() && !sizes(b).is_empty() {
            format!("RUN_A asked {} records and RUN_B {}", sizes(a), sizes(b))
        } else {
            let list = |h: &[&str]| h.iter().map(|x| short(x)).collect::<Vec<_>>().join(",");
            format!("dataset hash {} against {}", list(&ha), list(&hb))
        };
        return refuse(format!(
            "RUN_A and RUN_B ran on different data ({why}, no size in common): compare pairs \
             the same questions, so run both with the same data options"
        ));
    }
    for (side, run) in [("RUN_A", a), ("RUN_B", b)] {
        let models: Vec<String> = run
            .metadata
            .providers
            .iter()
            .map(|p| format!("{}:{}", p.provider, p.model))
            .collect();
        if models.len() != 1 {
            return refuse(format!(
                "{side} ('{}') asked {} models ({}): compare pairs one model per run",
                run.dir.display(),
                models.len(),
                models.join(", ")
            ));
        }
    }
    if a.weights() != b.weights() {
        return refuse(format!(
            "RUN_A and RUN_B weight the categories differently ({:?} against {:?}): their \
             weighted accuracies are not comparable",
            a.weights(),
            b.weights()
        ));
    }
    Ok(())
}

/// The hashes of a metadata's `dataset_hash`, one per size.
fn hashes(joined: &str) -> Vec<&str> {
    joined.split(',').collect()
}

/// The first 12 characters of a hash.
fn short(hash: &str) -> &str {
    &hash[..hash.len().min(12)]
}

/// Refuses runs whose question ids differ at a size both asked, naming one that only one of
/// them asked (a size only one asked is in the "Left out" line).
fn same_questions(an: &Analytics, a_dir: &Path, b_dir: &Path) -> Result<()> {
    let only = |x: &str, y: &str| -> Result<Option<String>> {
        let t = an.query(&format!(
            "WITH shared AS (SELECT records FROM answers WHERE benchmark_id = getvariable('{x}') \
             INTERSECT SELECT records FROM answers WHERE benchmark_id = getvariable('{y}')) \
             SELECT question_id FROM answers WHERE benchmark_id = getvariable('{x}') \
             AND records IN (SELECT records FROM shared) EXCEPT \
             SELECT question_id FROM answers WHERE benchmark_id = getvariable('{y}') \
             ORDER BY 1 LIMIT 1"
        ))?;
        Ok(t.rows
            .first()
            .and_then(|r| r[0].as_str().map(str::to_string)))
    };
    for (x, y, dir) in [("bench_a", "bench_b", a_dir), ("bench_b", "bench_a", b_dir)] {
        if let Some(q) = only(x, y)? {
            return Err(UsageError::new(format!(
                "question '{q}' is asked only in '{}': compare pairs runs over the same questions",
                dir.display()
            ))
            .into());
        }
    }
    Ok(())
}
