//! OpenAI Chat Completions (`POST {base}/chat/completions`), also the wire API of every
//! OpenAI-compatible server: Ollama, vLLM, llama.cpp, OpenRouter.

mod batch;
pub(super) mod responses;

use crate::providers::adapter::WireApi;
use crate::providers::batch::Protocol;
use crate::providers::call::u64_at;
use crate::providers::capabilities::temperature_allowed;
use crate::providers::counting::{TokenCounter, Tokenize};
use crate::providers::http::{Endpoint, Secret, join};
use crate::providers::{Finish, ModelConfig, ProviderError, Request, Response, Usage, Wire};
use responses::InputTokens;
use serde_json::{Value, json};
use std::time::Duration;

/// Chat Completions as `openai`, `openai-compatible` or `ollama`.
pub struct OpenAi(pub Wire);

impl WireApi for OpenAi {
    fn caches_prompts(&self) -> bool {
        // OpenAI caches prompt prefixes of 1,024+ tokens automatically.
        self.0 == Wire::OpenAi
    }

    fn endpoint(
        &self,
        _cfg: &ModelConfig,
        base: &str,
        timeout: Duration,
        key: Option<Secret>,
    ) -> Result<Endpoint, ProviderError> {
        Ok(
            Endpoint::new(join(base, "/chat/completions"), timeout)?.auth(
                "authorization",
                "Bearer ",
                key,
            ),
        )
    }

    fn body(&self, cfg: &ModelConfig, req: &Request) -> Value {
        let messages: Vec<Value> = req
            .messages
            .iter()
            .map(|m| json!({"role": m.role, "content": m.content}))
            .collect();
        let mut body = json!({"model": cfg.model, "messages": messages});
        // OpenAI's reasoning models reject `max_tokens`; compatible servers often only know it.
        let cap = if self.0 == Wire::OpenAi {
            "max_completion_tokens"
        } else {
            "max_tokens"
        };
        body[cap] = json!(cfg.max_tokens());
        if let Some(t) = cfg.temperature.filter(|_| temperature_allowed(cfg)) {
            body["temperature"] = json!(t);
        }
        if let Some(e) = &cfg.reasoning_effort {
            body["reasoning_effort"] = json!(e);
        }
        if let Some(schema) = req.schema {
            // OpenAI's strict structured outputs; llama.cpp and Ollama read the same shape.
            body["response_format"] = json!({
                "type": "json_schema",
                "json_schema": {"name": "document", "strict": true, "schema": schema},
            });
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
        // OpenAI's own API has the Batch API; compatible servers and Ollama do not.
        (self.0 == Wire::OpenAi).then(|| {
            Box::new(batch::OpenAi {
                endpoint: "/v1/chat/completions",
            }) as Box<dyn Protocol>
        })
    }
    fn counting(
        &self,
        _cfg: &ModelConfig,
        base: &str,
        chat: &Endpoint,
    ) -> Result<Box<dyn TokenCounter>, String> {
        match self.0 {
            Wire::OpenAiCompatible => Ok(Box::new(Tokenize::new(chat, base))),
            Wire::Ollama => Err(
                "Ollama's API has no token-counting endpoint (its replies' usage counts the \
                 prompts bench sends)"
                    .into(),
            ),
            _ => Ok(Box::new(InputTokens::new(chat, base))),
        }
    }
}

/// `finish_reason` normalised (OpenAI's names; compatible servers use the same ones).
fn finish(reason: &str) -> Finish {
    match reason {
        "stop" | "eos" => Finish::Stop,
        "length" => Finish::Length,
        "content_filter" => Finish::ContentFilter,
        "tool_calls" | "function_call" => Finish::ToolUse,
        "error" => Finish::Error,
        _ => Finish::Other,
    }
}

/// The first choice's text and finish reason, and the usage of a Chat Completions reply.
fn parse(body: &Value) -> Result<Response, ProviderError> {
    let choice = body.get("choices").and_then(|c| c.get(0));
    let message = choice
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
    let reason = choice
        .and_then(|c| c.get("finish_reason"))
        .and_then(Value::as_str);
    Ok(Response {
        output,
        usage,
        finish: reason.map(finish),
        finish_reason: reason.map(str::to_string),
        ..Response::default()
    })
}
