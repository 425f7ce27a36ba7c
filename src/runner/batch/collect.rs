//! Collecting an ended batch: its results are fetched, graded and logged like live answers,
//! retryable failures go back to be submitted again, and the ledger marks it collected only
//! once the log holds its lines.

use super::*;

/// An ended batch whose results fail to read this many times for a reason that waiting does
/// not fix (a body bench cannot parse, a 4xx) has its requests logged as errors, so the run
/// ends instead of polling for ever. Timeouts, 429 and 5xx are tried again without limit: the
/// results stay at the provider for weeks and are paid for.
const RESULT_TRIES: u32 = 3;

impl ProviderBatches {
    /// Fetches an ended batch's results and logs them; expired and retryable failures go back
    /// to `todo`. False when the results could not be fetched (poll again).
    pub(super) async fn collect(
        &mut self,
        id: &str,
        status: &Status,
        todo: &mut Vec<SampleKey>,
    ) -> bool {
        let results = match self.api().results(status).await {
            Ok(r) => r,
            Err(e) => return self.unread(id, &e),
        };
        let (requests, order) = {
            let l = self.ledger.lock().expect("ledger lock");
            l.batches
                .iter()
                .find(|b| b.id == id)
                .map(|b| (b.requests.clone(), b.order.clone()))
                .unwrap_or_default()
        };
        let followed = self.followed;
        let matched = match_results(results, &order);
        self.tell_unkeyed(id, &matched);
        let mut answered = HashSet::new();
        let by_key = matched.by_key.into_iter().map(|r| (r, false));
        let by_order = matched.by_order.into_iter().map(|r| (r, true));
        for ((cid, outcome), positional) in by_key.chain(by_order) {
            let Some(k) = requests.get(&cid) else {
                self.notice(&format!(
                    "batch {id}: a result for unknown custom_id {cid:?} was ignored"
                ));
                continue;
            };
            if !self.current(&cid, k) {
                self.notice(&format!(
                    "batch {id}: a result for {cid:?} answers an earlier round of its \
                     conversation, which already has that reply; ignored"
                ));
                continue;
            }
            if answered.insert(k.clone()) {
                self.outcome(k, outcome, id, positional, todo);
            }
        }
        // A request with no result line did not run: cancelled with its batch, else expired.
        let cancelled = status.state.to_ascii_lowercase().contains("cancel");
        let silent = requests
            .iter()
            .filter(|(cid, k)| !answered.contains(*k) && self.current(cid, k))
            .map(|(_, k)| k);
        for k in silent.cloned().collect::<Vec<_>>() {
            let o = if cancelled {
                Outcome::Canceled
            } else {
                Outcome::Expired
            };
            self.outcome(&k, o, id, false, todo);
        }
        self.tell_followed(id, self.followed - followed);
        true
    }

    /// The results of batch `id` could not be fetched (`e`): true when that lasted
    /// [`RESULT_TRIES`] times and its requests were logged as errors, false to poll again.
    fn unread(&mut self, id: &str, e: &ProviderError) -> bool {
        if e.fatal() {
            self.fatal(e);
            return false;
        }
        let lasting = matches!(e, ProviderError::BadBody { .. }) || !e.retryable();
        let tries = if lasting {
            let n = self.unreadable.entry(id.to_string()).or_default();
            *n += 1;
            *n
        } else {
            0
        };
        if tries >= RESULT_TRIES {
            let why = format!("batch {id}: its results could not be read ({tries} tries): {e}");
            self.not_run(id, &why);
            return true;
        }
        self.notice(&format!(
            "batch {id}: cannot fetch its results ({e}); trying again"
        ));
        false
    }

    /// Says how many of batch `id`'s replies (`n`) go on to a follow-up request.
    fn tell_followed(&self, id: &str, n: usize) {
        if n > 0 {
            let (what, go) = if n == 1 {
                ("reply gets", "it goes")
            } else {
                ("replies get", "they go")
            };
            self.notice(&format!(
                "batch {id}: {n} {what} a follow-up request (a repair); {go} into a new batch \
                 with the conversation so far"
            ));
        }
    }

    /// Says how results that came back without their custom id were dealt with.
    fn tell_unkeyed<T>(&self, id: &str, m: &Matched<T>) {
        if !m.by_order.is_empty() {
            self.notice(&format!(
                "warning: batch {id}: {} result(s) came back without their custom id \
                 (metadata.key); matched by position in the submitted batch, which the other \
                 results confirm (batch_matched_by = 'order' in the log)",
                m.by_order.len()
            ));
        }
        if m.unmatched > 0 {
            self.notice(&format!(
                "warning: batch {id}: {} result(s) came back without their custom id and out of \
                 request order, so they cannot be matched; their requests count as not run and \
                 are submitted again",
                m.unmatched
            ));
        }
    }

