//! Everything a report shows, read from one run folder: the SQL files of `sql/` over its views,
//! plus the cluster-bootstrap intervals of `stats` (the only statistic SQL cannot compute).


pub mod asked_records;
pub mod gather;

use crate::analytics::{Analytics, Table, sql};
use crate::runlog::{Line, Metadata};
use crate::stats::{self, Cluster, PairedCluster, RESAMPLES};
use anyhow::{Context, Result};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// One comparison family: the data and model a set of formats was compared on.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Family {
    /// Provider name.
    pub provider: String,
    /// Model id.
    pub model: String,
    /// `flat` or `nested`.
    pub structure: String,
    /// `mandatory` or `optional`.
    pub variant: String,
    /// Records in the data.
    pub records: i64,
    /// Whether a format primer preceded the data.
    pub primer: bool,
}

impl Family {
    /// `provider/model`.
    pub fn model_label(&self) -> String {
        format!("{}/{}", self.provider, self.model)
    }

    /// A short label of the data: `flat · mandatory` (plus records and primer when given).
    pub fn data_label(&self, with_records: bool, with_primer: bool) -> String {
        let mut s = shape_label(&self.structure, &self.variant, self.records, with_records);
        if with_primer {
            s.push_str(if self.primer {
                " · primer"
            } else {
                " · no primer"
            });
        }
        s
    }
}

/// A data shape in words: `flat · optional` (with ` · 31 records` when sizes vary), or `12 tasks`
/// for a tasks run, whose formats are compared over a task set (views.sql `result_keys`).
pub fn shape_label(structure: &str, variant: &str, records: i64, with_records: bool) -> String {
    if structure == "tasks" {
        format!("{records} task{}", if records == 1 { "" } else { "s" })
    } else if with_records {
        format!("{structure} · {variant} · {records} records")
    } else {
        format!("{structure} · {variant}")
    }
}

/// Accuracy of one rendering: `sql/accuracy.sql` plus the bootstrap interval of weighted
/// accuracy. Field names are the `analytics_results.json` contract.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AccuracyRow {
    /// Comparison family.
    #[serde(flatten)]
    pub family: Family,
    /// Format.
    pub format: String,
    /// Answers graded (successful calls, warm-ups excluded).
    pub n_answers: i64,
    /// Answers right.
    pub n_correct: i64,
    /// Plain accuracy, 0..1.
    pub accuracy: Option<f64>,
    /// Wilson 95 % lower bound.
    pub wilson_low: Option<f64>,
    /// Wilson 95 % upper bound.
    pub wilson_high: Option<f64>,
    /// Weighted accuracy, mean over successful runs, 0..1.
    pub weighted_accuracy: Option<f64>,
    /// Bootstrap 95 % lower bound of weighted accuracy.
    #[serde(default)]
    pub weighted_low: Option<f64>,
    /// Bootstrap 95 % upper bound of weighted accuracy.
    #[serde(default)]
    pub weighted_high: Option<f64>,
    /// Successful runs.
    pub runs: i64,
    /// Lowest weighted accuracy of a run.
    pub weighted_min: Option<f64>,
    /// Highest weighted accuracy of a run.
    pub weighted_max: Option<f64>,
    /// Sample standard deviation over runs (null with one run).
    pub weighted_stdev: Option<f64>,
    /// Calls made (per-question mode: one per question).
    pub calls: i64,
    /// Calls that failed.
    pub failed_calls: i64,
    /// Data tokens as ranked: the model's own counts where its provider counted them, else
    /// o200k_base (`token_basis` says which).
    pub data_tokens: Option<i64>,
    /// Data tokens under o200k_base, for comparison.
    #[serde(default)]
    pub data_tokens_o200k: Option<i64>,
    /// What `data_tokens` rests on (`anthropic count_tokens`, `o200k_base`).
    #[serde(default)]
    pub token_basis: Option<String>,
    /// Weighted accuracy % per 1,000 data tokens.
    pub efficiency: Option<f64>,
    /// Rank by weighted accuracy within the family (sql/accuracy.sql; ties share a rank).
    #[serde(default)]
    pub rank_weighted: Option<i64>,
    /// Rank by plain accuracy within the family.
    #[serde(default)]
    pub rank_accuracy: Option<i64>,
    /// Rank by efficiency within the family.
    #[serde(default)]
    pub rank_efficiency: Option<i64>,
}

