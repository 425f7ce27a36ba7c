//! The batch-API layer of every batch wire (Anthropic Message Batches, OpenAI Batch for Chat
//! Completions and Responses, Gemini batch mode) against local wiremock servers: what a submit
//! sends, polling to the end, mixed results parsed as the live API's, failed batches, cancel,
//! error classes and secrets.

use crate::support::mocks::{Api, FAKE_KEY, apis, config, fake_env};
use bench::prompt::Message;
use bench::providers::batch::{BatchApi, Item, Outcome, Phase, Status};
use bench::providers::{self, Finish, ModelConfig, Provider, ProviderError, Request, Response};
use serde_json::{Value, json};
use std::collections::HashMap;
use wiremock::matchers::{any, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

mod results;

/// Indexes into [`apis`].
const ANTHROPIC: usize = 0;
const CHAT: usize = 1;
const RESPONSES: usize = 2;
const GEMINI: usize = 3;
const ALL: [usize; 4] = [ANTHROPIC, CHAT, RESPONSES, GEMINI];

/// Where the tests' batches live.
const A_BATCH: &str = "/v1/messages/batches/msgbatch_1";
const O_BATCH: &str = "/v1/batches/batch_1";
const G_BATCH: &str = "/v1beta/batches/b1";
const A_POLL: &str = "GET /v1/messages/batches/msgbatch_1";
const O_POLL: &str = "GET /v1/batches/batch_1";
const G_POLL: &str = "GET /v1beta/batches/b1";
const O_ERRORS: &str = "GET /v1/files/file-err/content";

type Outcomes = HashMap<String, Outcome>;

/// API `i` of [`apis`], a mock server, and a provider pointed at it with the fake key.
async fn setup(i: usize) -> (Api, MockServer, Box<dyn Provider>) {
    let api = apis().swap_remove(i);
    let server = MockServer::start().await;
    let p = providers::build(&config(&api, &server, 5.0), &fake_env).unwrap();
    (api, server, p)
}

fn batch(p: &dyn Provider) -> &dyn BatchApi {
    p.batch().expect("a batch API")
}

/// The live request body of one prompt.
fn body(b: &dyn BatchApi, question: &str) -> Value {
    let messages = [Message {
        role: "user".into(),
        content: format!("DATA BLOCK\nQUESTION {question}"),
    }];
    b.body(&request(&messages))
}

fn request(m: &[Message]) -> Request<'_> {
    Request {
        messages: m,
        cache_prefix: 11,
        settings: Default::default(),
        answerable: None,
        schema: None,
    }
}

/// Two items whose bodies are what the live API would get for two prompts.
fn items(b: &dyn BatchApi) -> Vec<Item> {
    let item = |id: &str| Item {
        custom_id: id.into(),
        body: body(b, id),
    };
    vec![item("q-1"), item("q-2")]
}

/// Answers `"VERB /path"` (`POST`: any POST, `*`: anything) with `status` and `body` (a JSON
/// string is served as a JSONL file).
async fn respond(server: &MockServer, route: &str, status: u16, body: Value) {
    let t = ResponseTemplate::new(status);
    let t = match body {
        Value::String(text) => t.set_body_raw(text, "application/jsonl"),
        v => t.set_body_json(v),
    };
    let m = match route.split_once(' ') {
        Some((verb, p)) => Mock::given(method(verb)).and(path(p)),
        None if route == "POST" => Mock::given(method("POST")),
        None => Mock::given(any()),
    };
    m.respond_with(t).mount(server).await;
}

async fn reply(server: &MockServer, route: &str, body: Value) {
    respond(server, route, 200, body).await;
}

/// Answers `GET p` with `bodies` in turn; the last one repeats.
async fn successive(server: &MockServer, p: &str, bodies: Vec<Value>) {
    let n = bodies.len();
    for (i, b) in bodies.into_iter().enumerate() {
        let m = Mock::given(method("GET"))
            .and(path(p))
            .respond_with(ResponseTemplate::new(200).set_body_json(b))
            .with_priority(i as u8 + 1);
        let m = if i + 1 < n { m.up_to_n_times(1) } else { m };
        m.mount(server).await;
    }
}

/// Polls `id` once per expected `(state, phase, done, total)`; returns the last status.
async fn poll_through(b: &dyn BatchApi, id: &str, want: &[(&str, Phase, u64, u64)]) -> Status {
    let mut last = None;
    for (state, phase, done, total) in want {
        let s = b.poll(id).await.unwrap();
        let got = (s.state.as_str(), &s.phase, s.done, s.total);
        assert_eq!(got, (*state, phase, *done, *total), "{id}");
        last = Some(s);
    }
    last.unwrap()
}

