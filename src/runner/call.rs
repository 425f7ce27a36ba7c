//! Scheduling and executing calls: a task per (combination, provider) runs the warm-up, then
//! one task per planned sample; each call is cached, budgeted, paced, retried, graded, and
//! appended to the log the moment it is done.

use super::conversation::Conversation;
use super::plan::{Combo, SampleKey, Unit};
use super::retry;
use super::state::{ProviderRun, Shared, StopReason};
use crate::grading::summarize;
use crate::layout::Writer;
use crate::prompt::Message;
use crate::providers::{Finish, ProviderError, Request, Response, Usage};
use crate::runlog::{Line, Output, ProviderConfig, ResultRecord, Sample, Timing};
use serde_json::json;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Instant, SystemTime, UNIX_EPOCH};
use tokio::task::JoinSet;

pub(super) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

pub(super) fn key(p: &ProviderRun, c: &Combo, run: u32, u: &Unit) -> SampleKey {
    SampleKey {
        provider: p.provider.name().into(),
        model: p.provider.model().into(),
        run,
        ..SampleKey::of_prompt(c, u)
    }
}

/// Every planned sample of one combination for one provider, in plan order: (run, unit, key).
/// The live and the batch schedulers both plan from it. A provider that cannot constrain a
/// reply to a schema has none of the structured-output combinations (the run's metadata and
/// its start say so: `runner::unserved`).
pub(super) fn samples<'a>(
    p: &'a ProviderRun,
    c: &'a Combo,
    runs: u32,
) -> impl Iterator<Item = (u32, usize, SampleKey)> + 'a {
    let served = c.scorer.response_schema().is_none() || p.provider.structured_output().is_ok();
    let runs = if served { runs } else { 0 };
    (1..=runs).filter(|&r| c.slot.asks(r)).flat_map(move |run| {
        c.units
            .iter()
            .enumerate()
            .map(move |(i, u)| (run, i, key(p, c, run, u)))
    })
}

/// Runs every planned sample not in `done`; returns the keys of every planned sample.
pub(super) async fn schedule(
    shared: &Arc<Shared>,
    providers: &[Arc<ProviderRun>],
    combos: &[Arc<Combo>],
    runs: u32,
    done: &HashSet<SampleKey>,
) -> Vec<SampleKey> {
    let mut planned = Vec::new();
    let mut counts = Vec::new();
    let mut work = Vec::new();
    for p in providers {
        let (mut total, mut already) = (0, 0);
        for c in combos {
            let mut todo = Vec::new();
            for (run, i, k) in samples(p, c, runs) {
                total += 1;
                if done.contains(&k) {
                    already += 1;
                } else {
                    todo.push((run, i));
                }
                planned.push(k);
            }
            // The warm-up only pays off if calls follow it and it has not been made already.
            let warm = p.warmup
                && c.slot.asks(0)
                && !todo.is_empty()
                && !done.contains(&key(p, c, 0, &c.units[0]));
            total += usize::from(warm);
            if !todo.is_empty() {
                work.push((p.clone(), c.clone(), warm, todo));
            }
        }
        counts.push((
            format!("{}:{}", p.provider.name(), p.provider.model()),
            total,
            already,
        ));
    }
    shared.observer.start(&counts);
    let mut tasks = JoinSet::new();
    for (p, c, warm, todo) in work {
        tasks.spawn(combination(shared.clone(), p, c, warm, todo));
    }
    while let Some(r) = tasks.join_next().await {
        if let Err(e) = r {
            shared
                .observer
                .notice(&format!("internal error in a call task: {e}"));
        }
    }
    planned
}

/// The warm-up, then every planned sample of one combination for one provider; then the
/// combination's validation artifact.
async fn combination(
    shared: Arc<Shared>,
    p: Arc<ProviderRun>,
    c: Arc<Combo>,
    warm: bool,
    todo: Vec<(u32, usize)>,
) {
    if warm {
        execute(shared.clone(), p.clone(), c.clone(), 0, 0).await;
    }
    let mut calls = JoinSet::new();
    for (run, i) in todo {
        calls.spawn(execute(shared.clone(), p.clone(), c.clone(), run, i));
    }
    while let Some(r) = calls.join_next().await {
        if let Err(e) = r {
            shared.observer.notice(&format!(
                "internal error in a call (it will be missing; --resume re-runs it): {e}"
            ));
        }
    }
    validation(&shared, &p, &c);
}

