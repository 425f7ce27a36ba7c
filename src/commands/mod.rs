//! Command handlers: turn parsed arguments into library calls and print the results.

pub mod compare;
pub mod export;
pub mod formats;
pub mod generate;
pub mod init_config;
pub mod merge;
pub mod perf;
pub mod prompts;
pub mod query;
pub mod recommend;
pub mod report;
pub mod rescore;
pub mod run;
pub mod sweep;
pub mod tasks;
pub mod tokens;
mod tokens_billed;
mod tokens_data;
pub mod view;
pub mod write;

use crate::cli::{DataArgs, DataFileArgs, QuestionsArg, SynthArgs};
use crate::dataset::user::LoadOptions;
use crate::dataset::{Dataset, Structure, Variant};
use crate::formats::Format;
use crate::layout::{self, Rendering};
use crate::runner::userdata::DataPlan;
use anyhow::Result;

/// Renders every supported combination of the selection, one at a time, handing each to `each`
/// so large datasets never hold more than one rendering in memory.
pub fn for_each_rendering(
    ds: &Dataset,
    data: &DataArgs,
    formats: &[Format],
    mut each: impl FnMut(Rendering) -> Result<()>,
) -> Result<()> {
    for &v in &data.variants {
        for &s in &data.structures {
            let doc = ds.document(v, s);
            let shown: Vec<Format> = formats.iter().copied().filter(|f| f.supports(s)).collect();
            layout::render_each(&doc, &shown, s, v, &data.tokenizers, &mut each)?;
        }
    }
    Ok(())
}

/// How to read the `--data` file: `--records` is one count (all records when absent).
pub fn load_options(file: &DataFileArgs, d: &DataArgs) -> Result<LoadOptions, crate::UsageError> {
    let records = match d.records.as_slice() {
        [] => None,
        [n] => Some(*n as usize),
        _ => {
            return Err(crate::UsageError::new(
                "--data takes one --records value, not a list",
            ));
        }
    };
    Ok(LoadOptions {
        root_key: file.root_key.clone(),
        records,
        sample: file.sample.unwrap_or_default(),
        seed: d.seed,
    })
}

/// The `data:` line every `--data` command prints first: the file, its records and identity.
pub fn data_line(
    path: &std::path::Path,
    data: &crate::dataset::user::UserData,
    records: usize,
) -> String {
    format!(
        "data: {} — {} records (of {}), sha256 {}, {} columns",
        path.display(),
        records,
        data.total,
        data.sha256,
        data.schema.len()
    )
}

/// What `plan` costs for `models`, from the dry-run estimate: expected and at most, USD,
/// summed over the models (batch prices with `batch`; the most a batch costs is the live
/// maximum scaled by the batch discount).
pub(crate) fn plan_cost(
    plan: &crate::runner::Plan,
    models: &[crate::runner::Model],
    warmup: Option<bool>,
    batch: bool,
) -> Result<(f64, f64)> {
    use crate::providers::{self, process_env};
    let fresh: Vec<crate::runner::Model> = models
        .iter()
        .map(|m| {
            Ok(crate::runner::Model {
                config: m.config.clone(),
                provider: providers::build(&m.config, &process_env)?,
            })
        })
        .collect::<Result<_>>()?;
    let offline = crate::runner::estimate::Counts::Offline;
    let e = crate::runner::estimate::estimate(plan, &fresh, warmup, batch, &offline)?;
    let t = &e.providers;
    let col = |name: &str| t.columns.iter().position(|c| c == name);
    let num = |row: &[serde_json::Value], name: &str| -> f64 {
        col(name)
            .map(|i| &row[i])
            .and_then(|v| v.as_str().and_then(|s| s.parse().ok()).or(v.as_f64()))
            .unwrap_or(0.0)
    };
    let (mut est, mut max) = (0.0, 0.0);
    for row in &t.rows {
        let live = num(row, "est_usd");
        let e = num(row, if batch { "batch_usd" } else { "est_usd" });
        let m = num(row, "max_usd");
        est += e;
        max += if batch {
            m * e / live.max(f64::MIN_POSITIVE)
        } else {
            m
        };
    }
    Ok((est, max))
}

/// Without `--data`, `--questions` may name a question file about the product records; a
/// count applies to `--data` only (the product suite asks its 124 generated questions).
pub fn product_questions(q: &QuestionsArg) -> Result<Option<&std::path::Path>> {
    match q {
        QuestionsArg::File(f) => Ok(Some(f)),
        QuestionsArg::Count(crate::questions::synth::DEFAULT_QUESTIONS) => Ok(None),
        QuestionsArg::Count(n) => Err(crate::UsageError::new(format!(
            "--questions {n} sets how many questions to synthesise from --data; the product \
             suite asks its 124 generated questions (or give --questions FILE)"
        ))
        .into()),
    }
}

