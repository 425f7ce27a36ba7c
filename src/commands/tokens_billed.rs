//! `bench tokens --provider P`: each rendering's data tokens as the provider counts them (its
//! first prompt as `bench run` sends it, minus the same prompt without the rendering), beside
//! the exact offline o200k_base count, for any suite. The plan is the run's own, so the prompts
//! counted are the prompts a run sends.

use crate::UsageError;
use crate::analytics::Table;
use crate::cli::{RunArgs, TableFormat, TokensArgs};
use crate::ops::setup;
use crate::runner::plan::{self, Combo};
use crate::runner::tokens::counter::{CountCache, Counter};
use anyhow::Result;
use clap::{Args, FromArgMatches};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// One rendering's counts.
struct Row<'a> {
    combo: &'a Combo,
    offline: u64,
    data: u64,
    prompt: u64,
}

/// `bench tokens --provider`.
pub fn execute(args: &TokensArgs) -> Result<()> {
    let run_args = run_args(args)?;
    let plan = setup::new_plan(&run_args)?;
    let (matrix, skipped) = plan::build_all(&plan)?;
    for s in &skipped {
        eprintln!("{s}");
    }
    let models = setup::build_models(&run_args, setup::model_configs(&run_args)?)?;
    let runtime = tokio::runtime::Runtime::new()?;
    for (i, m) in models.iter().enumerate() {
        let spec = m.config.spec();
        let cache = CountCache::default_dir()
            .filter(|_| !args.count.no_cache)
            .map(CountCache::new);
        let mut counter = Counter::new(m.provider.as_ref(), cache, m.config.rpm).map_err(|why| {
            UsageError::new(format!(
                "{spec} has no token counter: {why}; `bench tokens` without --provider counts offline"
            ))
        })?;
        let shares = runtime
            .block_on(counter.shares(&matrix.combos))
            .map_err(|e| anyhow::anyhow!("{spec}: {e}"))?;
        let mut rows: Vec<Row> = matrix
            .combos
            .iter()
            .zip(shares)
            .map(|(c, share)| Row {
                combo: c,
                offline: c
                    .rendering
                    .stats
                    .tokens_of(crate::tokens::Tokenizer::O200kBase) as u64,
                data: share.data(),
                prompt: share.prompt,
            })
            .collect();
        rows.sort_by_key(|r| (r.data, r.combo.rendering.format));
        // Words beside a table; on stderr when stdout is JSON or CSV for a program to read.
        let words = |line: String| -> Result<()> {
            if args.format == TableFormat::Table {
                crate::outln!("{line}")?;
            } else {
                eprintln!("{line}");
            }
            Ok(())
        };
        if i > 0 {
            words(String::new())?;
        }
        words(format!(
            "{spec}: data tokens of each rendering as {} counts them (own count: the first\n\
             prompt as sent minus the same prompt without the rendering), beside o200k_base's",
            counter.basis()
        ))?;
        crate::out!("{}", crate::report::render(&table(&rows), args.format)?)?;
        for line in disagreements(&rows, m.provider.model()) {
            words(line)?;
        }
        words(format!(
            "{} counts: {} sent to the counter, {} from the cache",
            counter.sent + counter.hits,
            counter.sent,
            counter.hits
        ))?;
    }
    Ok(())
}

/// The run's arguments: its defaults, with the selection and the models of `tokens`.
fn run_args(args: &TokensArgs) -> Result<RunArgs> {
    let matches = RunArgs::augment_args(clap::Command::new("run")).try_get_matches_from(["run"])?;
    let mut run = RunArgs::from_arg_matches(&matches)?;
    run.suite = args.count.suite;
    run.own = args.count.own.clone();
    run.file = args.file.clone();
    // `tokens` has no --records default of its own (the data's applies): keep the run's.
    let records = std::mem::take(&mut run.data.records);
    run.data = args.data.clone();
    if run.data.records.is_empty() {
        run.data.records = records;
    }
    run.providers = args.count.providers.clone();
    run.config = args.count.config.clone();
    run.base_url = args.count.base_url.clone();
    run.runs = 1;
    Ok(run)
}

/// The table: one row per rendering, fewest provider-counted data tokens first (`own count`:
/// the data as the model's provider counts it; `own prompt`: the whole first prompt).
fn table(rows: &[Row]) -> Table {
    let items = rows.iter().any(|r| r.combo.item().is_some());
    let mut columns: Vec<String> = Vec::new();
    if items {
        columns.push("item".into());
    }
    columns.extend(
        [
            "format",
            "structure",
            "variant",
            "records",
            "o200k_base",
            "own count",
            "ratio",
            "own prompt",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    let rows = rows
        .iter()
        .map(|r| {
            let c = r.combo;
            let mut row: Vec<Value> = Vec::new();
            if items {
                row.push(json!(c.item().unwrap_or("-")));
            }
            row.extend([
                json!(c.rendering.format.name()),
                json!(c.rendering.structure.name()),
                json!(c.rendering.variant.name()),
                json!(c.records),
                json!(r.offline),
                json!(r.data),
                if r.offline > 0 {
                    json!(format!("{:.2}", r.data as f64 / r.offline as f64))
                } else {
                    Value::Null
                },
                json!(r.prompt),
            ]);
            row
        })
        .collect();
    Table { columns, rows }
}

/// One line per group of renderings of the same data (item, structure, variant, size) whose
/// cheapest format differs between o200k_base and the provider's counts.
fn disagreements(rows: &[Row], model: &str) -> Vec<String> {
    let mut groups: BTreeMap<(Option<&str>, &str, &str, usize), Vec<&Row>> = BTreeMap::new();
    for r in rows {
        let c = r.combo;
        groups
            .entry((
                c.item(),
                c.rendering.structure.name(),
                c.rendering.variant.name(),
                c.records,
            ))
            .or_default()
            .push(r);
    }
    let mut out = Vec::new();
    for ((item, s, v, n), g) in groups {
        let by_offline = g
            .iter()
            .min_by_key(|r| (r.offline, r.combo.rendering.format));
        let by_provider = g.iter().min_by_key(|r| (r.data, r.combo.rendering.format));
        if let (Some(o), Some(p)) = (by_offline, by_provider)
            && o.combo.rendering.format != p.combo.rendering.format
        {
            let what = match item {
                Some(i) => format!("{i}, {s} · {v} · {n} records"),
                None => format!("{s} · {v} · {n} records"),
            };
            out.push(format!(
                "{what}: cheapest under o200k_base: {} ({}); under {model}'s own counts: {} ({})",
                o.combo.rendering.format.name(),
                o.offline,
                p.combo.rendering.format.name(),
                p.data
            ));
        }
    }
    out
}
