//! A model as a run uses it: its provider with its settings, and what its requests leave out.

use super::plan::Plan;
use crate::providers::{ModelConfig, Provider};

/// A provider with the settings it runs under.
pub struct Model {
    /// The provider.
    pub provider: Box<dyn Provider>,
    /// Its settings (limits, price).
    pub config: ModelConfig,
}

/// Why `provider` leaves out the structured-output mode `mode` (the suite's name for it, as
/// its scorer and [`Suite::structured_mode`](crate::suites::Suite::structured_mode) give it):
/// `provider:model: mode: why`, or `None` when it serves it.
pub fn unserved(provider: &dyn Provider, mode: &str) -> Option<String> {
    provider
        .structured_output()
        .err()
        .map(|why| format!("{}:{}: {mode}: {why}", provider.name(), provider.model()))
}

/// What each model's requests leave out or change, and why, once per model (`bench run` and
/// its `--dry-run` print them before any call); and a key that is not set, which only a dry
/// run gets this far with (a real run's preflight refuses it first).
pub fn model_notes(models: &[Model], plan: &Plan) -> Vec<String> {
    models
        .iter()
        .flat_map(|m| {
            let key = m.provider.ready().err().map(|e| {
                format!("{e}: the dry run needs no key; a real run refuses to start without it")
            });
            crate::providers::capabilities::notes(&m.config, plan.suite.own_call_settings())
                .into_iter()
                .chain(key)
                .map(|n| format!("note: {}: {n}", m.config.spec()))
        })
        .collect()
}
