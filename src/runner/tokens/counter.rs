//! Data tokens as the provider bills them: a rendering's first prompt counted by the provider's
//! own counter ([`Provider::count_tokens`]) as it is sent, and again with the rendering taken
//! out; the difference is the data's share, in the model's own tokens. Counts are cached by
//! content hash and model (`<cache>/token-counts`), paced by the model's `rpm`, and retried as
//! the server asks; a key never reaches the cache, a message or the log.

use crate::prompt::Message;
use crate::providers::{Provider, ProviderError, Request};
use crate::runner::limits::Limits;
use crate::runner::plan::Combo;
use sha2::{Digest, Sha256};
use std::path::PathBuf;
use std::time::Duration;

/// Attempts per count before it fails.
const TRIES: u32 = 5;

/// One rendering's prompt as the provider counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Share {
    /// The first prompt as sent.
    pub prompt: u64,
    /// The same prompt with the rendering taken out.
    pub without_data: u64,
}

impl Share {
    /// The data's share of the prompt.
    pub fn data(&self) -> u64 {
        self.prompt.saturating_sub(self.without_data)
    }
}

/// Token counts on disk, one small file per counted request.
pub struct CountCache {
    dir: PathBuf,
}

impl CountCache {
    /// `$BENCH_CACHE_DIR/token-counts`, else `<user cache dir>/bench/token-counts`.
    pub fn default_dir() -> Option<PathBuf> {
        match std::env::var_os("BENCH_CACHE_DIR").filter(|v| !v.is_empty()) {
            Some(d) => Some(PathBuf::from(d).join("token-counts")),
            None => dirs::cache_dir().map(|d| d.join("bench").join("token-counts")),
        }
    }

    /// A cache in `dir` (created on first write).
    pub fn new(dir: PathBuf) -> Self {
        Self { dir }
    }

    /// The key of one count: what it rests on, the model and the exact request body.
    fn key(p: &dyn Provider, basis: &str, req: &Request<'_>) -> String {
        let material = serde_json::json!({
            "basis": basis,
            "provider": p.name(),
            "model": p.model(),
            "body": p.preview(req),
            "messages": req.messages,
        });
        let digest = Sha256::digest(material.to_string().as_bytes());
        digest.iter().map(|b| format!("{b:02x}")).collect()
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(&key[..2]).join(format!("{key}.count"))
    }

    fn get(&self, key: &str) -> Option<u64> {
        std::fs::read_to_string(self.path(key))
            .ok()?
            .trim()
            .parse()
            .ok()
    }

    fn put(&self, key: &str, n: u64) {
        let path = self.path(key);
        let parent = path.parent().expect("has a parent");
        let tmp = parent.join(format!(".{key}.{}.tmp", std::process::id()));
        // A cache that cannot be written only costs a count next time.
        let _ = std::fs::create_dir_all(parent)
            .and_then(|()| std::fs::write(&tmp, n.to_string()))
            .and_then(|()| std::fs::rename(&tmp, &path));
    }
}

/// Counts prompts with one provider: paced, retried, cached.
pub struct Counter<'a> {
    provider: &'a dyn Provider,
    basis: String,
    cache: Option<CountCache>,
    limits: Limits,
    /// Counts made in this process, so a prompt asked twice (two wordings' runs, `--no-cache`)
    /// is counted once.
    memo: std::collections::HashMap<String, u64>,
    /// Requests sent to the counter (cache hits excluded).
    pub sent: usize,
    /// Counts read from the cache.
    pub hits: usize,
}

impl<'a> Counter<'a> {
    /// A counter for `provider`, or why it has none; `rpm` paces it.
    pub fn new(
        provider: &'a dyn Provider,
        cache: Option<CountCache>,
        rpm: Option<u32>,
    ) -> Result<Self, String> {
        let basis = provider.counter()?;
        malformed::recalled(provider, &basis)?;
        let limits = Limits::new(1, rpm, None, 0).expect("no TPM limit to fall short of");
        Ok(Self {
            provider,
            basis,
            cache,
            limits,
            memo: Default::default(),
            sent: 0,
            hits: 0,
        })
    }

    /// What the counts rest on (`anthropic count_tokens`).
    pub fn basis(&self) -> &str {
        &self.basis
    }

    /// The prompt tokens of `req` as the provider counts them.
    pub async fn count(&mut self, req: &Request<'_>) -> Result<u64, ProviderError> {
        let key = CountCache::key(self.provider, &self.basis, req);
        if let Some(n) = self.memo.get(&key) {
            return Ok(*n);
        }
        if let Some(n) = self.cache.as_ref().and_then(|c| c.get(&key)) {
            self.memo.insert(key, n);
            self.hits += 1;
            return Ok(n);
        }
        let mut tries = 0;
        let n = loop {
            tries += 1;
            self.limits.pace(0, &|| false).await;
            match self.provider.count_tokens(req).await {
                Ok(n) => break n,
                // A reply of another shape is the counter's answer, not a fault: asked again
                // it answers the same (issue 50: 15 s of retries before every run).
                Err(e @ ProviderError::BadBody { .. }) => {
                    malformed::remember(self.provider, &self.basis, &e);
                    return Err(e);
                }
                Err(e) if e.retryable() && tries < TRIES && !(e.unreachable() && tries >= 2) => {
                    if e.throttled() {
                        self.limits.throttled(e.retry_after());
                    }
                    let backoff = Duration::from_millis(500 << tries.min(6));
                    tokio::time::sleep(e.retry_after().unwrap_or(backoff)).await;
                }
                Err(e) => return Err(e),
            }
        };
        self.sent += 1;
        if let Some(c) = &self.cache {
            c.put(&key, n);
        }
        self.memo.insert(key, n);
        Ok(n)
    }

