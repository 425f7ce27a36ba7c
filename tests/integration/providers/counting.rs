//! Token counting as each provider does it, against local mocks shaped after the official
//! request and reply types: Anthropic `count_tokens` (`MessageTokensCount`, its error object),
//! Gemini `countTokens` (`CountTokensResponse`, its `google.rpc.Status` error), llama.cpp's
//! `/apply-template` + `/tokenize` and vLLM's `/tokenize` (`TokenizeResponse`) at the server's
//! root, OpenAI's `responses/input_tokens` (`InputTokenCountResponse`), Ollama without a
//! counter; then `bench tokens --provider`, `bench run` and `bench run --dry-run
//! --count-with-provider` as a user runs them.

use crate::support::mocks::{FAKE_KEY, fake_env};
use crate::support::{assert_key_nowhere, bench, parse, results, run_in};
use bench::prompt::Message;
use bench::providers::{self, ModelConfig, Provider, ProviderError, Request};
use bench::runlog::Line;
use bench::runner::tokens::counter::Counter;
use serde_json::{Value, json};
use wiremock::matchers::{body_partial_json, header, method, path};
use wiremock::{Mock, MockServer, Request as Received, Respond, ResponseTemplate, Times};

fn messages() -> Vec<Message> {
    vec![Message {
        role: "user".into(),
        content: "Data:\nid,name\n1,a\n\nQuestion: how many?".into(),
    }]
}

fn provider(spec: &str, base: String) -> Box<dyn Provider> {
    let mut c = ModelConfig::from_spec(spec).unwrap();
    c.base_url = Some(base);
    c.timeout_secs = Some(5.0);
    providers::build(&c, &fake_env).unwrap()
}

/// A mock server answering every request at `p` with `status` and `body`, asked `times`.
async fn replying(p: &str, status: u16, body: Value, times: impl Into<Times>) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(path(p))
        .respond_with(ResponseTemplate::new(status).set_body_json(body))
        .expect(times)
        .mount(&server)
        .await;
    server
}

/// The bodies `server` received at `p`.
async fn bodies(server: &MockServer, p: &str) -> Vec<Value> {
    server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .filter(|r| r.url.path() == p)
        .map(|r| serde_json::from_slice(&r.body).unwrap())
        .collect()
}

#[tokio::test]
async fn anthropic_count_tokens_gets_the_messages_without_generation_settings() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/messages/count_tokens"))
        .and(header("x-api-key", FAKE_KEY))
        .and(header("anthropic-version", "2023-06-01"))
        .and(body_partial_json(json!({"model": "claude-test"})))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"input_tokens": 1234})))
        .expect(1)
        .mount(&server)
        .await;
    let p = provider("anthropic:claude-test", server.uri());
    assert_eq!(p.counter().unwrap(), "anthropic count_tokens");
    let m = messages();
    assert_eq!(p.count_tokens(&Request::new(&m)).await.unwrap(), 1234);
    let sent = &bodies(&server, "/v1/messages/count_tokens").await[0];
    assert!(sent.get("max_tokens").is_none(), "{sent}");
    assert!(sent.get("temperature").is_none(), "{sent}");
    let text = sent["messages"][0]["content"].to_string();
    assert!(text.contains("Question: how many?"), "{text}");
}

#[tokio::test]
async fn anthropic_errors_are_retried_or_named_and_never_hold_the_key() {
    let server = MockServer::start().await;
    // A rate limit with the server's wait, then the count.
    Mock::given(path("/v1/messages/count_tokens"))
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("retry-after", "1")
                .set_body_json(json!({"type": "error", "error": {"type": "rate_limit_error",
                    "message": "Number of request tokens has exceeded your per-minute rate limit"}})),
        )
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(path("/v1/messages/count_tokens"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"input_tokens": 77})))
        .mount(&server)
        .await;
    let p = provider("anthropic:claude-test", server.uri());
    let mut counter = Counter::new(p.as_ref(), None, None).unwrap();
    let m = messages();
    let started = std::time::Instant::now();
    assert_eq!(counter.count(&Request::new(&m)).await.unwrap(), 77);
    assert!(
        started.elapsed().as_secs_f64() >= 0.9,
        "the server's wait was not honoured"
    );

    // A bad key fails at once, named, without the key.
    let error = json!({"type": "error",
        "error": {"type": "authentication_error", "message": "invalid x-api-key"}});
    let bad = replying("/v1/messages/count_tokens", 401, error, 1).await;
    let p = provider("anthropic:claude-test", bad.uri());
    let mut counter = Counter::new(p.as_ref(), None, None).unwrap();
    let e = counter.count(&Request::new(&m)).await.unwrap_err();
    assert!(
        matches!(e, ProviderError::Status { status: 401, .. }),
        "{e}"
    );
    assert!(e.to_string().contains("invalid x-api-key"), "{e}");
    assert!(!e.to_string().contains(FAKE_KEY));
}