/// One format against the baseline: `sql/paired_comparison.sql` plus the bootstrap interval of
/// Δ weighted accuracy. Field names are the `analytics_results.json` contract.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ComparisonRow {
    /// Comparison family.
    #[serde(flatten)]
    pub family: Family,
    /// Format compared.
    pub format: String,
    /// Baseline format.
    pub baseline: String,
    /// Δ weighted accuracy, percentage points.
    pub delta_weighted_pp: Option<f64>,
    /// Bootstrap 95 % lower bound of Δ weighted accuracy, pp.
    #[serde(default)]
    pub delta_low_pp: Option<f64>,
    /// Bootstrap 95 % upper bound of Δ weighted accuracy, pp.
    #[serde(default)]
    pub delta_high_pp: Option<f64>,
    /// Δ plain accuracy over the pairs, pp.
    pub delta_accuracy_pp: Option<f64>,
    /// Paired answers.
    pub n_pairs: i64,
    /// Pairs only the format got right.
    pub discordant_format_only: i64,
    /// Pairs only the baseline got right.
    pub discordant_baseline_only: i64,
    /// Exact McNemar p.
    pub p_value: f64,
    /// Holm-adjusted p across the family.
    pub p_holm: f64,
    /// p_holm < 0.05.
    pub significant: bool,
    /// Data tokens of the format / of the baseline (o200k_base).
    pub token_ratio: Option<f64>,
    /// Runs paired.
    pub runs: i64,
    /// Smallest detectable plain-accuracy difference (80 % power), pp.
    pub mde_pp: Option<f64>,
    /// Runs that would detect the observed difference (when not significant).
    pub runs_needed: Option<i64>,
    /// Non-inferiority margin, pp.
    #[serde(default)]
    pub margin_pp: f64,
    /// Lower bound of Tango's 90 % interval of Δ plain accuracy, pp.
    #[serde(default)]
    pub ni_low_pp: Option<f64>,
    /// One-sided p of Tango's test of Δ ≤ −margin.
    #[serde(default)]
    pub ni_p: Option<f64>,
    /// Its Holm-adjusted p across the family.
    #[serde(default)]
    pub ni_p_holm: Option<f64>,
    /// ni_p_holm < 0.05.
    #[serde(default)]
    pub ni_significant: bool,
    /// Runs that would show non-inferiority (when neither it nor a loss is shown).
    #[serde(default)]
    pub runs_needed_ni: Option<i64>,
}

impl ComparisonRow {
    /// Non-inferior within the margin: Tango's test after Holm, and the question-clustered
    /// bootstrap interval of Δ weighted above −margin (repeated runs of one question are not
    /// independent pairs).
    pub fn noninferior(&self) -> bool {
        self.noninferior_at(0.05)
    }

    /// [`noninferior`](Self::noninferior) with the Holm-adjusted test at level `alpha`.
    pub fn noninferior_at(&self, alpha: f64) -> bool {
        stats::noninferior(self.ni_p_holm, self.delta_low_pp, self.margin_pp, alpha)
    }

    /// Significantly worse than its baseline (Holm-adjusted exact McNemar).
    pub fn worse(&self) -> bool {
        self.worse_at(0.05)
    }

    /// [`worse`](Self::worse) at level `alpha`.
    pub fn worse_at(&self, alpha: f64) -> bool {
        self.p_holm < alpha && self.delta_accuracy_pp.is_some_and(|d| d < 0.0)
    }
}

/// `sql/category_accuracy.sql`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CategoryRow {
    /// Comparison family.
    #[serde(flatten)]
    pub family: Family,
    /// Format.
    pub format: String,
    /// Question category.
    pub category: String,
    /// Answers.
    pub n_answers: i64,
    /// Right answers.
    pub n_correct: i64,
    /// Plain accuracy.
    pub accuracy: f64,
    /// Wilson 95 % lower bound.
    pub wilson_low: f64,
    /// Wilson 95 % upper bound.
    pub wilson_high: f64,
}

/// `sql/pareto.sql`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ParetoRow {
    /// Comparison family.
    #[serde(flatten)]
    pub family: Family,
    /// Format.
    pub format: String,
    /// Weighted accuracy.
    pub weighted_accuracy: f64,
    /// Data tokens (o200k_base); null when the log has no o200k count.
    pub data_tokens: Option<i64>,
    /// Whether no format beats it on both accuracy and tokens.
    pub on_frontier: bool,
    /// Formats that beat it on both.
    pub dominated_by: Option<String>,
}