    /// The data's share of `combo`'s first prompt: counted as sent and without its rendering.
    pub async fn share(&mut self, combo: &Combo) -> Result<Share, String> {
        let unit = combo.units.first().ok_or("the rendering has no prompt")?;
        let text = &combo.rendering.text;
        // A prompt that does not hold the rendering (the write suite's is the document asked
        // for) has it counted alone: one message holding it, less the same message empty.
        let alone = [Message::new("user", text)];
        let (sent, req) = match without(&unit.messages, unit.cache_prefix, text) {
            Some(bare) => (bare, combo.request(unit)),
            None => (
                (vec![Message::new("user", "")], 0),
                Request {
                    messages: &alone,
                    cache_prefix: 0,
                    ..combo.request(unit)
                },
            ),
        };
        let (messages, prefix) = sent;
        let bare = Request {
            messages: &messages,
            cache_prefix: prefix,
            ..combo.request(unit)
        };
        let prompt = self.count(&req).await.map_err(|e| e.to_string())?;
        let without_data = self.count(&bare).await.map_err(|e| e.to_string())?;
        Ok(Share {
            prompt,
            without_data,
        })
    }
}

impl Counter<'_> {
    /// The share of each of `combos`, in order (a rendering asked twice is counted once, by
    /// the memo); the first failure names the rendering and the counter.
    pub async fn shares(&mut self, combos: &[Combo]) -> Result<Vec<Share>, String> {
        let mut out = Vec::with_capacity(combos.len());
        for c in combos {
            let r = &c.rendering;
            out.push(self.share(c).await.map_err(|e| {
                format!(
                    "counting {} {} {} ({} records) with {} failed: {e}",
                    r.format, r.structure, r.variant, c.records, self.basis
                )
            })?);
        }
        Ok(out)
    }
}

/// The counters that answered in another shape in this process: not asked again for the rest
/// of the run (a sweep's steps, recommend's rounds after its candidates were counted).
mod malformed {
    use crate::providers::{Provider, ProviderError};
    use std::collections::HashMap;
    use std::sync::Mutex;

    static SEEN: Mutex<Option<HashMap<String, String>>> = Mutex::new(None);

    fn key(p: &dyn Provider, basis: &str) -> String {
        format!("{}:{}\n{basis}", p.name(), p.model())
    }

    /// Remembers that `p`'s counter at `basis` answered `e`.
    pub fn remember(p: &dyn Provider, basis: &str, e: &ProviderError) {
        let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
        seen.get_or_insert_with(HashMap::new)
            .insert(key(p, basis), e.to_string());
    }

    /// Why `p`'s counter at `basis` is not asked again, when it answered in another shape.
    pub fn recalled(p: &dyn Provider, basis: &str) -> Result<(), String> {
        let seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
        match seen.as_ref().and_then(|s| s.get(&key(p, basis))) {
            Some(why) => Err(format!(
                "{basis} answered in another shape earlier in this run ({why}); not asked again"
            )),
            None => Ok(()),
        }
    }
}

/// `messages` with the first occurrence of `text` taken out, and the data block's length
/// shortened to match when it held it; None when no message holds it (or it is empty).
pub fn without(messages: &[Message], prefix: usize, text: &str) -> Option<(Vec<Message>, usize)> {
    if text.is_empty() {
        return None;
    }
    let mut out = messages.to_vec();
    for (i, m) in out.iter_mut().enumerate() {
        if let Some(at) = m.content.find(text) {
            m.content.replace_range(at..at + text.len(), "");
            let inside = i == 0 && at + text.len() <= prefix;
            return Some((out, if inside { prefix - text.len() } else { prefix }));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(content: &str) -> Message {
        Message {
            role: "user".into(),
            content: content.into(),
        }
    }

    #[test]
    fn the_rendering_is_taken_out_and_the_data_block_shrinks_with_it() {
        let m = [msg("Data:\na,b\n1,2\n\nQ: what?")];
        let (out, prefix) = without(&m, 15, "a,b\n1,2\n").unwrap();
        assert_eq!(out[0].content, "Data:\n\nQ: what?");
        assert_eq!(prefix, 7);
        assert!(without(&m, 15, "absent").is_none());
        assert!(without(&m, 15, "").is_none());
    }

    #[test]
    fn a_share_is_the_difference_never_below_zero() {
        let s = Share {
            prompt: 120,
            without_data: 20,
        };
        assert_eq!(s.data(), 100);
        let odd = Share {
            prompt: 5,
            without_data: 9,
        };
        assert_eq!(odd.data(), 0);
    }
}