#[tokio::test]
async fn gemini_count_tokens_wraps_the_generate_request() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1beta/models/gemini-test:countTokens"))
        .and(header("x-goog-api-key", FAKE_KEY))
        .and(body_partial_json(
            json!({"generateContentRequest": {"model": "models/gemini-test"}}),
        ))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({"totalTokens": 321,
            "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 321}]})),
        )
        .expect(1)
        .mount(&server)
        .await;
    let p = provider("gemini:gemini-test", server.uri());
    assert_eq!(p.counter().unwrap(), "gemini countTokens");
    let m = messages();
    assert_eq!(p.count_tokens(&Request::new(&m)).await.unwrap(), 321);
    let sent = &bodies(&server, "/v1beta/models/gemini-test:countTokens").await[0];
    let contents = &sent["generateContentRequest"]["contents"];
    assert_eq!(contents[0]["role"], "user", "{sent}");

    // An invalid argument is an error with Google's message.
    let error = json!({"error": {"code": 400,
        "message": "* CountTokensRequest.contents: contents is not specified",
        "status": "INVALID_ARGUMENT"}});
    let bad = replying("/v1beta/models/gemini-test:countTokens", 400, error, ..).await;
    let p = provider("gemini:gemini-test", bad.uri());
    let e = p.count_tokens(&Request::new(&m)).await.unwrap_err();
    assert!(e.to_string().contains("contents is not specified"), "{e}");
}

#[tokio::test]
async fn llama_cpp_counts_the_templated_prompt_at_the_server_root() {
    let server = MockServer::start().await;
    let prompt = "<|im_start|>user\nData:\nid,name\n1,a\n\nQuestion: how many?<|im_end|>\n<|im_start|>assistant\n";
    Mock::given(method("POST"))
        .and(path("/apply-template"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"prompt": prompt})))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/tokenize"))
        .and(body_partial_json(
            json!({"content": prompt, "add_special": true}),
        ))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"tokens": (1..=29).collect::<Vec<_>>()})),
        )
        .mount(&server)
        .await;
    // The base URL a user gives ends in /v1; /tokenize is not under it.
    let p = provider("openai-compatible:smollm2", format!("{}/v1", server.uri()));
    assert_eq!(p.counter().unwrap(), format!("{}/tokenize", server.uri()));
    let m = messages();
    assert_eq!(p.count_tokens(&Request::new(&m)).await.unwrap(), 29);
    assert_eq!(p.count_tokens(&Request::new(&m)).await.unwrap(), 29);
}

#[tokio::test]
async fn vllm_counts_the_messages_when_there_is_no_apply_template() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/tokenize"))
        .and(body_partial_json(
            json!({"model": "qwen", "add_generation_prompt": true}),
        ))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"count": 41, "max_model_len": 32768, "tokens": (0..41).collect::<Vec<_>>()}),
        ))
        .mount(&server)
        .await;
    // wiremock answers 404 to /apply-template: not llama.cpp.
    let p = provider("openai-compatible:qwen", format!("{}/v1", server.uri()));
    let m = messages();
    assert_eq!(p.count_tokens(&Request::new(&m)).await.unwrap(), 41);
    assert_eq!(p.count_tokens(&Request::new(&m)).await.unwrap(), 41);
    // The dialect is learnt once: /apply-template was asked only the first time.
    assert_eq!(bodies(&server, "/apply-template").await.len(), 1);
    let sent = &bodies(&server, "/tokenize").await[0];
    assert_eq!(sent["messages"][0]["content"], m[0].content.as_str());
}

