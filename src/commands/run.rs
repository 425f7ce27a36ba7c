//! `bench run`: the benchmark itself.

use super::check_selection;
use crate::cli::RunArgs;
use crate::providers::{self, Provider};
use crate::report;
use crate::runner::{self, Plan};
use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};

/// Runs the plan, prints the ranking and the JSONL path.
pub fn execute(args: &RunArgs) -> Result<()> {
    let d = &args.data;
    check_selection(&d.formats, &d.structures, &d.variants)?;
    let specs = if args.providers.is_empty() {
        eprintln!(
            "no --provider given: using the offline `reference` answerer (decodes each rendering and answers \
             from it; a ceiling and self-check, not an LLM result). Real model providers are not available yet."
        );
        vec!["reference".to_string()]
    } else {
        args.providers.clone()
    };
    let providers: Vec<Box<dyn Provider>> = specs
        .iter()
        .map(|s| providers::from_spec(s))
        .collect::<Result<_, _>>()?;
    let plan = Plan {
        formats: d.formats.to_vec(),
        structures: d.structures.clone(),
        variants: d.variants.clone(),
        records: d.records,
        seed: d.seed,
        runs: args.runs,
        tokenizers: d.tokenizers.clone(),
        output_root: args.output_root.clone(),
    };
    let total = plan.combinations().len() * providers.len() * plan.runs as usize;
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {pos}/{len} calls [{elapsed_precise}] {bar:30} {msg}",
        )
        .expect("valid template"),
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let outcome = runtime.block_on(runner::run(&plan, &providers, &|p| {
        bar.set_position(p.done as u64);
        bar.set_message(p.result.sample.tag.clone());
    }))?;
    bar.finish_and_clear();
    println!("{}", report::ranking_table(&outcome.summary.rankings));
    let errors: usize = outcome.summary.rankings.iter().map(|r| r.errors).sum();
    if errors > 0 {
        eprintln!("{errors} calls failed; see the `error` field of their result lines");
    }
    println!("run log:   {}", outcome.jsonl.display());
    println!("artifacts: {}", outcome.artifacts.display());
    Ok(())
}