/// Writes the validation artifact of one combination for one provider: every run's summary,
/// by run and question. The combinations of one rendering (`--shuffle`, `--prompt-variants`)
/// share the file: each writes every run done so far, under the artifacts lock, so the last
/// one written holds them all.
pub(super) fn validation(shared: &Shared, p: &ProviderRun, c: &Combo) {
    let r = &c.rendering;
    let artifacts = shared.artifacts.lock().expect("artifacts lock");
    let results = shared.results.lock().expect("results lock");
    let mut runs: Vec<_> = results
        .iter()
        .filter(|x| {
            !x.warmup
                && x.format == r.format
                && x.structure == r.structure
                && x.variant == r.variant
                && x.records == c.records
                && x.primer == c.primer
                && x.task.as_deref() == c.item()
                && x.write.as_ref().map(|w| w.mode.as_str()).filter(|m| *m != "text")
                    == c.scorer.mode()
                && x.provider_config.provider == p.provider.name()
                && x.provider_config.model == p.provider.model()
        })
        .map(|x| json!({"run": x.run, "question": x.question, "summary": x.summary, "error": x.error, "metrics": x.metrics}))
        .collect();
    drop(results);
    runs.sort_by(|a, b| {
        (a["run"].as_u64(), a["question"].as_str())
            .cmp(&(b["run"].as_u64(), b["question"].as_str()))
    });
    let validation = json!({
        "format": r.format, "structure": r.structure, "variant": r.variant, "records": c.records,
        "primer": c.primer,
        "provider": p.provider.name(), "model": p.provider.model(), "runs": runs,
    });
    let task = c.item().map(|t| format!("{t}_")).unwrap_or_default();
    let name = format!(
        "{task}{}{}_{}_{}_{}{}_validation.json",
        r.format,
        mode_suffix(c),
        r.structure,
        r.variant,
        c.records,
        primer_suffix(c.primer)
    );
    let path = provider_dir(shared, p, "results").join(name);
    write_artifact(shared, &artifacts, &path, &validation);
}

/// Writes one artifact of the run with `artifacts` (its lock held). A write that fails for a
/// full disk stops the run ([`stop_writing`]); after that nothing more is written or said.
fn write_artifact(shared: &Shared, artifacts: &Writer, path: &Path, value: &serde_json::Value) {
    if shared.write_failed.load(Ordering::SeqCst) {
        return;
    }
    if let Err(e) = artifacts.artifact(path, value) {
        if disk_full(&e) {
            stop_writing(shared, &e);
        } else {
            shared.observer.notice(&format!("warning: {e:#}"));
        }
    }
}

/// Whether `e` comes from a full disk (or quota).
pub(super) fn disk_full(e: &anyhow::Error) -> bool {
    e.chain()
        .filter_map(|c| c.downcast_ref::<std::io::Error>())
        .any(|io| {
            matches!(
                io.kind(),
                std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded
            )
        })
}

/// Stops the run because its output cannot be written: said once, in one line naming the file
/// and the way out; the calls in flight finish unlogged (`--resume` asks them again) and the
/// run ends without a summary line (`runner::run` returns [`crate::error::Reported`]).
fn stop_writing(shared: &Shared, e: &anyhow::Error) {
    if shared.write_failed.swap(true, Ordering::SeqCst) {
        return;
    }
    let fix = if disk_full(e) {
        "free space"
    } else {
        "fix that"
    };
    shared
        .observer
        .notice(&format!("error: {e:#}; {}", way_out(fix, &shared.run_dir)));
    shared.stop.request(StopReason::Interrupted);
}

/// What to do after a failed write of the run in `dir`: `fix` ("free space"), then resume.
pub(super) fn way_out(fix: &str, dir: &Path) -> String {
    format!(
        "the run stops: {fix}, then `bench run --resume {}`",
        dir.display()
    )
}

