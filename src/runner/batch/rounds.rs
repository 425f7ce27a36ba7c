//! Conversations in batch mode: a reply its suite follows up (the write suite's repair
//! request) sends the sample into a new batch with its turns so far, round after round, until
//! a reply needs no follow-up; only then is the sample graded and logged. Between rounds the
//! conversation lives in `batches.json`, so `--resume` goes on from the round it was in.

use super::*;
use crate::runner::conversation::Conversation;
use crate::runner::ledger::{custom_id, round_of};

impl ProviderBatches {
    /// Which request `k` is at: 0 for its first, n for its nth follow-up.
    pub(super) fn round(&self, k: &SampleKey) -> u32 {
        self.convs.get(k).map_or(0, Conversation::round)
    }

    /// The messages of `k`'s next request.
    pub(super) fn messages(&self, k: &SampleKey) -> Vec<crate::prompt::Message> {
        let w = &self.work[k];
        let first = &w.combo.units[w.unit].messages;
        self.convs
            .get(k)
            .map_or_else(|| first.clone(), |c| c.messages(first))
    }

    /// The budget booked for `k`'s next request: its first request's estimate plus, in a later
    /// round, the turns it carries (replies at their counted size, follow-ups at ~4 bytes a
    /// token).
    pub(super) fn estimate(&self, k: &SampleKey) -> f64 {
        let w = &self.work[k];
        let (Some(c), Some(price)) = (self.convs.get(k), self.p.price) else {
            return w.estimate;
        };
        let asked: usize = c.follow_ups.iter().map(String::len).sum();
        let carried = Usage {
            input: c.used().output + (asked / 4) as u64,
            ..Usage::default()
        };
        w.estimate + price.batch_cost(&carried)
    }

    /// Submissions of `k` over all its rounds.
    pub(super) fn submissions(&self, k: &SampleKey) -> u32 {
        (0..=self.round(k))
            .map(|r| self.attempts.get(&(k.clone(), r)).copied().unwrap_or(0))
            .sum()
    }

    /// The ledger's conversations of this provider's samples still to log.
    pub(super) fn load_conversations(&mut self) {
        let l = self.ledger.lock().expect("ledger lock");
        if l.conversations.is_empty() {
            return;
        }
        for k in self.work.keys() {
            if let Some(c) = l.conversations.get(&custom_id(k)) {
                self.convs.insert(k.clone(), c.clone());
            }
        }
    }

    /// The request that follows `resp` in `k`'s conversation, if its suite has one (a reply
    /// cut at the length limit is final).
    pub(super) fn follow_up(&self, k: &SampleKey, resp: &Response) -> Option<String> {
        let w = &self.work[k];
        super::super::call::follow_up(&w.combo, &w.combo.units[w.unit], resp, self.round(k))
    }

    /// Keeps `resp` in the response cache under the messages that asked for it.
    pub(super) fn cache_put(&self, k: &SampleKey, resp: &Response) {
        let Some(cache) = &self.shared.cache else {
            return;
        };
        if let Err(e) = cache.put(&self.cache_key(k), resp) {
            self.notice(&format!(
                "warning: cannot write response cache '{}': {e}",
                cache.dir().display()
            ));
        }
    }

    /// Moves `k` to its next round: `resp` is its reply, `next` the request that follows.
    /// A reply from a batch (`booked`) settles its booking at the batch price; the
    /// conversation goes into the ledger (saved with the batch's collection).
    pub(super) fn advance(
        &mut self,
        k: &SampleKey,
        resp: &Response,
        next: String,
        started_ms: u64,
        booked: bool,
    ) {
        if booked {
            let spent = self.p.price.map_or(0.0, |p| p.batch_cost(&resp.usage));
            self.shared.budget.settle(self.estimate(k), spent);
            self.cache_put(k, resp);
            self.followed += 1;
        }
        let c = self
            .convs
            .entry(k.clone())
            .or_insert_with(|| Conversation::new(started_ms));
        c.push(&resp.output, resp.usage, next);
        let c = c.clone();
        let mut l = self.ledger.lock().expect("ledger lock");
        l.conversations.insert(custom_id(k), c);
    }

    /// A logged sample's conversation leaves the ledger (saved with the batch's collection).
    pub(super) fn forget(&mut self, k: &SampleKey) {
        if self.convs.remove(k).is_some() {
            let mut l = self.ledger.lock().expect("ledger lock");
            l.conversations.remove(&custom_id(k));
        }
    }

    /// Whether a result for `cid` answers `k`'s current round (an older round's result is
    /// stale: its reply is already in the conversation).
    pub(super) fn current(&self, cid: &str, k: &SampleKey) -> bool {
        round_of(cid) == self.round(k)
    }

    /// Writes cached answers at once, following conversations through the cache as far as it
    /// goes; returns the samples left to submit (at the round the cache ended), in plan order.
    /// Samples in `flight` wait for their batch.
    pub(super) fn cache_hits(&mut self, flight: &HashSet<SampleKey>) -> Vec<SampleKey> {
        let mut keys: Vec<SampleKey> = self
            .work
            .keys()
            .filter(|k| !flight.contains(*k))
            .cloned()
            .collect();
        keys.sort();
        let mut todo = Vec::new();
        for k in keys {
            let mut answered = false;
            while let Some(resp) = self.cached(&k) {
                if let Some(next) = self.follow_up(&k, &resp) {
                    self.advance(&k, &resp, next, now_ms(), false);
                    continue;
                }
                let now = now_ms();
                let w = &self.work[&k];
                let conv = self.convs.get(&k).cloned().unwrap_or_default();
                let u = &w.combo.units[w.unit];
                let record = build(
                    &self.shared,
                    &self.p,
                    &w.combo,
                    u,
                    w.run,
                    Ok(resp),
                    (0, now, now),
                    self.submissions(&k),
                    &conv,
                );
                if finish(&self.shared, &self.p, &w.combo, record, true) {
                    self.logged.insert(k.clone());
                    self.forget(&k);
                }
                answered = true;
                break;
            }
            if !answered {
                todo.push(k);
            }
        }
        todo
    }

    /// The cached reply to `k`'s next request.
    fn cached(&self, k: &SampleKey) -> Option<Response> {
        self.shared.cache.as_ref()?.get(&self.cache_key(k))
    }

    /// The response-cache key of `k`'s next request (the live runner's key for the same turn).
    fn cache_key(&self, k: &SampleKey) -> String {
        let w = &self.work[k];
        super::super::Cache::key(
            self.p.provider.as_ref(),
            &self.messages(k),
            w.run,
            w.combo.scorer.response_schema(),
        )
    }
}
