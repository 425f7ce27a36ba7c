//! The token basis of each model in a run, one rule for every suite: before the first call,
//! every rendering's data tokens as the model's provider counts them (`billed`), which the
//! result lines carry and the rankings use; or, for a provider without a counter or whose counting failed, one line that
//! says why its ranking rests on o200k_base. The offline reference ranks by o200k_base without
//! a word: that is what it is for.

use super::counter::{CountCache, Counter};
use crate::runlog::Metadata;
use crate::runner::cache::Cache;
use crate::runner::model::Model;
use crate::runner::plan::{Combo, Matrix};
use crate::runner::progress::Observer;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Where the counts of a run with the response cache `responses` are kept: with the default
/// response cache, [`CountCache::default_dir`] (shared with `bench tokens --provider`); with
/// another, a `token-counts` folder inside it; none without a response cache (`--no-cache`, and
/// library callers, whose runs write nothing outside their output root).
pub fn counts_dir(responses: Option<&Path>) -> Option<PathBuf> {
    let responses = responses?;
    if Some(responses) == Cache::default_dir().as_deref() {
        CountCache::default_dir()
    } else {
        Some(responses.join("token-counts"))
    }
}

/// The offline vocabulary rankings fall back to.
pub const FALLBACK: &str = "o200k_base";

/// One model's data tokens per rendering, as its provider counts them.
#[derive(Debug, Clone, Default)]
pub struct Billed {
    /// What the counts rest on (`anthropic count_tokens`).
    pub basis: String,
    /// Data tokens by the sha256 of the rendering's text.
    data: HashMap<[u8; 32], u64>,
}

impl Billed {
    /// The data tokens of the rendering `text`, when it was counted.
    pub fn of(&self, text: &str) -> Option<u64> {
        self.data.get(&key(text)).copied()
    }
}

fn key(text: &str) -> [u8; 32] {
    Sha256::digest(text.as_bytes()).into()
}

/// What one model's ranking rests on.
pub enum Basis {
    /// Its provider counted every rendering.
    Counted(Billed),
    /// o200k_base, and why.
    Fallback(String),
    /// The offline reference: o200k_base, as always.
    Offline,
}

impl Basis {
    /// The counts, when the provider made them.
    pub fn billed(self) -> Option<Billed> {
        match self {
            Basis::Counted(b) => Some(b),
            _ => None,
        }
    }

    /// As the metadata line records it (`providers[].token_basis`).
    pub fn recorded(&self) -> Option<Value> {
        match self {
            Basis::Counted(b) => Some(json!({"basis": b.basis})),
            Basis::Fallback(why) => Some(json!({"fallback": FALLBACK, "reason": why})),
            Basis::Offline => None,
        }
    }
}

/// Each model's basis in a run of `plan`, by one rule for every suite: counted (`count`), with
/// the counts kept beside the response cache (`counts_dir`), else o200k_base with one line
/// saying why; the offline reference by o200k_base.
pub async fn of_plan(
    models: &[Model],
    matrix: &Matrix,
    cache: Option<&Cache>,
    observer: &dyn Observer,
) -> Vec<Basis> {
    let counts = counts_dir(cache.map(Cache::dir));
    count(models, &matrix.combos, counts.as_deref(), observer).await
}

/// Each model's token basis on its metadata entry (`bases` in the order of the providers).
pub fn record(meta: &mut Metadata, bases: &[Basis]) {
    for (p, b) in meta.providers.iter_mut().zip(bases) {
        p.token_basis = b.recorded();
    }
}

/// Each model's basis, counting every distinct rendering of `combos` once per model, with one
/// line on stderr per model: what was counted, or why its ranking falls back to o200k_base.
/// `counts`: the folder counts are kept in and read from (None: not kept).
pub async fn count(
    models: &[Model],
    combos: &[Combo],
    counts: Option<&Path>,
    observer: &dyn Observer,
) -> Vec<Basis> {
    let mut out = Vec::new();
    for m in models {
        let p = m.provider.as_ref();
        if p.name() == "reference" {
            out.push(Basis::Offline);
            continue;
        }
        let spec = format!("{}:{}", p.name(), p.model());
        let basis = match counted(m, combos, counts).await {
            Ok((billed, renderings, sent, hits)) => {
                observer.notice(&format!(
                    "{spec}: data tokens as {} counts them: {renderings} renderings, {} counts \
                     ({hits} from cache)",
                    billed.basis,
                    sent + hits
                ));
                Basis::Counted(billed)
            }
            Err(why) => {
                observer.notice(&format!(
                    "warning: {spec}: its rankings rest on {FALLBACK}, not on the tokens it bills: {why}"
                ));
                Basis::Fallback(why)
            }
        };
        out.push(basis);
    }
    out
}

/// The data tokens of every distinct rendering as `m`'s provider counts them, the renderings
/// counted, counts sent and read from the cache; or why they could not all be counted.
async fn counted(
    m: &Model,
    combos: &[Combo],
    counts: Option<&Path>,
) -> Result<(Billed, usize, usize, usize), String> {
    let cache = counts.map(|d| CountCache::new(d.to_path_buf()));
    let mut counter = Counter::new(m.provider.as_ref(), cache, m.config.rpm)?;
    let mut billed = Billed {
        basis: counter.basis().to_string(),
        data: HashMap::new(),
    };
    for (c, share) in combos.iter().zip(counter.shares(combos).await?) {
        billed.data.insert(key(&c.rendering.text), share.data());
    }
    let n = billed.data.len();
    Ok((billed, n, counter.sent, counter.hits))
}
