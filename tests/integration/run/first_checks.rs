//! The order of a run's first steps and its token basis (issue 50): nothing is asked of a
//! server before the output root, the plan and the known window are checked (item 1); a
//! counter that answers in another shape is an answer, fallen back from at once and not asked
//! again (item 4); every suite's data tokens rest on one rule, said on its report (item 7).

use crate::support::{parse, results, run_dir, run_in};
use bench::runlog::Line;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use wiremock::matchers::{any, method, path};
use wiremock::{Mock, MockServer, Request as Received, Respond, ResponseTemplate};

/// A chat completion answering `text`.
fn completion(text: &str) -> Value {
    json!({"id": "c", "object": "chat.completion", "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 900, "completion_tokens": 20, "total_tokens": 920}})
}

/// The plan of the runs here: two small renderings, one run.
const PLAN: [&str; 10] = [
    "--formats",
    "csv,json_compact",
    "--structures",
    "flat",
    "--variants",
    "mandatory",
    "--records",
    "5",
    "--runs",
    "1",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_is_asked_of_a_server_before_the_output_root_and_the_window_are_checked() {
    // Every request is answered 404: a counter probe, a window probe or a call would show.
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(404))
        .mount(&server)
        .await;
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let base = format!("{}/v1", server.uri());
    let cfg = tmp.path().join("models.toml");
    std::fs::write(
        &cfg,
        format!(
            "[[models]]\nprovider = \"anthropic\"\nmodel = \"claude-haiku-4-5\"\n\
             base_url = \"{}\"\nmax_tokens = 1000\ncontext_tokens = 3000\n",
            server.uri()
        ),
    )
    .unwrap();
    let (dir, root) = (tmp.path().to_path_buf(), file.join("data"));
    let outs = tokio::task::spawn_blocking(move || {
        let model = ["--provider", "openai-compatible:m", "--base-url", &base];
        let unwritable = run_in(&dir, &["run"])
            .args(model)
            .args(PLAN)
            .root(&root)
            .output();
        let sweep = run_in(&dir, &["sweep"])
            .args(model)
            .args(["--records", "5", "--max-records", "10"])
            .root(&root)
            .output();
        let window = run_in(&dir, &["recommend", "--config", cfg.to_str().unwrap()])
            .args(["--records", "31"])
            .env("ANTHROPIC_API_KEY", "sk-ant-fake")
            .output();
        [unwritable, sweep, window]
    })
    .await
    .unwrap();
    for (what, out) in ["run", "sweep"].iter().zip(&outs) {
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{what}: {err}");
        assert!(err.contains("cannot write to"), "{what}: {err}");
        assert!(err.contains("is a file, not a folder"), "{what}: {err}");
        assert!(
            !err.contains("o200k_base"),
            "no counting step: {what}: {err}"
        );
    }
    let err = String::from_utf8_lossy(&outs[2].stderr);
    assert_eq!(outs[2].status.code(), Some(2), "{err}");
    assert!(err.contains("do not fit"), "{err}");
    let asked = server.received_requests().await.unwrap();
    let asked: Vec<String> = asked.iter().map(|r| r.url.path().to_string()).collect();
    assert!(asked.is_empty(), "requests before the refusals: {asked:?}");
    assert!(!tmp.path().join("data").exists(), "nothing written");
}

/// `/apply-template` answered with a chat completion (a proxy that routes every POST to its
/// chat endpoint); counts its requests.
struct WrongShape;

impl Respond for WrongShape {
    fn respond(&self, _: &Received) -> ResponseTemplate {
        ResponseTemplate::new(200).set_body_json(completion("hello"))
    }
}

/// A local model server whose token counter at `counter` answers as `respond` and whose chat
/// completions answer `text`.
async fn model_server(counter: &str, respond: impl Respond + 'static, text: &str) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(counter))
        .respond_with(respond)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion(text)))
        .mount(&server)
        .await;
    server
}

/// `bench run` of the local model at `server`, under a temporary folder (returned with the
/// output: it holds the run).
async fn run_model(
    server: &MockServer,
    args: &[&str],
) -> (std::process::Output, tempfile::TempDir) {
    let tmp = tempfile::tempdir().unwrap();
    let base = format!("{}/v1", server.uri());
    let model = ["--provider", "openai-compatible:m", "--base-url", &base];
    let out = run_in(tmp.path(), &["run"])
        .args(model)
        .args(args)
        .output_blocking()
        .await;
    (out, tmp)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_counter_answering_in_another_shape_is_fallen_back_from_at_once() {
    let server = model_server("/apply-template", WrongShape, "{}").await;
    let started = Instant::now();
    let (out, _tmp) = run_model(&server, &[&PLAN[..], &["--no-report"]].concat()).await;
    let took = started.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    let said: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("its rankings rest on o200k_base"))
        .collect();
    assert_eq!(said.len(), 1, "one line: {err}");
    assert!(said[0].contains("/apply-template"), "{}", said[0]);
    let asked = server.received_requests().await.unwrap();
    let templates = asked
        .iter()
        .filter(|r| r.url.path() == "/apply-template")
        .count();
    assert_eq!(templates, 1, "asked once, not again: {err}");
    assert!(
        took < Duration::from_secs(8),
        "{took:?} before the run ended: {err}"
    );
}

/// A vLLM-like `/tokenize`: a token per 4 characters of the messages' text.
struct Tokenize;

impl Respond for Tokenize {
    fn respond(&self, req: &Received) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap();
        let chars: usize = body["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m["content"].as_str())
            .map(|t| t.chars().count())
            .sum();
        ResponseTemplate::new(200).set_body_json(json!({"count": chars / 4 + 3}))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tasks_suite_ranks_by_the_providers_counts_and_its_report_says_so() {
    let server = model_server("/tokenize", Tokenize, "The total is 42.").await;
    let tasks = ["--suite", "tasks", "--task-ids", "FIN-001"];
    let plan = ["--formats", "csv,json_compact", "--runs", "1"];
    let (out, tmp) = run_model(&server, &[&tasks[..], &plan].concat()).await;
    let stdout = crate::support::success_stdout(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("rest on o200k_base"), "{err}");
    assert!(
        stdout.contains("data_tokens"),
        "the ranking shows them: {stdout}"
    );
    let dir = run_dir(&tmp.path().join("data"));
    let lines = parse(&dir.join("tasks.jsonl"));
    let Line::Metadata(meta) = &lines[0] else {
        panic!("metadata first")
    };
    let basis = meta.providers[0].token_basis.clone().unwrap();
    assert!(
        basis["basis"].as_str().unwrap().ends_with("/tokenize"),
        "{basis}"
    );
    let rs = results(&lines);
    assert!(!rs.is_empty());
    assert!(rs.iter().all(|r| r.billed_data_tokens.is_some()), "billed");
    let md = std::fs::read_to_string(dir.join("tasks/BENCHMARK_REPORT.md")).unwrap();
    assert!(
        md.contains("data tokens in rankings and efficiency: `openai-compatible/m` as its provider counts them ("),
        "{md}"
    );
}
