//! Every wire API against a local wiremock server: usage parsed, 429 + Retry-After honored,
//! 5xx and timeouts retried, garbage and truncated bodies reported, 401 failing fast.

use bench::prompt::Message;
use bench::providers::{self, Finish, ModelConfig, Provider, ProviderError, Request, Usage};
use bench::runner::limits::Limits;
use bench::runner::retry::{self, RetryPolicy};
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

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

fn anthropic_ok(answer: &str) -> Value {
    json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test-20250101",
        "content": [{"type": "thinking", "thinking": "hmm"}, {"type": "text", "text": answer}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 100, "output_tokens": 20, "cache_creation_input_tokens": 30,
                  "cache_read_input_tokens": 50}})
}

fn anthropic_cut(answer: &str) -> Value {
    let mut v = anthropic_ok(answer);
    v["stop_reason"] = json!("max_tokens");
    v
}

fn chat_cut(answer: &str) -> Value {
    let mut v = chat_ok(answer);
    v["choices"][0]["finish_reason"] = json!("length");
    v
}

fn responses_cut(answer: &str) -> Value {
    let mut v = responses_ok(answer);
    v["status"] = json!("incomplete");
    v["incomplete_details"] = json!({"reason": "max_output_tokens"});
    v
}

fn gemini_cut(answer: &str) -> Value {
    let mut v = gemini_ok(answer);
    v["candidates"][0]["finishReason"] = json!("MAX_TOKENS");
    v
}

fn chat_ok(answer: &str) -> Value {
    json!({"id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-test-2025-04-14",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": answer}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 180, "completion_tokens": 25, "total_tokens": 205,
                  "prompt_tokens_details": {"cached_tokens": 128},
                  "completion_tokens_details": {"reasoning_tokens": 5}}})
}

fn responses_ok(answer: &str) -> Value {
    json!({"id": "resp_1", "object": "response", "status": "completed", "model": "gpt-test-2025-08-07",
        "output": [{"type": "reasoning", "summary": []},
                   {"type": "message", "role": "assistant",
                    "content": [{"type": "output_text", "text": answer, "annotations": []}]}],
        "usage": {"input_tokens": 180, "output_tokens": 40, "total_tokens": 220,
                  "input_tokens_details": {"cached_tokens": 64},
                  "output_tokens_details": {"reasoning_tokens": 30}}})
}

fn gemini_ok(answer: &str) -> Value {
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

fn provider(api: &Api, server: &MockServer) -> Box<dyn Provider> {
    providers::build(&config(api, server, 0.4), &fake_env).unwrap()
}

fn fast() -> RetryPolicy {
    RetryPolicy {
        max_retries: 3,
        base: Duration::from_millis(10),
        max_delay: Duration::from_millis(50),
        max_wait: Duration::from_secs(5),
    }
}

/// One call with retries; returns the outcome, the attempts and the time taken.
async fn call(
    p: &dyn Provider,
) -> (
    Result<bench::providers::Response, ProviderError>,
    u32,
    Duration,
) {
    let messages = vec![Message {
        role: "user".into(),
        content: "DATA BLOCK\nQUESTIONS".into(),
    }];
    let req = Request {
        messages: &messages,
        cache_prefix: 11,
        settings: Default::default(),
        payload: None,
        schema: None,
    };
    let limits = Limits::new(2, None, None, 1).unwrap();
    let t = Instant::now();
    let answered = std::sync::atomic::AtomicBool::new(false);
    let a = retry::send(p, &limits, &req, 100, &fast(), &answered, &|| false).await;
    (a.result, a.attempts, t.elapsed())
}

async fn ok_mock(api: &Api, server: &MockServer) {
    Mock::given(method("POST"))
        .and(path(api.path))
        .and(header(api.auth.0, api.auth.1))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("request-id", "req-42")
                .set_body_json((api.ok)("{\"q001\": 1}")),
        )
        .mount(server)
        .await;
}

async fn first_then_ok(api: &Api, server: &MockServer, first: ResponseTemplate) {
    Mock::given(method("POST"))
        .and(path(api.path))
        .respond_with(first)
        .up_to_n_times(1)
        .with_priority(1)
        .mount(server)
        .await;
    ok_mock(api, server).await;
}

