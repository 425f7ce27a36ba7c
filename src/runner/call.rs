//! Scheduling and executing calls: a task per (combination, provider) runs the warm-up, then
//! one task per planned sample; each call is cached, budgeted, paced and retried, then graded
//! (`record`) and written (`artifacts`) the moment it is done.

use super::artifacts::{finish, validation};
use super::conversation::Conversation;
use super::plan::{Combo, SampleKey, Unit};
use super::record::build;
use super::retry;
use super::state::{ProviderRun, Shared, StopReason};
use crate::prompt::Message;
use crate::providers::{Finish, ProviderError, Request, Response, Usage};
use std::collections::HashSet;
use std::sync::Arc;
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