/// `sql/token_efficiency.sql`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TokenRow {
    /// Format.
    pub format: String,
    /// Structure.
    pub structure: String,
    /// Variant.
    pub variant: String,
    /// Records.
    pub records: i64,
    /// Tokenizer.
    pub tokenizer: String,
    /// Data tokens.
    pub tokens: i64,
    /// Characters per token.
    pub chars_per_token: f64,
    /// Tokens per non-null value.
    pub tokens_per_value: f64,
    /// Tokens per object.
    pub tokens_per_object: Option<f64>,
    /// Rank by characters per token within the data shape and tokenizer
    /// (sql/token_efficiency.sql; ties share a rank).
    pub rank_chars_per_token: i64,
    /// Rank by tokens per value (fewest first).
    pub rank_tokens_per_value: i64,
    /// Rank by tokens per object (fewest first).
    pub rank_tokens_per_object: Option<i64>,
}

/// A run as its report reads it: the typed metadata line and the summary line.
#[derive(Debug, Clone)]
pub struct RunInfo {
    /// The run folder.
    pub dir: PathBuf,
    /// Suite name (the JSONL file stem).
    pub suite: String,
    /// The metadata line.
    pub metadata: Metadata,
    /// The summary line's `data` object; None while a run is going or after a crash.
    pub summary: Option<Map<String, Value>>,
}