#[tokio::test]
async fn success_parses_text_usage_and_request_id() {
    for api in apis() {
        let server = MockServer::start().await;
        ok_mock(&api, &server).await;
        let p = provider(&api, &server);
        let (r, attempts, _) = call(p.as_ref()).await;
        let r = r.unwrap_or_else(|e| panic!("{}: {e}", api.spec));
        assert_eq!(
            r.output, "{\"q001\": 1}",
            "{}: thinking text left out",
            api.spec
        );
        assert_eq!(r.usage, api.usage, "{}", api.spec);
        assert_eq!(r.status, Some(200));
        assert_eq!(r.request_id.as_deref(), Some("req-42"), "{}", api.spec);
        assert_eq!(r.finish, Some(Finish::Stop), "{}", api.spec);
        assert_eq!(r.finish_reason.as_deref(), Some(api.stop), "{}", api.spec);
        assert_eq!(r.served_model.as_deref(), Some(api.served), "{}", api.spec);
        assert_eq!(r.server, None, "{}: no server timings given", api.spec);
        assert_eq!(attempts, 1);
        let url = p.url().unwrap();
        assert!(url.ends_with(api.path) && !url.contains(FAKE_KEY), "{url}");
    }
}

#[tokio::test]
async fn request_bodies_carry_what_each_api_needs() {
    let apis = apis();
    let server = MockServer::start().await;
    ok_mock(&apis[0], &server).await;
    let mut cfg = config(&apis[0], &server, 1.0);
    cfg.thinking_budget = Some(1024);
    let p = providers::build(&cfg, &fake_env).unwrap();
    call(p.as_ref()).await.0.unwrap();
    let req = &server.received_requests().await.unwrap()[0];
    let body: Value = serde_json::from_slice(&req.body).unwrap();
    let content = &body["messages"][0]["content"];
    assert_eq!(content[0]["text"], "DATA BLOCK\n");
    assert_eq!(content[0]["cache_control"]["type"], "ephemeral");
    assert_eq!(content[1]["text"], "QUESTIONS");
    assert_eq!(body["thinking"]["budget_tokens"], 1024);
    assert_eq!(body["max_tokens"], 4096 + 1024);
    assert_eq!(req.headers.get("anthropic-version").unwrap(), "2023-06-01");

    let server = MockServer::start().await;
    ok_mock(&apis[3], &server).await;
    let p = provider(&apis[3], &server);
    call(p.as_ref()).await.0.unwrap();
    let req = &server.received_requests().await.unwrap()[0];
    assert!(
        req.url.query().is_none(),
        "gemini key goes in a header, not the URL"
    );
}

#[tokio::test]
async fn throttled_call_waits_as_told_then_succeeds() {
    for api in apis() {
        let server = MockServer::start().await;
        first_then_ok(
            &api,
            &server,
            ResponseTemplate::new(429)
                .insert_header("retry-after", "1")
                .set_body_json(json!({"error": {"message": "slow down"}})),
        )
        .await;
        let (r, attempts, took) = call(provider(&api, &server).as_ref()).await;
        assert!(r.is_ok(), "{}: {r:?}", api.spec);
        assert_eq!(attempts, 2);
        assert!(
            took >= Duration::from_millis(950),
            "{}: waited only {took:?}",
            api.spec
        );
    }
}

#[tokio::test]
async fn server_errors_and_timeouts_are_retried() {
    for api in apis() {
        for first in [
            ResponseTemplate::new(500).set_body_string("boom"),
            ResponseTemplate::new(529).set_body_string("overloaded"),
            ResponseTemplate::new(200)
                .set_body_json((api.ok)("late"))
                .set_delay(Duration::from_secs(2)),
            ResponseTemplate::new(200).set_body_string("<html>not json"),
            ResponseTemplate::new(200).set_body_string("{\"choices\": [{\"mess"),
        ] {
            let server = MockServer::start().await;
            first_then_ok(&api, &server, first).await;
            let (r, attempts, _) = call(provider(&api, &server).as_ref()).await;
            assert!(r.is_ok(), "{}: {r:?}", api.spec);
            assert_eq!(attempts, 2, "{}", api.spec);
        }
    }
}

