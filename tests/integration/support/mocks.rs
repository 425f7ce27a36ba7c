//! Local mock servers shaped after each provider's wire API (wiremock): the four APIs' answers
//! and usage, their settings pointed at a mock, a user's environment with fake keys, and
//! Anthropic's Message Batches API.

use bench::providers::{ModelConfig, Usage};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use wiremock::matchers::{method, path_regex};
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

/// A local mock of Anthropic's Message Batches API (create, poll, results, cancel) that keeps
/// what it was sent; what its batches answer, and when they end, is the test's `S`.
pub struct MessageBatches<S> {
    /// What the test's batches answer.
    pub script: S,
    /// The requests (`custom_id`, `params`) of each created batch, in creation order.
    pub batches: Mutex<Vec<Vec<Value>>>,
    /// Polls answered, per batch.
    pub polls: Mutex<Vec<usize>>,
    /// Results downloads answered.
    pub reads: AtomicUsize,
    /// Whether a cancel was asked for: every batch has ended and each request is `canceled`.
    pub canceled: AtomicBool,
    /// The key every create must carry in `x-api-key`.
    key: &'static str,
    /// The server's own URL, for `results_url`.
    base: Mutex<String>,
}

/// What a test's mock batches answer.
pub trait BatchScript: Send + Sync + 'static {
    /// Checks one request of a batch being created (a panic fails the test).
    fn check(&self, _request: &Value) {}
    /// Whether batch `i` (0-based) has ended when it is polled.
    fn ended(&self, i: usize) -> bool;
    /// The results file of batch `i`, whose requests are `requests` (see [`result_lines`]).
    fn results(&self, i: usize, requests: &[Value]) -> String;
}

/// A results file: one line per request, its `result` what `result` makes of its position and
/// the request.
pub fn result_lines(requests: &[Value], result: impl Fn(usize, &Value) -> Value) -> String {
    let line = |(n, r): (usize, &Value)| {
        let line = json!({"custom_id": r["custom_id"], "result": result(n, r)});
        format!("{line}\n")
    };
    requests.iter().enumerate().map(line).collect()
}

impl<S: BatchScript> MessageBatches<S> {
    /// The mock answering as `script` says, checking `key`, on a server of its own.
    pub async fn start(script: S, key: &'static str) -> (Arc<Self>, MockServer) {
        let api = Arc::new(Self {
            script,
            batches: Mutex::default(),
            polls: Mutex::default(),
            reads: AtomicUsize::new(0),
            canceled: AtomicBool::new(false),
            key,
            base: Mutex::default(),
        });
        let s = MockServer::start().await;
        *api.base.lock().unwrap() = s.uri();
        let batch = r"^/v1/messages/batches/msgbatch_\d+";
        let routes: [(&str, String, Route); 4] = [
            ("POST", "^/v1/messages/batches$".into(), Route::Create),
            ("GET", format!("{batch}$"), Route::Poll),
            ("GET", format!("{batch}/results$"), Route::Results),
            ("POST", format!("{batch}/cancel$"), Route::Cancel),
        ];
        for (verb, p, route) in routes {
            Mock::given(method(verb))
                .and(path_regex(p))
                .respond_with(Routed(api.clone(), route))
                .mount(&s)
                .await;
        }
        (api, s)
    }

    /// The custom ids of each created batch, in creation order.
    pub fn custom_ids(&self) -> Vec<Vec<String>> {
        let batches = self.batches.lock().unwrap();
        let id = |r: &Value| r["custom_id"].as_str().unwrap().to_string();
        batches.iter().map(|b| b.iter().map(id).collect()).collect()
    }

    fn respond(&self, route: Route, req: &Request) -> ResponseTemplate {
        if route == Route::Create {
            return self.create(req);
        }
        let i = batch_index(req);
        let id = format!("msgbatch_{}", i + 1);
        let requests = self.batches.lock().unwrap()[i].clone();
        let canceled = self.canceled.load(Ordering::SeqCst);
        match route {
            Route::Poll => {
                self.polls.lock().unwrap()[i] += 1;
                let n = requests.len();
                let body = if canceled || self.script.ended(i) {
                    let url = format!(
                        "{}/v1/messages/batches/{id}/results",
                        self.base.lock().unwrap()
                    );
                    json!({"id": id, "type": "message_batch", "processing_status": "ended",
                           "request_counts": {"processing": 0, "succeeded": n, "errored": 0, "canceled": 0, "expired": 0},
                           "results_url": url})
                } else {
                    json!({"id": id, "type": "message_batch", "processing_status": "in_progress",
                           "request_counts": {"processing": n, "succeeded": 0, "errored": 0, "canceled": 0, "expired": 0},
                           "results_url": null})
                };
                ResponseTemplate::new(200).set_body_json(body)
            }
            Route::Results => {
                self.reads.fetch_add(1, Ordering::SeqCst);
                let lines = if canceled {
                    result_lines(&requests, |_, _| json!({"type": "canceled"}))
                } else {
                    self.script.results(i, &requests)
                };
                ResponseTemplate::new(200).set_body_string(lines)
            }
            _ => {
                self.canceled.store(true, Ordering::SeqCst);
                ResponseTemplate::new(200)
                    .set_body_json(json!({"id": id, "processing_status": "canceling"}))
            }
        }
    }

    fn create(&self, req: &Request) -> ResponseTemplate {
        let key = req.headers.get("x-api-key").and_then(|v| v.to_str().ok());
        assert_eq!(key, Some(self.key));
        let body: Value = serde_json::from_slice(&req.body).unwrap();
        let requests = body["requests"].as_array().unwrap().clone();
        requests.iter().for_each(|r| self.script.check(r));
        let mut b = self.batches.lock().unwrap();
        b.push(requests);
        self.polls.lock().unwrap().push(0);
        ResponseTemplate::new(200).set_body_json(json!({"id": format!("msgbatch_{}", b.len()),
            "type": "message_batch", "processing_status": "in_progress"}))
    }
}

/// The routes of the Message Batches API.
#[derive(Clone, Copy, PartialEq)]
enum Route {
    Create,
    Poll,
    Results,
    Cancel,
}

/// One route of a shared mock.
struct Routed<S>(Arc<MessageBatches<S>>, Route);

impl<S: BatchScript> Respond for Routed<S> {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        self.0.respond(self.1, req)
    }
}

/// The 0-based index of the batch `msgbatch_N` named in the path.
fn batch_index(req: &Request) -> usize {
    let id = req
        .url
        .path()
        .split('/')
        .find(|s| s.starts_with("msgbatch_"));
    let n = id.and_then(|s| s.trim_start_matches("msgbatch_").parse::<usize>().ok());
    n.expect("a batch id in the path") - 1
}