/// Loads the `--data` file and synthesises its questions, printing what the synthesis could
/// not do as asked.
pub fn data_plan(
    path: &std::path::Path,
    file: &DataFileArgs,
    synth: &SynthArgs,
    d: &DataArgs,
) -> Result<DataPlan> {
    // `--records 31,62,…`: one sample per size, asked in one run.
    let sizes: Vec<Option<usize>> = match d.records.as_slice() {
        [] => vec![None],
        list => list.iter().map(|&n| Some(n as usize)).collect(),
    };
    let largest = DataArgs {
        records: sizes
            .iter()
            .flatten()
            .max()
            .map(|&n| n as u32)
            .into_iter()
            .collect(),
        ..d.clone()
    };
    let plan = DataPlan::sized(
        path,
        load_options(file, &largest)?,
        synth_options(synth, d),
        &sizes,
    )?;
    eprintln!(
        "{}; {} questions, records identified by {}",
        data_line(path, &plan.data, plan.data.records.len()),
        plan.synthesis.questions.len(),
        plan.synthesis.id.describe()
    );
    for level in &plan.smaller {
        eprintln!(
            "data: also at {} records ({} questions)",
            level.data.records.len(),
            level.synthesis.questions.len()
        );
    }
    for n in &plan.data.notes {
        eprintln!("note: {n}");
    }
    for n in &plan.synthesis.notices {
        eprintln!("questions: {n}");
    }
    Ok(plan)
}

/// The question synthesis `--questions`, `--id-field` and `--seed` ask for.
pub fn synth_options(synth: &SynthArgs, d: &DataArgs) -> crate::questions::synth::Options {
    crate::questions::synth::Options {
        questions: match synth.questions {
            QuestionsArg::Count(n) => n,
            QuestionsArg::File(_) => crate::questions::synth::DEFAULT_QUESTIONS,
        },
        id_field: synth.id_field.clone(),
        seed: d.seed,
        file: match &synth.questions {
            QuestionsArg::File(f) => Some(f.clone()),
            QuestionsArg::Count(_) => None,
        },
    }
}

/// `--records` for the product dataset: the 31-record default when none was given (the
/// commands with `--data` have no clap default, so "all records" can be told apart).
pub fn product_sizes(d: &DataArgs) -> Vec<u32> {
    if d.records.is_empty() {
        vec![crate::dataset::DEFAULT_RECORDS]
    } else {
        d.records.clone()
    }
}

/// Whether the selection renders anything at all.
pub fn check_selection(
    formats: &[Format],
    structures: &[Structure],
    variants: &[Variant],
) -> Result<(), crate::UsageError> {
    let any = !variants.is_empty()
        && formats
            .iter()
            .any(|f| structures.iter().any(|&s| f.supports(s)));
    if any {
        Ok(())
    } else {
        Err(crate::UsageError::new(format!(
            "nothing to render: formats [{}] support none of the structures [{}] (csv is flat only)",
            formats
                .iter()
                .map(|f| f.name())
                .collect::<Vec<_>>()
                .join(", "),
            structures
                .iter()
                .map(|s| s.name())
                .collect::<Vec<_>>()
                .join(", "),
        )))
    }
}

/// Refuses the `bench run` flags that `command` (sweep, recommend) does not take, naming each
/// one given (their help leaves them out: `cli::help::NOT_IN_STEPS`); `runs` when `--runs`
/// is one of them.
pub(crate) fn refuse_run_only(
    args: &crate::cli::RunArgs,
    command: &str,
    runs: bool,
) -> Result<(), crate::UsageError> {
    use crate::write::Kind;
    let w = &args.write;
    let t = &args.task_select;
    let given = [
        ("--resume", args.resume.is_some()),
        ("--retry-errors", args.retry_errors),
        ("--cancel-batches", args.cancel_batches),
        ("--suite", args.suite != crate::cli::Suite::Formats),
        (
            "--max-failed-share",
            args.max_failed_share != crate::runner::DEFAULT_MAX_FAILED_SHARE,
        ),
        ("--runs", runs && args.runs != 3),
        ("--cases", w.cases.is_some()),
        ("--write-from", w.write_from != Format::JsonCompact),
        ("--repairs", w.repairs != 2),
        (
            "--kinds",
            w.kinds != [Kind::Compose, Kind::Transcode, Kind::Edit],
        ),
        ("--no-json-schema", w.no_json_schema),
        ("--tasks", t.tasks.is_some()),
        (
            "--data-source",
            t.data_source != crate::tasks::DataSource::Synthetic,
        ),
        ("--task-ids", !t.task_ids.is_empty()),
        ("--categories", !t.categories.is_empty()),
        ("--wide", args.wide),
        ("--show-requests", args.show_requests),
        ("--full", args.full),
        ("--count-with-provider", args.count_with_provider),
    ];
    let named: Vec<&str> = given.iter().filter(|g| g.1).map(|g| g.0).collect();
    if named.is_empty() {
        return Ok(());
    }
    Err(crate::UsageError::new(format!(
        "bench {command} runs its own steps of the formats suite (the product records or \
         --data's) into one run folder: {} {} not apply",
        named.join(", "),
        if named.len() == 1 { "does" } else { "do" }
    )))
}
