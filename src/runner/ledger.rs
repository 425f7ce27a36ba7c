//! `batches.json` in the run folder: every batch submitted, which sample each of its requests
//! is, and whether its results are in the log. Written before polling starts, so Ctrl-C, a
//! crash or kill -9 followed by `--resume` polls the same batches instead of paying twice.

use super::conversation::Conversation;
use super::plan::SampleKey;
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The file's name in the run folder.
pub const FILE: &str = "batches.json";

/// Every batch of a run.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
pub struct Ledger {
    /// Batches in the order they were submitted.
    pub batches: Vec<Entry>,
    /// The conversations between rounds, by the custom id of their first request: a sample
    /// whose reply is followed up (a repair request) is submitted again with its turns so far,
    /// and is logged once its last round is in.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub conversations: BTreeMap<String, Conversation>,
}

/// One submitted batch.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Entry {
    /// Provider name.
    pub provider: String,
    /// Model id.
    pub model: String,
    /// The batch id the provider gave.
    pub id: String,
    /// When it was submitted (RFC 3339).
    pub submitted_at: String,
    /// The same, in Unix milliseconds.
    pub submitted_ms: u64,
    /// Each request's custom id and the sample it asks for.
    pub requests: BTreeMap<String, SampleKey>,
    /// The custom ids in the order they were submitted: results that come back without their
    /// id are matched by position (empty in ledgers written before it was kept).
    #[serde(default)]
    pub order: Vec<String>,
    /// Whether its results are in the run log.
    #[serde(default)]
    pub collected: bool,
    /// The state the provider last reported.
    #[serde(default)]
    pub state: String,
}

impl Entry {
    /// Whether it belongs to `provider:model`.
    pub fn of(&self, provider: &str, model: &str) -> bool {
        self.provider == provider && self.model == model
    }
}

/// The ledger's path in `dir`.
pub fn path(dir: &Path) -> PathBuf {
    dir.join(FILE)
}

impl Ledger {
    /// Reads `dir/batches.json`; none there is an empty ledger, an unreadable one an error
    /// (dropping it could pay for the same requests twice).
    pub fn load(dir: &Path) -> Result<Self> {
        let p = path(dir);
        match std::fs::read_to_string(&p) {
            Ok(text) => serde_json::from_str(&text).with_context(|| {
                format!(
                    "'{}' is not a readable batch ledger; it names batches that may still be \
                     running at the provider: fix or move it before resuming",
                    p.display()
                )
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Self::default()),
            Err(e) => Err(e).with_context(|| format!("cannot read '{}'", p.display())),
        }
    }

    /// Writes it durably: a temporary file, fsync, rename over the old one.
    pub fn save(&self, dir: &Path) -> Result<()> {
        let p = path(dir);
        let tmp = p.with_extension("json.tmp");
        let mut f = std::fs::File::create(&tmp)
            .with_context(|| format!("cannot write '{}'", tmp.display()))?;
        serde_json::to_writer_pretty(&mut f, self)?;
        f.write_all(b"\n")?;
        f.sync_all()?;
        std::fs::rename(&tmp, &p).with_context(|| format!("cannot replace '{}'", p.display()))?;
        Ok(())
    }

    /// Whether any batch still has results to collect.
    pub fn pending(&self) -> bool {
        self.batches.iter().any(|b| !b.collected)
    }
}

/// The custom id of a sample: a hash of its key, within every provider's rules
/// (`[A-Za-z0-9_-]{1,64}`); the ledger maps it back.
pub fn custom_id(key: &SampleKey) -> String {
    let json = serde_json::to_vec(key).expect("a sample key serializes");
    let digest = Sha256::digest(&json);
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    format!("s{hex}")
}

/// The custom id of a sample's request in `round`: its [`custom_id`] for the first request,
/// with `r<round>` after it for a follow-up (a hex digest has no `r`).
pub fn round_id(key: &SampleKey, round: u32) -> String {
    match round {
        0 => custom_id(key),
        n => format!("{}r{n}", custom_id(key)),
    }
}

/// The round a custom id asks for (0 for the first request).
pub fn round_of(custom_id: &str) -> u32 {
    custom_id
        .split_once('r')
        .and_then(|(_, n)| n.parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::{Structure, Variant};
    use crate::formats::Format;

    fn key(run: u32, question: Option<&str>) -> SampleKey {
        SampleKey {
            provider: "anthropic".into(),
            model: "m".into(),
            format: Format::Csv,
            structure: Structure::Flat,
            variant: Variant::Optional,
            records: 10,
            run,
            question: question.map(str::to_string),
            primer: false,
            task: None,
            mode: None,
        }
    }

    #[test]
    fn custom_ids_are_valid_stable_and_distinct() {
        let a = custom_id(&key(1, None));
        assert_eq!(a, custom_id(&key(1, None)));
        assert_ne!(a, custom_id(&key(2, None)));
        assert_ne!(a, custom_id(&key(1, Some("q1"))));
        assert!(a.len() <= 64 && a.chars().all(|c| c.is_ascii_alphanumeric()));
        assert_eq!(round_id(&key(1, None), 0), a);
        let r2 = round_id(&key(1, None), 2);
        assert_ne!(r2, a);
        assert!(r2.len() <= 64 && r2.chars().all(|c| c.is_ascii_alphanumeric()));
        assert_eq!((round_of(&a), round_of(&r2)), (0, 2));
    }

    #[test]
    fn ledger_round_trips_and_refuses_garbage() {
        let dir = tempfile::tempdir().unwrap();
        assert!(Ledger::load(dir.path()).unwrap().batches.is_empty());
        let mut l = Ledger::default();
        l.batches.push(Entry {
            provider: "anthropic".into(),
            model: "m".into(),
            id: "msgbatch_1".into(),
            submitted_at: "2026-11-23T00:00:00Z".into(),
            submitted_ms: 1,
            requests: [(custom_id(&key(1, None)), key(1, None))].into(),
            order: vec![custom_id(&key(1, None))],
            collected: false,
            state: "in_progress".into(),
        });
        l.save(dir.path()).unwrap();
        let back = Ledger::load(dir.path()).unwrap();
        assert!(back.pending());
        assert_eq!(
            back.batches[0].requests.values().next(),
            Some(&key(1, None))
        );
        std::fs::write(path(dir.path()), "{not json").unwrap();
        let err = format!("{:#}", Ledger::load(dir.path()).unwrap_err());
        assert!(err.contains("batches.json"), "{err}");
    }
}
