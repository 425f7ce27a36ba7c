//! Google Gemini `generateContent` (`POST {base}/v1beta/models/{model}:generateContent`), the
//! key sent as the `x-goog-api-key` header, never in the URL.

use super::http::{Endpoint, Secret, join};
use super::{ModelConfig, Provider, ProviderError, Request, Response, Usage, missing_key, u64_at};
use crate::UsageError;
use serde_json::{Value, json};
use std::time::Duration;

/// A Gemini model.
pub struct Gemini {
    cfg: ModelConfig,
    endpoint: Endpoint,
    has_key: bool,
    key_env: Option<String>,
}

impl Gemini {
    /// Binds `cfg.model` at `base`.
    pub fn new(
        cfg: &ModelConfig,
        base: &str,
        key: Option<Secret>,
        key_env: Option<String>,
    ) -> Result<Self, UsageError> {
        let timeout = Duration::from_secs_f64(cfg.timeout_secs.unwrap_or(600.0).max(0.001));
        let has_key = key.is_some();
        let url = join(
            base,
            &format!("/v1beta/models/{}:generateContent", cfg.model),
        );
        let endpoint = Endpoint::new(url, timeout)
            .map_err(|e| UsageError::new(e.to_string()))?
            .auth("x-goog-api-key", "", key);
        Ok(Self {
            cfg: cfg.clone(),
            endpoint,
            has_key,
            key_env,
        })
    }

    fn body(&self, req: &Request) -> Value {
        let contents: Vec<Value> = req
            .messages
            .iter()
            .map(|m| {
                let role = if m.role == "assistant" {
                    "model"
                } else {
                    "user"
                };
                json!({"role": role, "parts": [{"text": m.content}]})
            })
            .collect();
        let mut config = json!({"maxOutputTokens": self.cfg.max_tokens()});
        if let Some(t) = self.cfg.temperature {
            config["temperature"] = json!(t);
        }
        if let Some(b) = self.cfg.thinking_budget {
            config["thinkingConfig"] = json!({"thinkingBudget": b});
        }
        json!({"contents": contents, "generationConfig": config})
    }
}

/// The first candidate's non-thought text parts, and the usage.
fn parse(body: &Value) -> Result<(String, Usage), ProviderError> {
    let candidate = body
        .get("candidates")
        .and_then(|c| c.get(0))
        .ok_or_else(|| ProviderError::BadBody {
            message: "no `candidates[0]` in the reply".into(),
        })?;
    let output: String = candidate
        .get("content")
        .and_then(|c| c.get("parts"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|p| p.get("thought").and_then(Value::as_bool) != Some(true))
        .filter_map(|p| p.get("text").and_then(Value::as_str))
        .collect();
    let u = body.get("usageMetadata").unwrap_or(&Value::Null);
    let thoughts = u64_at(u, &["thoughtsTokenCount"]);
    // `candidatesTokenCount` excludes thinking; ours counts every generated token.
    let usage = Usage {
        input: u64_at(u, &["promptTokenCount"]),
        output: u64_at(u, &["candidatesTokenCount"]) + thoughts,
        reasoning: thoughts,
        cache_read: u64_at(u, &["cachedContentTokenCount"]),
        cache_write: 0,
    };
    Ok((output, usage))
}

#[async_trait::async_trait]
impl Provider for Gemini {
    fn name(&self) -> &str {
        "gemini"
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
        // Gemini 2.5 caches repeated prompt prefixes implicitly.
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
        let request_id = reply.request_id.or_else(|| {
            reply
                .body
                .get("responseId")
                .and_then(Value::as_str)
                .map(str::to_string)
        });
        Ok(Response {
            output,
            usage,
            status: Some(reply.status),
            request_id,
        })
    }
}
