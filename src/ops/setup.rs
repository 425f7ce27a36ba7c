//! What `bench run`, `sweep`, `recommend` and `dump-prompts` share before the first call: the
//! models named on the command line (or the offline reference), their overrides and checks,
//! the plan the suite makes of the arguments, and the runner's options. A library the commands
//! call, so no command calls another.

use crate::UsageError;
use crate::cli::RunArgs;
use crate::providers::config::ConfigFile;
use crate::providers::{self, ModelConfig, process_env};
use crate::runner::{self, Cache, Model, Options, Plan, RetryPolicy, batch::BatchOptions};
use crate::suites::asked::unique;
use crate::tokens::Tokenizer;
use anyhow::Result;
use std::time::Duration;

/// The models to run: from `--provider` specs and `--config`, else the reference.
pub fn model_configs(args: &RunArgs) -> Result<Vec<ModelConfig>> {
    let file = match &args.config {
        Some(path) => ConfigFile::load(path)?,
        None => ConfigFile::default(),
    };
    let mut configs = file.resolve(&args.providers)?;
    if configs.is_empty() {
        if args.config.is_some() {
            return Err(UsageError::new("the config has no [[models]] entries").into());
        }
        eprintln!(
            "no --provider given: using the offline `reference` answerer (decodes each rendering and \
             answers from it; a ceiling and self-check, not an LLM result)"
        );
        configs.push(ModelConfig::from_spec("reference")?);
    }
    Ok(configs)
}

/// The chosen tokenizers with o200k_base first if missing: rankings and reports measure data
/// tokens with it.
fn with_o200k(chosen: &[Tokenizer]) -> Vec<Tokenizer> {
    let mut out = unique(chosen);
    if !out.contains(&Tokenizer::O200kBase) {
        out.insert(0, Tokenizer::O200kBase);
    }
    out
}

/// The same model twice would log every sample twice under one key.
fn check_unique(configs: &[ModelConfig]) -> Result<()> {
    for (i, c) in configs.iter().enumerate() {
        if configs[..i].iter().any(|d| d.spec() == c.spec()) {
            return Err(UsageError::new(format!(
                "{} is listed twice; give each model once (two settings of one model need two runs)",
                c.spec()
            ))
            .into());
        }
    }
    Ok(())
}

/// `--base-url` names one server: every model of the one provider kind that takes it goes there
/// (two models served by one vLLM, LM Studio or Ollama); refused when models of two kinds would
/// take it (a mixed run would send an Anthropic call to an OpenAI-compatible host); each model's
/// own `base_url` in a `--config` file is the way to point several kinds at their servers.
fn check_base_url(args: &RunArgs, configs: &[ModelConfig]) -> Result<()> {
    if args.base_url.is_none() {
        return Ok(());
    }
    let takers: Vec<&ModelConfig> = configs
        .iter()
        .filter(|c| c.wire().map_or(true, |w| !w.offline()))
        .filter(|c| c.base_url.is_none() || args.resume.is_some())
        .collect();
    let kinds = unique(
        &takers
            .iter()
            .map(|c| c.provider.as_str())
            .collect::<Vec<_>>(),
    );
    if kinds.len() > 1 {
        let specs: Vec<String> = takers.iter().map(|c| c.spec()).collect();
        return Err(UsageError::new(format!(
            "--base-url points one kind of provider at its server, but this run has {} kinds \
             that would take it ({}: {}); give each model its own base_url in a --config file \
             (`bench init-config` writes one), or run them one at a time",
            kinds.len(),
            kinds.join(", "),
            specs.join(", ")
        ))
        .into());
    }
    Ok(())
}

/// Command-line limits override every model's config.
fn apply_overrides(args: &RunArgs, configs: &mut [ModelConfig]) {
    for c in configs {
        // On --resume the recorded URL has no query string; --base-url may restore one.
        if c.base_url.is_none() || (args.resume.is_some() && args.base_url.is_some()) {
            c.base_url = args.base_url.clone().or(c.base_url.take());
        }
        if c.api_key_env.is_none() {
            c.api_key_env = args.api_key_env.clone();
        }
        if let Some(n) = args.concurrency {
            c.concurrency = Some(n as usize);
        }
        if args.rpm.is_some() {
            c.rpm = args.rpm;
        }
        if args.tpm.is_some() {
            c.tpm = args.tpm;
        }
    }
}

/// The plan of a new run from the command line: the suite plans its part (its data, formats
/// and sizes, or a refusal of what it does not take), the rest is the command line's.
pub fn new_plan(args: &RunArgs) -> Result<Plan> {
    if args.prompt_variants > args.runs {
        eprintln!(
            "note: --prompt-variants {} with --runs {}: only the first {} wording(s) are asked; \
             use --runs {} (or a multiple) to ask each",
            args.prompt_variants, args.runs, args.runs, args.prompt_variants
        );
    }
    let asked = args.asked();
    let (suite, chosen) = crate::suites::choose(args.suite, &asked)?;
    let planned = suite.plan(&asked)?;
    for n in chosen.iter().chain(&planned.notes) {
        eprintln!("{n}");
    }
    Ok(Plan {
        formats: unique(&planned.formats),
        structures: planned.structures,
        variants: planned.variants,
        records: planned.records,
        seed: args.data.seed,
        runs: args.runs,
        tokenizers: with_o200k(&args.data.tokenizers),
        output_root: args.output_root.clone(),
        question_mode: args.question_mode,
        prompt_variants: args.prompt_variants,
        shuffle: args.shuffle,
        shard: args.shard,
        primers: args.primer.primers(),
        suite: planned.suite,
    })
}

/// The models with the command line's overrides, each once.
pub fn build_models(args: &RunArgs, mut configs: Vec<ModelConfig>) -> Result<Vec<Model>> {
    check_base_url(args, &configs)?;
    apply_overrides(args, &mut configs);
    check_unique(&configs)?;
    let models: Vec<Model> = configs
        .into_iter()
        .map(|c| {
            Ok(Model {
                provider: providers::build(&c, &process_env)?,
                config: c,
            })
        })
        .collect::<Result<_, UsageError>>()?;
    Ok(models)
}

/// `models`, each whose window is unknown with the one its server reports, asked outside a run
/// (which asks on its own runtime): `--dry-run --count-with-provider` and `bench sweep`.
pub fn with_served_windows(models: Vec<Model>) -> Result<Vec<Model>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    Ok(runtime.block_on(runner::fits::served(models)))
}

/// The runner's options from the command line.
pub fn options(args: &RunArgs, warmup: Option<bool>, resumed_batch: bool) -> Options {
    Options {
        warmup,
        cache: if args.no_cache {
            None
        } else {
            Cache::default_dir().map(Cache::new)
        },
        budget_usd: args.budget_usd,
        margin_pp: Some(args.margin),
        batch: (args.batch || args.cancel_batches || resumed_batch).then(|| BatchOptions {
            poll: Duration::from_secs_f64(args.batch_poll),
            cancel: args.cancel_batches,
        }),
        retry: RetryPolicy {
            max_retries: if args.no_retry { 0 } else { args.retries },
            base: Duration::from_millis(args.retry_base_ms.max(1)),
            ..RetryPolicy::default()
        },
    }
}
