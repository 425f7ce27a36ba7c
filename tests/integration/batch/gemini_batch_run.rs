//! `bench run --batch` against a mock of Gemini's batch mode whose answers come back as users
//! of Google's SDKs report them: some without `metadata.key` (python-genai#2008, js-genai#1191),
//! keyed ones out of order (python-genai#1909). No paid batch is thrown away.

use super::batch_run::batch_run;
use crate::support::{parse, results, run_dir};
use bench::runlog::ResultRecord;
use bench::runner::ledger::custom_id;
use bench::runner::plan::SampleKey;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

const KEY: &str = "gemini-batch-0123456789-DO-NOT-LEAK";

/// How the first batch's answers come back (later batches answer every key, in order).
#[derive(Clone, Copy)]
enum First {
    /// In request order, the second answer without its key.
    InOrderOneKeyless,
    /// In reverse order, the last listed answer without its key.
    ReversedOneKeyless,
    /// In request order, the second one a retryable error (overloaded) without its key.
    InOrderOneKeylessRetryable,
}

/// The mock: the keys of each created batch, in request order.
struct Api {
    first: First,
    batches: Mutex<Vec<Vec<String>>>,
}

struct Create(Arc<Api>);
struct Poll(Arc<Api>);

impl Respond for Create {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap();
        let keys = body["batch"]["input_config"]["requests"]["requests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["metadata"]["key"].as_str().unwrap().to_string())
            .collect();
        let mut b = self.0.batches.lock().unwrap();
        b.push(keys);
        ResponseTemplate::new(200).set_body_json(json!({"name": format!("batches/b{}", b.len())}))
    }
}

/// A `generateContent` answer; `n` tells the answers apart in the log.
fn answer(n: usize) -> Value {
    json!({"candidates": [{"content": {"role": "model", "parts": [{"text": format!("answer {n}")}]},
        "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 1000, "candidatesTokenCount": 10},
        "responseId": format!("resp-{n}")})
}

impl Respond for Poll {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let i: usize = req.url.path().rsplit("/b").next().unwrap().parse().unwrap();
        let keys = self.0.batches.lock().unwrap()[i - 1].clone();
        let mut items: Vec<Value> = keys
            .iter()
            .enumerate()
            .map(|(n, k)| json!({"response": answer(n), "metadata": {"key": k}}))
            .collect();
        if i == 1 {
            match self.0.first {
                First::InOrderOneKeyless => {
                    items[1].as_object_mut().unwrap().remove("metadata");
                }
                First::InOrderOneKeylessRetryable => {
                    items[1] = json!({"error": {"code": 8, "message": "Resource exhausted"}});
                }
                First::ReversedOneKeyless => {
                    items.reverse();
                    items
                        .last_mut()
                        .unwrap()
                        .as_object_mut()
                        .unwrap()
                        .remove("metadata");
                }
            }
        }
        let n = keys.len().to_string();
        ResponseTemplate::new(200).set_body_json(json!({"name": format!("batches/b{i}"),
            "done": true, "metadata": {"state": "BATCH_STATE_SUCCEEDED",
                "batchStats": {"requestCount": n, "successfulRequestCount": n}},
            "response": {"inlinedResponses": {"inlinedResponses": items}}}))
    }
}

/// Runs a 4-call batch run (2 formats × 2 runs) against a mock answering as `first` says;
/// returns the mock's batches, bench's stderr and the run's result lines.
async fn run(first: First) -> (Vec<Vec<String>>, String, Vec<ResultRecord>) {
    let api = Arc::new(Api {
        first,
        batches: Mutex::default(),
    });
    let s = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1beta/models/gemini-2.5-flash:batchGenerateContent"))
        .respond_with(Create(api.clone()))
        .mount(&s)
        .await;
    Mock::given(method("GET"))
        .and(path_regex(r"^/v1beta/batches/b\d+$"))
        .respond_with(Poll(api.clone()))
        .mount(&s)
        .await;
    let tmp = tempfile::tempdir().unwrap();
    let out = batch_run("gemini:gemini-2.5-flash", &s.uri(), tmp.path())
        .env("GEMINI_API_KEY", KEY)
        .output_blocking()
        .await;
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains(KEY));
    let lines = parse(&run_dir(&tmp.path().join("data")).join("formats.jsonl"));
    let lines = results(&lines).into_iter().cloned().collect();
    let batches = api.batches.lock().unwrap().clone();
    (batches, stderr, lines)
}

#[tokio::test(flavor = "multi_thread")]
async fn an_answer_without_its_key_is_matched_by_position_and_flagged() {
    let (batches, stderr, lines) = run(First::InOrderOneKeyless).await;
    assert_eq!(batches.len(), 1, "nothing is submitted twice");
    assert!(
        stderr.contains("1 result(s) came back without their custom id")
            && stderr.contains("matched by position"),
        "{stderr}"
    );
    assert_eq!(lines.len(), 4);
    assert!(
        lines.iter().all(|r| r.error.is_none()),
        "every answer is kept"
    );
    let by_order: Vec<_> = lines
        .iter()
        .filter(|r| r.batch_matched_by.as_deref() == Some("order"))
        .collect();
    assert_eq!(by_order.len(), 1);
    // The second request of the batch got the second answer.
    assert_eq!(by_order[0].request_id.as_deref(), Some("resp-1"));
    assert_eq!(custom_id(&SampleKey::of(by_order[0])), batches[0][1]);
}

#[tokio::test(flavor = "multi_thread")]
async fn keyed_answers_out_of_order_match_by_key_and_an_unplaceable_one_is_asked_again() {
    let (batches, stderr, lines) = run(First::ReversedOneKeyless).await;
    assert!(
        stderr.contains("out of request order, so they cannot be matched"),
        "{stderr}"
    );
    assert_eq!(
        batches.len(),
        2,
        "the unmatched request goes into a new batch"
    );
    assert_eq!(batches[1], vec![batches[0][0].clone()]);
    assert_eq!(lines.len(), 4);
    assert!(lines.iter().all(|r| r.error.is_none()));
    assert!(lines.iter().all(|r| r.batch_matched_by.is_none()));
    // Reversed, each keyed answer still went to its own request: answer n to request n.
    for r in &lines {
        let id = custom_id(&SampleKey::of(r));
        let batch = batches.iter().position(|b| b.contains(&id)).unwrap();
        let n = batches[batch].iter().position(|k| *k == id).unwrap();
        assert_eq!(r.request_id, Some(format!("resp-{n}")), "{id}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_positional_match_that_is_retried_is_not_flagged_when_its_retry_is_keyed() {
    let (batches, stderr, lines) = run(First::InOrderOneKeylessRetryable).await;
    assert!(stderr.contains("matched by position"), "{stderr}");
    assert_eq!(
        batches.len(),
        2,
        "the overloaded request goes into a new batch"
    );
    assert_eq!(batches[1], vec![batches[0][1].clone()]);
    assert_eq!(lines.len(), 4);
    assert!(lines.iter().all(|r| r.error.is_none()));
    // Its answer came keyed in the second batch: matched by key, not flagged.
    assert!(lines.iter().all(|r| r.batch_matched_by.is_none()));
}
