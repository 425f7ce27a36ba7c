//! Local mock servers shaped after each provider's wire API (wiremock): the four APIs' answers
//! and usage, their settings pointed at a mock, and a user's environment with fake keys.

use bench::providers::{ModelConfig, Usage};
use serde_json::{Value, json};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// A key that must never appear anywhere but in request headers.
pub const FAKE_KEY: &str = "sk-fake-0123456789-DO-NOT-LEAK";

/// One wire API: how to reach it and what a successful answer looks like.
pub struct Api {
    /// `--provider` spec.
    pub spec: &'static str,
    /// Request path on the server.
    pub path: &'static str,
    /// Suffix of the base URL (`/v1` for OpenAI-style servers).
    pub base_suffix: &'static str,
    /// Header carrying the key, and its expected value.
    pub auth: (&'static str, &'static str),
    /// A successful reply with text `answer`.
    pub ok: fn(&str) -> Value,
    /// The usage `ok` must parse to.
    pub usage: Usage,
    /// The raw finish reason of `ok`.
    pub stop: &'static str,
    /// A reply with text `answer` cut at the output-token limit, and its raw finish reason.
    pub cut: (fn(&str) -> Value, &'static str),
    /// The model `ok` says served the call.
    pub served: &'static str,
}

/// A reply of this API with text `answer`.
pub fn anthropic_ok(answer: &str) -> Value {
    json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test-20250101",
        "content": [{"type": "thinking", "thinking": "hmm"}, {"type": "text", "text": answer}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 100, "output_tokens": 20, "cache_creation_input_tokens": 30,
                  "cache_read_input_tokens": 50}})
}

/// A reply of this API with text `answer` cut at the token limit.
pub fn anthropic_cut(answer: &str) -> Value {
    let mut v = anthropic_ok(answer);
    v["stop_reason"] = json!("max_tokens");
    v
}

/// A reply of this API with text `answer` cut at the token limit.
pub fn chat_cut(answer: &str) -> Value {
    let mut v = chat_ok(answer);
    v["choices"][0]["finish_reason"] = json!("length");
    v
}

/// A reply of this API with text `answer` cut at the token limit.
pub fn responses_cut(answer: &str) -> Value {
    let mut v = responses_ok(answer);
    v["status"] = json!("incomplete");
    v["incomplete_details"] = json!({"reason": "max_output_tokens"});
    v
}

/// A reply of this API with text `answer` cut at the token limit.
pub fn gemini_cut(answer: &str) -> Value {
    let mut v = gemini_ok(answer);
    v["candidates"][0]["finishReason"] = json!("MAX_TOKENS");
    v
}

/// A reply of this API with text `answer`.
pub fn chat_ok(answer: &str) -> Value {
    json!({"id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-test-2025-04-14",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": answer}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 180, "completion_tokens": 25, "total_tokens": 205,
                  "prompt_tokens_details": {"cached_tokens": 128},
                  "completion_tokens_details": {"reasoning_tokens": 5}}})
}

/// A reply of this API with text `answer`.
pub fn responses_ok(answer: &str) -> Value {
    json!({"id": "resp_1", "object": "response", "status": "completed", "model": "gpt-test-2025-08-07",
        "output": [{"type": "reasoning", "summary": []},
                   {"type": "message", "role": "assistant",
                    "content": [{"type": "output_text", "text": answer, "annotations": []}]}],
        "usage": {"input_tokens": 180, "output_tokens": 40, "total_tokens": 220,
                  "input_tokens_details": {"cached_tokens": 64},
                  "output_tokens_details": {"reasoning_tokens": 30}}})
}

