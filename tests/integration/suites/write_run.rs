//! The `write` suite end to end: the reference's round-trip proof on the bundled cases and on
//! users' records, repairs against a mock model (first shot 0, final 1, both turns' tokens
//! summed; a document that never parses), and the structured-output request body of each
//! provider in its API's documented shape.

use crate::support::mocks::{FirstThenLater, WRITE_CASE, apis, config, fake_env};
use crate::support::run_in;
use bench::prompt::Message;
use bench::providers::{self, Request};
use serde_json::{Value, json};
use std::path::Path;
use wiremock::{Mock, MockServer, ResponseTemplate};

/// Runs `bench run --suite write` with `args` under `root`; the run's result lines.
fn run(root: &Path, args: &[&str]) -> Vec<bench::runlog::ResultRecord> {
    run_in(
        root,
        &["run", "--suite", "write", "--runs", "1", "--no-report"],
    )
    .args(args)
    .ok()
    .results("write.jsonl")
}

#[test]
fn reference_writes_every_bundled_case_in_every_format_exactly() {
    let tmp = tempfile::tempdir().unwrap();
    let rs = run(tmp.path(), &["--formats", "all", "--records", "3"]);
    // 9 bundled documents and 4 product slices, 3 kinds each, in 12 formats and json_schema,
    // less the renderings CSV and Markdown tables cannot hold.
    assert!(rs.len() > 300, "{}", rs.len());
    for r in &rs {
        let w = &bench::suites::write::scores(r).unwrap().unwrap();
        assert!(
            w.first.exact && w.last.exact,
            "{} {:?}",
            r.sample.tag,
            w.last
        );
        assert_eq!(w.repairs, 0);
    }
    let schema = rs
        .iter()
        .filter(|r| bench::suites::write::scores(r).unwrap().unwrap().mode == "json_schema")
        .count();
    assert_eq!(schema, (9 + 4) * 3);
}

#[test]
fn reference_writes_users_records_exactly() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks/examples");
    for file in ["earthquakes.json", "airports.csv"] {
        let tmp = tempfile::tempdir().unwrap();
        let data = examples.join(file);
        let rs = run(
            tmp.path(),
            &["--data", data.to_str().unwrap(), "--formats", "all"],
        );
        assert!(rs.len() >= 3 * 3 * 10, "{file}: {}", rs.len());
        let bad: Vec<&str> = rs
            .iter()
            .filter(|r| !bench::suites::write::scores(r).unwrap().unwrap().last.exact)
            .map(|r| r.sample.tag.as_str())
            .collect();
        assert!(bad.is_empty(), "{file}: {bad:?}");
    }
}

fn mock_run(first: &str, later: &str, repairs: &str) -> bench::runlog::ResultRecord {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(MockServer::start());
    rt.block_on(
        Mock::given(wiremock::matchers::method("POST"))
            .respond_with(FirstThenLater {
                first: first.into(),
                later: later.into(),
            })
            .mount(&server),
    );
    let tmp = tempfile::tempdir().unwrap();
    let cases = tmp.path().join("cases.json");
    std::fs::write(&cases, WRITE_CASE).unwrap();
    let uri = format!("{}/v1", server.uri());
    let rs = run(
        tmp.path(),
        &[
            "--provider",
            "openai-compatible:m",
            "--base-url",
            &uri,
            "--formats",
            "json_compact",
            "--no-json-schema",
            "--repairs",
            repairs,
            "--cases",
            cases.to_str().unwrap(),
            // A failed turn is what some of these runs are about; it must not fail the run.
            "--max-failed-share",
            "1",
        ],
    );
    assert_eq!(rs.len(), 1);
    rs[0].clone()
}

#[test]
fn a_right_document_after_one_repair_counts_first_shot_0_final_1_and_both_turns() {
    let good = "```json\n{\"pair\":[{\"id\":1,\"name\":\"Ann\"},{\"id\":2,\"name\":\"Bo\"}]}\n```";
    let r = mock_run(
        "```json\n{\"pair\":[{\"id\":1,\"name\":\"Ann\"},\n```",
        good,
        "2",
    );
    let w = &bench::suites::write::scores(&r).unwrap().unwrap();
    assert!(!w.first.exact && !w.first.parsed, "{w:?}");
    assert_eq!(w.first.failure.as_deref(), Some("unparseable"));
    assert!(w.last.exact, "{w:?}");
    assert_eq!(w.repairs, 1);
    assert_eq!(r.metrics[0].passed, 1);
    // Input 100 + 300 (the second turn carries three messages), output 10 + 10.
    assert_eq!((r.usage.input, r.usage.output), (400, 20));
    assert_eq!(r.turns.len(), 2);
    let input: Vec<&str> = r.sample.input.iter().map(|m| m.role.as_str()).collect();
    assert_eq!(input, ["user", "assistant", "user"]);
    assert!(
        r.sample.input[2]
            .content
            .starts_with("Your document could not be parsed: ")
    );
}

