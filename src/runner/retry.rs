//! One call with retries: exponential backoff with full jitter (`backon`), the server's own
//! wait when it names one, and no retry for errors another attempt cannot fix. A server that
//! cannot be reached before it has answered once gets a few tries, not the whole policy.

use super::limits::Limits;
use crate::providers::{Provider, ProviderError, Request, Response};
use backon::{ExponentialBuilder, Retryable};
use rand::Rng;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;

/// How persistent to be.
#[derive(Debug, Clone, Copy)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: usize,
    /// First backoff step (before jitter).
    pub base: Duration,
    /// Largest backoff step.
    pub max_delay: Duration,
    /// Longest server-named wait we accept; a longer one (a daily quota) fails the call.
    pub max_wait: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_retries: 6,
            base: Duration::from_secs(1),
            max_delay: Duration::from_secs(60),
            max_wait: Duration::from_secs(300),
        }
    }
}

/// Attempts per call at a provider that has not answered yet and cannot be reached (refused,
/// no such host, TLS failure): a server that is not there does not appear within the minutes
/// the full policy would wait, on each of the plan's calls.
pub const UNREACHABLE_TRIES: u32 = 3;

/// What the attempts came to.
pub struct Attempted {
    /// The last outcome.
    pub result: Result<Response, ProviderError>,
    /// Attempts made.
    pub attempts: u32,
}

/// Sends `req`, retrying as the policy allows; every attempt is paced by `limits`. `answered`
/// is the provider's: set once any attempt gets an answer from the server; while it is unset,
/// an unreachable server is tried [`UNREACHABLE_TRIES`] times at most.
pub async fn send(
    p: &dyn Provider,
    limits: &Limits,
    req: &Request<'_>,
    tokens: u32,
    policy: &RetryPolicy,
    answered: &AtomicBool,
    cancelled: &(dyn Fn() -> bool + Sync),
) -> Attempted {
    let attempts = AtomicU32::new(0);
    let backoff = ExponentialBuilder::default()
        .with_min_delay(policy.base)
        .with_max_delay(policy.max_delay)
        .with_max_times(policy.max_retries);
    let result = (|| async {
        if !limits.pace(tokens, cancelled).await {
            return Err(ProviderError::Cancelled);
        }
        attempts.fetch_add(1, Ordering::Relaxed);
        let r = p.complete(req).await;
        if r.as_ref().map_or_else(ProviderError::answered, |_| true) {
            answered.store(true, Ordering::Relaxed);
        }
        match &r {
            Ok(_) => limits.succeeded(),
            // A wait longer than we accept fails the call; it must not pause the provider.
            Err(e) if e.throttled() => {
                limits.throttled(e.retry_after().filter(|w| *w <= policy.max_wait))
            }
            Err(_) => {}
        }
        r
    })
    .retry(backoff)
    .sleep(tokio::time::sleep)
    .when(|e| {
        e.retryable()
            && !(e.unreachable()
                && !answered.load(Ordering::Relaxed)
                && attempts.load(Ordering::Relaxed) >= UNREACHABLE_TRIES)
    })
    .adjust(|e, next| {
        let step = next?;
        // Full jitter: uniform in [0, step].
        let jittered = step.mul_f64(rand::rng().random::<f64>());
        match e.retry_after() {
            Some(wait) if wait > policy.max_wait => None,
            // On 429 the server's wait is the right one; after a 5xx it is a floor, never a
            // reason to retry sooner than backoff would.
            Some(wait) if e.throttled() => Some(wait),
            Some(wait) => Some(wait.max(jittered)),
            None => Some(jittered),
        }
    })
    .await;
    Attempted {
        result,
        attempts: attempts.load(Ordering::Relaxed),
    }
}
