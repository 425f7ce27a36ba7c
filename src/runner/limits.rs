//! Per-provider limits: an adaptive concurrency cap (halved on 429, raised by one after a
//! full window of successes), a provider-wide pause when the server names a wait, and RPM / TPM
//! pacing with `governor`.

use governor::{DefaultDirectRateLimiter, Quota};
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::{Semaphore, SemaphorePermit};

/// Share of `--rpm` actually used.
const RPM_HEADROOM: f64 = 0.98;

/// Window in which several 429s count as one signal, so a burst does not collapse the cap.
const CUT_COOLDOWN: Duration = Duration::from_secs(2);

struct State {
    limit: usize,
    /// Permits to retire as they come back, after a cut.
    debt: usize,
    successes: usize,
    last_cut: Option<Instant>,
    paused_until: Option<Instant>,
}

/// The limits of one provider.
pub struct Limits {
    sem: Semaphore,
    max: usize,
    state: Mutex<State>,
    rpm: Option<DefaultDirectRateLimiter>,
    tpm: Option<(DefaultDirectRateLimiter, u32)>,
    throttled: AtomicU64,
}

/// A concurrency slot; returned (or retired, after a cut) on drop.
pub struct Slot<'a> {
    limits: &'a Limits,
    permit: Option<SemaphorePermit<'a>>,
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        let mut st = self.limits.state.lock().expect("limits lock");
        if st.debt > 0 {
            st.debt -= 1;
            if let Some(p) = self.permit.take() {
                p.forget();
            }
        }
    }
}

/// Runs `f` unless `cancelled()` turns true first (polled every 250 ms).
async fn cancellable<F: std::future::Future>(
    f: F,
    cancelled: &(dyn Fn() -> bool + Sync),
) -> Option<F::Output> {
    tokio::pin!(f);
    loop {
        tokio::select! {
            out = &mut f => return Some(out),
            _ = tokio::time::sleep(Duration::from_millis(250)) => {
                if cancelled() {
                    return None;
                }
            }
        }
    }
}

/// Why a TPM limit cannot work.
#[derive(Debug, thiserror::Error)]
#[error("--tpm {tpm} is below one call's estimate of {need} tokens (prompt + max output)")]
pub struct TpmTooLow {
    /// The limit.
    pub tpm: u32,
    /// The largest single call.
    pub need: u32,
}

impl Limits {
    /// Limits with `concurrency` slots, optional requests and tokens per minute; `largest`
    /// is the biggest single-call token estimate (the TPM bucket must hold it).
    pub fn new(
        concurrency: usize,
        rpm: Option<u32>,
        tpm: Option<u32>,
        largest: u32,
    ) -> Result<Self, TpmTooLow> {
        let max = concurrency.max(1);
        // Pace evenly, with a bucket of one second's worth so no minute sees a double burst,
        // and 2 % under the limit: at exactly the server's rate, any jitter in arrival times
        // would find its bucket empty and cost a 429.
        let rpm = rpm.and_then(NonZeroU32::new).map(|r| {
            let paced = NonZeroU32::new(((f64::from(r.get()) * RPM_HEADROOM) as u32).max(1))
                .expect("non-zero");
            let burst = NonZeroU32::new((paced.get() / 60).max(1)).expect("non-zero");
            DefaultDirectRateLimiter::direct(Quota::per_minute(paced).allow_burst(burst))
        });
        let tpm = match tpm.and_then(NonZeroU32::new) {
            None => None,
            Some(t) if t.get() < largest => {
                return Err(TpmTooLow {
                    tpm: t.get(),
                    need: largest,
                });
            }
            Some(t) => {
                let burst = NonZeroU32::new((t.get() / 60).max(largest).max(1)).expect("non-zero");
                Some((
                    DefaultDirectRateLimiter::direct(Quota::per_minute(t).allow_burst(burst)),
                    burst.get(),
                ))
            }
        };
        Ok(Self {
            sem: Semaphore::new(max),
            max,
            state: Mutex::new(State {
                limit: max,
                debt: 0,
                successes: 0,
                last_cut: None,
                paused_until: None,
            }),
            rpm,
            tpm,
            throttled: AtomicU64::new(0),
        })
    }