/// `_json_schema` for the structured-output mode, else nothing: in tags and file names.
fn mode_suffix(c: &Combo) -> String {
    c.scorer.mode().map(|m| format!("_{m}")).unwrap_or_default()
}

fn primer_suffix(primer: bool) -> &'static str {
    if primer { "_primer" } else { "" }
}

fn provider_dir(shared: &Shared, p: &ProviderRun, sub: &str) -> PathBuf {
    if shared.multi_provider {
        let safe = |s: &str| {
            s.replace(
                |c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '.',
                "_",
            )
        };
        PathBuf::from(sub).join(format!(
            "{}_{}",
            safe(p.provider.name()),
            safe(p.provider.model())
        ))
    } else {
        PathBuf::from(sub)
    }
}

/// One sample: a call, or a conversation when the suite follows a reply up (a repair
/// request); each turn is cached, budgeted, paced and retried; the sample is graded and
/// logged once, when the conversation ends. A sample stopped between turns is not logged
/// (`--resume` asks it again; its earlier turns come from the response cache).
async fn execute(shared: Arc<Shared>, p: Arc<ProviderRun>, c: Arc<Combo>, run: u32, unit: usize) {
    if shared.stop.requested() || p.fatal.get().is_some() {
        return;
    }
    let u = &c.units[unit];
    let (start_ms, started) = (now_ms(), Instant::now());
    let mut conv = Conversation::new(start_ms);
    let mut attempts = 0;
    let result = loop {
        let messages = conv.messages(&u.messages);
        let Some(turn) = ask(&shared, &p, &c, u, run, &messages).await else {
            return;
        };
        attempts += turn.attempts;
        let Ok(resp) = turn.result else {
            break turn.result;
        };
        let Some(next) = follow_up(&c, u, &resp, conv.round()) else {
            break Ok(resp);
        };
        conv.push(&resp.output, resp.usage, next);
    };
    let latency = started.elapsed().as_millis() as u64;
    let record = build(
        &shared,
        &p,
        &c,
        u,
        run,
        result,
        (latency, start_ms, now_ms()),
        attempts,
        &conv,
    );
    finish(&shared, &p, &c, record, attempts == 0);
}

/// The request that follows `resp` in round `round` of a conversation, if the suite has one;
/// a reply cut at the output limit is final (it is graded as `truncated`).
pub(super) fn follow_up(c: &Combo, u: &Unit, resp: &Response, round: u32) -> Option<String> {
    if resp.finish == Some(Finish::Length) {
        return None;
    }
    c.scorer.follow_up(u, &resp.output, round)
}

/// One turn's outcome and the HTTP attempts it took (0 from the cache).
struct Turn {
    result: Result<Response, ProviderError>,
    attempts: u32,
}

/// Asks `messages` once: from the response cache when it holds them, else under the
/// provider's limits, the budget and the retry policy. `None` when the run stopped first.
async fn ask(
    shared: &Shared,
    p: &ProviderRun,
    c: &Combo,
    u: &Unit,
    run: u32,
    messages: &[Message],
) -> Option<Turn> {
    let schema = c.scorer.response_schema();
    let cache_key = shared
        .cache
        .as_ref()
        .filter(|_| p.provider.url().is_some())
        .map(|_| super::Cache::key(p.provider.as_ref(), messages, run, schema));
    if let (Some(cache), Some(k)) = (&shared.cache, &cache_key)
        && let Some(resp) = cache.get(k)
    {
        return Some(Turn {
            result: Ok(resp),
            attempts: 0,
        });
    }
    let skip = || shared.stop.requested() || p.fatal.get().is_some();
    let estimate = p.price.map_or(0.0, |price| {
        price.cost(&Usage {
            input: u64::from(u.tokens),
            output: u64::from(p.max_tokens),
            ..Usage::default()
        })
    });
    let slot = p.limits.slot().await;
    if skip() || !reserve(shared, estimate) {
        return None;
    }
    let req = Request {
        messages,
        ..c.request(u)
    };
    let tokens = u.tokens + p.max_tokens;
    // A provider stopped by another call's error gets no further attempt from this one.
    let stopping = || shared.stop.requested() || p.fatal.get().is_some();
    let attempted = retry::send(
        p.provider.as_ref(),
        &p.limits,
        &req,
        tokens,
        &shared.retry,
        &p.answered,
        &stopping,
    )
    .await;
    drop(slot);
    if matches!(attempted.result, Err(ProviderError::Cancelled)) {
        // Never sent (or abandoned between retries): left for `--resume`, not an error.
        shared.budget.settle(estimate, 0.0);
        return None;
    }
    if let Err(e) = &attempted.result {
        note_fatal(shared, p, e, attempted.attempts);
    }
    let spent = match &attempted.result {
        Ok(resp) => {
            if let Some(k) = &cache_key {
                store(shared, k, resp);
            }
            p.price.map_or(0.0, |price| price.cost(&resp.usage))
        }
        Err(_) => 0.0,
    };
    shared.budget.settle(estimate, spent);
    Some(Turn {
        result: attempted.result,
        attempts: attempted.attempts,
    })
}