/// Every outcome of `status`, by custom id.
async fn results(b: &dyn BatchApi, status: &Status) -> Outcomes {
    let all = b.results(status).await.unwrap().into_iter();
    all.map(|(k, o)| (k.expect("every result here names its id"), o))
        .collect()
}

/// Every outcome of batch `id`, polled once and ended.
async fn outcomes(b: &dyn BatchApi, id: &str) -> Outcomes {
    let status = b.poll(id).await.unwrap();
    assert_eq!(status.phase, Phase::Ended);
    results(b, &status).await
}

async fn received(server: &MockServer) -> Vec<wiremock::Request> {
    server.received_requests().await.unwrap()
}

fn hdr<'a>(r: &'a wiremock::Request, name: &str) -> &'a str {
    r.headers.get(name).map_or("", |v| v.to_str().unwrap())
}

fn json_of(r: &wiremock::Request) -> Value {
    serde_json::from_slice(&r.body).unwrap()
}

fn jsonl(lines: &[Value]) -> Value {
    Value::String(lines.iter().map(|l| format!("{l}\n")).collect())
}

/// The parts of a multipart form by name: (part headers, content).
fn multipart(r: &wiremock::Request) -> HashMap<String, (String, String)> {
    let ct = hdr(r, "content-type");
    let boundary = ct.split("boundary=").nth(1).expect("a boundary");
    let body = String::from_utf8(r.body.clone()).unwrap();
    body.split(&format!("--{}", boundary.trim_matches('"')))
        .filter_map(|part| {
            let (head, content) = part.split_once("\r\n\r\n")?;
            let name = head.split("name=\"").nth(1)?.split('"').next()?;
            let content = content.strip_suffix("\r\n").unwrap_or(content);
            Some((name.to_string(), (head.to_string(), content.to_string())))
        })
        .collect()
}

fn answer<'a>(o: &'a Outcomes, id: &str) -> &'a Response {
    let Some(Outcome::Answer(r)) = o.get(id) else {
        panic!("{id}: {:?}", o.get(id))
    };
    r
}

fn failed<'a>(o: &'a Outcomes, id: &str) -> &'a ProviderError {
    let Some(Outcome::Failed(e)) = o.get(id) else {
        panic!("{id}: {:?}", o.get(id))
    };
    e
}

/// An answer parsed exactly as the live parser parses `(api.ok)("ANSWER")`.
fn assert_live_answer(api: &Api, r: &Response, request_id: &str) {
    assert_eq!(r.output, "ANSWER", "{}: thinking left out", api.spec);
    assert_eq!(r.usage, api.usage, "{}", api.spec);
    assert_eq!(r.finish, Some(Finish::Stop), "{}", api.spec);
    assert_eq!(r.finish_reason.as_deref(), Some(api.stop), "{}", api.spec);
    assert_eq!(r.status, Some(200), "{}", api.spec);
    assert_eq!(r.request_id.as_deref(), Some(request_id), "{}", api.spec);
}

fn assert_status(e: &ProviderError, status: u16, retryable: bool, text: &str) {
    assert_eq!(e.status(), Some(status), "{e}");
    assert_eq!(e.retryable(), retryable, "{e}");
    assert!(e.to_string().contains(text), "{e} lacks {text:?}");
}

fn assert_no_key(e: &ProviderError, what: &str) {
    let text = e.to_string();
    let clean = !text.contains(FAKE_KEY) && text.contains("[redacted]");
    assert!(clean, "{what}: {text}");
}

fn anthropic_batch(status: &str, counts: [u64; 5], results_url: Option<String>) -> Value {
    let [processing, succeeded, errored, canceled, expired] = counts;
    json!({"id": "msgbatch_1", "type": "message_batch", "processing_status": status,
        "request_counts": {"processing": processing, "succeeded": succeeded, "errored": errored,
                           "canceled": canceled, "expired": expired},
        "results_url": results_url})
}

fn anthropic_error(kind: &str, message: &str) -> Value {
    json!({"type": "errored", "error": {"type": "error",
        "error": {"type": kind, "message": message}, "request_id": "req_err"}})
}

fn openai_batch(status: &str, [total, completed, failed]: [u64; 3]) -> Value {
    json!({"id": "batch_1", "object": "batch", "status": status, "errors": null,
        "output_file_id": null, "error_file_id": null,
        "request_counts": {"total": total, "completed": completed, "failed": failed}})
}

fn openai_line(id: &str, status: u16, body: Value) -> Value {
    json!({"id": format!("batch_req_{id}"), "custom_id": id,
        "response": {"status_code": status, "request_id": format!("req_{id}"), "body": body},
        "error": null})
}

