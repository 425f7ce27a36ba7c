//! The providers' batch APIs (Anthropic Message Batches, OpenAI Batch, Gemini batch mode):
//! half-price calls that finish within a day. Each provider's folder implements [`Protocol`]
//! in its own `batch.rs` (`anthropic/`, `openai/`, `gemini/`) — submit, poll, results,
//! cancel; the request bodies and answers are the live wire API's own, so a batch result is
//! parsed and graded exactly as a live one. This file holds what they share.

use super::ProviderError;
use super::Response;
use super::http::Endpoint;
use serde_json::Value;

/// How large one batch may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// Requests per batch.
    pub requests: usize,
    /// Bytes per batch (the serialized requests).
    pub bytes: usize,
}

/// One request of a batch: the id it is matched by, and the live API's request body.
#[derive(Debug, Clone)]
pub struct Item {
    /// The custom id (`[A-Za-z0-9_-]{1,64}`).
    pub custom_id: String,
    /// The request body the live endpoint would get.
    pub body: Value,
}

/// Where a batch is in its life.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Phase {
    /// Queued or running: poll again later.
    Running,
    /// Finished (completed, expired or cancelled): its results can be fetched.
    Ended,
    /// Failed as a whole (for example the input did not validate): no request ran.
    Failed(String),
}

/// What one poll saw.
#[derive(Debug, Clone)]
pub struct Status {
    /// The state exactly as the API names it (`in_progress`, `BATCH_STATE_RUNNING`, …).
    pub state: String,
    /// The state normalised.
    pub phase: Phase,
    /// Requests finished so far (APIs that only count at the end report 0 until then).
    pub done: u64,
    /// Requests in the batch.
    pub total: u64,
    /// The polled object itself: where the results are (file ids, a results URL, inline
    /// answers).
    pub raw: Value,
}

/// How one request of an ended batch came out.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// Answered: the reply as the live API would have given it.
    Answer(Response),
    /// The request failed (an API error for this request alone).
    Failed(ProviderError),
    /// Not run before the batch's window closed.
    Expired,
    /// Not run because the batch was cancelled.
    Canceled,
}

/// One result line of an ended batch, before parsing.
#[derive(Debug, Clone)]
pub enum Raw {
    /// A 2xx reply body in the live API's shape, and the request id if given.
    Reply(Value, Option<String>),
    /// A per-request failure.
    Failed(ProviderError),
    /// Not run before the window closed.
    Expired,
    /// Not run: the batch was cancelled.
    Canceled,
}

/// Where to reach a batch API: the live endpoint's client and headers (auth included) at the
/// API's base URL, and the model.
pub struct Transport {
    /// The live endpoint, re-pointed per call with [`Endpoint::at`].
    pub endpoint: Endpoint,
    /// The base URL as configured (`https://api.anthropic.com`, `…/v1`, …).
    pub base: String,
    /// The model id.
    pub model: String,
}

impl Transport {
    /// The endpoint at `path` under the base URL.
    pub fn at(&self, path: &str) -> Endpoint {
        self.endpoint.at(super::http::join(&self.base, path))
    }

    /// A results URL the API handed back. On another scheme, host or port than the base URL
    /// (an API behind a gateway names its own host) only its path is kept, under the base URL:
    /// the auth header goes to the configured host alone.
    pub fn absolute(&self, url: &str) -> Endpoint {
        let origin = |u: &str| {
            reqwest::Url::parse(u)
                .ok()
                .map(|u| u.origin().ascii_serialization())
        };
        match (reqwest::Url::parse(url), origin(&self.base)) {
            (Ok(u), Some(base)) if u.origin().ascii_serialization() == base => {
                self.endpoint.at(url.to_string())
            }
            (Ok(u), _) => self.at(u.path()),
            (Err(_), _) => self.at(url.split(['?', '#']).next().unwrap_or_default()),
        }
    }
}

