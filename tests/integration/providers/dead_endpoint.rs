//! A provider with nothing behind it, and a provider that fails some calls: a server that
//! cannot be reached before it ever answered is stopped after a few tries with one line saying
//! where; one that answered is retried as before; the exit status and the summary say when a
//! provider gave no answer or too many calls failed; `--base-url` goes to one provider only and
//! is joined without doubling its version.

use crate::support::mocks::{FAKE_KEY, apis, config, fake_env};
use crate::support::{bench, parse, results, run_dir};
use bench::prompt::Message;
use bench::providers::{self, Provider, ProviderError, Request};
use bench::runlog::{Line, SummaryRecord};
use bench::runner::limits::Limits;
use bench::runner::{self, Model, Options, RetryPolicy, Stop, retry};
use serde_json::Value;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

/// A port on this machine with nothing listening: bound, then let go.
fn dead_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// A server that answers one request with `body` and then stops listening (every later
/// connection is refused): a server that was there once.
fn answers_once(body: Value) -> u16 {
    answers_times(body, 1)
}

/// [`answers_once`] for the first `times` requests (a provider whose token counter is asked
/// first needs one more).
fn answers_times(body: Value, times: usize) -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for _ in 0..times {
            let (mut s, _) = l.accept().unwrap();
            let mut buf = Vec::new();
            let mut chunk = [0u8; 4096];
            // Headers, then the body of the length they give.
            loop {
                let n = s.read(&mut chunk).unwrap();
                buf.extend_from_slice(&chunk[..n]);
                let text = String::from_utf8_lossy(&buf).to_string();
                if let Some(end) = text.find("\r\n\r\n") {
                    let len = text[..end]
                        .lines()
                        .find_map(|l| {
                            let (k, v) = l.split_once(':')?;
                            k.eq_ignore_ascii_case("content-length")
                                .then(|| v.trim().parse::<usize>().ok())?
                        })
                        .unwrap_or(0);
                    if buf.len() >= end + 4 + len {
                        break;
                    }
                }
                if n == 0 {
                    break;
                }
            }
            let body = body.to_string();
            let reply = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            s.write_all(reply.as_bytes()).unwrap();
        }
        // The listener is dropped with the thread: the port refuses from now on.
    });
    port
}

fn policy(max_retries: usize) -> RetryPolicy {
    RetryPolicy {
        max_retries,
        base: Duration::from_millis(5),
        max_delay: Duration::from_millis(20),
        max_wait: Duration::from_secs(5),
    }
}

/// One call through the retry policy; the outcome and the attempts it took.
async fn call(
    p: &dyn Provider,
    max_retries: usize,
    answered: &AtomicBool,
) -> (Result<providers::Response, ProviderError>, u32) {
    let messages = vec![Message {
        role: "user".into(),
        content: "DATA BLOCK\nQUESTIONS".into(),
    }];
    let req = Request::new(&messages);
    let limits = Limits::new(1, None, None, 1).unwrap();
    let a = retry::send(
        p,
        &limits,
        &req,
        100,
        &policy(max_retries),
        answered,
        &|| false,
    )
    .await;
    (a.result, a.attempts)
}

/// Each wire API's provider pointed at `base` (its own path suffix added).
fn provider_at(api: &crate::support::mocks::Api, base: &str) -> Box<dyn Provider> {
    let mut c = bench::providers::ModelConfig::from_spec(api.spec).unwrap();
    c.base_url = Some(format!("{base}{}", api.base_suffix));
    c.timeout_secs = Some(5.0);
    providers::build(&c, &fake_env).unwrap()
}

