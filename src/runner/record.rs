//! The result record of one call or conversation: graded, tagged, with its usage, cost and
//! the provider's billed data tokens; the live and the batch schedulers both build it here.

use super::conversation::Conversation;
use super::plan::{Combo, Unit};
use super::state::ProviderRun;
use super::state::Shared;
use crate::grading::summarize;
use crate::providers::{Finish, ProviderError, Response, Usage};
use crate::runlog::{Output, ProviderConfig, ResultRecord, Sample, Timing};
use std::time::Instant;

/// The result record of one call; `conv` holds the turns a conversation had before this one
/// (first shot and repairs), graded with it. A conversation's record carries its whole input,
/// each answered turn's usage and their sum, also when its last turn failed: the turns before
/// it were paid for.
#[allow(clippy::too_many_arguments)]
pub(super) fn build(
    shared: &Shared,
    p: &ProviderRun,
    c: &Combo,
    u: &Unit,
    run: u32,
    response: Result<Response, ProviderError>,
    times: (u64, u64, u64),
    attempts: u32,
    conv: &Conversation,
) -> ResultRecord {
    let r = &c.rendering;
    let billed = billed(p, &r.text);
    let graded_at = Instant::now();
    let (resp, error) = outcome(p, response);
    // A failed call states nothing (and was not cut: its finish is `error`).
    let cut = resp.finish == Some(Finish::Length);
    let mut replies: Vec<&str> = conv.replies.iter().map(String::as_str).collect();
    replies.extend(error.is_none().then_some(resp.output.as_str()));
    let crate::suites::Scored { metrics, payload } =
        c.scorer.score_turns(u, &replies, error.is_some(), cut);
    let metrics = unanswerable_dropped(p.provider.name(), u, metrics);
    let summary = summarize(&metrics);
    let talked = !conv.replies.is_empty();
    let usage = conv.used().plus(&resp.usage);
    let mut turns = conv.turns.clone();
    turns.extend(error.is_none().then_some(resp.usage));
    let cost_usd = spent(p, error.is_some() && !talked, attempts, &usage);
    let latency = times.0;
    let sample = sample(p, c, u, run, conv, resp.output, times);
    ResultRecord {
        benchmark_id: shared.benchmark_id.clone(),
        provider_config: provider_config(p),
        sample,
        metrics,
        summary,
        timing: Timing {
            provider_latency_ms: latency,
            evaluation_time_ms: graded_at.elapsed().as_millis() as u64,
        },
        format: r.format,
        structure: r.structure,
        variant: r.variant,
        records: c.records,
        run,
        warmup: run == 0,
        primer: c.primer,
        question: u.question.clone(),
        prompt_variant: c.slot.wording.map(str::to_string),
        order_seed: c.slot.order_seed,
        task: c.item().map(str::to_string),
        payload,
        usage,
        turns: if talked { turns } else { Vec::new() },
        data_stats: r.stats.clone(),
        billed_data_tokens: billed.map(|(n, _)| n),
        token_basis: billed.map(|(_, b)| b.to_string()),
        cost_usd,
        // Only a cache hit makes no attempt.
        cached: attempts == 0,
        attempts,
        status: resp.status,
        request_id: resp.request_id,
        finish: resp.finish,
        finish_reason: resp.finish_reason,
        served_model: resp.served_model,
        server: resp.server,
        batch_id: None,
        batch_matched_by: None,
        imported: None,
        error,
    }
}

/// The rendering's data tokens as `p`'s provider counted them, and what the count rests on.
fn billed<'a>(p: &'a ProviderRun, text: &str) -> Option<(u64, &'a str)> {
    p.billed
        .as_ref()
        .and_then(|b| Some((b.of(text)?, b.basis.as_str())))
}

/// What a sample spent: nothing for a lone failed call or a cache hit (attempts == 0).
fn spent(p: &ProviderRun, lone_failure: bool, attempts: u32, usage: &Usage) -> Option<f64> {
    if lone_failure || attempts == 0 {
        Some(0.0)
    } else {
        p.price.map(|price| price.cost(usage))
    }
}

/// The reply, or for a failed call an empty one carrying the error's status and request id,
/// with the error in words.
fn outcome(
    p: &ProviderRun,
    response: Result<Response, ProviderError>,
) -> (Response, Option<String>) {
    match response {
        Ok(resp) => (resp, None),
        Err(e) => (
            Response {
                status: e.status(),
                request_id: e.request_id().map(str::to_string),
                finish: Some(Finish::Error),
                ..Response::default()
            },
            Some(format!("{}:{}: {e}", p.provider.name(), p.provider.model())),
        ),
    }
}

/// The provider and model a record was asked of, with their parameters.
fn provider_config(p: &ProviderRun) -> ProviderConfig {
    ProviderConfig {
        provider: p.provider.name().into(),
        model: p.provider.model().into(),
        model_params: p.provider.params(),
        settings: None,
        notes: Vec::new(),
        token_basis: None,
    }
}

/// The sample of a record: its tag, what was sent (a conversation's whole input, the rendering
/// not repeated when large) and the last reply.
fn sample(
    p: &ProviderRun,
    c: &Combo,
    u: &Unit,
    run: u32,
    conv: &Conversation,
    output: String,
    (latency, start_ms, end_ms): (u64, u64, u64),
) -> Sample {
    let sent = if conv.replies.is_empty() {
        u.messages.clone()
    } else {
        conv.messages(&u.messages)
    };
    Sample {
        duration_ms: latency,
        tag: tag(c, u, run),
        input: crate::runlog::logged_input(sent, &c.rendering.text),
        output: Output { content: output },
        model: p.provider.model().into(),
        model_params: p.provider.params(),
        start_time_ms: start_ms,
        end_time_ms: end_ms,
        url: p.provider.url(),
    }
}

/// `format[_mode]_structure_variant_records[_primer]_run<N>|warmup[_question]`.
fn tag(c: &Combo, u: &Unit, run: u32) -> String {
    let r = &c.rendering;
    let run_tag = if run == 0 {
        "warmup".to_string()
    } else {
        format!("run{run}")
    };
    let q = u
        .question
        .as_deref()
        .or(c.item())
        .map(|q| format!("_{q}"))
        .unwrap_or_default();
    format!(
        "{}{}_{}_{}_{}{}_{run_tag}{q}",
        r.format,
        mode_suffix(c),
        r.structure,
        r.variant,
        c.records,
        primer_suffix(c.primer)
    )
}

/// The reference answerer evaluates queries, so a question whose answer a question file gave
/// without one is not graded for it (the run's notices say so); every model is graded on it.
fn unanswerable_dropped(
    provider: &str,
    u: &Unit,
    mut metrics: Vec<crate::grading::Metric>,
) -> Vec<crate::grading::Metric> {
    if provider == "reference" {
        let given = |id: &str| {
            u.questions
                .iter()
                .any(|q| q.id == id && q.query == crate::questions::Query::Given)
        };
        metrics.retain(|m| !given(&m.metric));
    }
    metrics
}

/// `_json_schema` for the structured-output mode, else nothing: in tags and file names.
pub(super) fn mode_suffix(c: &Combo) -> String {
    c.scorer.mode().map(|m| format!("_{m}")).unwrap_or_default()
}

/// `_primer` when the prompt has the format primer: in tags and file names.
pub(super) fn primer_suffix(primer: bool) -> &'static str {
    if primer { "_primer" } else { "" }
}