/// Books `estimate` against the budget; false (and the run stops scheduling) when it would
/// pass the limit.
fn reserve(shared: &Shared, estimate: f64) -> bool {
    if shared.budget.reserve(estimate) {
        return true;
    }
    let limit = shared.budget.limit.unwrap_or(0.0);
    if !shared.stop.requested() {
        shared.observer.notice(&format!(
            "budget: stopping — spent plus in-flight would pass ${limit:.2}; finishing calls in flight"
        ));
    }
    shared.stop.request(StopReason::Budget(limit));
    false
}

/// A fatal error (bad key, unknown model) stops calling that provider, said once; so does a
/// server that could not be reached before it ever answered (nothing listening, no such host,
/// TLS failure): every later call would wait out the same retries for nothing.
fn note_fatal(shared: &Shared, p: &ProviderRun, e: &ProviderError, attempts: u32) {
    let unreachable = e.unreachable() && !p.answered.load(std::sync::atomic::Ordering::Relaxed);
    if !(e.fatal() || unreachable) {
        return;
    }
    let after = if unreachable {
        let s = if attempts == 1 { "try" } else { "tries" };
        format!(" after {attempts} {s}")
    } else {
        String::new()
    };
    let message = match (e.status(), p.provider.url()) {
        (Some(404), Some(url)) => not_found(p.provider.name(), p.provider.model(), e, &url),
        _ => format!(
            "{}:{}: {e} — stopped calling it{after}",
            p.provider.name(),
            p.provider.model()
        ),
    };
    if p.fatal.set(message).is_ok() {
        shared.observer.notice(p.fatal.get().expect("just set"));
    }
}

/// Said of a fatal error that a resumed run would meet again (it calls the same URL with the
/// same model): `bench run` then suggests no `--resume`.
pub const SAME_ON_RESUME: &str = "a resumed run calls the same URL";

/// A 404 in words: the URL that answered it, and, for a URL without `/v1` (a base URL given
/// as the server's root), the `/v1` base the OpenAI-compatible servers answer under.
fn not_found(name: &str, model: &str, e: &ProviderError, url: &str) -> String {
    let hint = match ["/chat/completions", "/responses"]
        .iter()
        .find_map(|tail| url.strip_suffix(tail))
    {
        Some(base) if !base.contains("/v1") => format!(
            "; OpenAI-compatible servers (Ollama, vLLM, llama.cpp) answer under /v1: \
             --base-url {base}/v1"
        ),
        _ => format!("; check the base URL and the model id '{model}'"),
    };
    format!("{name}:{model}: {e} from {url} — stopped calling it{hint} ({SAME_ON_RESUME})")
}

/// Keeps a reply in the response cache; a cache that cannot be written is a warning.
fn store(shared: &Shared, key: &str, resp: &Response) {
    if let Some(cache) = &shared.cache
        && let Err(e) = cache.put(key, resp)
    {
        shared.observer.notice(&format!(
            "warning: cannot write response cache '{}': {e}",
            cache.dir().display()
        ));
    }
}