fn openai_unrun(id: &str, code: &str) -> Value {
    json!({"id": format!("batch_req_{id}"), "custom_id": id, "response": null,
        "error": {"code": code, "message": format!("{code} happened")}})
}

/// A Gemini batch operation; `counts` are requestCount, successful, failed (int64: strings).
fn gemini_op(state: &str, [n, ok, failed]: [u64; 3]) -> Value {
    let done = !state.ends_with("PENDING") && !state.ends_with("RUNNING");
    json!({"name": "batches/b1", "done": done, "metadata": {"state": state, "batchStats": {
        "requestCount": n.to_string(), "successfulRequestCount": ok.to_string(),
        "failedRequestCount": failed.to_string()}}})
}

fn inlined(items: Value) -> Value {
    json!({"inlinedResponses": {"inlinedResponses": items}})
}

// ---------------------------------------------------------------------------------------------
// Submit

#[tokio::test]
async fn batch_bodies_are_the_bodies_the_live_path_sends() {
    for i in ALL {
        let (api, server, p) = setup(i).await;
        reply(&server, &format!("POST {}", api.path), (api.ok)("x")).await;
        let m = [Message {
            role: "user".into(),
            content: "DATA BLOCK\nQUESTION live".into(),
        }];
        p.complete(&request(&m)).await.unwrap();
        let live = json_of(&received(&server).await[0]);
        assert_eq!(body(batch(p.as_ref()), "live"), live, "{}", api.spec);
    }
}

#[tokio::test]
async fn anthropic_submit_sends_the_requests_inline() {
    let (_, server, p) = setup(ANTHROPIC).await;
    let created = json!({"id": "msgbatch_1"});
    reply(&server, "POST /v1/messages/batches", created).await;
    let b = batch(p.as_ref());
    let items = items(b);
    assert_eq!(b.submit(&items).await.unwrap(), "msgbatch_1");
    let reqs = received(&server).await;
    assert_eq!(reqs.len(), 1);
    let r = &reqs[0];
    assert_eq!(hdr(r, "x-api-key"), FAKE_KEY);
    assert_eq!(hdr(r, "anthropic-version"), "2023-06-01");
    let lines: Vec<Value> = (items.iter())
        .map(|i| json!({"custom_id": i.custom_id, "params": i.body}))
        .collect();
    let sent = json_of(r);
    assert_eq!(sent, json!({"requests": lines}));
    // The byte count the chunker uses never under-counts a request.
    for (item, line) in items.iter().zip(&lines) {
        assert!(b.item_bytes(item) > line.to_string().len());
    }
}

#[tokio::test]
async fn openai_submit_uploads_a_jsonl_file_then_creates_the_batch() {
    for (i, endpoint) in [(CHAT, "/v1/chat/completions"), (RESPONSES, "/v1/responses")] {
        let (api, server, p) = setup(i).await;
        let (file, created) = (json!({"id": "file-in"}), json!({"id": "batch_1"}));
        reply(&server, "POST /v1/files", file).await;
        reply(&server, "POST /v1/batches", created).await;
        let b = batch(p.as_ref());
        let items = items(b);
        assert_eq!(b.submit(&items).await.unwrap(), "batch_1", "{}", api.spec);
        let reqs = received(&server).await;
        let calls: Vec<_> = (reqs.iter())
            .map(|r| (r.method.as_str(), r.url.path()))
            .collect();
        assert_eq!(calls, [("POST", "/v1/files"), ("POST", "/v1/batches")]);
        for r in &reqs {
            assert_eq!(hdr(r, "authorization"), format!("Bearer {FAKE_KEY}"));
        }
        let parts = multipart(&reqs[0]);
        assert_eq!(parts["purpose"].1, "batch", "{}", api.spec);
        let (head, file) = &parts["file"];
        assert!(head.contains("filename=\"bench-batch.jsonl\""), "{head}");
        let lines: Vec<Value> = (file.lines())
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let expected: Vec<Value> = (items.iter())
            .map(|i| json!({"custom_id": i.custom_id, "method": "POST", "url": endpoint, "body": i.body}))
            .collect();
        assert_eq!(lines, expected, "{}", api.spec);
        // The chunker's byte count is exactly the uploaded file's size.
        let bytes: usize = items.iter().map(|it| b.item_bytes(it)).sum();
        assert_eq!(bytes, file.len(), "{}", api.spec);
        let create = json_of(&reqs[1]);
        assert_eq!(create["input_file_id"], "file-in");
        assert_eq!(create["endpoint"], endpoint);
        assert_eq!(create["completion_window"], "24h");
    }
}

