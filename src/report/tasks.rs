//! The report of a run whose results are scored per analysis task (`--suite tasks`): the
//! ranking of `sql/task_scores.sql`, each task × format of `sql/task_formats.sql`, the
//! renderings a format could not produce, and how the scores are made. The lookup report's
//! statistics (paired McNemar tests, bootstrap intervals) need many questions per rendering;
//! a task is one prompt, so this report states measured values and tests nothing.

use super::data::RunInfo;
use super::doc::{self, Block, Cell};
use super::write::Written;
use crate::analytics::{Analytics, Table, sql};
use anyhow::{Context, Result};
use serde_json::{Value, json};

/// Whether the run's results are scored per analysis task (its metadata names a task file).
pub fn is_tasks_run(run: &RunInfo) -> bool {
    run.metadata.tasks.is_some()
}

/// A query result as a document table: numbers right-aligned, nulls as "–".
fn table(t: &Table) -> Block {
    let cell = |v: &Value| match v {
        Value::Null => Cell::text("–"),
        Value::Number(n) => Cell::num(super::tables::cell(v), n.as_f64()),
        Value::String(s) => Cell::text(s.clone()),
        other => Cell::text(other.to_string()),
    };
    Block::Table {
        columns: t.columns.clone(),
        rows: t
            .rows
            .iter()
            .map(|r| r.iter().map(cell).collect())
            .collect(),
    }
}

/// The first-ranked format of each model in words, with how many formats share its accuracy
/// on every task (the ranking's token tie-break then decides).
fn leaders(scores: &Table) -> Vec<String> {
    type Row = serde_json::Map<String, Value>;
    let rows: Vec<Row> = scores.objects().collect();
    let get = |r: &Row, k: &str| r.get(k).cloned().unwrap_or_default();
    let text = |r: &Row, k: &str| super::tables::cell(&get(r, k));
    rows.iter()
        .filter(|r| get(r, "rank").as_i64() == Some(1))
        .map(|first| {
            let peers = rows
                .iter()
                .filter(|r| {
                    ["provider", "model", "fact_accuracy_pct", "all_tasks"]
                        .iter()
                        .all(|k| get(r, k) == get(first, k))
                })
                .count();
            let tie = if peers > 1 {
                format!("; {peers} formats share that accuracy and it needs the fewest input tokens of them")
            } else {
                String::new()
            };
            format!(
                "{}:{}: **{}** ranks first: {} % fact accuracy over {} tasks, {} input tokens per \
                 prompt on average{tie}.",
                text(first, "provider"),
                text(first, "model"),
                text(first, "format"),
                text(first, "fact_accuracy_pct"),
                text(first, "tasks"),
                text(first, "avg_input_tokens"),
            )
        })
        .collect()
}

/// The renderings skipped, from the metadata line, one bullet each with its reason.
fn skipped(run: &RunInfo) -> Vec<String> {
    run.metadata
        .tasks
        .iter()
        .flat_map(|t| &t.skipped)
        .map(|k| format!("{} in {}: {}", k.task, k.format, k.reason))
        .collect()
}

/// The document.
fn document(run: &RunInfo, scores: &Table, per_task: &Table) -> Vec<Block> {
    let mut out = vec![
        Block::Heading(1, format!("bench report — `{}` suite", run.suite)),
        Block::Para(format!(
            "Which format lets a model analyse data best? Run `{}` of {}: each analysis task's \
             prompt carries its data in one format; an answer is scored by the share of the \
             task's expected values, computed from the data, that it states correctly.",
            run.metadata.benchmark_id, run.metadata.timestamp
        )),
        Block::Heading(2, "Verdict".into()),
    ];
    let lead = leaders(scores);
    if lead.is_empty() {
        out.push(Block::Para("No scored calls: nothing to rank.".into()));
    } else {
        out.push(Block::Bullets(lead));
    }
    out.push(Block::Para(
        "These are measured values: this report does not test the differences between formats \
         for significance (the lookup report's paired tests are not applied to task facts). \
         Formats that could not render every task rank after those that did (`all_tasks`)."
            .into(),
    ));
    out.push(Block::Heading(2, "Ranking (sql/task_scores.sql)".into()));
    out.push(table(scores));
    out.push(Block::Heading(2, "Each task (sql/task_formats.sql)".into()));
    out.push(table(per_task));
    let skips = skipped(run);
    if !skips.is_empty() {
        out.push(Block::Heading(2, "Renderings not made".into()));
        out.push(Block::Bullets(skips));
    }
    out.push(Block::Heading(2, "How the scores are made".into()));
    out.push(Block::Bullets(vec![
        format!(
            "Task file: {}.",
            run.metadata
                .tasks
                .as_ref()
                .map_or("?".into(), |t| t.file.display().to_string())
        ),
        "fact accuracy: each expected value's query is evaluated on the task's data; the reply \
         must state that value (numbers within the task's tolerance). This is the ranking key."
            .into(),
        "composite and its parts: TeaLeaf's heuristic rubric (length, keywords, structure), kept \
         for comparison with TeaLeaf's published tables; it does not check correctness."
            .into(),
        format!("Runs per rendering: {}.", run.metadata.runs),
    ]));
    out
}

/// Writes BENCHMARK_REPORT.md, report.html and analytics_results.json of a tasks run.
pub fn write(run: RunInfo) -> Result<Written> {
    let a = Analytics::open_run(&run.dir)?;
    let scores = a
        .query(sql::TASK_SCORES)
        .context("running sql/task_scores.sql")?;
    let per_task = a
        .query(sql::TASK_FORMATS)
        .context("running sql/task_formats.sql")?;
    let dir = run.dir.join(&run.suite);
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create '{}'", dir.display()))?;
    let blocks = document(&run, &scores, &per_task);
    let title = format!(
        "bench report — {} — {}",
        run.suite, run.metadata.benchmark_id
    );
    let objects = |t: &Table| t.objects().map(Value::Object).collect::<Vec<_>>();
    let results = json!({
        "benchmark_id": run.metadata.benchmark_id,
        "suite": run.suite,
        "task_scores": objects(&scores),
        "task_formats": objects(&per_task),
        "skipped": skipped(&run),
    });
    let mut files = Vec::new();
    for (name, text) in [
        ("BENCHMARK_REPORT.md", doc::markdown(&blocks)),
        ("report.html", doc::html(&title, &blocks)),
        (
            "analytics_results.json",
            serde_json::to_string_pretty(&results)? + "\n",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text)
            .with_context(|| format!("cannot write '{}'", path.display()))?;
        files.push(name.to_string());
    }
    Ok(Written { dir, files })
}
