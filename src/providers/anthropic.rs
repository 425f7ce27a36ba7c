//! Anthropic Messages API (`POST {base}/v1/messages`): the data block is sent as its own text
//! block with `cache_control`, so every run after the first reads it from the prompt cache.

use super::http::{Endpoint, Secret, join};
use super::{
    ModelConfig, Provider, ProviderError, Request, Response, Usage, missing_key, split_prefix,
    u64_at,
};
use crate::UsageError;
use serde_json::{Value, json};
use std::time::Duration;

/// API version header value.
const VERSION: &str = "2023-06-01";

/// A Claude model behind the Messages API.
pub struct Anthropic {
    cfg: ModelConfig,
    endpoint: Endpoint,
    has_key: bool,
    key_env: Option<String>,
}

impl Anthropic {
    /// Binds `cfg.model` at `base`.
    pub fn new(
        cfg: &ModelConfig,
        base: &str,
        key: Option<Secret>,
        key_env: Option<String>,
    ) -> Result<Self, UsageError> {
        let timeout = Duration::from_secs_f64(cfg.timeout_secs.unwrap_or(600.0).max(0.001));
        let has_key = key.is_some();
        let endpoint = Endpoint::new(join(base, "/v1/messages"), timeout)
            .map_err(|e| UsageError::new(e.to_string()))?
            .header("anthropic-version", VERSION)
            .auth("x-api-key", "", key);
        Ok(Self {
            cfg: cfg.clone(),
            endpoint,
            has_key,
            key_env,
        })
    }

    fn body(&self, req: &Request) -> Value {
        let (data, rest) = split_prefix(req);
        let mut content = Vec::new();
        if !data.is_empty() {
            content.push(
                json!({"type": "text", "text": data, "cache_control": {"type": "ephemeral"}}),
            );
        }
        content.push(json!({"type": "text", "text": rest}));
        let mut body = json!({
            "model": self.cfg.model,
            "max_tokens": self.cfg.max_tokens(),
            "messages": [{"role": "user", "content": content}],
        });
        if let Some(budget) = self.cfg.thinking_budget {
            // Extended thinking requires the default temperature.
            body["thinking"] = json!({"type": "enabled", "budget_tokens": budget});
        } else if let Some(t) = self.cfg.temperature {
            body["temperature"] = json!(t);
        }
        body
    }
}

/// Text blocks joined (thinking blocks are not the answer) and usage, from a Messages reply.
fn parse(body: &Value) -> Result<(String, Usage), ProviderError> {
    let blocks = body
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| ProviderError::BadBody {
            message: "no `content` array in the reply".into(),
        })?;
    let output: String = blocks
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect();
    let u = body.get("usage").unwrap_or(&Value::Null);
    let cache_read = u64_at(u, &["cache_read_input_tokens"]);
    let cache_write = u64_at(u, &["cache_creation_input_tokens"]);
    // `input_tokens` excludes cache reads and writes; ours counts every prompt token.
    let usage = Usage {
        input: u64_at(u, &["input_tokens"]) + cache_read + cache_write,
        output: u64_at(u, &["output_tokens"]),
        reasoning: 0,
        cache_read,
        cache_write,
    };
    Ok((output, usage))
}

#[async_trait::async_trait]
impl Provider for Anthropic {
    fn name(&self) -> &str {
        "anthropic"
    }

    fn model(&self) -> &str {
        &self.cfg.model
    }

    fn params(&self) -> Value {
        self.cfg.params()
    }

    fn url(&self) -> Option<String> {
        Some(self.endpoint.public_url())
    }

    fn caches_prompts(&self) -> bool {
        true
    }

    fn ready(&self) -> Result<(), ProviderError> {
        if self.has_key {
            Ok(())
        } else {
            Err(missing_key(&self.key_env))
        }
    }

    async fn complete(&self, req: &Request<'_>) -> Result<Response, ProviderError> {
        self.ready()?;
        let reply = self.endpoint.post(&self.body(req)).await?;
        let (output, usage) = parse(&reply.body)?;
        Ok(Response {
            output,
            usage,
            status: Some(reply.status),
            request_id: reply.request_id,
        })
    }
}