#[tokio::test]
async fn a_refused_connection_is_named_and_tried_a_few_times_until_the_server_answered() {
    for api in apis() {
        let port = dead_port();
        let p = provider_at(&api, &format!("http://127.0.0.1:{port}"));
        let never = AtomicBool::new(false);
        let (r, attempts) = call(p.as_ref(), 6, &never).await;
        let e = r.expect_err(api.spec);
        assert!(e.unreachable(), "{}: {e:?}", api.spec);
        assert_eq!(attempts, retry::UNREACHABLE_TRIES, "{}", api.spec);
        let msg = e.to_string();
        let at = format!("nothing is listening at http://127.0.0.1:{port} ");
        assert!(msg.contains(&at), "{msg}");
        assert_eq!(msg.matches("127.0.0.1").count(), 1, "{msg}");
        assert!(!msg.contains('\n') && !msg.contains(FAKE_KEY), "{msg}");
        // Once the provider has answered, the same fault is retried as the policy allows.
        let before = AtomicBool::new(true);
        let (r, attempts) = call(p.as_ref(), 6, &before).await;
        assert!(r.unwrap_err().unreachable());
        assert_eq!(attempts, 7, "{}: 1 + 6 retries", api.spec);
    }
}

#[tokio::test]
async fn an_answer_marks_the_provider_as_there_so_a_later_refusal_is_retried() {
    for api in apis() {
        let port = answers_once((api.ok)("{\"q001\": 1}"));
        let p = provider_at(&api, &format!("http://127.0.0.1:{port}"));
        let answered = AtomicBool::new(false);
        let (first, _) = call(p.as_ref(), 6, &answered).await;
        assert!(first.is_ok(), "{}: {first:?}", api.spec);
        assert!(answered.load(Ordering::Relaxed), "{}", api.spec);
        let (r, attempts) = call(p.as_ref(), 6, &answered).await;
        assert!(r.unwrap_err().unreachable(), "{}", api.spec);
        assert_eq!(attempts, 7, "{}: retried as before", api.spec);
    }
}

#[tokio::test]
async fn a_failed_tls_handshake_is_named() {
    // A plain-HTTP server asked over https.
    let server = MockServer::start().await;
    let api = &apis()[1];
    let port = server.address().port();
    let p = provider_at(api, &format!("https://127.0.0.1:{port}"));
    let (r, _) = call(p.as_ref(), 0, &AtomicBool::new(false)).await;
    let e = r.unwrap_err();
    assert!(e.unreachable(), "{e:?}");
    let msg = e.to_string();
    assert!(
        msg.starts_with(&format!(
            "the TLS handshake with https://127.0.0.1:{port} failed"
        )),
        "{msg}"
    );
}

/// A plan of two renderings, two runs each, at one provider, without warm-ups.
fn small_plan(root: &Path) -> runner::Plan {
    runner::Plan {
        formats: vec![
            bench::formats::Format::Csv,
            bench::formats::Format::JsonCompact,
        ],
        runs: 2,
        ..crate::support::one_table_plan(root)
    }
}