/// One provider's batch API.
#[async_trait::async_trait]
pub trait Protocol: Send + Sync {
    /// Size limits of one batch.
    fn caps(&self) -> Caps;
    /// Bytes one item adds to a batch (its line in the upload).
    fn item_bytes(&self, item: &Item) -> usize {
        item.body.to_string().len() + item.custom_id.len() + 64
    }
    /// Creates a batch of `items`; returns its id.
    async fn submit(&self, t: &Transport, items: &[Item]) -> Result<String, ProviderError>;
    /// Polls a batch.
    async fn poll(&self, t: &Transport, id: &str) -> Result<Status, ProviderError>;
    /// Every result of an ended batch, by custom id, in the order the API lists them; `None`
    /// for a result that came back without its id (see [`match_results`]).
    async fn results(
        &self,
        t: &Transport,
        status: &Status,
    ) -> Result<Vec<(Option<String>, Raw)>, ProviderError>;
    /// Asks the API to cancel a batch; finished requests keep their results.
    async fn cancel(&self, t: &Transport, id: &str) -> Result<(), ProviderError>;
}

/// A model's batch API, as the runner sees it: request bodies and parsed answers are the
/// live wire API's.
#[async_trait::async_trait]
pub trait BatchApi: Send + Sync {
    /// Size limits of one batch.
    fn caps(&self) -> Caps;
    /// The request body of one call, as the live API would get it.
    fn body(&self, req: &super::Request<'_>) -> Value;
    /// Bytes one item adds to a batch.
    fn item_bytes(&self, item: &Item) -> usize;
    /// Creates a batch; returns its id.
    async fn submit(&self, items: &[Item]) -> Result<String, ProviderError>;
    /// Polls a batch.
    async fn poll(&self, id: &str) -> Result<Status, ProviderError>;
    /// Every result of an ended batch, parsed as the live API's answers, in the API's order;
    /// `None` where a result came back without its custom id.
    async fn results(
        &self,
        status: &Status,
    ) -> Result<Vec<(Option<String>, Outcome)>, ProviderError>;
    /// Asks the API to cancel a batch.
    async fn cancel(&self, id: &str) -> Result<(), ProviderError>;
}

/// A batch's results matched to the custom ids they answer.
#[derive(Debug)]
pub struct Matched<T> {
    /// Results that named their custom id.
    pub by_key: Vec<(String, T)>,
    /// Results without an id, matched by their position in the submitted order.
    pub by_order: Vec<(String, T)>,
    /// Results without an id whose position cannot be trusted.
    pub unmatched: usize,
}

/// Matches results to requests: by the custom id where a result names it (in any order), else
/// by position in `order` (the custom ids as submitted). Users of Google's SDKs report Gemini
/// batch answers without `metadata.key` (googleapis/python-genai#2008, js-genai#1191) and keyed
/// answers out of order (python-genai#1909), so position is trusted only when there are as many
/// results as requests and every keyed result sits at its own request's position.
pub fn match_results<T>(results: Vec<(Option<String>, T)>, order: &[String]) -> Matched<T> {
    let in_order = results.len() == order.len()
        && results
            .iter()
            .zip(order)
            .all(|((k, _), id)| k.as_ref().is_none_or(|k| k == id));
    let mut m = Matched {
        by_key: Vec::new(),
        by_order: Vec::new(),
        unmatched: 0,
    };
    for (i, (key, r)) in results.into_iter().enumerate() {
        match key {
            Some(k) => m.by_key.push((k, r)),
            None if in_order => m.by_order.push((order[i].clone(), r)),
            None => m.unmatched += 1,
        }
    }
    m
}

/// Splits `items` into batches within `caps`, in order.
pub fn chunks(items: Vec<Item>, caps: Caps, bytes: impl Fn(&Item) -> usize) -> Vec<Vec<Item>> {
    let mut out: Vec<Vec<Item>> = Vec::new();
    let mut size = 0;
    for item in items {
        let b = bytes(&item);
        let full = out.last().is_none_or(|last| {
            last.len() >= caps.requests || (size + b > caps.bytes && !last.is_empty())
        });
        if full {
            out.push(Vec::new());
            size = 0;
        }
        size += b;
        out.last_mut().expect("pushed").push(item);
    }
    out
}

/// A JSON number that may arrive as a string (int64 in proto JSON), else 0.
pub(crate) fn count(v: Option<&Value>) -> u64 {
    match v {
        Some(Value::Number(n)) => n.as_u64().unwrap_or(0),
        Some(Value::String(s)) => s.parse().unwrap_or(0),
        _ => 0,
    }
}

/// JSONL text as values, one per non-empty line; a bad line is an error naming it.
pub(crate) fn jsonl(text: &str, what: &str) -> Result<Vec<Value>, ProviderError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| ProviderError::BadBody {
                message: format!("{what} line {}: not JSON ({e})", i + 1),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(n: usize) -> Item {
        Item {
            custom_id: format!("c{n}"),
            body: Value::String("x".repeat(n)),
        }
    }

    #[test]
    fn chunks_respect_both_caps() {
        let caps = Caps {
            requests: 3,
            bytes: 100,
        };
        let items: Vec<Item> = (0..7).map(|_| item(10)).collect();
        let sizes: Vec<usize> = chunks(items, caps, |_| 10).iter().map(Vec::len).collect();
        assert_eq!(sizes, vec![3, 3, 1]);
        let items: Vec<Item> = (0..5).map(|_| item(10)).collect();
        let sizes: Vec<usize> = chunks(items, caps, |_| 40).iter().map(Vec::len).collect();
        assert_eq!(sizes, vec![2, 2, 1]);
        // One item larger than the byte cap still goes, alone.
        let sizes: Vec<usize> = chunks(vec![item(1), item(2)], caps, |_| 500)
            .iter()
            .map(Vec::len)
            .collect();
        assert_eq!(sizes, vec![1, 1]);
        assert!(chunks(Vec::new(), caps, |_| 1).is_empty());
    }

    #[test]
    fn results_without_keys_are_matched_by_position_only_when_it_is_safe() {
        let order: Vec<String> = ["a", "b", "c"].map(String::from).into();
        let k = |s: &str| Some(s.to_string());
        // Keys in any order are matched by key.
        let m = match_results(vec![(k("c"), 3), (k("a"), 1), (k("b"), 2)], &order);
        assert_eq!(
            m.by_key,
            vec![("c".into(), 3), ("a".into(), 1), ("b".into(), 2)]
        );
        assert!(m.by_order.is_empty());
        // No key at all: position, as submitted.
        let m = match_results(vec![(None, 1), (None, 2), (None, 3)], &order);
        assert_eq!(
            m.by_order,
            vec![("a".into(), 1), ("b".into(), 2), ("c".into(), 3)]
        );
        // One key missing among keys that confirm the order.
        let m = match_results(vec![(k("a"), 1), (None, 2), (k("c"), 3)], &order);
        assert_eq!(m.by_order, vec![("b".into(), 2)]);
        assert_eq!(m.by_key.len(), 2);
        // Keys out of place or a result short: position is not trusted.
        let m = match_results(vec![(k("b"), 2), (None, 1), (k("c"), 3)], &order);
        assert_eq!((m.by_key.len(), m.by_order.len(), m.unmatched), (2, 0, 1));
        let m = match_results(vec![(None, 1), (k("c"), 3)], &order);
        assert_eq!((m.by_key.len(), m.by_order.len(), m.unmatched), (1, 0, 1));
    }

    #[test]
    fn counts_read_numbers_and_strings() {
        assert_eq!(count(Some(&serde_json::json!(7))), 7);
        assert_eq!(count(Some(&serde_json::json!("12"))), 12);
        assert_eq!(count(None), 0);
    }
}