#[tokio::test]
async fn openai_counts_with_input_tokens_and_ollama_says_it_cannot() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/responses/input_tokens"))
        .and(header(
            "authorization",
            format!("Bearer {FAKE_KEY}").as_str(),
        ))
        .and(body_partial_json(json!({"model": "gpt-4o"})))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"object": "response.input_tokens", "input_tokens": 321})),
        )
        .expect(2)
        .mount(&server)
        .await;
    let m = messages();
    // Chat Completions and Responses models alike: the Responses body, without the
    // generation settings.
    for spec in ["openai:gpt-4o", "openai-responses:gpt-4o"] {
        let p = provider(spec, format!("{}/v1", server.uri()));
        assert_eq!(p.counter().unwrap(), "openai input_tokens");
        assert_eq!(p.count_tokens(&Request::new(&m)).await.unwrap(), 321);
    }
    for sent in bodies(&server, "/v1/responses/input_tokens").await {
        assert_eq!(sent["input"][0]["role"], "user", "{sent}");
        assert_eq!(sent["input"][0]["content"], m[0].content.as_str(), "{sent}");
        for k in [
            "max_output_tokens",
            "max_completion_tokens",
            "temperature",
            "store",
            "messages",
        ] {
            assert!(sent.get(k).is_none(), "{k}: {sent}");
        }
    }
    let ollama = provider("ollama:llama3", format!("{}/v1", server.uri()));
    let why = ollama.counter().unwrap_err();
    assert!(why.contains("Ollama"), "{why}");
    assert!(
        providers::from_spec("reference")
            .unwrap()
            .counter()
            .is_err()
    );
}

#[tokio::test]
async fn openai_counter_errors_are_named_and_never_hold_the_key() {
    let error = json!({"error": {"message": format!("internal error for key {FAKE_KEY}"),
        "type": "server_error"}});
    let server = replying("/v1/responses/input_tokens", 500, error, ..).await;
    let m = messages();
    let p = provider("openai:gpt-4o", format!("{}/v1", server.uri()));
    let e = p.count_tokens(&Request::new(&m)).await.unwrap_err();
    assert!(
        matches!(e, ProviderError::Status { status: 500, .. }),
        "{e}"
    );
    assert!(e.retryable(), "{e}");
    assert!(!e.to_string().contains(FAKE_KEY), "{e}");

    // A 2xx of another shape: a bad body, said as such.
    let shape = json!({"object": "response.input_tokens"});
    let odd = replying("/v1/responses/input_tokens", 200, shape, ..).await;
    let p = provider("openai:gpt-4o", format!("{}/v1", odd.uri()));
    let e = p.count_tokens(&Request::new(&m)).await.unwrap_err();
    assert!(matches!(e, ProviderError::BadBody { .. }), "{e}");
    assert!(e.to_string().contains("input_tokens"), "{e}");
}

/// Counts an input_tokens request as its text's bytes / 4.
struct ByInput;

impl Respond for ByInput {
    fn respond(&self, r: &Received) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&r.body).unwrap();
        let n = body["input"].to_string().len() as u64 / 4;
        ResponseTemplate::new(200)
            .set_body_json(json!({"object": "response.input_tokens", "input_tokens": n}))
    }
}

/// A Chat Completions answer (its grade does not matter here).
fn chat_answer() -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({"id": "c", "object": "chat.completion",
        "model": "gpt-4o-2024-08-06",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "{}"},
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 900, "completion_tokens": 2, "total_tokens": 902}}))
}

/// A mock OpenAI whose `responses/input_tokens` answers as `counter` and whose chat
/// completions answer `chat_answer`.
async fn openai_server(counter: impl Respond + 'static) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/responses/input_tokens"))
        .respond_with(counter)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(chat_answer())
        .mount(&server)
        .await;
    server
}

/// `bench run` of one csv rendering with `openai:gpt-4o` at `server`, under `dir`: its
/// stderr, and the metadata line and result lines of its log.
fn openai_run(server: &MockServer, dir: &std::path::Path) -> (String, Value, Vec<Value>) {
    let ran = run_in(dir, &["run", "--formats", "csv", "--structures", "flat"])
        .args(["--variants", "mandatory", "--records", "5", "--runs", "1"])
        .args(["--no-cache", "--provider", "openai:gpt-4o", "--base-url"])
        .args([format!("{}/v1", server.uri())])
        .env("OPENAI_API_KEY", FAKE_KEY)
        .ok();
    let log = bench::runlog::run_logs(&ran.dir()).unwrap()[0].clone();
    let lines = parse(&log);
    let meta = lines
        .iter()
        .find_map(|l| match l {
            Line::Metadata(m) => Some(serde_json::to_value(m).unwrap()),
            _ => None,
        })
        .unwrap();
    let rs = results(&lines)
        .iter()
        .map(|r| serde_json::to_value(r).unwrap())
        .collect();
    (ran.stderr, meta, rs)
}

/// `bench tokens` of one csv rendering with `openai:gpt-4o` at `server`, caching under `dir`.
fn openai_tokens(server: &MockServer, dir: &std::path::Path) -> std::process::Output {
    bench(&dir.join("cache"))
        .args(["tokens", "--provider", "openai:gpt-4o", "--formats", "csv"])
        .args(["--structures", "flat", "--variants", "mandatory"])
        .env("OPENAI_BASE_URL", format!("{}/v1", server.uri()))
        .env("OPENAI_API_KEY", FAKE_KEY)
        .output()
        .unwrap()
}