async fn run_one(root: &Path, cfg: bench::providers::ModelConfig) -> runner::Outcome {
    let model = Model {
        provider: providers::build(&cfg, &fake_env).unwrap(),
        config: cfg,
    };
    let opts = Options {
        warmup: Some(false),
        cache: None,
        retry: policy(4),
        ..Options::default()
    };
    runner::run(
        &small_plan(root),
        vec![model],
        opts,
        None,
        Arc::new(bench::runner::progress::Silent),
        Arc::new(Stop::default()),
    )
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_provider_that_answered_keeps_being_retried_through_503s_and_refusals() {
    let api = &apis()[1];
    // Answers once, then 503 on every call: retried in full each time, never stopped.
    let tmp = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    // OpenAI's token counter (`/responses/input_tokens`) answers apart: the calls are counted.
    Mock::given(method("POST"))
        .and(wiremock::matchers::path_regex("/input_tokens$"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(serde_json::json!({"input_tokens": 10})),
        )
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json((api.ok)("{}")))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(503).set_body_string("unavailable"))
        .mount(&server)
        .await;
    let mut cfg = config(api, &server, 5.0);
    cfg.concurrency = Some(1);
    let outcome = run_one(tmp.path(), cfg).await;
    assert!(outcome.fatal.is_empty() && outcome.missing == 0);
    let calls = server.received_requests().await.unwrap();
    let calls = calls
        .iter()
        .filter(|r| !r.url.path().ends_with("/input_tokens"));
    assert_eq!(calls.count(), 1 + 3 * 5);
    assert!(outcome.summary.provider_issues.is_empty());
    // Answers once (after OpenAI's token counter is asked), then nothing listens: the
    // refusals are retried in full too.
    let tmp = tempfile::tempdir().unwrap();
    let port = answers_times((api.ok)("{}"), 2);
    let mut cfg = bench::providers::ModelConfig::from_spec(api.spec).unwrap();
    cfg.base_url = Some(format!("http://127.0.0.1:{port}{}", api.base_suffix));
    cfg.concurrency = Some(1);
    let outcome = run_one(tmp.path(), cfg).await;
    assert!(outcome.fatal.is_empty() && outcome.missing == 0);
    let lines = parse(&outcome.jsonl);
    let calls = results(&lines);
    assert_eq!(calls.len(), 4);
    let failed: Vec<_> = calls.iter().filter(|r| r.error.is_some()).collect();
    assert_eq!(failed.len(), 3);
    assert!(failed.iter().all(|r| r.attempts == 5), "1 + 4 retries each");
}

/// The summary line of a run log.
fn summary(jsonl: &Path) -> SummaryRecord {
    match parse(jsonl).pop() {
        Some(Line::Summary(s)) => *s,
        other => panic!("no summary line: {other:?}"),
    }
}

#[test]
fn a_dead_endpoint_stops_the_run_fast_and_says_where_then_resume_sends_the_rest() {
    let tmp = tempfile::tempdir().unwrap();
    let (cache, root) = (tmp.path().join("cache"), tmp.path().join("data"));
    let port = dead_port();
    let base = format!("http://127.0.0.1:{port}/v1");
    let started = Instant::now();
    // The issue's command, at default retries and plan.
    let out = bench(&cache)
        .args([
            "run",
            "--provider",
            "ollama:llama3.1:8b",
            "--base-url",
            &base,
        ])
        .arg("--output-root")
        .arg(&root)
        .output()
        .unwrap();
    let took = started.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(took < Duration::from_secs(60), "took {took:?}");
    let at = format!("nothing is listening at http://127.0.0.1:{port} ");
    let stop = err
        .lines()
        .find(|l| l.contains("stopped calling it"))
        .unwrap_or_else(|| panic!("no stop line: {err}"));
    assert!(
        stop.contains(&at) && stop.contains("after 3 tries"),
        "{stop}"
    );
    assert_eq!(stop.matches(&format!(":{port}")).count(), 1, "{stop}");
    assert!(!stdout.contains("0.0%"), "no ranking of zeros: {stdout}");
    // A server never reached leaves no run folder and no report of 0 answers (issue 54): the
    // last line says so, and no `--resume` is offered for a run that asked nothing.
    let last = err.lines().last().unwrap_or_default();
    assert!(
        last.contains(
            "no server was ever reached, so nothing was asked: no run folder or report is kept"
        ),
        "{err}"
    );
    assert!(!err.contains("--resume"), "{err}");
    let benchmarks = root.join("benchmarks");
    assert!(
        !benchmarks.exists(),
        "a run folder or an empty benchmarks/ was kept under {}",
        root.display()
    );

    // The same command at a server that is there runs as usual.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(crate::support::mocks::answering((apis()[1].ok)(
        "{\"q001\": 1}",
    )));
    let out = bench(&cache)
        .args([
            "run",
            "--provider",
            "ollama:llama3.1:8b",
            "--formats",
            "csv",
            "--runs",
            "1",
        ])
        .args([
            "--structures",
            "flat",
            "--variants",
            "mandatory",
            "--no-report",
            "--base-url",
        ])
        .arg(format!("{}/v1", server.uri()))
        .arg("--output-root")
        .arg(&root)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let s = summary(&run_dir(&root).join("formats.jsonl"));
    assert!(s.provider_issues.is_empty() && !s.interrupted);
}

