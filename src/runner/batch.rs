//! `bench run --batch`: every planned call goes through the provider's batch API (half price,
//! answers within a day). Per provider: cache hits are written at once, the rest is submitted
//! in batches within the API's caps, each batch is recorded in `batches.json` before polling,
//! and every result is graded and logged exactly as a live call would be (plus its
//! `batch_id`, at the batch price). Expired and retryable failed requests are submitted again
//! in a new batch, up to `--retries` times; nothing is dropped.

use super::artifacts::{finish, validation};
use super::call::{now_ms, samples};
use super::conversation::Conversation;
use super::ledger::{self, Entry, Ledger};
use super::plan::{Combo, SampleKey};
use super::record::build;
use super::state::{ProviderRun, Shared, StopReason};
use crate::providers::batch::{
    BatchApi, Item, Matched, Outcome, Phase, Status, chunks, match_results,
};
use crate::providers::{ProviderError, Request, Response, Usage};
use backon::{ExponentialBuilder, Retryable};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::task::JoinSet;

mod collect;
mod rounds;

/// How batch mode runs.
#[derive(Debug, Clone)]
pub struct BatchOptions {
    /// First wait between polls; it grows 1.5× per poll up to 30× this.
    pub poll: Duration,
    /// Cancel the run's unfinished batches, then collect what they finished.
    pub cancel: bool,
}

impl Default for BatchOptions {
    fn default() -> Self {
        Self {
            poll: Duration::from_secs(10),
            cancel: false,
        }
    }
}

/// Refuses batch mode when a model's wire API has no batch API.
pub fn check(models: &[super::model::Model]) -> Result<(), crate::UsageError> {
    match models.iter().find(|m| m.provider.batch().is_none()) {
        Some(m) => Err(crate::UsageError::new(format!(
            "--batch: {} has no batch API (batch mode works with anthropic, openai, \
             openai-responses and gemini)",
            m.config.spec()
        ))),
        None => Ok(()),
    }
}

/// One planned sample still to be answered.
struct Work {
    combo: Arc<Combo>,
    run: u32,
    unit: usize,
    /// Budget booked for it (batch price, prompt plus max output).
    estimate: f64,
}

/// One provider's batch run.
struct ProviderBatches {
    shared: Arc<Shared>,
    p: Arc<ProviderRun>,
    work: HashMap<SampleKey, Work>,
    ledger: Arc<Mutex<Ledger>>,
    dir: PathBuf,
    /// Submissions per sample and round so far (ledger included).
    attempts: HashMap<(SampleKey, u32), u32>,
    /// The conversations of samples past their first request (see [`rounds`]).
    convs: HashMap<SampleKey, Conversation>,
    /// Replies followed up in this run, for the progress notice.
    followed: usize,
    /// Samples already logged.
    logged: HashSet<SampleKey>,
    spec: String,
    /// `--cancel-batches`: nothing is submitted, nothing goes round again.
    cancelling: bool,
    /// The budget ran out: nothing more is submitted; what is in flight is still collected.
    no_more: bool,
    /// A result line could not be written: batches are not marked collected, so `--resume`
    /// fetches their results again.
    write_failed: bool,
    /// Failed reads of each ended batch's results that waiting does not fix (see
    /// [`collect::RESULT_TRIES`]).
    unreadable: HashMap<String, u32>,
}

/// Runs every planned sample not in `done` through the batch APIs; returns every planned key.
pub(super) async fn schedule(
    shared: &Arc<Shared>,
    providers: &[Arc<ProviderRun>],
    combos: &[Arc<Combo>],
    runs: u32,
    done: &HashSet<SampleKey>,
    dir: &Path,
    opts: &BatchOptions,
) -> anyhow::Result<Vec<SampleKey>> {
    let ledger = Arc::new(Mutex::new(Ledger::load(dir)?));
    let mut planned = Vec::new();
    let mut counts = Vec::new();
    let mut jobs = Vec::new();
    for p in providers {
        let (work, total, already) = plan_work(p, combos, runs, done, &mut planned);
        let spec = format!("{}:{}", p.provider.name(), p.provider.model());
        if p.warmup && !work.is_empty() {
            shared.observer.notice(&format!(
                "batch: {spec}: no warm-up calls (a batch runs its requests in no set order, so \
                 none can fill the prompt cache for the others)"
            ));
        }
        counts.push((spec.clone(), total, already));
        jobs.push(ProviderBatches {
            shared: shared.clone(),
            p: p.clone(),
            work,
            ledger: ledger.clone(),
            dir: dir.to_path_buf(),
            attempts: HashMap::new(),
            convs: HashMap::new(),
            followed: 0,
            logged: HashSet::new(),
            unreadable: HashMap::new(),
            spec,
            cancelling: opts.cancel,
            no_more: opts.cancel,
            write_failed: false,
        });
    }
    shared.observer.start(&counts);
    let mut tasks = JoinSet::new();
    for job in jobs {
        let opts = opts.clone();
        tasks.spawn(async move { job.run(&opts).await });
    }
    while let Some(r) = tasks.join_next().await {
        if let Err(e) = r {
            shared
                .observer
                .notice(&format!("internal error in a batch task: {e}"));
        }
    }
    for p in providers {
        for c in combos {
            validation(shared, p, c);
        }
    }
    Ok(planned)
}

