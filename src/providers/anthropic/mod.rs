//! Anthropic Messages API (`POST {base}/v1/messages`): the data block is sent as its own text
//! block with `cache_control`, so every run after the first reads it from the prompt cache.

mod batch;

use crate::providers::adapter::WireApi;
use crate::providers::batch::Protocol;
use crate::providers::call::u64_at;
use crate::providers::capabilities::temperature_allowed;
use crate::providers::counting::{TokenCounter, number, only};
use crate::providers::http::{Endpoint, Secret, join};
use crate::providers::{Finish, ModelConfig, ProviderError, Request, Response, Usage};
use serde_json::{Value, json};
use std::time::Duration;

/// API version header value.
const VERSION: &str = "2023-06-01";

/// Claude models behind the Messages API.
pub struct Anthropic;

impl WireApi for Anthropic {
    fn caches_prompts(&self) -> bool {
        true
    }

    fn endpoint(
        &self,
        _cfg: &ModelConfig,
        base: &str,
        timeout: Duration,
        key: Option<Secret>,
    ) -> Result<Endpoint, ProviderError> {
        Ok(Endpoint::new(join(base, "/v1/messages"), timeout)?
            .header("anthropic-version", VERSION)
            .auth("x-api-key", "", key))
    }

    fn body(&self, cfg: &ModelConfig, req: &Request) -> Value {
        // The first message carries the cacheable data block; a conversation's later turns
        // (a reply and a repair request) follow as their own messages.
        let first = req.messages.first().map_or("", |m| m.content.as_str());
        let (data, rest) = split_prefix(first, req.cache_prefix);
        let mut content = Vec::new();
        if !data.is_empty() {
            content.push(
                json!({"type": "text", "text": data, "cache_control": {"type": "ephemeral"}}),
            );
        }
        content.push(json!({"type": "text", "text": rest}));
        let mut messages = vec![json!({"role": "user", "content": content})];
        messages.extend(
            req.messages
                .iter()
                .skip(1)
                .map(|m| json!({"role": m.role, "content": m.content})),
        );
        let mut body = json!({
            "model": cfg.model,
            "max_tokens": cfg.max_tokens(),
            "messages": messages,
        });
        // Thinking requires the default temperature (`temperature_allowed` says so too).
        if let Some(budget) = cfg.thinking_budget {
            body["thinking"] = json!({"type": "enabled", "budget_tokens": budget});
        } else if let Some(effort) = &cfg.reasoning_effort {
            // Claude 4.6+: adaptive thinking, its depth set by the effort.
            body["thinking"] = json!({"type": "adaptive"});
            body["output_config"] = json!({"effort": effort});
        }
        if let Some(t) = cfg.temperature.filter(|_| temperature_allowed(cfg)) {
            body["temperature"] = json!(t);
        }
        if let Some(schema) = req.schema {
            // Structured outputs (GA): `output_config.format`, beside any effort.
            body["output_config"]["format"] = json!({"type": "json_schema", "schema": schema});
        }
        body
    }
    fn structured_output(&self) -> Result<(), String> {
        Ok(())
    }
    fn parse(&self, body: &Value) -> Result<Response, ProviderError> {
        parse(body)
    }
    fn protocol(&self) -> Option<Box<dyn Protocol>> {
        Some(Box::new(batch::Anthropic))
    }
    fn counting(
        &self,
        _cfg: &ModelConfig,
        base: &str,
        chat: &Endpoint,
    ) -> Result<Box<dyn TokenCounter>, String> {
        Ok(Box::new(CountTokens(
            chat.at(join(base, "/v1/messages/count_tokens")),
        )))
    }
}

/// `text` cut after its first `prefix` bytes: the prefix and the rest (all of it as the rest
/// when the cut is not at a character boundary).
fn split_prefix(text: &str, prefix: usize) -> (String, String) {
    let cut = prefix.min(text.len());
    if text.is_char_boundary(cut) {
        (text[..cut].to_string(), text[cut..].to_string())
    } else {
        (String::new(), text.to_string())
    }
}

/// Anthropic `POST {base}/v1/messages/count_tokens`: the Messages body without the generation
/// settings; the reply's `input_tokens`.
struct CountTokens(Endpoint);

#[async_trait::async_trait]
impl TokenCounter for CountTokens {
    fn basis(&self) -> String {
        "anthropic count_tokens".into()
    }

    async fn count(
        &self,
        _cfg: &ModelConfig,
        _req: &Request<'_>,
        body: &Value,
    ) -> Result<u64, ProviderError> {
        let reply = self.0.post(&count_tokens_body(body)).await?;
        number(&reply.body, "input_tokens")
    }
}

/// The Messages body with only the fields count_tokens takes (it refuses `max_tokens`,
/// `temperature` and the other generation settings).
fn count_tokens_body(body: &Value) -> Value {
    only(
        body,
        &[
            "model",
            "messages",
            "system",
            "thinking",
            "tools",
            "tool_choice",
        ],
    )
}

/// `stop_reason` normalised.
fn finish(reason: &str) -> Finish {
    match reason {
        "end_turn" | "stop_sequence" => Finish::Stop,
        "max_tokens" | "model_context_window_exceeded" => Finish::Length,
        "tool_use" => Finish::ToolUse,
        "refusal" => Finish::ContentFilter,
        _ => Finish::Other,
    }
}

/// Text blocks joined (thinking blocks are not the answer), usage and stop reason, from a
/// Messages reply.
fn parse(body: &Value) -> Result<Response, ProviderError> {
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
        // Part of `output_tokens`, where the API breaks it down.
        reasoning: u64_at(u, &["output_tokens_details", "thinking_tokens"]),
        cache_read,
        cache_write,
    };
    let reason = body.get("stop_reason").and_then(Value::as_str);
    Ok(Response {
        output,
        usage,
        finish: reason.map(finish),
        finish_reason: reason.map(str::to_string),
        ..Response::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_tokens_gets_no_generation_settings() {
        let body = json!({"model": "m", "messages": [], "max_tokens": 5, "temperature": 0.0,
                          "thinking": {"type": "adaptive"}, "output_config": {"effort": "low"}});
        let b = count_tokens_body(&body);
        assert_eq!(
            b,
            json!({"model": "m", "messages": [], "thinking": {"type": "adaptive"}})
        );
    }
}
