//! Anthropic Message Batches (`POST {base}/v1/messages/batches`): the requests go inline as
//! `{custom_id, params}`; results are a JSONL file at the batch's `results_url`.

use crate::providers::ProviderError;
use crate::providers::batch::{Caps, Item, Phase, Protocol, Raw, Status, Transport, count, jsonl};
use serde_json::{Value, json};

/// The Message Batches API.
pub struct Anthropic;

/// The HTTP status an Anthropic error type stands for, so a batch error is retried (or not)
/// as the same error on the live API would be.
fn status_of(kind: &str) -> u16 {
    match kind {
        "invalid_request_error" => 400,
        "authentication_error" => 401,
        "billing_error" => 402,
        "permission_error" => 403,
        "not_found_error" => 404,
        "request_too_large" => 413,
        "rate_limit_error" => 429,
        "timeout_error" => 504,
        "overloaded_error" => 529,
        _ => 500,
    }
}

fn batch_path(id: &str) -> String {
    format!("/v1/messages/batches/{id}")
}

#[async_trait::async_trait]
impl Protocol for Anthropic {
    fn caps(&self) -> Caps {
        Caps {
            requests: 100_000,
            bytes: 256 * 1000 * 1000,
        }
    }

    async fn submit(&self, t: &Transport, items: &[Item]) -> Result<String, ProviderError> {
        let requests: Vec<Value> = items
            .iter()
            .map(|i| json!({"custom_id": i.custom_id, "params": i.body}))
            .collect();
        let reply = t
            .at("/v1/messages/batches")
            .post(&json!({"requests": requests}))
            .await?;
        id_of(&reply.body)
    }

    async fn poll(&self, t: &Transport, id: &str) -> Result<Status, ProviderError> {
        let body = t.at(&batch_path(id)).get().await?.body;
        let state = body
            .get("processing_status")
            .and_then(Value::as_str)
            .ok_or_else(|| ProviderError::BadBody {
                message: format!("batch {id}: no processing_status in the reply"),
            })?
            .to_string();
        let c = body.get("request_counts").unwrap_or(&Value::Null);
        let done = ["succeeded", "errored", "canceled", "expired"]
            .iter()
            .map(|k| count(c.get(*k)))
            .sum::<u64>();
        Ok(Status {
            phase: if state == "ended" {
                Phase::Ended
            } else {
                Phase::Running
            },
            state,
            done,
            total: done + count(c.get("processing")),
            raw: body,
        })
    }

    async fn results(
        &self,
        t: &Transport,
        status: &Status,
    ) -> Result<Vec<(Option<String>, Raw)>, ProviderError> {
        let url = status
            .raw
            .get("results_url")
            .and_then(Value::as_str)
            .ok_or_else(|| ProviderError::BadBody {
                message: "an ended batch has no results_url".into(),
            })?;
        let text = t.absolute(url).get_text().await?;
        Ok(jsonl(&text, "batch results")?
            .into_iter()
            .map(|line| {
                let id = line
                    .get("custom_id")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                let r = line.get("result").unwrap_or(&Value::Null);
                let raw = match r.get("type").and_then(Value::as_str) {
                    Some("succeeded") => {
                        // A batch answer has no request id of its own (`message.id` names
                        // the message): the batch id and custom id find it at Anthropic.
                        let msg = r.get("message").cloned().unwrap_or(Value::Null);
                        Raw::Reply(msg, id.clone())
                    }
                    Some("errored") => {
                        let e = r.pointer("/error/error").unwrap_or(&Value::Null);
                        let kind = e.get("type").and_then(Value::as_str).unwrap_or("api_error");
                        let message = e.get("message").and_then(Value::as_str).unwrap_or(kind);
                        Raw::Failed(ProviderError::Status {
                            status: status_of(kind),
                            message: t.endpoint.scrub(&format!("{kind}: {message}")),
                            retry_after: None,
                            request_id: r
                                .pointer("/error/request_id")
                                .and_then(Value::as_str)
                                .map(str::to_string),
                        })
                    }
                    Some("expired") => Raw::Expired,
                    Some("canceled") => Raw::Canceled,
                    other => Raw::Failed(ProviderError::BadBody {
                        message: format!("unknown batch result type {other:?}"),
                    }),
                };
                (id, raw)
            })
            .collect())
    }

    async fn cancel(&self, t: &Transport, id: &str) -> Result<(), ProviderError> {
        t.at(&format!("{}/cancel", batch_path(id)))
            .post(&json!({}))
            .await
            .map(|_| ())
    }
}

/// The `id` of a created batch.
fn id_of(body: &Value) -> Result<String, ProviderError> {
    body.get("id")
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| ProviderError::BadBody {
            message: "the created batch has no id".into(),
        })
}