#[test]
fn a_document_that_never_parses_spends_every_repair_and_says_why() {
    let r = mock_run(
        "```json\n{\"pair\": [\n```",
        "```json\n{\"pair\": [\n```",
        "2",
    );
    let w = &bench::suites::write::scores(&r).unwrap().unwrap();
    assert_eq!(w.repairs, 2);
    assert_eq!(r.turns.len(), 3);
    assert!(!w.last.parsed);
    assert_eq!(w.last.failure.as_deref(), Some("unparseable"));
    assert_eq!(r.metrics[0].passed, 0);
    assert_eq!(r.usage.output, 30);
    // With --repairs 0 the first reply is final.
    let r = mock_run("```json\n{\"pair\": [\n```", "unused", "0");
    assert_eq!(
        (
            bench::suites::write::scores(&r).unwrap().unwrap().repairs,
            r.turns.len()
        ),
        (0, 0)
    );
}

#[test]
fn a_failed_repair_turn_is_an_error_that_keeps_the_first_turns_usage() {
    let r = mock_run("```json\n{\"pair\": [\n```", "HTTP 400", "2");
    assert!(
        r.error.as_deref().is_some_and(|e| e.contains("400")),
        "{:?}",
        r.error
    );
    let w = &bench::suites::write::scores(&r).unwrap().unwrap();
    assert_eq!(w.first.failure.as_deref(), Some("unparseable"));
    // The first turn was answered and paid for: its tokens stay in the record.
    assert_eq!((r.usage.input, r.usage.output), (100, 10));
    assert_eq!(r.turns.len(), 1);
    let roles: Vec<&str> = r.sample.input.iter().map(|m| m.role.as_str()).collect();
    assert_eq!(roles, ["user", "assistant", "user"]);
}

#[tokio::test]
async fn structured_output_bodies_have_each_apis_documented_shape() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "integer"}},
                        "required": ["a"], "additionalProperties": false});
    let messages = [
        Message::new("user", "Write it."),
        Message::new("assistant", "```json\n{\"a\":\n```"),
        Message::new(
            "user",
            "Your document could not be parsed: EOF. Reply with the corrected document only.",
        ),
    ];
    for api in apis() {
        let server = MockServer::start().await;
        Mock::given(wiremock::matchers::method("POST"))
            .respond_with(ResponseTemplate::new(200).set_body_json((api.ok)("{\"a\": 1}")))
            .mount(&server)
            .await;
        let p = providers::build(&config(&api, &server, 5.0), &fake_env).unwrap();
        assert!(p.structured_output().is_ok(), "{}", api.spec);
        let req = Request {
            schema: Some(&schema),
            ..Request::new(&messages)
        };
        p.complete(&req).await.unwrap();
        let sent = &server.received_requests().await.unwrap()[0];
        let body: Value = serde_json::from_slice(&sent.body).unwrap();
        match api.spec.split(':').next().unwrap() {
            // platform.openai.com/docs/guides/structured-outputs (Chat Completions).
            "openai" => assert_eq!(
                body["response_format"],
                json!({"type": "json_schema",
                       "json_schema": {"name": "document", "strict": true, "schema": schema}})
            ),
            // The Responses API puts the same under `text.format`.
            "openai-responses" => assert_eq!(
                body["text"]["format"],
                json!({"type": "json_schema", "name": "document", "strict": true, "schema": schema})
            ),
            // docs.claude.com structured outputs (GA): `output_config.format`.
            "anthropic" => {
                assert_eq!(
                    body["output_config"]["format"],
                    json!({"type": "json_schema", "schema": schema})
                );
                let roles: Vec<&str> = body["messages"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m["role"].as_str().unwrap())
                    .collect();
                assert_eq!(
                    roles,
                    ["user", "assistant", "user"],
                    "a repair is a real turn"
                );
            }
            // ai.google.dev structured output: JSON MIME type and `responseJsonSchema`.
            "gemini" => {
                let c = &body["generationConfig"];
                assert_eq!(c["responseMimeType"], json!("application/json"));
                assert_eq!(c["responseJsonSchema"], schema);
                let roles: Vec<&str> = body["contents"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m["role"].as_str().unwrap())
                    .collect();
                assert_eq!(roles, ["user", "model", "user"]);
            }
            other => panic!("unknown api {other}"),
        }
    }
}
