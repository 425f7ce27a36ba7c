//! What a run's call tasks share: the log, the artifacts, the results so far, the budget, the
//! stop flag, and each provider's state (limits, price, fatal error, billed counts).

use super::cache::Cache;
use super::limits::Limits;
use super::progress::Observer;
use super::retry::RetryPolicy;
use super::tokens::ranking_basis::Billed;
use super::warnings;
use crate::layout::Writer;
use crate::providers::{Price, Provider};
use crate::runlog::{JsonlWriter, ResultRecord};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Why a run stopped before its plan was done.
#[derive(Debug, Clone, PartialEq)]
pub enum StopReason {
    /// Ctrl-C.
    Interrupted,
    /// `--budget-usd` would have been passed.
    Budget(f64),
}

impl StopReason {
    /// In words, for the summary line's `stop_reason`.
    pub(crate) fn describe(&self) -> String {
        match self {
            StopReason::Interrupted => "interrupted (Ctrl-C or SIGTERM)".into(),
            StopReason::Budget(b) => format!("budget of ${b:.2} reached"),
        }
    }
}

/// Tells a running plan to stop scheduling; in-flight calls finish.
#[derive(Default)]
pub struct Stop {
    flag: AtomicBool,
    reason: Mutex<Option<StopReason>>,
}

impl Stop {
    /// Asks the run to stop; the first reason wins.
    pub fn request(&self, why: StopReason) {
        let mut r = self.reason.lock().expect("stop lock");
        if r.is_none() {
            *r = Some(why);
        }
        self.flag.store(true, Ordering::SeqCst);
    }

    /// Records why the run ends short without stopping it (a batch provider out of budget
    /// stops submitting but keeps polling what it paid for); the first reason wins.
    pub fn note(&self, why: StopReason) {
        let mut r = self.reason.lock().expect("stop lock");
        if r.is_none() {
            *r = Some(why);
        }
    }

    /// Whether a stop was asked for.
    pub fn requested(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }

    /// Why.
    pub fn reason(&self) -> Option<StopReason> {
        self.reason.lock().expect("stop lock").clone()
    }
}

/// Spend so far and the estimate of calls in flight.
pub(crate) struct Budget {
    /// `--budget-usd`.
    pub(crate) limit: Option<f64>,
    state: Mutex<(f64, f64)>,
}

impl Budget {
    /// Nothing spent or booked yet, under `limit`.
    pub(crate) fn new(limit: Option<f64>) -> Self {
        Self {
            limit,
            state: Mutex::new((0.0, 0.0)),
        }
    }

    /// Books `estimate` whatever the limit: for calls already sent (batches of a resumed run).
    pub(crate) fn book(&self, estimate: f64) {
        self.state.lock().expect("budget lock").1 += estimate;
    }

    /// Books `estimate` for a call about to be sent, unless that would pass the limit.
    pub(crate) fn reserve(&self, estimate: f64) -> bool {
        let mut s = self.state.lock().expect("budget lock");
        if let Some(limit) = self.limit
            && s.0 + s.1 + estimate > limit
        {
            return false;
        }
        s.1 += estimate;
        true
    }

    /// Replaces a booked estimate with what the call cost.
    pub(crate) fn settle(&self, estimate: f64, actual: f64) {
        let mut s = self.state.lock().expect("budget lock");
        s.1 = (s.1 - estimate).max(0.0);
        s.0 += actual;
    }
}

/// One provider's state during a run.
pub(crate) struct ProviderRun {
    pub(crate) idx: usize,
    pub(crate) provider: Box<dyn Provider>,
    pub(crate) limits: Limits,
    pub(crate) price: Option<Price>,
    pub(crate) max_tokens: u32,
    pub(crate) warmup: bool,
    pub(crate) fatal: OnceLock<String>,
    /// Its renderings' data tokens as the provider counts them (None: ranked by o200k_base).
    pub(crate) billed: Option<Billed>,
    /// Set once the server answered any attempt: from then on a failed connection is a
    /// transient fault, retried as the policy allows.
    pub(crate) answered: AtomicBool,
}

/// What every call task shares.
pub(crate) struct Shared {
    pub(crate) benchmark_id: String,
    pub(crate) multi_provider: bool,
    pub(crate) log: Mutex<JsonlWriter>,
    pub(crate) artifacts: Mutex<Writer>,
    pub(crate) results: Mutex<Vec<ResultRecord>>,
    pub(crate) cache: Option<Cache>,
    pub(crate) budget: Budget,
    pub(crate) stop: Arc<Stop>,
    pub(crate) observer: Arc<dyn Observer>,
    pub(crate) retry: RetryPolicy,
    pub(crate) signals: warnings::Signals,
    /// The run's folder (named in the way out of a failed write).
    pub(crate) run_dir: PathBuf,
    /// A result line or artifact could not be written: the run stops, nothing more is written.
    pub(crate) write_failed: AtomicBool,
}