/// One provider's samples not in `done`, each with its batch-price estimate (every sample is
/// appended to `planned`); with the planned and the already-done counts.
fn plan_work(
    p: &Arc<ProviderRun>,
    combos: &[Arc<Combo>],
    runs: u32,
    done: &HashSet<SampleKey>,
    planned: &mut Vec<SampleKey>,
) -> (HashMap<SampleKey, Work>, usize, usize) {
    let mut work = HashMap::new();
    let (mut total, mut already) = (0, 0);
    for c in combos {
        for (run, i, k) in samples(p, c, runs) {
            total += 1;
            if done.contains(&k) {
                already += 1;
            } else {
                let estimate = p.price.map_or(0.0, |price| {
                    price.batch_cost(&Usage {
                        input: u64::from(c.units[i].tokens),
                        output: u64::from(p.max_tokens),
                        ..Usage::default()
                    })
                });
                let w = Work {
                    combo: c.clone(),
                    run,
                    unit: i,
                    estimate,
                };
                work.insert(k.clone(), w);
            }
            planned.push(k);
        }
    }
    (work, total, already)
}

impl ProviderBatches {
    fn api(&self) -> &dyn BatchApi {
        self.p.provider.batch().expect("checked before the run")
    }

    fn notice(&self, msg: &str) {
        self.shared.observer.notice(msg);
    }

    fn stopped(&self) -> bool {
        self.shared.stop.requested() || self.p.fatal.get().is_some()
    }

    /// Marks the provider failed for good (bad key, unknown model), once.
    fn fatal(&self, e: &ProviderError) {
        if self
            .p
            .fatal
            .set(format!("{}: {e} — stopped calling it", self.spec))
            .is_ok()
        {
            self.notice(self.p.fatal.get().expect("just set"));
        }
    }

    async fn run(mut self, opts: &BatchOptions) {
        let mut flight = self.earlier_batches();
        self.load_conversations();
        let in_flight: HashSet<SampleKey> = self.flight_keys(&flight);
        let mut todo = self.cache_hits(&in_flight);
        if !flight.is_empty() {
            self.notice(&format!(
                "batch: {}: polling {} batch(es) submitted earlier ({} requests); they are not \
                 submitted again",
                self.spec,
                flight.len(),
                in_flight.len()
            ));
            // Already sent: booked whatever the limit, settled when logged.
            for k in in_flight.iter().filter(|k| !self.logged.contains(*k)) {
                if self.work.contains_key(k) {
                    self.shared.budget.book(self.estimate(k));
                }
            }
        }
        if opts.cancel {
            self.cancel(&flight, &mut todo).await;
        }
        let started = Instant::now();
        let mut wait = opts.poll;
        let mut seen: HashMap<String, (String, u64, Instant)> = HashMap::new();
        loop {
            if !todo.is_empty() && !self.stopped() && !self.no_more {
                flight.extend(self.submit(std::mem::take(&mut todo)).await);
            }
            if flight.is_empty() || self.stopped() {
                break;
            }
            self.sleep(wait).await;
            wait = wait.mul_f64(1.5).min(opts.poll * 30);
            flight = self.poll(flight, &mut seen, started, &mut todo).await;
        }
        self.left_over(&todo, &flight);
    }

    /// The ledger's batches of this provider: counts their requests as attempts; returns the
    /// ones not collected yet (still in flight at the provider).
    fn earlier_batches(&mut self) -> Vec<String> {
        let mut flight = Vec::new();
        let l = self.ledger.lock().expect("ledger lock");
        for b in l
            .batches
            .iter()
            .filter(|b| b.of(self.p.provider.name(), self.p.provider.model()))
        {
            for (cid, k) in &b.requests {
                *self
                    .attempts
                    .entry((k.clone(), ledger::round_of(cid)))
                    .or_default() += 1;
            }
            if !b.collected {
                flight.push(b.id.clone());
            }
        }
        flight
    }