#[tokio::test]
async fn an_openai_run_rests_on_input_tokens_and_bench_tokens_shows_them() {
    let server = openai_server(ByInput).await;
    let tmp = tempfile::tempdir().unwrap();
    let (stderr, meta, rs) = openai_run(&server, tmp.path());
    assert!(
        stderr.contains(
            "openai:gpt-4o: data tokens as openai input_tokens counts them: 1 renderings, \
             2 counts (0 from cache)"
        ),
        "{stderr}"
    );
    assert_eq!(
        meta["providers"][0]["token_basis"],
        json!({"basis": "openai input_tokens"})
    );
    assert!(!rs.is_empty());
    for r in &rs {
        assert_eq!(r["token_basis"], "openai input_tokens", "{r}");
        assert!(r["billed_data_tokens"].as_u64().unwrap() > 0, "{r}");
    }
    assert_eq!(bodies(&server, "/v1/responses/input_tokens").await.len(), 2);

    let tokens = openai_tokens(&server, tmp.path());
    let shown = String::from_utf8_lossy(&tokens.stdout);
    let err = String::from_utf8_lossy(&tokens.stderr);
    assert!(tokens.status.success(), "{shown}\n{err}");
    assert!(
        shown.contains("as openai input_tokens counts them"),
        "{shown}"
    );
    assert!(
        shown.contains("2 counts: 2 sent to the counter, 0 from the cache"),
        "{shown}"
    );
    // The key is nowhere: not on screen, not in the log or the count cache.
    assert!(!stderr.contains(FAKE_KEY));
    assert_key_nowhere(FAKE_KEY, tmp.path(), &[&tokens]);
}

#[tokio::test]
async fn an_openai_run_whose_counter_fails_falls_back_to_o200k_base_said_once() {
    // An answer of another shape (asked once, never again), then a server error (retried,
    // then given up): either way the run goes on, its rankings on o200k_base, said once.
    let odd = ResponseTemplate::new(200).set_body_json(json!({"object": "response.input_tokens"}));
    let failed = ResponseTemplate::new(500)
        .set_body_json(json!({"error": {"message": "boom", "type": "server_error"}}));
    for (reply, asked) in [(odd, 1), (failed, 5)] {
        let server = openai_server(reply).await;
        let tmp = tempfile::tempdir().unwrap();
        let (stderr, meta, rs) = openai_run(&server, tmp.path());
        let warnings: Vec<&str> = stderr
            .lines()
            .filter(|l| l.contains("rest on o200k_base"))
            .collect();
        assert_eq!(warnings.len(), 1, "{stderr}");
        assert!(
            warnings[0].starts_with(
                "warning: openai:gpt-4o: its rankings rest on o200k_base, not on the tokens it \
                 bills: counting csv flat mandatory (5 records) with openai input_tokens failed"
            ),
            "{stderr}"
        );
        assert!(!stderr.contains(FAKE_KEY), "{stderr}");
        let basis = &meta["providers"][0]["token_basis"];
        assert_eq!(basis["fallback"], "o200k_base", "{basis}");
        assert!(rs.iter().all(|r| r["billed_data_tokens"].is_null()));
        assert_eq!(
            bodies(&server, "/v1/responses/input_tokens").await.len(),
            asked
        );
        if asked == 1 {
            // `bench tokens --provider` has nothing to show without the counts: one line, exit 1.
            let tokens = openai_tokens(&server, tmp.path());
            let err = String::from_utf8_lossy(&tokens.stderr);
            assert_eq!(tokens.status.code(), Some(1), "{err}");
            assert_eq!(err.trim().lines().count(), 1, "{err}");
            assert!(err.contains("with openai input_tokens failed"), "{err}");
            assert!(!err.contains(FAKE_KEY), "{err}");
        }
    }
}

/// Counts a count_tokens request as its text's bytes / 4, except that every line break costs
/// 100 more: under these counts CSV (a line per record) is dearer than JSON compact (one line),
/// the opposite of o200k_base.
struct ByText;

impl Respond for ByText {
    fn respond(&self, r: &Received) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&r.body).unwrap();
        let text = body["messages"].to_string();
        let breaks = text.matches("\\n").count() as u64;
        ResponseTemplate::new(200)
            .set_body_json(json!({"input_tokens": text.len() as u64 / 4 + 100 * breaks}))
    }
}

