//! Gemini batch mode (`POST {base}/v1beta/models/{model}:batchGenerateContent`): requests go
//! inline with their key in `metadata` (inline batches are capped at 20 MB, so larger plans
//! become several batches); the answers come back inline in the finished operation.

use crate::providers::ProviderError;
use crate::providers::batch::{Caps, Item, Phase, Protocol, Raw, Status, Transport, count};
use serde_json::{Value, json};

/// Gemini's batch mode, inline requests.
pub struct Gemini;

/// A state without its `BATCH_STATE_` / `JOB_STATE_` prefix (the API and its docs use both).
fn bare(state: &str) -> &str {
    state
        .strip_prefix("BATCH_STATE_")
        .or_else(|| state.strip_prefix("JOB_STATE_"))
        .unwrap_or(state)
}

#[async_trait::async_trait]
impl Protocol for Gemini {
    fn caps(&self) -> Caps {
        Caps {
            requests: 100_000,
            // The inline limit is 20 MB for the whole request; keep room for the wrapper.
            bytes: 19 * 1000 * 1000,
        }
    }

    async fn submit(&self, t: &Transport, items: &[Item]) -> Result<String, ProviderError> {
        let requests: Vec<Value> = items
            .iter()
            .map(|i| json!({"request": i.body, "metadata": {"key": i.custom_id}}))
            .collect();
        let body = json!({"batch": {
            "display_name": "bench",
            "input_config": {"requests": {"requests": requests}},
        }});
        let reply = t
            .at(&format!("/v1beta/models/{}:batchGenerateContent", t.model))
            .post(&body)
            .await?;
        reply
            .body
            .get("name")
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| ProviderError::BadBody {
                message: "the created batch has no name".into(),
            })
    }

    async fn poll(&self, t: &Transport, id: &str) -> Result<Status, ProviderError> {
        let body = t.at(&format!("/v1beta/{id}")).get().await?.body;
        let meta = body.get("metadata").unwrap_or(&Value::Null);
        let state = meta
            .get("state")
            .and_then(Value::as_str)
            .unwrap_or(if body.get("error").is_some() {
                "BATCH_STATE_FAILED"
            } else if body.get("done") == Some(&json!(true)) {
                "BATCH_STATE_SUCCEEDED"
            } else {
                "BATCH_STATE_PENDING"
            })
            .to_string();
        let phase = match bare(&state) {
            "SUCCEEDED" | "CANCELLED" | "EXPIRED" => Phase::Ended,
            "FAILED" => Phase::Failed(
                t.endpoint.scrub(
                    body.pointer("/error/message")
                        .and_then(Value::as_str)
                        .unwrap_or("the batch failed (no reason given)"),
                ),
            ),
            _ => Phase::Running,
        };
        let stats = meta.get("batchStats").unwrap_or(&Value::Null);
        Ok(Status {
            state,
            phase,
            done: count(stats.get("successfulRequestCount"))
                + count(stats.get("failedRequestCount")),
            total: count(stats.get("requestCount")),
            raw: body,
        })
    }

    async fn results(
        &self,
        t: &Transport,
        status: &Status,
    ) -> Result<Vec<(Option<String>, Raw)>, ProviderError> {
        // An expired or cancelled job has nothing to fetch: its requests come back as such.
        let unrun = match bare(&status.state) {
            "EXPIRED" => Some(Raw::Expired),
            "CANCELLED" => Some(Raw::Canceled),
            _ => None,
        };
        // The docs read `response`, the SDK `metadata.output`: take whichever is there.
        let output = status
            .raw
            .get("response")
            .or_else(|| status.raw.pointer("/metadata/output"));
        let inlined = output.and_then(|o| o.pointer("/inlinedResponses/inlinedResponses"));
        let Some(items) = inlined.and_then(Value::as_array) else {
            if output.and_then(|o| o.get("responsesFile")).is_some() {
                return Err(ProviderError::BadBody {
                    message: "the batch answered with a responses file; bench submits inline \
                              batches and reads inline answers only"
                        .into(),
                });
            }
            return match unrun {
                Some(_) => Ok(Vec::new()),
                None => Err(ProviderError::BadBody {
                    message: "a finished batch has no inlined responses".into(),
                }),
            };
        };
        Ok(items
            .iter()
            .map(|it| {
                // Not always there (see `match_results`): the position is then the clue.
                let key = it.pointer("/metadata/key").and_then(Value::as_str);
                let raw = if let Some(r) = it.get("response") {
                    let rid = r
                        .get("responseId")
                        .and_then(Value::as_str)
                        .map(str::to_string);
                    Raw::Reply(r.clone(), rid)
                } else if let Some(e) = it.get("error") {
                    // A google.rpc.Status: `code` is a gRPC code, mapped to its HTTP status.
                    let code = e.get("code").and_then(Value::as_u64).unwrap_or(13);
                    let message = e.get("message").and_then(Value::as_str).unwrap_or("");
                    Raw::Failed(ProviderError::Status {
                        status: http_status(code),
                        message: t.endpoint.scrub(message),
                        retry_after: None,
                        request_id: None,
                    })
                } else {
                    unrun.clone().unwrap_or(Raw::Expired)
                };
                (key.map(str::to_string), raw)
            })
            .collect())
    }

    async fn cancel(&self, t: &Transport, id: &str) -> Result<(), ProviderError> {
        t.at(&format!("/v1beta/{id}:cancel"))
            .post(&json!({}))
            .await
            .map(|_| ())
    }
}

/// The HTTP status of a gRPC status code (google.rpc.Code), so retries follow the live rules.
fn http_status(code: u64) -> u16 {
    match code {
        // Some servers put the HTTP status itself in `code`.
        100..=599 => code as u16,
        3 | 9 | 11 => 400,
        16 => 401,
        7 => 403,
        5 => 404,
        6 | 10 => 409,
        8 => 429,
        4 => 504,
        14 => 503,
        _ => 500,
    }
}