    /// Says `why` and logs every request of batch `id` as not run for that reason.
    pub(super) fn not_run(&mut self, id: &str, why: &str) {
        self.notice(why);
        for k in self.keys_of(id) {
            self.record(&k, Err(ProviderError::NotRun(why.to_string())), id, false);
        }
    }

    /// Logs one request's outcome, or queues it to be submitted again; `positional` when the
    /// result came back without its custom id and was matched by position.
    fn outcome(
        &mut self,
        k: &SampleKey,
        outcome: Outcome,
        id: &str,
        positional: bool,
        todo: &mut Vec<SampleKey>,
    ) {
        if !self.work.contains_key(k) || self.logged.contains(k) {
            return;
        }
        let round = self.round(k);
        let tries = self.attempts.get(&(k.clone(), round)).copied().unwrap_or(1);
        let again = tries as usize <= self.shared.retry.max_retries && !self.cancelling;
        let retry = |me: &mut Self, todo: &mut Vec<SampleKey>| {
            // Its booking is released; submitting it again books it again.
            me.shared.budget.settle(me.estimate(k), 0.0);
            todo.push(k.clone());
        };
        let result = match outcome {
            Outcome::Answer(resp) => match self.follow_up(k, &resp) {
                // The next round goes into a new batch; when nothing more may be submitted
                // (budget, --cancel-batches) the conversation waits in the ledger for --resume.
                Some(next) => {
                    let started = self.submitted_ms(id);
                    self.advance(k, &resp, next, started, true);
                    todo.push(k.clone());
                    return;
                }
                None => Ok(resp),
            },
            Outcome::Failed(e) if e.retryable() && again => return retry(self, todo),
            Outcome::Failed(e) => Err(e),
            Outcome::Expired if again => return retry(self, todo),
            Outcome::Expired => Err(ProviderError::NotRun(format!(
                "not run: expired in {tries} batch(es) (the last {id})"
            ))),
            Outcome::Canceled => Err(ProviderError::NotRun(format!(
                "not run: batch {id} was cancelled first"
            ))),
        };
        self.record(k, result, id, positional);
    }

    /// Grades and logs one answer exactly as a live call, at the batch price; a `positional`
    /// match is flagged in its line.
    pub(super) fn record(
        &mut self,
        k: &SampleKey,
        result: Result<Response, ProviderError>,
        id: &str,
        positional: bool,
    ) {
        if self.logged.contains(k) {
            return;
        }
        let Some(w) = self.work.get(k) else { return };
        let u = &w.combo.units[w.unit];
        let conv = self.convs.get(k).cloned().unwrap_or_default();
        let submitted = match conv.started_ms {
            0 => self.submitted_ms(id),
            started => started,
        };
        if let Ok(resp) = &result {
            self.cache_put(k, resp);
        }
        let spent = match &result {
            Ok(resp) => self
                .p
                .price
                .map_or(0.0, |price| price.batch_cost(&resp.usage)),
            Err(_) => 0.0,
        };
        let now = now_ms();
        let mut record = build(
            &self.shared,
            &self.p,
            &w.combo,
            u,
            w.run,
            result,
            (now.saturating_sub(submitted), submitted, now),
            self.submissions(k).max(1),
            &conv,
        );
        // Every answered turn at the batch price (a lone failed request cost nothing).
        if record.error.is_none() || !conv.replies.is_empty() {
            record.cost_usd = self.p.price.map(|price| price.batch_cost(&record.usage));
        }
        record.batch_id = Some(id.to_string());
        if positional {
            record.batch_matched_by = Some("order".into());
        }
        // Earlier rounds settled their own turns.
        self.shared.budget.settle(self.estimate(k), spent);
        let w = &self.work[k];
        if finish(&self.shared, &self.p, &w.combo, record, false) {
            self.logged.insert(k.clone());
            self.forget(k);
        } else {
            self.write_failed = true;
        }
    }

    /// When batch `id` was submitted (Unix milliseconds; 0 when the ledger has no such batch).
    pub(super) fn submitted_ms(&self, id: &str) -> u64 {
        let l = self.ledger.lock().expect("ledger lock");
        l.batches
            .iter()
            .find(|b| b.id == id)
            .map_or(0, |b| b.submitted_ms)
    }

    pub(super) fn set_collected(&self, id: &str, state: &str) {
        if self.write_failed {
            return;
        }
        // The results reach the disk before the ledger says they are in the log.
        if let Err(e) = self.shared.log.lock().expect("log lock").sync() {
            self.notice(&format!("warning: {e:#}; batch {id} stays uncollected"));
            return;
        }
        let mut l = self.ledger.lock().expect("ledger lock");
        if let Some(b) = l.batches.iter_mut().find(|b| b.id == id) {
            b.collected = true;
            b.state = state.to_string();
        }
        if let Err(e) = l.save(&self.dir) {
            self.notice(&format!("warning: {e:#}"));
        }
    }
}