    /// Waits for a concurrency slot.
    pub async fn slot(&self) -> Slot<'_> {
        let permit = self.sem.acquire().await.expect("semaphore never closes");
        Slot {
            limits: self,
            permit: Some(permit),
        }
    }

    /// Waits until one attempt of `tokens` estimated tokens may be sent: the pause a server
    /// asked for, then RPM, then TPM. Returns false, without waiting further, once
    /// `cancelled()` holds (Ctrl-C, budget), checked at least every 250 ms.
    pub async fn pace(&self, tokens: u32, cancelled: &(dyn Fn() -> bool + Sync)) -> bool {
        loop {
            let until = self.state.lock().expect("limits lock").paused_until;
            match until {
                Some(t) if t > Instant::now() => {
                    let sleep = tokio::time::sleep_until(t.into());
                    if cancellable(sleep, cancelled).await.is_none() {
                        return false;
                    }
                }
                _ => break,
            }
        }
        if let Some(r) = &self.rpm
            && cancellable(r.until_ready(), cancelled).await.is_none()
        {
            return false;
        }
        if let Some((t, burst)) = &self.tpm {
            let n = NonZeroU32::new(tokens.clamp(1, *burst)).expect("non-zero");
            // Cannot fail: n is at most the burst.
            if cancellable(t.until_n_ready(n), cancelled).await.is_none() {
                return false;
            }
        }
        !cancelled()
    }

    /// A 429: cut the cap in half (once per cool-down) and pause everyone for `wait` (the
    /// caller passes only waits it will honor).
    pub fn throttled(&self, wait: Option<Duration>) {
        self.throttled.fetch_add(1, Ordering::Relaxed);
        let mut st = self.state.lock().expect("limits lock");
        let now = Instant::now();
        if let Some(w) = wait {
            let until = now + w;
            st.paused_until = Some(st.paused_until.map_or(until, |p| p.max(until)));
        }
        st.successes = 0;
        if st.limit > 1 && st.last_cut.is_none_or(|t| now - t >= CUT_COOLDOWN) {
            let cut = st.limit - st.limit / 2;
            st.limit -= cut;
            st.debt += cut;
            st.last_cut = Some(now);
        }
    }

    /// A success: after `limit` successes in a row, raise the cap by one (up to the maximum).
    pub fn succeeded(&self) {
        let mut st = self.state.lock().expect("limits lock");
        st.successes += 1;
        if st.limit < self.max && st.successes >= st.limit {
            st.successes = 0;
            st.limit += 1;
            if st.debt > 0 {
                st.debt -= 1;
            } else {
                self.sem.add_permits(1);
            }
        }
    }

    /// The current concurrency cap.
    pub fn limit(&self) -> usize {
        self.state.lock().expect("limits lock").limit
    }

    /// 429 answers seen.
    pub fn throttle_count(&self) -> u64 {
        self.throttled.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn cap_halves_on_429_and_recovers() {
        let l = Limits::new(8, None, None, 1).unwrap();
        let slots: Vec<_> = futures_lite_take(&l, 8).await;
        l.throttled(None);
        assert_eq!(l.limit(), 4);
        drop(slots);
        // Four permits were retired as they came back: only four can be held now.
        let held: Vec<_> = futures_lite_take(&l, 4).await;
        assert!(l.sem.try_acquire().is_err());
        drop(held);
        for _ in 0..4 {
            l.succeeded();
        }
        assert_eq!(l.limit(), 5);
        let held: Vec<_> = futures_lite_take(&l, 5).await;
        assert!(l.sem.try_acquire().is_err());
        drop(held);
        // A second 429 within the cool-down does not cut again.
        l.throttled(None);
        assert_eq!(l.limit(), 5);
        assert_eq!(l.throttle_count(), 2);
    }

    async fn futures_lite_take(l: &Limits, n: usize) -> Vec<Slot<'_>> {
        let mut v = Vec::new();
        for _ in 0..n {
            v.push(l.slot().await);
        }
        v
    }

    #[test]
    fn tpm_must_hold_one_call() {
        assert!(Limits::new(1, None, Some(1000), 5000).is_err());
        assert!(Limits::new(1, None, Some(100_000), 5000).is_ok());
    }

    #[tokio::test]
    async fn pause_holds_attempts() {
        let l = Limits::new(1, None, None, 1).unwrap();
        l.throttled(Some(Duration::from_millis(150)));
        let t = Instant::now();
        assert!(l.pace(1, &|| false).await);
        assert!(
            t.elapsed() >= Duration::from_millis(140),
            "{:?}",
            t.elapsed()
        );
    }
}
