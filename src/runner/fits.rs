//! Every planned prompt checked against each model's context window before any call: a prompt
//! plus the call's output limit over the window (`providers::windows`) refuses the plan with
//! one line naming the largest prompt and the `--records` estimated to fit. `bench run`, its
//! `--dry-run`, `sweep`, `recommend` and batch mode all get their matrix from [`build`].
//!
//! Prompt tokens are the plan's local o200k_base counts: OpenAI's own vocabulary for GPT-4o and
//! later, an estimate for other models (Claude and Gemini count with their own). No margin is
//! added: bench has no offline Claude or Gemini tokenizer to measure one with, so the refusal
//! is for prompts that are over by bench's count, and the message says the count is an estimate.

use super::model::Model;
use super::plan::{self, Combo, Matrix, Plan};
use crate::UsageError;
use crate::numfmt::thousands;
use crate::providers::capabilities::Api;
use crate::providers::windows::{self, Window};
use crate::providers::{ModelConfig, Wire};
use crate::suites::Skip;
use anyhow::Result;

/// `models`, each whose window neither its config nor the table knows asking its own server
/// (a llama.cpp or vLLM server reports the window it serves): that window is then checked as a
/// known one, and said in the model's notes.
pub async fn served(mut models: Vec<Model>) -> Vec<Model> {
    for m in &mut models {
        if windows::of(&m.config).is_none() {
            m.config.served_context = m.provider.served_window().await;
        }
    }
    models
}

/// The matrix of `plan`, refused when a prompt would not fit a model's window.
pub fn build(plan: &Plan, models: &[Model]) -> Result<(Matrix, Vec<Skip>)> {
    let (matrix, skipped) = plan::build_all(plan)?;
    check(plan, &matrix, models)?;
    Ok((matrix, skipped))
}

/// One line per model whose window a planned call (of `matrix`, built from `plan`) would not
/// fit, joined; Ok when all fit.
pub fn check(plan: &Plan, matrix: &Matrix, models: &[Model]) -> Result<(), UsageError> {
    let problems: Vec<String> = models
        .iter()
        .filter_map(|m| {
            let w = windows::of(&m.config)?;
            refusal(plan, matrix, &m.config, &w).map(|why| format!("{}: {why}", m.config.spec()))
        })
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(UsageError::new(problems.join("; ")))
    }
}

/// The output limit a call of `c` is sent with: the suite's own (plus the thinking budget,
/// which counts in it) or the model's, as the provider builds it.
pub fn call_output(cfg: &ModelConfig, c: &Combo) -> u32 {
    c.scorer
        .call_settings()
        .max_tokens
        .map_or(cfg.max_tokens(), |m| m + cfg.thinking_budget.unwrap_or(0))
}

/// The largest prompt of `c`, o200k_base tokens.
fn largest(c: &Combo) -> u32 {
    c.units.iter().map(|u| u.tokens).max().unwrap_or(0)
}

/// `format · structure · variant at N records` (with the task when it names one).
fn describe(c: &Combo) -> String {
    let r = &c.rendering;
    let task = c.item().map(|t| format!("task {t}, ")).unwrap_or_default();
    format!(
        "{task}{} · {} · {} at {} records",
        c.scorer.mode().unwrap_or(r.format.name()),
        r.structure.name(),
        r.variant.name(),
        thousands(c.records as i64)
    )
}

/// Why `cfg`'s calls would not fit `w`, or None when every one does.
fn refusal(plan: &Plan, matrix: &Matrix, cfg: &ModelConfig, w: &Window) -> Option<String> {
    if let Some(limit) = w.output
        && let Some(out) = matrix
            .combos
            .iter()
            .map(|c| call_output(cfg, c))
            .find(|&o| o > limit)
    {
        return Some(format!(
            "max_tokens {} is over the model's output limit of {} ({}); lower max_tokens",
            thousands(i64::from(out)),
            thousands(i64::from(limit)),
            w.source
        ));
    }
    if let Some(out) = matrix
        .combos
        .iter()
        .map(|c| call_output(cfg, c))
        .find(|&o| w.room(o) == 0)
    {
        return Some(format!(
            "max_tokens {} leaves no room for a prompt in the context window of {} ({}); lower \
             max_tokens",
            thousands(i64::from(out)),
            thousands(i64::from(w.context)),
            w.source
        ));
    }
    let over: Vec<&Combo> = matrix
        .combos
        .iter()
        .filter(|c| largest(c) > w.room(call_output(cfg, c)))
        .collect();
    let worst = over.iter().max_by_key(|c| largest(c))?;
    let out = call_output(cfg, worst);
    Some(format!(
        "{} of {} renderings make prompts that do not fit ({}, {}): the largest, {}, is about {} \
         tokens ({}); {}",
        over.len(),
        matrix.combos.len(),
        w.describe(out),
        w.source,
        describe(worst),
        thousands(i64::from(largest(worst))),
        vocabulary(cfg),
        advice(plan, matrix, cfg, w)
    ))
}

