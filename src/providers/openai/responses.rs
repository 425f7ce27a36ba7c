//! OpenAI Responses API (`POST {base}/responses`), with reasoning effort, and OpenAI's token
//! counter (`POST {base}/responses/input_tokens`), which counts a Chat Completions model's
//! prompts too.

use crate::providers::adapter::WireApi;
use crate::providers::batch::Protocol;
use crate::providers::call::u64_at;
use crate::providers::capabilities::temperature_allowed;
use crate::providers::counting::{TokenCounter, number, only};
use crate::providers::http::{Endpoint, Secret, join};
use crate::providers::{Finish, ModelConfig, ProviderError, Request, Response, Usage};
use serde_json::{Value, json};
use std::time::Duration;

/// Models behind the Responses API.
pub struct OpenAiResponses;

impl WireApi for OpenAiResponses {
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
        Ok(Endpoint::new(join(base, "/responses"), timeout)?.auth("authorization", "Bearer ", key))
    }

    fn body(&self, cfg: &ModelConfig, req: &Request) -> Value {
        let input: Vec<Value> = req
            .messages
            .iter()
            .map(|m| json!({"role": m.role, "content": m.content}))
            .collect();
        let mut body = json!({
            "model": cfg.model,
            "input": input,
            "max_output_tokens": cfg.max_tokens(),
            "store": false,
        });
        if let Some(t) = cfg.temperature.filter(|_| temperature_allowed(cfg)) {
            body["temperature"] = json!(t);
        }
        if let Some(e) = &cfg.reasoning_effort {
            body["reasoning"] = json!({"effort": e});
        }
        if let Some(schema) = req.schema {
            body["text"] = json!({"format": {
                "type": "json_schema", "name": "document", "strict": true, "schema": schema,
            }});
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
        Some(Box::new(super::batch::OpenAi {
            endpoint: "/v1/responses",
        }))
    }
    fn counting(
        &self,
        _cfg: &ModelConfig,
        base: &str,
        chat: &Endpoint,
    ) -> Result<Box<dyn TokenCounter>, String> {
        Ok(Box::new(InputTokens::new(chat, base)))
    }
}

/// OpenAI `POST {base}/responses/input_tokens`: the Responses body of the request without its
/// generation settings (for a Chat Completions model too: the same messages and settings); the
/// reply's `input_tokens`.
pub(super) struct InputTokens(Endpoint);

impl InputTokens {
    /// The counter of the API whose model endpoint is `call`, under `base`.
    pub(super) fn new(call: &Endpoint, base: &str) -> Self {
        Self(call.at(join(base, "/responses/input_tokens")))
    }
}

#[async_trait::async_trait]
impl TokenCounter for InputTokens {
    fn basis(&self) -> String {
        "openai input_tokens".into()
    }

    async fn count(
        &self,
        cfg: &ModelConfig,
        req: &Request<'_>,
        _body: &Value,
    ) -> Result<u64, ProviderError> {
        let body = input_tokens_body(&OpenAiResponses.body(cfg, req));
        let reply = self.0.post(&body).await?;
        number(&reply.body, "input_tokens")
    }
}

/// The Responses body with only the fields input_tokens takes (it has no `max_output_tokens`,
/// `store` or `temperature`).
fn input_tokens_body(body: &Value) -> Value {
    only(
        body,
        &[
            "model",
            "input",
            "instructions",
            "reasoning",
            "text",
            "tools",
            "tool_choice",
        ],
    )
}

/// The raw reason (`incomplete_details.reason` of an incomplete response, else `status`) and
/// its normalised form.
fn finish(body: &Value) -> Option<(String, Finish)> {
    let status = body.get("status").and_then(Value::as_str)?;
    if status == "incomplete" {
        let reason = body
            .get("incomplete_details")
            .and_then(|d| d.get("reason"))
            .and_then(Value::as_str)
            .unwrap_or(status);
        let kind = match reason {
            "max_output_tokens" => Finish::Length,
            "content_filter" => Finish::ContentFilter,
            _ => Finish::Other,
        };
        return Some((reason.to_string(), kind));
    }
    let kind = match status {
        "completed" => Finish::Stop,
        "failed" | "cancelled" => Finish::Error,
        _ => Finish::Other,
    };
    Some((status.to_string(), kind))
}

/// The text of every `output_text` part of every `message` item, the usage and the finish.
fn parse(body: &Value) -> Result<Response, ProviderError> {
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
    let finish = finish(body);
    Ok(Response {
        output,
        usage,
        finish: finish.as_ref().map(|f| f.1),
        finish_reason: finish.map(|f| f.0),
        ..Response::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_tokens_gets_no_generation_settings() {
        let body = json!({"model": "m", "input": [], "max_output_tokens": 5, "store": false,
                          "temperature": 0.0, "reasoning": {"effort": "low"}});
        assert_eq!(
            input_tokens_body(&body),
            json!({"model": "m", "input": [], "reasoning": {"effort": "low"}})
        );
    }
}