#[tokio::test]
async fn gemini_submit_sends_inline_requests_keyed_in_metadata() {
    let (_, server, p) = setup(GEMINI).await;
    let route = "POST /v1beta/models/gemini-test:batchGenerateContent";
    reply(&server, route, json!({"name": "batches/b1"})).await;
    let b = batch(p.as_ref());
    let items = items(b);
    assert_eq!(b.submit(&items).await.unwrap(), "batches/b1");
    let reqs = received(&server).await;
    assert_eq!(reqs.len(), 1);
    let r = &reqs[0];
    assert_eq!(hdr(r, "x-goog-api-key"), FAKE_KEY);
    assert_eq!(r.url.query(), None, "the key goes in a header");
    let expected: Vec<Value> = (items.iter())
        .map(|i| json!({"request": i.body, "metadata": {"key": i.custom_id}}))
        .collect();
    let sent = &json_of(r)["batch"]["input_config"]["requests"]["requests"];
    assert_eq!(sent, &json!(expected));
}

#[tokio::test]
async fn errors_are_classified_never_resent_and_never_show_the_key() {
    let echo = format!("boom: invalid key {FAKE_KEY}");
    for i in ALL {
        for (code, retryable, fatal) in
            [(500, true, false), (401, false, true), (400, false, false)]
        {
            let (api, server, p) = setup(i).await;
            respond(&server, "*", code, json!({"error": {"message": echo}})).await;
            let b = batch(p.as_ref());
            let e = b.submit(&items(b)).await.unwrap_err();
            assert_status(&e, code, retryable, "boom: invalid key [redacted]");
            assert_eq!(e.fatal(), fatal, "{}: {e}", api.spec);
            // Creating a batch is not idempotent: the layer sends it once, the runner decides.
            assert_eq!(received(&server).await.len(), 1, "{}", api.spec);
            assert_no_key(&b.poll("b1").await.unwrap_err(), api.spec);
            assert_no_key(&b.cancel("b1").await.unwrap_err(), api.spec);
        }
        // Without a key nothing is sent.
        let (api, server, _) = setup(i).await;
        let no_env = |_: &str| None::<String>;
        let p = providers::build(&config(&api, &server, 5.0), &no_env).unwrap();
        let b = batch(p.as_ref());
        let e = b.submit(&items(b)).await.unwrap_err();
        assert!(matches!(e, ProviderError::MissingKey(_)), "{e}");
        assert!(received(&server).await.is_empty(), "{}", api.spec);
    }
}

// ---------------------------------------------------------------------------------------------
// Cancel

