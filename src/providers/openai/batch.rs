//! OpenAI Batch API: the requests are uploaded as a JSONL file (`POST {base}/files`, purpose
//! `batch`), then `POST {base}/batches` runs them against one endpoint (`/v1/chat/completions`
//! or `/v1/responses`); results and errors come back as two JSONL files.

use crate::providers::ProviderError;
use crate::providers::batch::{Caps, Item, Phase, Protocol, Raw, Status, Transport, count, jsonl};
use serde_json::{Value, json};

/// The Batch API for one endpoint.
pub struct OpenAi {
    /// The endpoint every line calls, as the batch names it (`/v1/chat/completions`).
    pub endpoint: &'static str,
}

fn line(endpoint: &str, item: &Item) -> String {
    json!({"custom_id": item.custom_id, "method": "POST", "url": endpoint, "body": item.body})
        .to_string()
}

fn str_at<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

#[async_trait::async_trait]
impl Protocol for OpenAi {
    fn caps(&self) -> Caps {
        Caps {
            requests: 50_000,
            bytes: 200 * 1000 * 1000,
        }
    }

    fn item_bytes(&self, item: &Item) -> usize {
        line(self.endpoint, item).len() + 1
    }

    async fn submit(&self, t: &Transport, items: &[Item]) -> Result<String, ProviderError> {
        let mut file = String::new();
        for i in items {
            file.push_str(&line(self.endpoint, i));
            file.push('\n');
        }
        let uploaded = t
            .at("/files")
            .post_file(
                &[("purpose", "batch")],
                "bench-batch.jsonl",
                file.into_bytes(),
            )
            .await?;
        let file_id = str_at(&uploaded.body, "id").ok_or_else(|| ProviderError::BadBody {
            message: "the uploaded batch file has no id".into(),
        })?;
        let created = t
            .at("/batches")
            .post(&json!({
                "input_file_id": file_id,
                "endpoint": self.endpoint,
                "completion_window": "24h",
                "metadata": {"created_by": "bench"},
            }))
            .await?;
        str_at(&created.body, "id")
            .map(str::to_string)
            .ok_or_else(|| ProviderError::BadBody {
                message: "the created batch has no id".into(),
            })
    }

    async fn poll(&self, t: &Transport, id: &str) -> Result<Status, ProviderError> {
        let body = t.at(&format!("/batches/{id}")).get().await?.body;
        let state = str_at(&body, "status")
            .ok_or_else(|| ProviderError::BadBody {
                message: format!("batch {id}: no status in the reply"),
            })?
            .to_string();
        let phase = match state.as_str() {
            "completed" | "expired" | "cancelled" => Phase::Ended,
            "failed" => Phase::Failed(t.endpoint.scrub(&batch_errors(&body))),
            _ => Phase::Running,
        };
        let c = body.get("request_counts").unwrap_or(&Value::Null);
        Ok(Status {
            state,
            phase,
            done: count(c.get("completed")) + count(c.get("failed")),
            total: count(c.get("total")),
            raw: body,
        })
    }

    async fn results(
        &self,
        t: &Transport,
        status: &Status,
    ) -> Result<Vec<(Option<String>, Raw)>, ProviderError> {
        let mut out = Vec::new();
        // A completed batch can still have failed requests: read both files.
        for key in ["output_file_id", "error_file_id"] {
            let Some(file) = str_at(&status.raw, key) else {
                continue;
            };
            let text = t.at(&format!("/files/{file}/content")).get_text().await?;
            for l in jsonl(&text, key)? {
                out.push((str_at(&l, "custom_id").map(str::to_string), raw(&l, t)));
            }
        }
        Ok(out)
    }

    async fn cancel(&self, t: &Transport, id: &str) -> Result<(), ProviderError> {
        t.at(&format!("/batches/{id}/cancel"))
            .post(&json!({}))
            .await
            .map(|_| ())
    }
}

/// One output or error line.
fn raw(l: &Value, t: &Transport) -> Raw {
    let response = l.get("response").filter(|r| !r.is_null());
    if let Some(r) = response {
        let status = r.get("status_code").and_then(Value::as_u64).unwrap_or(0) as u16;
        let body = r.get("body").cloned().unwrap_or(Value::Null);
        let request_id = str_at(r, "request_id").map(str::to_string);
        if (200..300).contains(&status) {
            return Raw::Reply(body, request_id);
        }
        let message = body
            .pointer("/error/message")
            .and_then(Value::as_str)
            .unwrap_or("no message");
        return Raw::Failed(ProviderError::Status {
            status,
            message: t.endpoint.scrub(message),
            retry_after: None,
            request_id,
        });
    }
    let e = l.get("error").unwrap_or(&Value::Null);
    let code = str_at(e, "code").unwrap_or("");
    let message = str_at(e, "message").unwrap_or("no message");
    match code {
        "batch_expired" => Raw::Expired,
        "batch_cancelled" => Raw::Canceled,
        "request_timeout" => Raw::Failed(ProviderError::Timeout),
        _ => Raw::Failed(ProviderError::BadBody {
            message: t.endpoint.scrub(&format!("{code}: {message}")),
        }),
    }
}

/// The batch-level errors of a failed batch, one line.
fn batch_errors(body: &Value) -> String {
    let errors: Vec<String> = body
        .pointer("/errors/data")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|e| {
                    let line = e.get("line").and_then(Value::as_u64);
                    let msg = str_at(e, "message").unwrap_or("");
                    match line {
                        Some(n) => format!("line {n}: {msg}"),
                        None => msg.to_string(),
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    if errors.is_empty() {
        "the batch failed (no reason given)".into()
    } else {
        errors.join("; ")
    }
}
