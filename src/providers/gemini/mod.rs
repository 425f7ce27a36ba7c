//! Google Gemini `generateContent` (`POST {base}/v1beta/models/{model}:generateContent`), the
//! key sent as the `x-goog-api-key` header, never in the URL.

mod batch;

use crate::providers::adapter::WireApi;
use crate::providers::batch::Protocol;
use crate::providers::call::u64_at;
use crate::providers::capabilities::temperature_allowed;
use crate::providers::counting::{TokenCounter, number};
use crate::providers::http::{Endpoint, Secret, join};
use crate::providers::{Finish, ModelConfig, ProviderError, Request, Response, Usage};
use serde_json::{Value, json};
use std::time::Duration;

/// Gemini models.
pub struct Gemini;

impl WireApi for Gemini {
    fn caches_prompts(&self) -> bool {
        // Gemini 2.5 caches repeated prompt prefixes implicitly.
        true
    }

    fn endpoint(
        &self,
        cfg: &ModelConfig,
        base: &str,
        timeout: Duration,
        key: Option<Secret>,
    ) -> Result<Endpoint, ProviderError> {
        let url = join(
            base,
            &format!("/v1beta/models/{}:generateContent", cfg.model),
        );
        Ok(Endpoint::new(url, timeout)?.auth("x-goog-api-key", "", key))
    }

    fn body(&self, cfg: &ModelConfig, req: &Request) -> Value {
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
        let mut config = json!({"maxOutputTokens": cfg.max_tokens()});
        if let Some(t) = cfg.temperature.filter(|_| temperature_allowed(cfg)) {
            config["temperature"] = json!(t);
        }
        if let Some(b) = cfg.thinking_budget {
            config["thinkingConfig"] = json!({"thinkingBudget": b});
        }
        if let Some(schema) = req.schema {
            // `responseJsonSchema` takes JSON Schema as is (`responseSchema` wants
            // Gemini's OpenAPI subset).
            config["responseMimeType"] = json!("application/json");
            config["responseJsonSchema"] = schema.clone();
        }
        json!({"contents": contents, "generationConfig": config})
    }
    fn structured_output(&self) -> Result<(), String> {
        Ok(())
    }
    fn parse(&self, body: &Value) -> Result<Response, ProviderError> {
        parse(body)
    }
    fn protocol(&self) -> Option<Box<dyn Protocol>> {
        Some(Box::new(batch::Gemini))
    }
    fn counting(
        &self,
        cfg: &ModelConfig,
        base: &str,
        chat: &Endpoint,
    ) -> Result<Box<dyn TokenCounter>, String> {
        let model = bare(&cfg.model);
        Ok(Box::new(CountTokens(chat.at(join(
            base,
            &format!("/v1beta/models/{model}:countTokens"),
        )))))
    }

    fn body_request_id(&self, body: &Value) -> Option<String> {
        body.get("responseId")
            .and_then(Value::as_str)
            .map(str::to_string)
    }
}

/// Gemini `POST {base}/v1beta/models/{model}:countTokens`: the `generateContent` body as
/// `generateContentRequest`; the reply's `totalTokens`.
struct CountTokens(Endpoint);

#[async_trait::async_trait]
impl TokenCounter for CountTokens {
    fn basis(&self) -> String {
        "gemini countTokens".into()
    }

    async fn count(
        &self,
        cfg: &ModelConfig,
        _req: &Request<'_>,
        body: &Value,
    ) -> Result<u64, ProviderError> {
        let mut inner = body.clone();
        inner["model"] = json!(format!("models/{}", bare(&cfg.model)));
        let reply = self
            .0
            .post(&json!({ "generateContentRequest": inner }))
            .await?;
        number(&reply.body, "totalTokens")
    }
}

/// A model id without Gemini's `models/` prefix.
fn bare(model: &str) -> &str {
    model.strip_prefix("models/").unwrap_or(model)
}

/// `finishReason` normalised.
fn finish(reason: &str) -> Finish {
    match reason {
        "STOP" => Finish::Stop,
        "MAX_TOKENS" => Finish::Length,
        "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" | "SPII" | "IMAGE_SAFETY" => {
            Finish::ContentFilter
        }
        "UNEXPECTED_TOOL_CALL" => Finish::ToolUse,
        "MALFORMED_FUNCTION_CALL" => Finish::Error,
        _ => Finish::Other,
    }
}

/// The first candidate's non-thought text parts and finish reason, and the usage. A prompt the
/// API blocked (`promptFeedback.blockReason`, no candidates) is a final content-filter result
/// with no text: asking again gets the same answer.
fn parse(body: &Value) -> Result<Response, ProviderError> {
    let u = body.get("usageMetadata").unwrap_or(&Value::Null);
    let candidate = body.get("candidates").and_then(|c| c.get(0));
    let blocked = body
        .pointer("/promptFeedback/blockReason")
        .and_then(Value::as_str);
    let candidate = match (candidate, blocked) {
        (Some(c), _) => c,
        (None, Some(reason)) => {
            return Ok(Response {
                usage: Usage {
                    input: u64_at(u, &["promptTokenCount"]),
                    ..Usage::default()
                },
                finish: Some(Finish::ContentFilter),
                finish_reason: Some(format!("prompt blocked: {reason}")),
                ..Response::default()
            });
        }
        (None, None) => {
            return Err(ProviderError::BadBody {
                message: "no `candidates[0]` in the reply".into(),
            });
        }
    };
    let output: String = candidate
        .get("content")
        .and_then(|c| c.get("parts"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|p| p.get("thought").and_then(Value::as_bool) != Some(true))
        .filter_map(|p| p.get("text").and_then(Value::as_str))
        .collect();
    let thoughts = u64_at(u, &["thoughtsTokenCount"]);
    // `candidatesTokenCount` excludes thinking; ours counts every generated token.
    let usage = Usage {
        input: u64_at(u, &["promptTokenCount"]),
        output: u64_at(u, &["candidatesTokenCount"]) + thoughts,
        reasoning: thoughts,
        cache_read: u64_at(u, &["cachedContentTokenCount"]),
        cache_write: 0,
    };
    let reason = candidate.get("finishReason").and_then(Value::as_str);
    Ok(Response {
        output,
        usage,
        finish: reason.map(finish),
        finish_reason: reason.map(str::to_string),
        ..Response::default()
    })
}