#[tokio::test]
async fn cancel_hits_each_apis_endpoint_and_a_404_is_an_error() {
    let table = [
        (ANTHROPIC, "msgbatch_1", A_BATCH, "/"),
        (CHAT, "batch_1", O_BATCH, "/"),
        (RESPONSES, "batch_1", O_BATCH, "/"),
        (GEMINI, "batches/b1", G_BATCH, ":"),
    ];
    for (i, id, batch_path, sep) in table {
        let cancel = &*format!("{batch_path}{sep}cancel");
        let (api, server, p) = setup(i).await;
        reply(&server, &format!("POST {cancel}"), json!({"id": id})).await;
        let b = batch(p.as_ref());
        b.cancel(id).await.unwrap();
        let reqs = received(&server).await;
        assert_eq!(reqs.len(), 1);
        let r = &reqs[0];
        assert_eq!((r.method.as_str(), r.url.path()), ("POST", cancel));
        assert_eq!(hdr(r, api.auth.0), api.auth.1, "{}", api.spec);
        // Any other batch is unknown.
        let gone = json!({"error": {"message": "not found"}});
        respond(&server, "*", 404, gone).await;
        let missing = id.replace('1', "9");
        let e = b.cancel(&missing).await.unwrap_err();
        assert_eq!(e.status(), Some(404), "{}: {e}", api.spec);
        let last = received(&server).await.pop().unwrap();
        assert_eq!(
            last.url.path(),
            cancel.replace(id, &missing),
            "{}",
            api.spec
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Secrets

#[tokio::test]
async fn errored_result_lines_never_show_the_key() {
    let leak = format!("bad header {FAKE_KEY}");
    let (_, server, p) = setup(ANTHROPIC).await;
    let url = Some(format!("{}/r", server.uri()));
    reply(&server, A_POLL, anthropic_batch("ended", [0; 5], url)).await;
    let lines = [json!({"custom_id": "a", "result": anthropic_error("api_error", &leak)})];
    reply(&server, "GET /r", jsonl(&lines)).await;
    let mut all = vec![outcomes(batch(p.as_ref()), "msgbatch_1").await];
    for i in [CHAT, RESPONSES] {
        let (_, server, p) = setup(i).await;
        let mut polled = openai_batch("completed", [2, 0, 2]);
        polled["error_file_id"] = json!("file-err");
        reply(&server, O_POLL, polled).await;
        let lines = [
            openai_line("b", 401, json!({"error": {"message": leak}})),
            json!({"custom_id": "c", "response": null, "error": {"code": "odd", "message": leak}}),
        ];
        reply(&server, O_ERRORS, jsonl(&lines)).await;
        all.push(outcomes(batch(p.as_ref()), "batch_1").await);
    }
    let ids: Vec<usize> = all.iter().map(HashMap::len).collect();
    assert_eq!(ids, [1, 2, 2]);
    for o in &all {
        for id in o.keys() {
            assert_no_key(failed(o, id), id);
        }
    }
}

#[tokio::test]
async fn gemini_errored_result_never_shows_the_key() {
    let (_, server, p) = setup(GEMINI).await;
    let mut op = gemini_op("BATCH_STATE_SUCCEEDED", [1, 0, 1]);
    let error = json!({"code": 16, "message": format!("API key {FAKE_KEY} not valid")});
    op["response"] = inlined(json!([{"error": error, "metadata": {"key": "a"}}]));
    reply(&server, G_POLL, op).await;
    let o = outcomes(batch(p.as_ref()), "batches/b1").await;
    assert_no_key(failed(&o, "a"), "gemini");
}

#[tokio::test]
async fn anthropic_fetches_a_foreign_results_url_from_its_own_host() {
    let (_, server, p) = setup(ANTHROPIC).await;
    let other = MockServer::start().await;
    let port = server.address().port();
    // A gateway passes on the API's results_url, on the API's host: only its path is used.
    let foreign = [
        ("http://127.0.0.2:1/x".to_string(), "/x"),
        (
            format!("{}{A_BATCH}/results", other.uri()),
            "/v1/messages/batches/msgbatch_1/results",
        ),
        (format!("https://127.0.0.1:{port}/results"), "/results"),
        (format!("http://127.0.0.1:{port}@127.0.0.2:1/r?k=v"), "/r"),
    ];
    let b = batch(p.as_ref());
    let line = json!({"custom_id": "a", "result": {"type": "expired"}}).to_string();
    for (url, at) in foreign {
        server.reset().await;
        let polled = anthropic_batch("ended", [0, 0, 0, 0, 1], Some(url.clone()));
        reply(&server, A_POLL, polled).await;
        Mock::given(method("GET"))
            .and(path(at))
            .respond_with(ResponseTemplate::new(200).set_body_string(format!("{line}\n")))
            .mount(&server)
            .await;
        let status = b.poll("msgbatch_1").await.unwrap();
        let got = b.results(&status).await.unwrap();
        assert!(
            matches!(got.as_slice(), [(Some(id), Outcome::Expired)] if id == "a"),
            "{url}"
        );
        let reqs = received(&server).await;
        assert_eq!(
            reqs.len(),
            2,
            "{url}: the poll and the results, both on our host"
        );
        assert_eq!(reqs[1].url.path(), at, "{url}");
    }
    assert!(
        received(&other).await.is_empty(),
        "the other host got nothing"
    );
}

// ---------------------------------------------------------------------------------------------
// Which providers batch, and how much

#[tokio::test]
async fn only_the_four_batch_wires_have_a_batch_api() {
    for spec in ["openai-compatible:m", "ollama:llama3", "reference"] {
        let mut c = ModelConfig::from_spec(spec).unwrap();
        c.base_url = (spec != "reference").then(|| "http://127.0.0.1:9/v1".to_string());
        let p = providers::build(&c, &fake_env).unwrap();
        assert!(p.batch().is_none(), "{spec}");
    }
    let caps = [
        (ANTHROPIC, 100_000, 256_000_000),
        (CHAT, 50_000, 200_000_000),
        (RESPONSES, 50_000, 200_000_000),
    ];
    for (i, requests, bytes) in caps {
        let (api, _server, p) = setup(i).await;
        let c = batch(p.as_ref()).caps();
        assert_eq!((c.requests, c.bytes), (requests, bytes), "{}", api.spec);
    }
    let (_, _server, p) = setup(GEMINI).await;
    let c = batch(p.as_ref()).caps();
    // Inline batches must stay under the 20 MB request limit.
    assert!(
        c.requests > 0 && c.bytes > 0 && c.bytes < 20_000_000,
        "{c:?}"
    );
}