/// A chat server that answers every `every`-th call with a 400 (not retried, not fatal) and
/// the others with an answer.
async fn failing_every(every: u64) -> MockServer {
    struct Every(u64, AtomicU64);
    impl wiremock::Respond for Every {
        fn respond(&self, _: &wiremock::Request) -> ResponseTemplate {
            let i = self.1.fetch_add(1, Ordering::Relaxed);
            if i % self.0 == self.0 - 1 {
                ResponseTemplate::new(400)
                    .set_body_json(serde_json::json!({"error": {"message": "bad request"}}))
            } else {
                ResponseTemplate::new(200).set_body_json((apis()[1].ok)("{\"q001\": 1}"))
            }
        }
    }
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(Every(every, AtomicU64::new(0)))
        .mount(&server)
        .await;
    server
}

#[test]
fn too_many_failed_calls_or_no_answer_fail_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let run = |server: &MockServer, extra: &[&str]| {
        bench(&cache)
            .args([
                "run",
                "--formats",
                "csv,json_compact",
                "--runs",
                "3",
                "--warmup",
                "off",
            ])
            .args(["--structures", "flat", "--variants", "mandatory"])
            .args(["--provider", "openai-compatible:m", "--base-url"])
            .arg(format!("{}/v1", server.uri()))
            .args(["--no-cache", "--no-report", "--concurrency", "1"])
            .arg("--output-root")
            .arg(tmp.path().join("data"))
            .args(extra)
            .output()
            .unwrap()
    };
    // 2 of 6 calls fail: above the default share.
    let server = rt.block_on(failing_every(3));
    let out = run(&server, &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let last = err.lines().last().unwrap_or_default();
    assert!(
        last.contains("2 of 6 calls failed (33.3 %, more than --max-failed-share 0.1)"),
        "{last}"
    );
    // The same with a share that allows it: a success.
    let server = rt.block_on(failing_every(3));
    let out = run(&server, &["--max-failed-share", "0.5"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Every call fails (not fatal, not retried): no answers, no ranking of zeros.
    let server = rt.block_on(failing_every(1));
    let out = run(&server, &["--max-failed-share", "1"]);
    let err = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("no answers from openai-compatible/m (6 failed): "),
        "{err}"
    );
    assert!(
        err.lines()
            .last()
            .unwrap_or_default()
            .contains("no answers from openai-compatible/m: every call failed"),
        "{err}"
    );
    assert!(!stdout.contains("0.0%"), "{stdout}");
    // A share is a number from 0 to 1.
    let out = run(&server, &["--max-failed-share", "10"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn base_url_goes_to_one_provider_and_its_version_is_not_doubled() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let out = bench(&cache)
        .args(["run", "--provider", "openai-compatible:m"])
        .args(["--provider", "anthropic:claude-haiku-4-5"])
        .args([
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--dry-run",
            "--show-requests",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("openai-compatible:m, anthropic:claude-haiku-4-5") && err.contains("--config"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!err.contains("  "), "one line of prose: {err}");
    // One provider takes it; the offline reference takes none.
    let out = bench(&cache)
        .args(["run", "--provider", "anthropic:claude-haiku-4-5"])
        .args(["--provider", "reference"])
        .args([
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--dry-run",
            "--show-requests",
        ])
        .output()
        .unwrap();
    let stdout = crate::support::success_stdout(&out);
    assert!(
        stdout.contains("POST http://127.0.0.1:9/v1/messages "),
        "{stdout}"
    );
    assert!(!stdout.contains("/v1/v1/"), "{stdout}");
}

#[test]
fn base_url_goes_to_every_model_of_the_one_kind_that_takes_it() {
    // One vLLM or LM Studio serving two models, and one Ollama serving two: the most common
    // local comparison takes one --base-url.
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    for kind in ["openai-compatible", "ollama"] {
        let out = bench(&cache)
            .args(["run", "--provider", &format!("{kind}:a")])
            .args([
                "--provider",
                &format!("{kind}:b"),
                "--provider",
                "reference",
            ])
            .args(["--base-url", "http://127.0.0.1:9/v1", "--dry-run"])
            .args(["--show-requests", "--formats", "csv"])
            .output()
            .unwrap();
        let stdout = crate::support::success_stdout(&out);
        let posts = stdout
            .matches("POST http://127.0.0.1:9/v1/chat/completions ")
            .count();
        assert!(
            posts >= 2,
            "{kind}: both models go to the one server: {stdout}"
        );
        for m in ["\"model\": \"a\"", "\"model\": \"b\""] {
            assert!(stdout.contains(m), "{kind}: {m}: {stdout}");
        }
    }
    // Two kinds of one wire family still take one URL each: refused, naming both kinds.
    let out = bench(&cache)
        .args(["run", "--provider", "ollama:a", "--provider", "ollama:b"])
        .args(["--provider", "openai-compatible:c"])
        .args(["--base-url", "http://127.0.0.1:9/v1", "--dry-run"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("ollama, openai-compatible"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// A base URL without `/v1` (issue 54): the server's 404 names the URL that answered it and the
/// `/v1` base OpenAI-compatible servers expect, and no `--resume` is suggested (a resumed run
/// calls the same URL); it said only "HTTP 404: not found — stopped calling it; … bench run
/// --resume … completes the run".
#[test]
fn a_404_names_the_url_and_the_v1_base_and_suggests_no_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(async {
        let s = MockServer::start().await;
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(404).set_body_string("not found"))
            .mount(&s)
            .await;
        s
    });
    let out = bench(&tmp.path().join("cache"))
        .args(["run", "--formats", "csv", "--runs", "1", "--warmup", "off"])
        .args(["--structures", "flat", "--variants", "mandatory"])
        .args([
            "--provider",
            "openai-compatible:m",
            "--base-url",
            &server.uri(),
        ])
        .args(["--no-cache", "--no-report", "--output-root"])
        .arg(tmp.path().join("data"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let url = format!("{}/chat/completions", server.uri());
    assert!(err.contains(&format!("from {url}")), "{err}");
    assert!(
        err.contains(&format!("--base-url {}/v1", server.uri())),
        "{err}"
    );
    assert!(!err.contains("--resume"), "{err}");
}

/// A server whose every answer is wrong (issue 54): the terminal says so once, the report says
/// it at the top and recommends no format (it showed `use csv` beside "no format to
/// recommend" and listed every question under "check the key").
#[test]
fn every_answer_wrong_is_said_once_and_nothing_is_recommended() {
    let tmp = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(async {
        let s = MockServer::start().await;
        Mock::given(method("POST"))
            .respond_with(
                ResponseTemplate::new(200).set_body_json((apis()[1].ok)("{\"q001\": \"zzz\"}")),
            )
            .mount(&s)
            .await;
        s
    });
    let root = tmp.path().join("data");
    let out = bench(&tmp.path().join("cache"))
        .args([
            "run",
            "--formats",
            "csv,json_compact",
            "--runs",
            "1",
            "--warmup",
            "off",
        ])
        .args(["--structures", "flat", "--variants", "mandatory"])
        .args(["--provider", "openai-compatible:m", "--base-url"])
        .arg(format!("{}/v1", server.uri()))
        .arg("--output-root")
        .arg(&root)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("every answer was wrong").count(), 1, "{err}");
    let report =
        std::fs::read_to_string(run_dir(&root).join("formats").join("BENCHMARK_REPORT.md"))
            .unwrap();
    assert!(
        report.contains("**Every answer was wrong.**"),
        "{report:.2000}"
    );
    assert!(
        !report.contains("**`csv`**") && !report.contains("Check the key"),
        "{report:.4000}"
    );
}
