//! Content-addressed response cache: the key hashes provider, model, parameters, endpoint,
//! messages and run index, so re-running a benchmark spends nothing twice while run 2 is never
//! a hit of run 1. Entries hold the response only; keys and headers are never part of it.

use crate::prompt::Message;
use crate::providers::{Provider, Response};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// A cache folder.
pub struct Cache {
    dir: PathBuf,
}

impl Cache {
    /// `BENCH_CACHE_DIR`, else `<user cache dir>/bench/responses`.
    pub fn default_dir() -> Option<PathBuf> {
        std::env::var_os("BENCH_CACHE_DIR")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| dirs::cache_dir().map(|d| d.join("bench").join("responses")))
    }

    /// A cache in `dir` (created on first write).
    pub fn new(dir: PathBuf) -> Self {
        Self { dir }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The key of one call; a structured-output `schema` is part of it (keys of calls
    /// without one are unchanged).
    pub fn key(
        p: &dyn Provider,
        messages: &[Message],
        run: u32,
        schema: Option<&serde_json::Value>,
    ) -> String {
        let mut material = serde_json::json!({
            "provider": p.name(),
            "model": p.model(),
            "params": p.params(),
            "url": p.url(),
            "messages": messages,
            "run": run,
        });
        if let Some(s) = schema {
            material["response_schema"] = s.clone();
        }
        let digest = Sha256::digest(material.to_string().as_bytes());
        digest.iter().map(|b| format!("{b:02x}")).collect()
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(&key[..2]).join(format!("{key}.json"))
    }

    /// The cached response, if any (an unreadable entry counts as a miss).
    pub fn get(&self, key: &str) -> Option<Response> {
        let text = std::fs::read_to_string(self.path(key)).ok()?;
        serde_json::from_str(&text).ok()
    }

    /// Stores a response; written to a temporary file and renamed, so readers never see half.
    pub fn put(&self, key: &str, resp: &Response) -> std::io::Result<()> {
        let path = self.path(key);
        let parent = path.parent().expect("has a parent");
        std::fs::create_dir_all(parent)?;
        let tmp = parent.join(format!(".{key}.{}.tmp", std::process::id()));
        std::fs::write(&tmp, serde_json::to_vec(resp)?)?;
        std::fs::rename(tmp, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::Finish;

    #[test]
    fn entries_round_trip_and_old_entries_without_finish_still_load() {
        let tmp = tempfile::tempdir().unwrap();
        let cache = Cache::new(tmp.path().to_path_buf());
        let key = "ab".repeat(32);
        let resp = Response {
            output: "{}".into(),
            finish: Some(Finish::Length),
            finish_reason: Some("max_tokens".into()),
            ..Response::default()
        };
        cache.put(&key, &resp).unwrap();
        let back = cache.get(&key).unwrap();
        assert_eq!(back.finish, Some(Finish::Length));
        assert_eq!(back.finish_reason.as_deref(), Some("max_tokens"));
        // Written before the finish reason was recorded.
        let old = r#"{"output":"{}","usage":{"input":1,"output":2,"reasoning":0,"cache_read":0,"cache_write":0},"status":200,"request_id":null}"#;
        std::fs::write(cache.path(&key), old).unwrap();
        let back = cache.get(&key).expect("an old entry is still a hit");
        assert_eq!((back.finish, back.usage.output), (None, 2));
    }
}
