//! Every wire API against a local wiremock server: usage parsed, 429 + Retry-After honored,
//! 5xx and timeouts retried, garbage and truncated bodies reported, 401 failing fast.

use crate::support::mocks::{
    Api, FAKE_KEY, answer_every_post, answering, anthropic_ok, apis, chat_ok, config, fake_env,
};
use bench::prompt::Message;
use bench::providers::{self, Finish, ModelConfig, Provider, ProviderError, Request};
use bench::runner::limits::Limits;
use bench::runner::retry::{self, RetryPolicy};
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

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
        answerable: None,
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
    let apis = apis();
    let mut filtered = chat_ok("");
    filtered["choices"][0]["finish_reason"] = json!("content_filter");
    let server = answering(filtered).await;
    let r = call(provider(&apis[1], &server).as_ref()).await.0.unwrap();
    assert_eq!(r.finish, Some(Finish::ContentFilter));
}

/// A prompt Gemini blocks comes back as a 200 with `promptFeedback.blockReason` and no
/// candidates (google.genai types: `GenerateContentResponse.prompt_feedback`): a final
/// content-filter answer, asked once.
#[tokio::test]
async fn a_blocked_gemini_prompt_is_a_final_content_filter_answer() {
    let gemini = apis().swap_remove(3);
    let blocked = json!({"promptFeedback": {"blockReason": "SAFETY", "safetyRatings": []},
        "usageMetadata": {"promptTokenCount": 150, "totalTokenCount": 150},
        "modelVersion": "gemini-test-001"});
    let server = answering(blocked).await;
    let (r, attempts, _) = call(provider(&gemini, &server).as_ref()).await;
    let r = r.unwrap();
    assert_eq!(attempts, 1, "a blocked prompt is not retried");
    assert_eq!(r.finish, Some(Finish::ContentFilter));
    assert_eq!(r.finish_reason.as_deref(), Some("prompt blocked: SAFETY"));
    assert_eq!((r.output.as_str(), r.usage.input), ("", 150));
    // A body with neither candidates nor a block reason is still a bad body, retried.
    server.reset().await;
    answer_every_post(&server, json!({"usageMetadata": {}})).await;
    let (r, attempts, _) = call(provider(&gemini, &server).as_ref()).await;
    assert!(matches!(r, Err(ProviderError::BadBody { .. })), "{r:?}");
    assert_eq!(attempts, 4);
}

/// Anthropic's thinking tokens, where the usage breaks them down, are the call's reasoning.
#[tokio::test]
async fn anthropic_thinking_tokens_are_read_as_reasoning() {
    let anthropic = apis().swap_remove(0);
    let mut body = anthropic_ok("{\"q001\": 1}");
    body["usage"]["output_tokens"] = json!(900);
    body["usage"]["output_tokens_details"] = json!({"thinking_tokens": 870});
    let server = answering(body).await;
    let r = call(provider(&anthropic, &server).as_ref())
        .await
        .0
        .unwrap();
    assert_eq!((r.usage.output, r.usage.reasoning), (900, 870));
}

#[test]
fn a_run_on_cut_replies_records_finish_and_truncated_answers() {
    use bench::runner::{Plan, sequential};

    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let api = &apis()[1];
    let server = rt.block_on(answering((api.cut.0)("{\"q001\": 3, \"q0")));
    let tmp = tempfile::tempdir().unwrap();
    let plan = Plan {
        records: vec![3],
        seed: 1,
        ..crate::support::one_table_plan(tmp.path())
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
