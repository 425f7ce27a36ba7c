//! `bench recommend`: picks the candidates, runs the rounds of `crate::recommend` and prints
//! the decision with its evidence, or what is still open and what another round costs.

use crate::UsageError;
use crate::cli::RecommendArgs;
use crate::formats::Format;
use crate::numfmt::thousands as int;
use crate::ops::setup;
use crate::providers::ModelConfig;
use crate::recommend::{self, Recommendation, Settings};
use crate::runner::progress::Console;
use crate::runner::{Model, Plan, Stop};
use anyhow::Result;
use std::sync::Arc;

/// `bench recommend`.
pub fn execute(a: &RecommendArgs) -> Result<()> {
    let args = &a.run;
    super::refuse_run_only(args, "recommend", true)?;
    let configs = setup::model_configs(args)?;
    let [config] = configs.as_slice() else {
        return Err(
            UsageError::new("bench recommend decides for one model: give one --provider").into(),
        );
    };
    let mut plan = setup::new_plan(args)?;
    one_shape(&mut plan);
    let forced = args
        .data
        .formats
        .as_ref()
        .map(|f| f.0.clone())
        .unwrap_or_default();
    plan.formats = Format::ALL.to_vec();
    plan.runs = 1;
    let model =
        || -> Result<Model> { Ok(setup::build_models(args, vec![config.clone()])?.remove(0)) };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    // A dry run makes no call, not even a count: it chooses by o200k_base.
    let counts = setup::options(args, None, false).cache;
    let counts = crate::runner::tokens::ranking_basis::counts_dir(counts.as_ref().map(|c| c.dir()));
    if !args.dry_run {
        // Nothing is counted before what needs no network is checked.
        precheck(&plan, &model()?, &forced)?;
    }
    let (candidates, basis) = if args.dry_run {
        let c = recommend::candidates(&plan, Format::JsonCompact, &forced)?;
        (
            c,
            crate::runner::tokens::ranking_basis::FALLBACK.to_string(),
        )
    } else {
        runtime.block_on(recommend::billed_candidates(
            &plan,
            &model()?,
            (Format::JsonCompact, &forced),
            counts.as_deref(),
            &Console::new(),
        ))?
    };
    plan.formats = candidates.iter().map(|(f, _)| *f).collect();
    print_candidates(config, &candidates, &basis)?;
    let warmup = args.warmup.forced();
    if args.dry_run {
        for n in crate::runner::model_notes(&[model()?], &plan) {
            eprintln!("{n}");
        }
        let (est, max) = round_cost(&plan, &model()?, warmup, args.batch)?;
        crate::outln!(
            "one round: ${est:.4} expected, ${max:.4} at most; all {} rounds: ${:.4} at most",
            a.max_rounds,
            max * f64::from(a.max_rounds)
        )?;
        return Ok(());
    }
    let options = || setup::options(args, warmup, false);
    let settings = Settings {
        margin_pp: args.margin,
        max_rounds: a.max_rounds,
        budget_usd: args.budget_usd,
        baseline: Format::JsonCompact,
        options: &options,
    };
    let r = runtime.block_on(recommend::recommend(
        plan.clone(),
        &model,
        &settings,
        Arc::new(Console::new()),
        Arc::new(Stop::default()),
    ))?;
    runtime.shutdown_background();
    print_decision(&r, &candidates, config, &basis)?;
    if let Some((_, _)) = &r.open {
        let mut next = plan.clone();
        next.formats
            .retain(|f| !r.dropped.iter().any(|(d, _)| d == f.name()));
        if config.unpriced() {
            crate::outln!(
                "another round runs the {} remaining candidates once more; no price is known \
                 for {} to say what it costs (set `price` in the config)",
                next.formats.len(),
                config.spec()
            )?;
        } else if let Ok((est, max)) = round_cost(&next, &model()?, warmup, args.batch) {
            crate::outln!("another round would cost about ${est:.4} (at most ${max:.4})")?;
        }
    }
    if !args.no_report {
        crate::ops::reports::write_for_run(&r.run_dir, Some(Format::JsonCompact), None)?;
    }
    Ok(())
}

/// What a real recommend checks before it counts: the output root, and the known window of
/// `model` for the formats that are candidates on any count (the baseline and `forced`).
fn precheck(plan: &Plan, model: &Model, forced: &[Format]) -> Result<()> {
    crate::runner::check_output_root(&plan.output_root)?;
    let mut sure = plan.clone();
    sure.formats = std::iter::once(Format::JsonCompact)
        .chain(forced.iter().copied())
        .collect();
    crate::runner::fits::build(&sure, std::slice::from_ref(model))?;
    Ok(())
}

/// Narrows the plan to one data shape, saying which.
fn one_shape(plan: &mut Plan) {
    let shape = |p: &Plan| {
        (
            p.structures.len(),
            p.variants.len(),
            p.records.len(),
            p.primers.len(),
        )
    };
    if shape(plan) != (1, 1, 1, 1) {
        plan.structures.truncate(1);
        plan.variants.truncate(1);
        plan.records.truncate(1);
        plan.primers.truncate(1);
        eprintln!(
            "recommend: deciding for one data shape, {} · {} · {} records{} (the first of each \
             option; give one --structures, --variants and --records for another)",
            plan.structures[0].name(),
            plan.variants[0].name(),
            plan.records[0],
            if plan.primers[0] { " · primer" } else { "" }
        );
    }
}