    /// `--cancel-batches`: asks the provider to cancel every batch in flight and submits nothing.
    async fn cancel(&self, flight: &[String], todo: &mut Vec<SampleKey>) {
        for id in flight {
            match self.api().cancel(id).await {
                Ok(()) => self.notice(&format!("batch {id}: cancel requested")),
                Err(e) => self.notice(&format!("batch {id}: cannot cancel: {e}")),
            }
        }
        if !todo.is_empty() {
            self.notice(&format!(
                "batch: {}: --cancel-batches: {} requests not submitted",
                self.spec,
                todo.len()
            ));
            todo.clear();
        }
    }

    /// Polls every batch in flight once, collecting the ended ones (retryable failures go
    /// back into `todo`); returns the batches still running.
    async fn poll(
        &mut self,
        flight: Vec<String>,
        seen: &mut HashMap<String, (String, u64, Instant)>,
        started: Instant,
        todo: &mut Vec<SampleKey>,
    ) -> Vec<String> {
        let mut still = Vec::new();
        for id in flight {
            let status = match self.api().poll(&id).await {
                Ok(s) => s,
                Err(e) => {
                    if e.fatal() {
                        self.fatal(&e);
                    } else {
                        self.notice(&format!("batch {id}: poll failed ({e}); polling again"));
                    }
                    still.push(id);
                    continue;
                }
            };
            self.progress(&id, &status, seen, started);
            let collected = match &status.phase {
                Phase::Running => false,
                Phase::Failed(why) => {
                    self.not_run(&id, &format!("batch {id} failed: {why}"));
                    true
                }
                Phase::Ended => self.collect(&id, &status, todo).await,
            };
            if collected {
                self.set_collected(&id, &status.state);
            } else {
                still.push(id);
            }
        }
        still
    }

    /// Says what the run leaves for `--resume`: requests not submitted, batches still running.
    fn left_over(&self, todo: &[SampleKey], flight: &[String]) {
        if !todo.is_empty() {
            self.notice(&format!(
                "batch: {}: {} requests not submitted; `bench run --resume {}` submits them",
                self.spec,
                todo.len(),
                self.dir.display()
            ));
        }
        if !flight.is_empty() {
            self.notice(&format!(
                "batch: {}: {} batch(es) still running at the provider ({}); `bench run --resume {}` \
                 collects them without submitting anything again",
                self.spec,
                flight.len(),
                flight.join(", "),
                self.dir.display()
            ));
        }
    }

    fn flight_keys(&self, ids: &[String]) -> HashSet<SampleKey> {
        ids.iter().flat_map(|id| self.keys_of(id)).collect()
    }

    /// The samples of batch `id` that this run planned.
    fn keys_of(&self, id: &str) -> Vec<SampleKey> {
        let l = self.ledger.lock().expect("ledger lock");
        l.batches
            .iter()
            .filter(|b| b.id == id)
            .flat_map(|b| b.requests.values().cloned())
            .filter(|k| self.work.contains_key(k))
            .collect()
    }

    /// Submits `todo` in batches within the caps; returns the ids submitted. Each batch is
    /// in the ledger on disk before this returns.
    async fn submit(&mut self, mut todo: Vec<SampleKey>) -> Vec<String> {
        let fit = self.book(&todo);
        todo.truncate(fit);
        let api = self.api();
        let items: Vec<Item> = todo
            .iter()
            .map(|k| {
                let w = &self.work[k];
                let u = &w.combo.units[w.unit];
                let messages = self.messages(k);
                let req = Request {
                    messages: &messages,
                    ..w.combo.request(u)
                };
                Item {
                    custom_id: ledger::round_id(k, self.round(k)),
                    body: api.body(&req),
                }
            })
            .collect();
        let by_id: HashMap<String, SampleKey> = items
            .iter()
            .map(|i| i.custom_id.clone())
            .zip(todo.iter().cloned())
            .collect();
        let mut ids = Vec::new();
        let mut left = chunks(items, api.caps(), |i| api.item_bytes(i)).into_iter();
        for chunk in left.by_ref() {
            if self.stopped() {
                self.unbook(&chunk, &by_id);
                continue;
            }
            match self.create(&chunk).await {
                Ok(id) => {
                    self.ledger_entry(&id, &chunk, &by_id);
                    ids.push(id);
                }
                Err(e) => {
                    self.not_submitted(&e, chunk.len());
                    self.unbook(&chunk, &by_id);
                }
            }
        }
        ids
    }

    /// Books the budget for `todo` in plan order; returns how many fit. What does not fit is
    /// not submitted, and nothing more will be.
    fn book(&mut self, todo: &[SampleKey]) -> usize {
        for (fit, k) in todo.iter().enumerate() {
            if !self.shared.budget.reserve(self.estimate(k)) {
                let limit = self.shared.budget.limit.unwrap_or(0.0);
                self.notice(&format!(
                    "budget: {}: {} requests not submitted — they would pass ${limit:.2}; \
                     batches already submitted are still collected",
                    self.spec,
                    todo.len() - fit
                ));
                self.shared.stop.note(StopReason::Budget(limit));
                self.no_more = true;
                return fit;
            }
        }
        todo.len()
    }

