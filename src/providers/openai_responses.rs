//! OpenAI Responses API (`POST {base}/responses`), with reasoning effort.

use super::http::{Endpoint, Secret, join};
use super::{ModelConfig, Provider, ProviderError, Request, Response, Usage, missing_key, u64_at};
use crate::UsageError;
use serde_json::{Value, json};
use std::time::Duration;

/// A model behind the Responses API.
pub struct OpenAiResponses {
    cfg: ModelConfig,
    endpoint: Endpoint,
    has_key: bool,
    key_env: Option<String>,
}

impl OpenAiResponses {
    /// Binds `cfg.model` at `base`.
    pub fn new(
        cfg: &ModelConfig,
        base: &str,
        key: Option<Secret>,
        key_env: Option<String>,
    ) -> Result<Self, UsageError> {
        let timeout = Duration::from_secs_f64(cfg.timeout_secs.unwrap_or(600.0).max(0.001));
        let has_key = key.is_some();
        let endpoint = Endpoint::new(join(base, "/responses"), timeout)
            .map_err(|e| UsageError::new(e.to_string()))?
            .auth("authorization", "Bearer ", key);
        Ok(Self {
            cfg: cfg.clone(),
            endpoint,
            has_key,
            key_env,
        })
    }

    fn body(&self, req: &Request) -> Value {
        let input: Vec<Value> = req
            .messages
            .iter()
            .map(|m| json!({"role": m.role, "content": m.content}))
            .collect();
        let mut body = json!({
            "model": self.cfg.model,
            "input": input,
            "max_output_tokens": self.cfg.max_tokens(),
            "store": false,
        });
        if let Some(t) = self.cfg.temperature {
            body["temperature"] = json!(t);
        }
        if let Some(e) = &self.cfg.reasoning_effort {
            body["reasoning"] = json!({"effort": e});
        }
        body
    }
}

/// The text of every `output_text` part of every `message` item, and the usage.
fn parse(body: &Value) -> Result<(String, Usage), ProviderError> {
    let items = body
        .get("output")
        .and_then(Value::as_array)
        .ok_or_else(|| ProviderError::BadBody {
            message: "no `output` array in the reply".into(),
        })?;
    let output: String = items
        .iter()
        .filter(|i| i.get("type").and_then(Value::as_str) == Some("message"))
        .filter_map(|i| i.get("content").and_then(Value::as_array))
        .flatten()
        .filter(|c| c.get("type").and_then(Value::as_str) == Some("output_text"))
        .filter_map(|c| c.get("text").and_then(Value::as_str))
        .collect();
    let u = body.get("usage").unwrap_or(&Value::Null);
    let usage = Usage {
        input: u64_at(u, &["input_tokens"]),
        output: u64_at(u, &["output_tokens"]),
        reasoning: u64_at(u, &["output_tokens_details", "reasoning_tokens"]),
        cache_read: u64_at(u, &["input_tokens_details", "cached_tokens"]),
        cache_write: 0,
    };
    Ok((output, usage))
}

#[async_trait::async_trait]
impl Provider for OpenAiResponses {
    fn name(&self) -> &str {
        "openai-responses"
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