impl RunInfo {
    /// Category weights from the metadata, by category name.
    pub fn weights(&self) -> BTreeMap<String, f64> {
        self.metadata
            .weights
            .as_object()
            .map(|o| {
                o.iter()
                    .filter_map(|(k, v)| v.as_f64().map(|w| (k.clone(), w)))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The non-inferiority margin the report decides with, percentage points: the run's
    /// `--margin` (or `bench report --margin`), else the default.
    pub fn margin_pp(&self) -> f64 {
        self.metadata
            .margin_pp
            .unwrap_or(crate::stats::DEFAULT_MARGIN_PP)
    }

    /// Why the numbers cover only part of the plan, if they do: a run stopped early (Ctrl-C,
    /// budget) or with no summary line (still going, or killed).
    pub fn incomplete(&self) -> Option<String> {
        match &self.summary {
            None => {
                Some("its log has no summary line (the run is still going, or was killed)".into())
            }
            Some(s) if s.get("interrupted").and_then(Value::as_bool) == Some(true) => {
                Some(format!(
                    "it stopped early ({})",
                    s.get("stop_reason")
                        .and_then(Value::as_str)
                        .unwrap_or("interrupted")
                ))
            }
            Some(_) => None,
        }
    }
}

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
    pub tokens: Vec<TokenRow>,
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
    /// The `corrupted` track's detection and false alarms (`sql/corrupted.sql`).
    pub corrupted: Table,
    /// Tokens and accuracy against record count, when the run swept sizes.
    pub scaling: Option<Table>,
    /// Retrieval accuracy by position.
    pub position: Option<Table>,
    /// A tasks run: each task × format (`sql/task_formats.sql`).
    pub tasks: Option<Table>,
    /// A write run: `sql/write_accuracy.sql` and `sql/write_failures.sql`.
    pub write: Option<crate::report::write_tables::WriteTables>,
}

/// Wrong answers a report shows per model and rendering; the rest are counted.
pub const WRONG_SHOWN: usize = 5;

/// Rows of a table as typed structs (columns by name).
pub(crate) fn typed<T: DeserializeOwned>(t: &Table, what: &str) -> Result<Vec<T>> {
    t.objects()
        .map(|o| {
            serde_json::from_value(Value::Object(o))
                .with_context(|| format!("reading a row of {what}"))
        })
        .collect()
}

pub(crate) fn run_sql(a: &Analytics, sql: &str, what: &str) -> Result<Table> {
    a.query(sql).with_context(|| format!("running {what}"))
}

/// The JSONL run log of a run folder (the one `.jsonl` file in it).
pub fn run_log(dir: &Path) -> Result<PathBuf> {
    let mut logs = crate::runlog::run_logs(dir)
        .with_context(|| format!("cannot read run folder '{}'", dir.display()))?;
    match logs.len() {
        0 => Err(crate::UsageError::new(format!(
            "'{}' has no run log (*.jsonl); is it a data/benchmarks/<timestamp> folder?",
            dir.display()
        ))
        .into()),
        1 => Ok(logs.remove(0)),
        _ => Err(crate::UsageError::new(format!(
            "'{}' holds {} run logs; a run folder holds one",
            dir.display(),
            logs.len()
        ))
        .into()),
    }
}

/// Reads the metadata line (the first line) and the summary line (the last, if it is one) of a
/// run folder's log, streaming it so a large log is never held in memory.
pub fn run_info(dir: &Path) -> Result<RunInfo> {
    use std::io::BufRead;
    let log = run_log(dir)?;
    if let Some(e) = crate::runlog::holds_no_lines(&log) {
        return Err(e.into());
    }
    let file =
        std::fs::File::open(&log).with_context(|| format!("cannot read '{}'", log.display()))?;
    let mut lines = std::io::BufReader::new(file).lines();
    let first = lines
        .next()
        .transpose()
        .with_context(|| format!("cannot read '{}'", log.display()))?
        .unwrap_or_default();
    let line: Value = serde_json::from_str(&first)
        .with_context(|| format!("{}:1: not a JSON line", log.display()))?;
    if line.get("type").and_then(Value::as_str) != Some("metadata") {
        return Err(crate::UsageError::new(format!(
            "{}:1: the first line is not a metadata line",
            log.display()
        ))
        .into());
    }
    let metadata = match serde_json::from_value::<Line>(line) {
        Ok(Line::Metadata(m)) => *m,
        Ok(_) => unreachable!("a line of type metadata reads as one"),
        Err(e) => {
            return Err(crate::UsageError::new(format!(
                "{}:1: the metadata line does not read: {e}",
                log.display()
            ))
            .into());
        }
    };
    // Read from the end: a log of millions of answers is not read through for its last line.
    let last = crate::runlog::last_line(&log)
        .with_context(|| format!("cannot read '{}'", log.display()))?
        .filter(|(at, _)| *at > 0)
        .map(|(_, l)| l);
    let summary = last
        .and_then(|l| serde_json::from_str::<Value>(&l).ok())
        .filter(|l| l.get("type").and_then(Value::as_str) == Some("summary"))
        .and_then(|l| l.get("data").and_then(Value::as_object).cloned());
    Ok(RunInfo {
        summary,
        dir: dir.to_path_buf(),
        suite: log
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        metadata,
    })
}

/// The family key of a row of any of the SQL results.
pub(super) fn family_of(cols: &[String], row: &[Value]) -> Option<(Family, String)> {
    let get = |name: &str| cols.iter().position(|c| c == name).map(|i| &row[i]);
    let s = |name: &str| get(name).and_then(Value::as_str).map(str::to_string);
    Some((
        Family {
            provider: s("provider")?,
            model: s("model")?,
            structure: s("structure")?,
            variant: s("variant")?,
            records: get("records")?.as_i64()?,
            primer: get("primer")?.as_bool()?,
        },
        s("format")?,
    ))
}

/// The question clusters of a bootstrap query (sql/bootstrap_*.sql), per rendering: read by
/// column name — the family keys, `format`, `category`, then the `counts` columns `make`
/// turns into one cluster.
fn clusters_of<T>(
    t: &Table,
    names: &[String],
    counts: &[&str],
    make: impl Fn(usize, &[u32]) -> T,
) -> Result<HashMap<(Family, String), Vec<T>>> {
    let col = |name: &str| {
        t.columns
            .iter()
            .position(|c| c == name)
            .with_context(|| format!("the bootstrap query has no column '{name}'"))
    };
    let category = col("category")?;
    let counts: Vec<usize> = counts.iter().map(|c| col(c)).collect::<Result<_>>()?;
    let mut out: HashMap<(Family, String), Vec<T>> = HashMap::new();
    for r in &t.rows {
        let Some(key) = family_of(&t.columns, r) else {
            continue;
        };
        let Some(c) = names
            .iter()
            .position(|n| Some(n.as_str()) == r[category].as_str())
        else {
            continue;
        };
        let n: Vec<u32> = counts
            .iter()
            .map(|&i| r[i].as_u64().unwrap_or(0) as u32)
            .collect();
        out.entry(key).or_default().push(make(c, &n));
    }
    Ok(out)
}

/// Category names in weight order, and their weights.
fn weight_table(run: &RunInfo) -> (Vec<String>, Vec<f64>) {
    run.weights().into_iter().unzip()
}

/// Adds the bootstrap interval of weighted accuracy to every accuracy row.
pub(super) fn bootstrap_accuracy(
    a: &Analytics,
    run: &RunInfo,
    rows: &mut [AccuracyRow],
) -> Result<()> {
    let (names, weights) = weight_table(run);
    let t = run_sql(a, sql::BOOTSTRAP_CLUSTERS, "sql/bootstrap_clusters.sql")?;
    let clusters = clusters_of(&t, &names, &["passed", "total"], |category, n| Cluster {
        category,
        passed: n[0],
        total: n[1],
    })?;
    for row in rows {
        let key = (row.family.clone(), row.format.clone());
        if let Some(cs) = clusters.get(&key)
            && let Some(i) = stats::weighted(
                cs,
                &weights,
                RESAMPLES,
                stats::seed_for(&format!("{key:?}")),
            )
        {
            row.weighted_low = Some(i.low);
            row.weighted_high = Some(i.high);
        }
    }
    Ok(())
}

/// The question-clustered bootstrap interval of Δ weighted accuracy (a proportion) per
/// rendering, from the paired clusters `pairs_sql` returns (sql/bootstrap_pairs.sql,
/// sql/compare_pairs.sql), with `run`'s category weights; seeded by the rendering and `against`.
pub fn paired_intervals(
    a: &Analytics,
    run: &RunInfo,
    pairs_sql: &str,
    what: &str,
    against: &str,
) -> Result<HashMap<(Family, String), stats::Interval>> {
    let (names, weights) = weight_table(run);
    let pairs = run_sql(a, pairs_sql, what)?;
    let clusters = clusters_of(
        &pairs,
        &names,
        &["passed", "baseline_passed", "total"],
        |category, n| PairedCluster {
            category,
            passed: n[0],
            baseline_passed: n[1],
            total: n[2],
        },
    )?;
    Ok(clusters
        .into_iter()
        .filter_map(|(key, cs)| {
            let seed = stats::seed_for(&format!("{key:?} vs {against}"));
            stats::paired_delta(&cs, &weights, RESAMPLES, seed).map(|i| (key, i))
        })
        .collect())
}

/// Runs paired_comparison.sql against `baseline` and adds the bootstrap interval of Δ weighted
/// accuracy to each row.
pub(super) fn comparisons(
    a: &Analytics,
    run: &RunInfo,
    baseline: &str,
) -> Result<Vec<ComparisonRow>> {
    a.set_variable("bench_baseline", baseline)?;
    let t = run_sql(a, sql::PAIRED_COMPARISON, "sql/paired_comparison.sql")?;
    let mut rows: Vec<ComparisonRow> = typed(&t, "sql/paired_comparison.sql")?;
    let deltas = paired_intervals(
        a,
        run,
        sql::BOOTSTRAP_PAIRS,
        "sql/bootstrap_pairs.sql",
        baseline,
    )?;
    for row in &mut rows {
        if let Some(i) = deltas.get(&(row.family.clone(), row.format.clone())) {
            row.delta_low_pp = Some(100.0 * i.low);
            row.delta_high_pp = Some(100.0 * i.high);
        }
    }
    Ok(rows)
}

/// The most accurate format of each family (ties: fewer data tokens, then name).
pub fn best_per_family(accuracy: &[AccuracyRow]) -> BTreeMap<Family, &AccuracyRow> {
    let mut best: BTreeMap<Family, &AccuracyRow> = BTreeMap::new();
    for r in accuracy.iter().filter(|r| r.weighted_accuracy.is_some()) {
        let better = |b: &&AccuracyRow| {
            let (wa, wb) = (
                r.weighted_accuracy.unwrap_or(0.0),
                b.weighted_accuracy.unwrap_or(0.0),
            );
            wa > wb + 1e-12
                || ((wa - wb).abs() <= 1e-12
                    && (r.data_tokens.unwrap_or(i64::MAX), &r.format)
                        < (b.data_tokens.unwrap_or(i64::MAX), &b.format))
        };
        match best.get(&r.family) {
            Some(b) if !better(b) => {}
            _ => {
                best.insert(r.family.clone(), r);
            }
        }
    }
    best
}