    /// Says why a chunk was not submitted (a fatal error stops the provider).
    fn not_submitted(&self, e: &ProviderError, n: usize) {
        if e.fatal() {
            self.fatal(e);
            return;
        }
        let maybe = if e.status().is_none() {
            " (no answer came back, so the batch may exist: check the provider's \
             batch list before resuming, or it may be paid twice)"
        } else {
            ""
        };
        self.notice(&format!(
            "batch: {}: submitting {n} requests failed: {e}{maybe}; they are left \
             for `bench run --resume {}`",
            self.spec,
            self.dir.display()
        ));
    }

    /// Records a submitted batch in the ledger (saved at once) and counts its attempts; a
    /// ledger that cannot be saved stops the run, since the batch runs at the provider anyway.
    fn ledger_entry(&mut self, id: &str, chunk: &[Item], by_id: &HashMap<String, SampleKey>) {
        let requests = chunk
            .iter()
            .map(|i| (i.custom_id.clone(), by_id[&i.custom_id].clone()))
            .collect();
        let saved = {
            let mut l = self.ledger.lock().expect("ledger lock");
            l.batches.push(Entry {
                provider: self.p.provider.name().into(),
                model: self.p.provider.model().into(),
                id: id.to_string(),
                submitted_at: chrono::Utc::now()
                    .to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
                submitted_ms: now_ms(),
                requests,
                order: chunk.iter().map(|i| i.custom_id.clone()).collect(),
                collected: false,
                state: "submitted".into(),
            });
            // A conversation the cache moved on is in the ledger before its round runs.
            for i in chunk {
                let k = &by_id[&i.custom_id];
                if let Some(c) = self.convs.get(k) {
                    l.conversations.insert(ledger::custom_id(k), c.clone());
                }
            }
            l.save(&self.dir)
        };
        for i in chunk {
            let k = by_id[&i.custom_id].clone();
            *self
                .attempts
                .entry((k, ledger::round_of(&i.custom_id)))
                .or_default() += 1;
        }
        if let Err(e) = saved {
            self.notice(&format!(
                "error: batch {id} is running at the provider but cannot be recorded: {e:#}; \
                 note its id before resuming"
            ));
            self.shared.stop.request(StopReason::Interrupted);
        }
        self.notice(&format!(
            "batch {id}: submitted {} requests for {}",
            chunk.len(),
            self.spec
        ));
    }

    /// Creates one batch, retrying only answers that say it was not accepted (429, 503, 529):
    /// after a timeout, a dropped connection or a gateway error the batch may exist, and a
    /// second create would pay twice.
    async fn create(&self, chunk: &[Item]) -> Result<String, ProviderError> {
        let policy = &self.shared.retry;
        let backoff = ExponentialBuilder::default()
            .with_min_delay(policy.base)
            .with_max_delay(policy.max_delay)
            .with_max_times(policy.max_retries);
        (|| self.api().submit(chunk))
            .retry(backoff)
            .sleep(tokio::time::sleep)
            .when(|e| matches!(e.status(), Some(429 | 503 | 529)) && !self.shared.stop.requested())
            .await
    }

    fn unbook(&self, chunk: &[Item], by_id: &HashMap<String, SampleKey>) {
        for i in chunk {
            self.shared
                .budget
                .settle(self.estimate(&by_id[&i.custom_id]), 0.0);
        }
    }

    /// A progress line when a batch's state or count changed, or a minute passed.
    fn progress(
        &self,
        id: &str,
        s: &Status,
        seen: &mut HashMap<String, (String, u64, Instant)>,
        started: Instant,
    ) {
        let changed = seen.get(id).is_none_or(|(state, done, at)| {
            *state != s.state || *done != s.done || at.elapsed() >= Duration::from_secs(60)
        });
        if changed {
            let secs = started.elapsed().as_secs();
            self.notice(&format!(
                "batch {id} ({}): {} {}/{}, {}m{:02}s",
                self.spec,
                s.state,
                s.done,
                s.total,
                secs / 60,
                secs % 60
            ));
            seen.insert(id.to_string(), (s.state.clone(), s.done, Instant::now()));
        }
    }

    /// Waits `d`, waking early when the run is stopped.
    async fn sleep(&self, d: Duration) {
        let end = Instant::now() + d;
        while Instant::now() < end && !self.stopped() {
            let step = (end - Instant::now()).min(Duration::from_millis(200));
            tokio::time::sleep(step).await;
        }
    }
}
