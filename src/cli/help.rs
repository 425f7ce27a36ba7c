//! Help texts whose counts and lists come from the registries (formats, tokenizers, providers,
//! data file extensions, record range), so `--help` never says a number the code does not; and
//! which `bench run` flags `sweep` and `recommend` leave out of their help.

use crate::dataset::{DEFAULT_RECORDS, RECORDS_RANGE};
use crate::formats::Format;
use crate::providers::Wire;
use crate::tokens::Tokenizer;
use clap::Arg;

/// `--formats`: what `default` and `all` hold, and the default `default_text` of this command.
pub fn formats(default_all: bool) -> String {
    let (d, a) = (Format::defaults().len(), Format::ALL.len());
    let default = if default_all {
        format!("all {a}")
    } else {
        format!("the {d}")
    };
    format!(
        "Formats, comma-separated, `default` (the {d} of the formats suite) or `all` ({a}); \
         default: {default} (`bench formats` lists them)"
    )
}

/// `bench recommend --formats`: formats added to the candidates.
pub fn recommend_formats() -> String {
    format!(
        "Formats to add to the candidates (json_compact and every format cheaper in tokens, out \
         of all {}), comma-separated",
        Format::ALL.len()
    )
}

/// `--tokenizers`: every tokenizer by name.
pub fn tokenizers() -> String {
    let names: Vec<&str> = Tokenizer::ALL.iter().map(|t| t.name()).collect();
    format!(
        "Tokenizers to count with, comma-separated, or `all` ({})",
        names.join(", ")
    )
}

/// `--provider`: every wire API by name.
pub fn providers() -> String {
    let names: Vec<&str> = Wire::ALL
        .iter()
        .filter(|w| !w.offline())
        .map(|w| w.name())
        .collect();
    format!(
        "Provider to ask, NAME:MODEL ({}) or `reference`; may repeat. Default: the offline \
         `reference` answerer, or every model in --config",
        names.join(", ")
    )
}

/// `--data`: the extensions bench reads.
pub fn data_file() -> String {
    format!(
        "Your own records instead of the product dataset: {}, read by the embedded DuckDB",
        crate::dataset::user::EXTENSIONS.join(", ")
    )
}

/// `--records` of `run`, `generate` and `tokens`: a size or a comma list of sizes.
pub fn records() -> String {
    format!(
        "Records: of the product dataset ({} to {}, default {DEFAULT_RECORDS}; a comma list \
         runs each size), or with --data how many of the file's records to keep (default: all)",
        RECORDS_RANGE.start(),
        RECORDS_RANGE.end()
    )
}

/// `--records` of `sweep`: one value, the first size.
pub fn sweep_records() -> String {
    format!(
        "The first size, one value ({} to {}, default {DEFAULT_RECORDS}; with --data needed): \
         sizes double from it up to --max-records",
        RECORDS_RANGE.start(),
        RECORDS_RANGE.end()
    )
}

/// `--records` of `recommend`: one size.
pub fn recommend_records() -> String {
    format!(
        "Records: of the product dataset ({} to {}, default {DEFAULT_RECORDS}), or with --data \
         how many of the file's records to keep (default: all)",
        RECORDS_RANGE.start(),
        RECORDS_RANGE.end()
    )
}

/// The `bench run` flags that `sweep` and `recommend` refuse besides the suites' own (which
/// [`in_steps`] finds in the registry): each runs its own steps of the formats suite into one
/// run folder, so resuming, other suites and the exit rule on failed calls do not apply.
pub const NOT_IN_STEPS: &[&str] = &[
    "resume",
    "retry_errors",
    "cancel_batches",
    "suite",
    "max_failed_share",
    "wide",
    "show_requests",
    "full",
    "count_with_provider",
];

/// `bench run --help` lists the suites' own flag groups in the registry's order (the write
/// suite's before the tasks suite's, as it has since the write suite came), where
/// `dump-prompts` and `tokens` list them in `--suite`'s, the order `suites::OwnFlags` adds
/// them in: this moves each group's flags to its place in the reversed order, so the help and
/// the man pages stay as they were.
pub fn run_suite_order(a: Arg) -> Arg {
    let groups: Vec<Vec<String>> = crate::suites::selectable()
        .filter_map(|(_, s)| s.group)
        .map(|g| {
            (g.augment)(clap::Command::new("group"))
                .get_arguments()
                .map(|a| a.get_id().to_string())
                .collect()
        })
        .collect();
    let id = a.get_id().to_string();
    let Some(g) = groups.iter().position(|ids| ids.contains(&id)) else {
        return a;
    };
    let at = groups[g]
        .iter()
        .position(|i| *i == id)
        .expect("found above");
    let before: usize = groups[..g].iter().map(Vec::len).sum();
    let after: usize = groups[g + 1..].iter().map(Vec::len).sum();
    let first = a.get_display_order() - before - at;
    a.display_order(first + after + at)
}

/// Hides from `bench sweep --help` the run flags it refuses.
pub fn sweep_arg(a: Arg) -> Arg {
    let hide = !in_steps(&a);
    step_dry_run(a).hide(hide)
}

/// Whether a `bench run` flag applies to the steps of `sweep` and `recommend`: not one of
/// [`NOT_IN_STEPS`], nor a flag only another suite reads (`--cases` is the write suite's).
fn in_steps(a: &Arg) -> bool {
    let id = a.get_id().as_str();
    !NOT_IN_STEPS.contains(&id) && !crate::suites::own_flags().any(|f| f == id)
}

/// What `--resume` conflicts with: the plan's options, which come from the run log instead (the
/// suites' own flags from the registry).
pub fn resume_conflicts() -> Vec<&'static str> {
    let plan = [
        "providers",
        "config",
        "runs",
        "question_mode",
        "primer",
        "formats",
        "structures",
        "variants",
        "records",
        "seed",
        "tokenizers",
        "dry_run",
        "suite",
        "data_file",
        "root_key",
        "sample",
        "id_field",
        "questions",
    ];
    plan.into_iter().chain(crate::suites::own_flags()).collect()
}

/// Hides from `bench recommend --help` the run flags it refuses (`--runs` too: a round is one
/// run).
pub fn recommend_arg(a: Arg) -> Arg {
    let hide = !in_steps(&a) || a.get_id() == "runs";
    step_dry_run(a).hide(hide)
}

/// `--dry-run` of `sweep` and `recommend`, without `bench run`'s mention of
/// `--count-with-provider`, which they refuse (their plans are counted offline).
fn step_dry_run(a: Arg) -> Arg {
    if a.get_id() == "dry_run" {
        a.help("Print the plan (calls, prompt tokens, estimated $ and time) and exit; no network")
    } else {
        a
    }
}