#[tokio::test]
async fn garbage_truncated_and_timeouts_are_named_when_they_persist() {
    for api in apis() {
        for (template, want) in [
            (
                ResponseTemplate::new(200).set_body_string("<html>garbage"),
                "not valid JSON",
            ),
            (
                ResponseTemplate::new(200).set_body_string("{\"content\": [{\"ty"),
                "not valid JSON",
            ),
            (
                ResponseTemplate::new(200).set_body_json(json!({"unexpected": true})),
                "in the reply",
            ),
            (
                ResponseTemplate::new(200).set_delay(Duration::from_secs(2)),
                "timed out",
            ),
        ] {
            let server = MockServer::start().await;
            Mock::given(method("POST"))
                .respond_with(template)
                .mount(&server)
                .await;
            let (r, attempts, _) = call(provider(&api, &server).as_ref()).await;
            let e = r.expect_err(api.spec).to_string();
            assert!(e.contains(want), "{}: {e}", api.spec);
            assert_eq!(attempts, 4, "{}: 1 + 3 retries", api.spec);
        }
    }
}

#[tokio::test]
async fn client_errors_fail_fast_without_retry() {
    for api in apis() {
        for status in [400, 401, 403, 404] {
            let server = MockServer::start().await;
            Mock::given(method("POST"))
                .respond_with(ResponseTemplate::new(status).set_body_json(
                    json!({"error": {"message": format!("invalid key {FAKE_KEY}")}}),
                ))
                .mount(&server)
                .await;
            let (r, attempts, _) = call(provider(&api, &server).as_ref()).await;
            let e = r.unwrap_err();
            assert_eq!(attempts, 1, "{}: {status} must not be retried", api.spec);
            assert_eq!(e.fatal(), status != 400);
            let msg = e.to_string();
            assert!(msg.contains(&format!("HTTP {status}")), "{msg}");
            assert!(
                !msg.contains(FAKE_KEY),
                "key echoed by the server is scrubbed: {msg}"
            );
        }
    }
}

#[tokio::test]
async fn missing_key_is_named() {
    for api in apis() {
        let server = MockServer::start().await;
        let p = providers::build(&config(&api, &server, 1.0), &|_| None).unwrap();
        let e = p.ready().unwrap_err().to_string();
        assert!(e.contains("_API_KEY is not set"), "{}: {e}", api.spec);
    }
    // Local servers need no key.
    let server = MockServer::start().await;
    let mut c = ModelConfig::from_spec("openai-compatible:m").unwrap();
    c.base_url = Some(server.uri());
    assert!(providers::build(&c, &|_| None).unwrap().ready().is_ok());
}

#[tokio::test]
async fn a_reply_cut_at_the_token_limit_reports_finish_length() {
    for api in apis() {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path(api.path))
            .respond_with(
                ResponseTemplate::new(200).set_body_json((api.cut.0)("{\"q001\": 1, \"q0")),
            )
            .mount(&server)
            .await;
        let (r, attempts, _) = call(provider(&api, &server).as_ref()).await;
        let r = r.unwrap_or_else(|e| panic!("{}: {e}", api.spec));
        assert_eq!(
            attempts, 1,
            "{}: a cut answer is an answer, not retried",
            api.spec
        );
        assert_eq!(r.finish, Some(Finish::Length), "{}", api.spec);
        assert_eq!(r.finish_reason.as_deref(), Some(api.cut.1), "{}", api.spec);
    }
    // Other reasons keep their raw name and normalise.
    let server = MockServer::start().await;
    let apis = apis();
    let mut filtered = chat_ok("");
    filtered["choices"][0]["finish_reason"] = json!("content_filter");
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(filtered))
        .mount(&server)
        .await;
    let r = call(provider(&apis[1], &server).as_ref()).await.0.unwrap();
    assert_eq!(r.finish, Some(Finish::ContentFilter));
}