#[tokio::test]
async fn bench_tokens_with_a_provider_counts_caches_and_names_the_cheapest_both_ways() {
    let server = MockServer::start().await;
    Mock::given(path("/v1/messages/count_tokens"))
        .respond_with(ByText)
        .mount(&server)
        .await;
    let tmp = tempfile::tempdir().unwrap();
    let args = [
        "tokens",
        "--provider",
        "anthropic:claude-test",
        "--formats",
        "csv,json_compact",
        "--structures",
        "flat",
        "--variants",
        "mandatory",
    ];
    let tokens = || {
        bench(tmp.path())
            .args(args)
            .env("ANTHROPIC_BASE_URL", server.uri())
            .env("ANTHROPIC_API_KEY", FAKE_KEY)
            .output()
            .unwrap()
    };
    let first = tokens();
    let out = String::from_utf8_lossy(&first.stdout);
    let err = String::from_utf8_lossy(&first.stderr);
    assert!(first.status.success(), "{out}\n{err}");
    assert!(out.contains("anthropic count_tokens"), "{out}");
    assert!(
        out.contains("own count") && out.contains("o200k_base"),
        "{out}"
    );
    assert!(
        out.contains("cheapest under o200k_base: csv") && out.contains("own counts: json_compact"),
        "{out}"
    );
    assert!(
        out.contains("4 counts: 4 sent to the counter, 0 from the cache"),
        "{out}"
    );
    // Again: every count from the cache, no request.
    let before = server.received_requests().await.unwrap().len();
    let again = tokens();
    let out2 = String::from_utf8_lossy(&again.stdout);
    assert!(
        out2.contains("0 sent to the counter, 4 from the cache"),
        "{out2}"
    );
    assert_eq!(server.received_requests().await.unwrap().len(), before);
    // The key is nowhere: not on screen, not in the cache.
    assert_key_nowhere(FAKE_KEY, tmp.path(), &[&first]);
}

#[test]
fn bench_tokens_says_in_one_line_when_a_provider_has_no_counter() {
    let tmp = tempfile::tempdir().unwrap();
    let out = bench(tmp.path())
        .args(["tokens", "--provider", "ollama:llama3", "--formats", "csv"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("ollama:llama3 has no token counter"), "{err}");
}

#[tokio::test]
async fn a_dry_run_says_what_its_prompt_tokens_rest_on() {
    let server = MockServer::start().await;
    Mock::given(path("/v1/messages/count_tokens"))
        .respond_with(ByText)
        .mount(&server)
        .await;
    let tmp = tempfile::tempdir().unwrap();
    let dry = |extra: &[&str]| {
        let out = bench(tmp.path())
            .args(["run", "--dry-run", "--provider", "anthropic:claude-test"])
            .args([
                "--formats",
                "csv",
                "--structures",
                "flat",
                "--variants",
                "mandatory",
            ])
            .args(["--output-root", tmp.path().to_str().unwrap()])
            .args(extra)
            .env("ANTHROPIC_BASE_URL", server.uri())
            .env("ANTHROPIC_API_KEY", FAKE_KEY)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let offline = dry(&[]);
    assert!(
        offline.contains("the offline vocabulary nearest claude-test: an approximation"),
        "{offline}"
    );
    assert!(
        offline.contains("no earlier run of claude-test"),
        "{offline}"
    );
    assert!(server.received_requests().await.unwrap().is_empty());
    // An earlier run of the model billed twice the offline count of its prompt.
    let text = "Data:\nid,name\n1,a\n\nQuestion: how many?";
    let offline_n = bench::tokens::Tokenizer::O200kBase.count(text);
    let earlier = tmp.path().join("benchmarks/2026-01-01_00-00-00");
    std::fs::create_dir_all(&earlier).unwrap();
    let line = json!({"type": "result", "data": {
        "provider_config": {"provider": "anthropic", "model": "claude-test"},
        "cached": false, "error": null, "usage": {"input": 2 * offline_n},
        "sample": {"input": [{"role": "user", "content": text}]}}});
    std::fs::write(earlier.join("formats.jsonl"), format!("{line}\n")).unwrap();
    let offline = dry(&[]);
    assert!(
        offline.contains("earlier runs of claude-test billed 2.00× that (1 calls under"),
        "{offline}"
    );
    let counted = dry(&["--count-with-provider"]);
    assert!(
        counted.contains("prompt tokens counted by anthropic count_tokens"),
        "{counted}"
    );
    assert_eq!(server.received_requests().await.unwrap().len(), 2);
}
