//! The `Provider` trait: one wire API bound to one model, as the runner, the batch path and
//! the token counters see it.

use super::batch;
use super::served::Served;
use super::{ProviderError, Request, Response};
use serde_json::Value;

/// One wire API bound to one model.
#[async_trait::async_trait]
pub trait Provider: Send + Sync {
    /// Provider name (`reference`, `anthropic`, …).
    fn name(&self) -> &str;
    /// Model id.
    fn model(&self) -> &str;
    /// Model parameters recorded with every result.
    fn params(&self) -> Value;
    /// Endpoint URL recorded with every result, without secrets.
    fn url(&self) -> Option<String>;
    /// Whether the provider caches prompts, so a warm-up call pays off.
    fn caches_prompts(&self) -> bool;
    /// The provider's batch API (half price, answers within a day), if it has one.
    fn batch(&self) -> Option<&dyn batch::BatchApi> {
        None
    }
    /// Why a call cannot be made at all (a missing key), checked before a run starts.
    fn ready(&self) -> Result<(), ProviderError> {
        Ok(())
    }
    /// The exact JSON body `complete` would send for `req` (`--show-requests`); None for the
    /// offline reference, which sends nothing.
    fn preview(&self, _req: &Request<'_>) -> Option<Value> {
        None
    }
    /// Sends one request.
    /// Whether it can constrain a reply to a JSON Schema (`Request::schema`), or why not.
    fn structured_output(&self) -> Result<(), String> {
        Err("bench sends no structured-output request to this provider".into())
    }
    async fn complete(&self, req: &Request<'_>) -> Result<Response, ProviderError>;
    /// What its token counts rest on (`anthropic count_tokens`, `o200k_base, offline`), or
    /// why it has no counter.
    fn counter(&self) -> Result<String, String> {
        Err(format!("{} has no token counter", self.name()))
    }
    /// The prompt tokens of `req` as the provider counts (and bills) them, without generating
    /// anything.
    async fn count_tokens(&self, _req: &Request<'_>) -> Result<u64, ProviderError> {
        Err(ProviderError::BadPrompt(
            self.counter().err().unwrap_or_default(),
        ))
    }
    /// The context window the model's own server reports, and where it says so (a llama.cpp
    /// or vLLM server); None for the hosted APIs, whose windows are in `windows.rs`.
    async fn served_window(&self) -> Option<Served> {
        None
    }
}
