//! The `Provider` trait and one file per wire API. Only the offline `reference` provider exists
//! so far.

mod reference;

use crate::UsageError;
use crate::prompt::Message;
use crate::questions::Question;
pub use reference::Reference;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a provider is asked: the rendered messages; `questions` carries ids and queries for the
/// reference answerer only (real models see just the messages).
pub struct Request<'a> {
    /// Messages as rendered by `prompt`.
    pub messages: &'a [Message],
    /// The questions asked, in prompt order.
    pub questions: &'a [Question],
}

/// Token usage as reported by the provider (the reference provider counts locally with o200k_base).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens.
    pub input: u64,
    /// Completion tokens.
    pub output: u64,
    /// Reasoning tokens (part of or besides output, as the API reports).
    pub reasoning: u64,
    /// Prompt tokens read from the provider's cache.
    pub cache_read: u64,
    /// Prompt tokens written to the provider's cache.
    pub cache_write: u64,
}

/// A provider's answer to one request.
#[derive(Debug, Clone)]
pub struct Response {
    /// Raw text output.
    pub output: String,
    /// Token usage.
    pub usage: Usage,
}

/// A failed call.
#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    /// The prompt could not be understood (reference provider: no data block, decode failure).
    #[error("{0}")]
    BadPrompt(String),
}

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
    /// Sends one request.
    async fn complete(&self, req: &Request<'_>) -> Result<Response, ProviderError>;
}

/// Provider specs `--provider` accepts.
pub const PROVIDER_NAMES: [&str; 1] = ["reference"];

/// Builds a provider from a `--provider` spec.
pub fn from_spec(spec: &str) -> Result<Box<dyn Provider>, UsageError> {
    match spec {
        "reference" => Ok(Box::new(Reference)),
        other => Err(UsageError::new(format!(
            "unknown provider '{other}' (allowed: {})",
            PROVIDER_NAMES.join(", ")
        ))),
    }
}
