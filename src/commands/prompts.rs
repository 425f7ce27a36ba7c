//! `bench dump-prompts`: the prompts `bench run` would send for the same suite and flags, one
//! text file each, without calling anything. The plan is built by the run's own planner, so
//! every suite (formats, `--data`, tasks, write, corrupted) is written exactly as it is asked.

use crate::UsageError;
use crate::cli::{DumpPromptsArgs, RunArgs};
use crate::ops::setup;
use crate::runner::plan::{self, Combo};
use anyhow::{Context, Result};
use clap::{Args, FromArgMatches};
use std::collections::BTreeMap;

/// `bench dump-prompts`.
pub fn dump(args: &DumpPromptsArgs) -> Result<()> {
    let plan = setup::new_plan(&run_args(args)?)?;
    let (matrix, skipped) = plan::build_all(&plan)?;
    for s in &skipped {
        eprintln!("{s}");
    }
    std::fs::create_dir_all(&args.output)
        .map_err(|e| UsageError::new(format!("cannot create '{}': {e}", args.output.display())))?;
    let names = file_names(&matrix.combos);
    let mut written = 0;
    for (c, name) in matrix.combos.iter().zip(names) {
        for (i, u) in c.units.iter().enumerate() {
            // Per-question mode: one file per question, named by it.
            let file = match (c.units.len(), &u.question) {
                (1, _) => format!("{name}.txt"),
                (_, Some(q)) => format!("{name}-{q}.txt"),
                (_, None) => format!("{name}-{}.txt", i + 1),
            };
            let path = args.output.join(file);
            std::fs::write(&path, text(&u.messages))
                .with_context(|| format!("writing {}", path.display()))?;
            written += 1;
        }
    }
    crate::outln!(
        "{written} prompts written to {} ({} skipped: the format cannot represent the data)",
        args.output.display(),
        skipped.len()
    )?;
    Ok(())
}

/// The run's arguments: its defaults, with the plan options `dump-prompts` takes.
fn run_args(args: &DumpPromptsArgs) -> Result<RunArgs> {
    let matches = RunArgs::augment_args(clap::Command::new("run")).try_get_matches_from(["run"])?;
    let mut run = RunArgs::from_arg_matches(&matches)?;
    run.suite = args.suite;
    run.own = args.own.clone();
    run.file = args.file.clone();
    run.synth = args.synth.clone();
    run.data = args.data.clone();
    run.primer = args.primer;
    run.question_mode = args.question_mode;
    // One run per wording: each wording's prompts once.
    run.prompt_variants = args.prompt_variants;
    run.runs = args.prompt_variants;
    Ok(run)
}

/// A prompt as text: the one message as is; several, each under its role.
fn text(messages: &[crate::prompt::Message]) -> String {
    match messages {
        [one] => one.content.clone(),
        many => many
            .iter()
            .map(|m| format!("[{}]\n{}", m.role, m.content))
            .collect::<Vec<_>>()
            .join("\n\n"),
    }
}

/// Each combination's file name: its item (a task or case id) and format, then whatever else
/// tells combinations of that item and format apart (structure, variant, records, primer,
/// wording); `{task-id}-{format}` for a task, `csv-flat-mandatory` for the formats suite.
fn file_names(combos: &[Combo]) -> Vec<String> {
    let dims = |c: &Combo| -> [String; 5] {
        [
            c.rendering.structure.name().to_string(),
            c.rendering.variant.name().to_string(),
            format!("{}records", c.records),
            if c.primer { "primer" } else { "noprimer" }.to_string(),
            c.slot.wording.unwrap_or("default").to_string(),
        ]
    };
    let base = |c: &Combo| match c.item() {
        Some(item) => format!("{item}-{}", c.rendering.format.name()),
        None => c.rendering.format.name().to_string(),
    };
    let items = combos.iter().any(|c| c.item().is_some());
    // Which dimensions vary: among one item's combinations of a format (tasks, cases), else
    // across the whole plan (so every format's files name the same dimensions).
    let mut seen: BTreeMap<String, Vec<[String; 5]>> = BTreeMap::new();
    for c in combos {
        let key = if items { base(c) } else { String::new() };
        seen.entry(key).or_default().push(dims(c));
    }
    let varies = |key: &str, d: usize| {
        let all = &seen[key];
        all.iter().any(|x| x[d] != all[0][d])
    };
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    combos
        .iter()
        .map(|c| {
            let key = if items { base(c) } else { String::new() };
            let mut name = base(c);
            for (d, value) in dims(c).iter().enumerate() {
                if varies(&key, d) {
                    name.push('-');
                    name.push_str(value);
                }
            }
            // Anything still alike (never expected) gets a number rather than overwriting.
            let n = count.entry(name.clone()).or_default();
            *n += 1;
            if *n > 1 {
                name = format!("{name}-{n}");
            }
            name
        })
        .collect()
}