/// What the prompt counts are to this model: its own vocabulary, or an estimate.
fn vocabulary(cfg: &ModelConfig) -> &'static str {
    match cfg.wire().map(Wire::family) {
        Ok(Some(Api::OpenAi)) => "o200k_base count, the vocabulary of OpenAI's current models",
        _ => "o200k_base count, an estimate: this model's own tokenizer counts differently",
    }
}

/// The `--records` that fits every rendering, checked by building the plan at that size and
/// counting each prompt (an estimate from tokens per record is off by the questions and
/// markup that do not grow in step, so a named size that is then refused is never said).
fn advice(plan: &Plan, matrix: &Matrix, cfg: &ModelConfig, w: &Window) -> String {
    // A task's data is its own file: --records does not size it.
    if matrix.combos.iter().any(|c| c.item().is_some()) {
        return "choose a model with a larger window or smaller tasks".into();
    }
    let room = |c: &Combo| w.room(call_output(cfg, c));
    match records_that_fit(plan, matrix, &room) {
        Fit::Records(n) => format!(
            "--records {} fits (each rendering's prompt counted at that size), or choose a \
             model with a larger window",
            thousands(n as i64)
        ),
        Fit::None => {
            "not even one record fits: choose a model with a larger window or fewer questions"
                .into()
        }
        Fit::Below(n) => format!(
            "fewer than --records {} would fit, or choose a model with a larger window",
            thousands(n as i64)
        ),
    }
}

/// What [`records_that_fit`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// Every rendering fits at this many records, counted.
    Records(u64),
    /// Not even one record fits, counted.
    None,
    /// No size was confirmed in a few tries: this one, the smallest tried, did not fit.
    Below(u64),
}

/// The largest `--records` at which every prompt of `plan` fits `room` (per combination),
/// found by building the plan at a size and counting: the first size tried is the estimate
/// from `matrix` (tokens per record), each next one the estimate from the size before, at
/// least 1 % smaller. `Below(n)` when no size was confirmed (or building one failed).
pub fn records_that_fit(plan: &Plan, matrix: &Matrix, room: &dyn Fn(&Combo) -> u32) -> Fit {
    let largest_asked = matrix.combos.iter().map(|c| c.records).max().unwrap_or(0) as u64;
    let mut n = estimate(matrix, room)
        .min(largest_asked.saturating_sub(1))
        .max(1);
    let mut tried = largest_asked;
    for _ in 0..12 {
        let Ok((m, _)) = at_records(plan, n as u32).and_then(|p| plan::build_all(&p)) else {
            return Fit::Below(tried);
        };
        if m.combos.iter().all(|c| largest(c) <= room(c)) {
            return Fit::Records(n);
        }
        if n == 1 {
            return Fit::None;
        }
        tried = n;
        n = estimate(&m, room).min(n - (n / 100).max(1)).max(1);
    }
    Fit::Below(tried)
}

/// `plan` asking `records` records: its suite loaded again at that size when the suite needs it.
pub fn at_records(plan: &Plan, records: u32) -> Result<Plan> {
    let mut p = plan.clone();
    p.records = vec![records];
    if let Some(suite) = plan.suite.at_records(records)? {
        p.suite = suite;
    }
    Ok(p)
}

/// The records estimated to fit every rendering of `matrix`: each prompt is its data (tokens
/// per record times records) plus the rest (instructions, questions), so the records that fit
/// are the room left after the rest, over the tokens per record; the smallest over renderings.
fn estimate(matrix: &Matrix, room: &dyn Fn(&Combo) -> u32) -> u64 {
    matrix
        .combos
        .iter()
        .map(|c| {
            let data = c
                .rendering
                .stats
                .tokens
                .get("o200k_base")
                .copied()
                .unwrap_or(0) as f64;
            let rest = f64::from(largest(c)) - data;
            if data <= 0.0 || c.records == 0 {
                return 0;
            }
            ((f64::from(room(c)) - rest.max(0.0)) * c.records as f64 / data)
                .floor()
                .max(0.0) as u64
        })
        .min()
        .unwrap_or(0)
}