/// The candidates and what counted their tokens (`basis`: the provider's counter, or
/// o200k_base).
fn print_candidates(config: &ModelConfig, candidates: &[(Format, u64)], basis: &str) -> Result<()> {
    let proxy = match config.provider.as_str() {
        _ if basis != crate::runner::tokens::ranking_basis::FALLBACK => {
            format!("{}'s own, as {basis} counts them", config.model)
        }
        "openai" | "openai-responses" => {
            "o200k_base, the tokenizer of OpenAI's current models".into()
        }
        "reference" => "o200k_base".into(),
        p => format!(
            "o200k_base, standing in for {p}'s own tokenizer, which bench does not have; from \
             round 2 the candidates are ordered by the prompt tokens {p} reports"
        ),
    };
    let base = candidates
        .iter()
        .find(|(f, _)| *f == Format::JsonCompact)
        .map_or(0, |&(_, t)| t);
    let list: Vec<String> = candidates
        .iter()
        .map(|(f, t)| format!("{f} {} ({:+.0} %)", int(*t as i64), pct_change(*t, base)))
        .collect();
    eprintln!(
        "recommend: candidates by data tokens ({proxy}): {}",
        list.join(", ")
    );
    Ok(())
}

fn pct_change(t: u64, base: u64) -> f64 {
    if base == 0 {
        0.0
    } else {
        100.0 * (t as f64 - base as f64) / base as f64
    }
}

/// The decision and its evidence, or what is open.
fn print_decision(
    r: &Recommendation,
    candidates: &[(Format, u64)],
    config: &ModelConfig,
    basis: &str,
) -> Result<()> {
    let tokens = |f: &str| {
        candidates
            .iter()
            .find(|(c, _)| c.name() == f)
            .map(|&(_, t)| t)
    };
    for (f, round) in &r.dropped {
        crate::outln!(
            "dropped after round {round}: `{f}` (significantly worse than the most accurate at α {:.4})",
            r.alpha
        )?;
    }
    let base = tokens(Format::JsonCompact.name()).unwrap_or(0);
    match &r.format {
        Some(f) => {
            let t = tokens(f).unwrap_or(0);
            crate::outln!(
                "recommendation for {}: use `{f}` (after {} round(s), each look at α {:.4}, ${:.4} spent){}",
                config.spec(),
                r.rounds,
                r.alpha,
                r.spent_usd,
                self_check(config)
            )?;
            for c in &r.evidence {
                crate::outln!(
                    "  against `{}`: Δ {:+.1} pp over {} paired answers, 90 % lower bound {:+.1} pp, \
                     Tango p (Holm) {}, question-clustered 95 % lower bound of Δ weighted {:+.1} pp \
                     (margin {} pp)",
                    c.baseline,
                    c.delta_accuracy_pp.unwrap_or(0.0),
                    int(c.n_pairs),
                    c.ni_low_pp.unwrap_or(f64::NAN),
                    c.ni_p_holm.map_or("–".into(), crate::numfmt::p_value),
                    c.delta_low_pp.unwrap_or(f64::NAN),
                    c.margin_pp
                )?;
            }
            let saved = base.saturating_sub(t);
            let dollars = config.price().map_or(String::new(), |p| {
                format!(
                    ", ${:.2} per million calls at ${}/M input tokens",
                    saved as f64 * p.input,
                    p.input
                )
            });
            crate::outln!(
                "  data tokens ({basis}): {} against {} for json_compact ({:+.1} %){dollars}",
                int(t as i64),
                int(base as i64),
                pct_change(t, base)
            )?;
            let tied: Vec<String> = candidates
                .iter()
                .filter(|(c, n)| c.name() != f && *n == t)
                .filter(|(c, _)| !r.dropped.iter().any(|(d, _)| d == c.name()))
                .map(|(c, _)| format!("`{c}`"))
                .collect();
            if !tied.is_empty() {
                crate::outln!(
                    "  as few data tokens: {} (a tie; `{f}` is the first by name)",
                    tied.join(", ")
                )?;
            }
        }
        None => {
            let (f, why) = r.open.clone().unwrap_or_default();
            crate::outln!(
                "undecided after {} round(s) (${:.4} spent): `{f}` is {why}{}",
                r.rounds,
                r.spent_usd,
                self_check(config)
            )?;
        }
    }
    crate::outln!("run folder: {}", r.run_dir.display())?;
    Ok(())
}

/// For the offline reference answerer, what its recommendation is worth: it reads each
/// rendering back with the format's own decoder, so it checks the renderings, not a model.
fn self_check(config: &ModelConfig) -> &'static str {
    if config.provider == "reference" {
        " — a self-check of the renderings by the offline reference answerer, not a model's \
         result: give --provider for a model's"
    } else {
        ""
    }
}

/// What one round of `plan` costs for `model`: expected and at most, USD.
fn round_cost(plan: &Plan, model: &Model, warmup: Option<bool>, batch: bool) -> Result<(f64, f64)> {
    super::plan_cost(plan, std::slice::from_ref(model), warmup, batch)
}