/// A reply of this API with text `answer`.
pub fn gemini_ok(answer: &str) -> Value {
    json!({"candidates": [{"content": {"role": "model",
            "parts": [{"text": "thinking...", "thought": true}, {"text": answer}]}, "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 150, "candidatesTokenCount": 12,
                          "thoughtsTokenCount": 8, "cachedContentTokenCount": 100, "totalTokenCount": 170},
        "responseId": "gem-123", "modelVersion": "gemini-test-001"})
}

/// The four wire APIs (openai-compatible and ollama share the chat one).
pub fn apis() -> Vec<Api> {
    vec![
        Api {
            spec: "anthropic:claude-test",
            path: "/v1/messages",
            base_suffix: "",
            auth: ("x-api-key", FAKE_KEY),
            ok: anthropic_ok,
            usage: Usage {
                input: 180,
                output: 20,
                reasoning: 0,
                cache_read: 50,
                cache_write: 30,
            },
            stop: "end_turn",
            cut: (anthropic_cut, "max_tokens"),
            served: "claude-test-20250101",
        },
        Api {
            spec: "openai:gpt-test",
            path: "/v1/chat/completions",
            base_suffix: "/v1",
            auth: ("authorization", "Bearer sk-fake-0123456789-DO-NOT-LEAK"),
            ok: chat_ok,
            usage: Usage {
                input: 180,
                output: 25,
                reasoning: 5,
                cache_read: 128,
                cache_write: 0,
            },
            stop: "stop",
            cut: (chat_cut, "length"),
            served: "gpt-test-2025-04-14",
        },
        Api {
            spec: "openai-responses:gpt-test",
            path: "/v1/responses",
            base_suffix: "/v1",
            auth: ("authorization", "Bearer sk-fake-0123456789-DO-NOT-LEAK"),
            ok: responses_ok,
            usage: Usage {
                input: 180,
                output: 40,
                reasoning: 30,
                cache_read: 64,
                cache_write: 0,
            },
            stop: "completed",
            cut: (responses_cut, "max_output_tokens"),
            served: "gpt-test-2025-08-07",
        },
        Api {
            spec: "gemini:gemini-test",
            path: "/v1beta/models/gemini-test:generateContent",
            base_suffix: "",
            auth: ("x-goog-api-key", FAKE_KEY),
            ok: gemini_ok,
            usage: Usage {
                input: 150,
                output: 20,
                reasoning: 8,
                cache_read: 100,
                cache_write: 0,
            },
            stop: "STOP",
            cut: (gemini_cut, "MAX_TOKENS"),
            served: "gemini-test-001",
        },
    ]
}

/// The settings of `api` pointed at `server`.
pub fn config(api: &Api, server: &MockServer, timeout: f64) -> ModelConfig {
    let mut c = ModelConfig::from_spec(api.spec).unwrap();
    c.base_url = Some(format!("{}{}", server.uri(), api.base_suffix));
    c.timeout_secs = Some(timeout);
    c
}

/// The process environment of a user with every key set to the fake one.
pub fn fake_env(name: &str) -> Option<String> {
    name.ends_with("_API_KEY").then(|| FAKE_KEY.to_string())
}

/// A mock server that answers every POST with 200 and `body`.
pub async fn answering(body: Value) -> MockServer {
    let server = MockServer::start().await;
    answer_every_post(&server, body).await;
    server
}

/// Mounts on `server` an answer to every POST: 200 and `body`.
pub async fn answer_every_post(server: &MockServer, body: Value) {
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(body))
        .mount(server)
        .await;
}

/// A chat-completions model whose first reply is `first` and every later one `later`.
pub struct FirstThenLater {
    /// The first reply (`HTTP 400` answers 400).
    pub first: String,
    /// Every later reply.
    pub later: String,
}

impl Respond for FirstThenLater {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap();
        let turns = body["messages"].as_array().unwrap().len();
        let text = if turns == 1 { &self.first } else { &self.later };
        if text == "HTTP 400" {
            return ResponseTemplate::new(400)
                .set_body_json(json!({"error": {"message": "bad request", "type": "invalid"}}));
        }
        ResponseTemplate::new(200).set_body_json(json!({
            "id": "c", "object": "chat.completion", "model": "m",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                         "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 100 * turns, "completion_tokens": 10, "total_tokens": 0}}))
    }
}

/// One `write` suite case: transcode a pair of records.
pub const WRITE_CASE: &str = r#"{"cases": [{"id": "pair", "kind": "transcode",
    "gold": {"pair": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bo"}]}}]}"#;