/// Writes the result line and its response artifact, keeps a slim copy for the summary;
/// false when the line could not be written (the run stops).
pub(super) fn finish(
    shared: &Shared,
    p: &ProviderRun,
    c: &Combo,
    record: ResultRecord,
    cached: bool,
) -> bool {
    let r = &c.rendering;
    if shared.write_failed.load(Ordering::SeqCst) {
        return false;
    }
    let mut log = shared.log.lock().expect("log lock");
    if let Err(e) = log.append(&Line::Result(Box::new(record.clone()))) {
        drop(log);
        // Said once: calls in flight fail to write too.
        stop_writing(shared, &e);
        return false;
    }
    drop(log);
    let run = if record.warmup {
        "warmup".to_string()
    } else {
        record.run.to_string()
    };
    let q = record
        .question
        .as_ref()
        .or(record.task.as_ref())
        .map(|q| format!("_{q}"))
        .unwrap_or_default();
    let name = format!(
        "answers_for_{}_{}_{}_records{}_{run}{q}.json",
        r.structure,
        r.variant,
        c.records,
        primer_suffix(c.primer)
    );
    let raw = json!({"tag": record.sample.tag, "output": record.sample.output.content, "error": record.error});
    let path = provider_dir(shared, p, "responses")
        .join(format!("{}{}", r.format.name(), mode_suffix(c)))
        .join(name);
    write_artifact(
        shared,
        &shared.artifacts.lock().expect("artifacts lock"),
        &path,
        &raw,
    );
    shared.observer.finished(p.idx, &record, cached);
    let max_tokens = c.scorer.call_settings().max_tokens.unwrap_or(p.max_tokens);
    shared.signals.observe(&record, max_tokens);
    let mut slim = record;
    slim.sample.input.clear();
    slim.sample.output.content.clear();
    shared.results.lock().expect("results lock").push(slim);
    true
}

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
    (latency, start_ms, end_ms): (u64, u64, u64),
    attempts: u32,
    conv: &Conversation,
) -> ResultRecord {
    let r = &c.rendering;
    let billed = p
        .billed
        .as_ref()
        .and_then(|b| Some((b.of(&r.text)?, b.basis.as_str())));
    let graded_at = Instant::now();
    let (resp, error) = match response {
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
    };
    // A failed call states nothing (and was not cut: its finish is `error`).
    let cut = resp.finish == Some(Finish::Length);
    let mut replies: Vec<&str> = conv.replies.iter().map(String::as_str).collect();
    replies.extend(error.is_none().then_some(resp.output.as_str()));
    let crate::suites::Scored {
        metrics,
        task_scores,
        write,
    } = c.scorer.score_turns(u, &replies, error.is_some(), cut);
    let metrics = unanswerable_dropped(p.provider.name(), u, metrics);
    let summary = summarize(&metrics);
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
    let talked = !conv.replies.is_empty();
    let usage = conv.used().plus(&resp.usage);
    let mut turns = conv.turns.clone();
    turns.extend(error.is_none().then_some(resp.usage));
    // What this sample spent: nothing for a lone failed call or a cache hit (attempts == 0).
    let cost_usd = if (error.is_some() && !talked) || attempts == 0 {
        Some(0.0)
    } else {
        p.price.map(|price| price.cost(&usage))
    };
    ResultRecord {
        benchmark_id: shared.benchmark_id.clone(),
        provider_config: ProviderConfig {
            provider: p.provider.name().into(),
            model: p.provider.model().into(),
            model_params: p.provider.params(),
            settings: None,
            notes: Vec::new(),
            token_basis: None,
        },
        sample: Sample {
            duration_ms: latency,
            tag: format!(
                "{}{}_{}_{}_{}{}_{run_tag}{q}",
                r.format,
                mode_suffix(c),
                r.structure,
                r.variant,
                c.records,
                primer_suffix(c.primer)
            ),
            input: crate::runlog::logged_input(
                if talked {
                    conv.messages(&u.messages)
                } else {
                    u.messages.clone()
                },
                &r.text,
            ),
            output: Output {
                content: resp.output,
            },
            model: p.provider.model().into(),
            model_params: p.provider.params(),
            start_time_ms: start_ms,
            end_time_ms: end_ms,
            url: p.provider.url(),
        },
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
        task_scores,
        write,
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