/// A prompt Gemini blocks comes back as a 200 with `promptFeedback.blockReason` and no
/// candidates (google.genai types: `GenerateContentResponse.prompt_feedback`): a final
/// content-filter answer, asked once.
#[tokio::test]
async fn a_blocked_gemini_prompt_is_a_final_content_filter_answer() {
    let gemini = apis().swap_remove(3);
    let server = MockServer::start().await;
    let blocked = json!({"promptFeedback": {"blockReason": "SAFETY", "safetyRatings": []},
        "usageMetadata": {"promptTokenCount": 150, "totalTokenCount": 150},
        "modelVersion": "gemini-test-001"});
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(blocked))
        .mount(&server)
        .await;
    let (r, attempts, _) = call(provider(&gemini, &server).as_ref()).await;
    let r = r.unwrap();
    assert_eq!(attempts, 1, "a blocked prompt is not retried");
    assert_eq!(r.finish, Some(Finish::ContentFilter));
    assert_eq!(r.finish_reason.as_deref(), Some("prompt blocked: SAFETY"));
    assert_eq!((r.output.as_str(), r.usage.input), ("", 150));
    // A body with neither candidates nor a block reason is still a bad body, retried.
    server.reset().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"usageMetadata": {}})))
        .mount(&server)
        .await;
    let (r, attempts, _) = call(provider(&gemini, &server).as_ref()).await;
    assert!(matches!(r, Err(ProviderError::BadBody { .. })), "{r:?}");
    assert_eq!(attempts, 4);
}

/// Anthropic's thinking tokens, where the usage breaks them down, are the call's reasoning.
#[tokio::test]
async fn anthropic_thinking_tokens_are_read_as_reasoning() {
    let anthropic = apis().swap_remove(0);
    let server = MockServer::start().await;
    let mut body = anthropic_ok("{\"q001\": 1}");
    body["usage"]["output_tokens"] = json!(900);
    body["usage"]["output_tokens_details"] = json!({"thinking_tokens": 870});
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(body))
        .mount(&server)
        .await;
    let r = call(provider(&anthropic, &server).as_ref())
        .await
        .0
        .unwrap();
    assert_eq!((r.usage.output, r.usage.reasoning), (900, 870));
}

#[test]
fn a_run_on_cut_replies_records_finish_and_truncated_answers() {
    use bench::dataset::{Structure, Variant};
    use bench::formats::Format;
    use bench::runner::{Plan, QuestionMode, sequential};
    use bench::tokens::Tokenizer;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let api = &apis()[1];
    let server = rt.block_on(MockServer::start());
    rt.block_on(
        Mock::given(method("POST"))
            .respond_with(
                ResponseTemplate::new(200).set_body_json((api.cut.0)("{\"q001\": 3, \"q0")),
            )
            .mount(&server),
    );
    let tmp = tempfile::tempdir().unwrap();
    let plan = Plan {
        formats: vec![Format::Csv],
        structures: vec![Structure::Flat],
        variants: vec![Variant::Mandatory],
        records: vec![3],
        seed: 1,
        runs: 1,
        tokenizers: vec![Tokenizer::O200kBase],
        output_root: tmp.path().to_path_buf(),
        question_mode: QuestionMode::OnePrompt,
        prompt_variants: 1,
        shuffle: false,
        shard: None,
        primers: vec![false],
        suite: bench::suites::product(),
    };
    let p = providers::build(&config(api, &server, 2.0), &fake_env).unwrap();
    let outcome = rt.block_on(sequential(&plan, vec![p])).unwrap();
    let text = std::fs::read_to_string(&outcome.jsonl).unwrap();
    let results: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|l| l["type"] == "result")
        .map(|l| l["data"].clone())
        .collect();
    assert!(!results.is_empty());
    for r in &results {
        assert_eq!(r["finish"], "length");
        assert_eq!(r["finish_reason"], "length");
        let metrics = r["metrics"].as_array().unwrap();
        assert_eq!(metrics.len(), 124);
        // What was answered before the cut is graded; the rest is `truncated`, not wrong.
        let q1 = metrics.iter().find(|m| m["metric"] == "q001").unwrap();
        assert_eq!(q1["actual"], 3, "{q1:?}");
        assert_ne!(q1["failure"], "truncated");
        assert!(
            metrics
                .iter()
                .filter(|m| m["metric"] != "q001")
                .all(|m| m["failure"] == "truncated" && m["reason"] == "missing"),
            "{:?}",
            metrics[1]
        );
    }
}
