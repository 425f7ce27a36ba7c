//! OpenAI Chat Completions (`POST {base}/chat/completions`), also the wire API of every
//! OpenAI-compatible server: Ollama, vLLM, llama.cpp, OpenRouter.

use super::http::{Endpoint, Secret, join};
use super::{ModelConfig, Provider, ProviderError, Request, Response, Usage, Wire, u64_at};
use crate::UsageError;
use serde_json::{Value, json};
use std::time::Duration;

/// A model behind a Chat Completions endpoint.
pub struct OpenAi {
    cfg: ModelConfig,
    wire: Wire,
    endpoint: Endpoint,
    key_missing: Option<String>,
}

impl OpenAi {
    /// Binds `cfg.model` at `base`; only `openai` itself requires a key.
    pub fn new(
        cfg: &ModelConfig,
        wire: Wire,
        base: &str,
        key: Option<Secret>,
        key_env: Option<String>,
    ) -> Result<Self, UsageError> {
        let timeout = Duration::from_secs_f64(cfg.timeout_secs.unwrap_or(600.0).max(0.001));
        let key_missing = (wire == Wire::OpenAi && key.is_none())
            .then(|| key_env.unwrap_or_else(|| "OPENAI_API_KEY".into()));
        let endpoint = Endpoint::new(join(base, "/chat/completions"), timeout)
            .map_err(|e| UsageError::new(e.to_string()))?
            .auth("authorization", "Bearer ", key);
        Ok(Self {
            cfg: cfg.clone(),
            wire,
            endpoint,
            key_missing,
        })
    }

    fn body(&self, req: &Request) -> Value {
        let messages: Vec<Value> = req
            .messages
            .iter()
            .map(|m| json!({"role": m.role, "content": m.content}))
            .collect();
        let mut body = json!({"model": self.cfg.model, "messages": messages});
        // OpenAI's reasoning models reject `max_tokens`; compatible servers often only know it.
        let cap = if self.wire == Wire::OpenAi {
            "max_completion_tokens"
        } else {
            "max_tokens"
        };
        body[cap] = json!(self.cfg.max_tokens());
        if let Some(t) = self.cfg.temperature {
            body["temperature"] = json!(t);
        }
        if let Some(e) = &self.cfg.reasoning_effort {
            body["reasoning_effort"] = json!(e);
        }
        body
    }
}

/// The first choice's text and the usage of a Chat Completions reply.
fn parse(body: &Value) -> Result<(String, Usage), ProviderError> {
    let message = body
        .get("choices")
        .and_then(|c| c.get(0))
        .and_then(|c| c.get("message"))
        .ok_or_else(|| ProviderError::BadBody {
            message: "no `choices[0].message` in the reply".into(),
        })?;
    let output = match message.get("content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    };
    let u = body.get("usage").unwrap_or(&Value::Null);
    let usage = Usage {
        input: u64_at(u, &["prompt_tokens"]),
        output: u64_at(u, &["completion_tokens"]),
        reasoning: u64_at(u, &["completion_tokens_details", "reasoning_tokens"]),
        cache_read: u64_at(u, &["prompt_tokens_details", "cached_tokens"]),
        cache_write: 0,
    };
    Ok((output, usage))
}

#[async_trait::async_trait]
impl Provider for OpenAi {
    fn name(&self) -> &str {
        self.wire.name()
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
        // OpenAI caches prompt prefixes of 1,024+ tokens automatically.
        self.wire == Wire::OpenAi
    }

    fn ready(&self) -> Result<(), ProviderError> {
        match &self.key_missing {
            Some(env) => Err(ProviderError::MissingKey(env.clone())),
            None => Ok(()),
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
