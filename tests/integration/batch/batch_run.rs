//! `bench run --batch` as a user runs it, against a local mock of Anthropic's Message Batches
//! API: failed and expired requests submitted again, the batch price, kill -9 during polling
//! followed by `--resume` that submits nothing new and loses nothing, `--cancel-batches`, and
//! the key in no file or message.

use crate::support::mocks::{BatchScript, MessageBatches, result_lines};
use crate::support::{RunIn, assert_key_nowhere, parse, results, run_dir, run_in};
use bench::runner::ledger::Ledger;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use wiremock::MockServer;

const KEY: &str = "sk-ant-batch-0123456789-DO-NOT-LEAK";

/// How the mock batch API answers: every request succeeds, unless told otherwise.
#[derive(Default)]
struct Script {
    /// Whether batches have ended (else they stay `in_progress`).
    ended: AtomicBool,
    /// Whether the first batch's first three requests fail (overloaded, expired, invalid).
    faults: bool,
    /// Whether the results file is not JSON Lines.
    garbage: bool,
}

/// The mock batch API and what it has seen.
type Api = MessageBatches<Script>;

fn succeeded(id: &str) -> Value {
    json!({"type": "succeeded", "message": {"id": format!("msg_{id}"), "type": "message",
        "role": "assistant", "content": [{"type": "text", "text": "{\"q1\": \"no idea\"}"}],
        "stop_reason": "end_turn", "usage": {"input_tokens": 1000, "output_tokens": 100}}})
}

fn errored(kind: &str) -> Value {
    json!({"type": "errored", "error": {"type": "error",
        "error": {"type": kind, "message": format!("{kind} for this request")}}})
}

impl BatchScript for Script {
    fn check(&self, r: &Value) {
        assert_eq!(r["params"]["model"], "claude-haiku-4-5");
        assert!(r["params"]["messages"][0]["content"].is_array());
    }

    fn ended(&self, _: usize) -> bool {
        self.ended.load(Ordering::SeqCst)
    }

    fn results(&self, i: usize, requests: &[Value]) -> String {
        if self.garbage {
            return "<html>not JSON Lines</html>\n".into();
        }
        result_lines(requests, |n, r| {
            let id = r["custom_id"].as_str().unwrap();
            match n {
                0 if self.faults && i == 0 => errored("overloaded_error"),
                1 if self.faults && i == 0 => json!({"type": "expired"}),
                2 if self.faults && i == 0 => errored("invalid_request_error"),
                _ => succeeded(id),
            }
        })
    }
}

/// The mock API answering as `script` says, on a server of its own.
async fn server(script: Script) -> (Arc<Api>, MockServer) {
    MessageBatches::start(script, KEY).await
}

/// A 4-call batch run (2 formats × 2 runs) of `provider` against `uri`, under `dir`; killed
/// after a minute, so a run that would poll for ever fails its test instead of hanging it.
pub(super) fn batch_run(provider: &str, uri: &str, dir: &Path) -> RunIn {
    let plan = [
        "--formats",
        "csv,json_compact",
        "--structures",
        "flat",
        "--variants",
        "optional",
        "--runs",
        "2",
        "--no-report",
    ];
    run_in(dir, &["run", "--provider", provider, "--base-url", uri])
        .args(["--batch", "--batch-poll", "0.05"])
        .args(plan)
        .timeout(Duration::from_secs(60))
}

/// The batch run of claude-haiku-4-5 against `uri`, under `dir`, with the key.
fn haiku_run(uri: &str, dir: &Path) -> RunIn {
    batch_run("anthropic:claude-haiku-4-5", uri, dir).env("ANTHROPIC_API_KEY", KEY)
}

/// `bench run --resume FOLDER` with fast polling and the key, plus `extra`, under `dir`.
fn resume(dir: &Path, folder: &Path, extra: &[&str]) -> RunIn {
    run_in(dir, &["run", "--resume", folder.to_str().unwrap()])
        .args(extra)
        .args(["--batch-poll", "0.05", "--no-report"])
        .env("ANTHROPIC_API_KEY", KEY)
        .timeout(Duration::from_secs(60))
}

/// A mock API whose batches have already ended, its server, a temporary folder and the run
/// root in it.
async fn ended(script: Script) -> (Arc<Api>, MockServer, tempfile::TempDir, PathBuf) {
    script.ended.store(true, Ordering::SeqCst);
    let (api, s) = server(script).await;
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    (api, s, tmp, root)
}

#[tokio::test(flavor = "multi_thread")]
async fn failed_and_expired_requests_are_submitted_again_and_priced_as_batch() {
    let (api, s, tmp, root) = ended(Script {
        faults: true,
        ..Script::default()
    })
    .await;
    let out = haiku_run(&s.uri(), tmp.path())
        .args(["--retries", "2", "--warmup", "on"])
        .output_blocking()
        .await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    // 1 of 4 calls still failed: over the default --max-failed-share, exit 1.
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("1 of 4 calls failed (25.0 %"), "{stderr}");
    assert!(stderr.contains("no warm-up calls"), "{stderr}");
    assert!(
        stderr.contains("batch msgbatch_1: submitted 4 requests"),
        "{stderr}"
    );
    assert!(stderr.contains("ended 4/4"), "{stderr}");
    let batches = api.custom_ids();
    assert_eq!(
        batches.len(),
        2,
        "the overloaded and the expired request go again"
    );
    assert_eq!(batches[1], batches[0][..2].to_vec());
    let dir = run_dir(&root);
    let lines = parse(&dir.join("formats.jsonl"));
    let rs = results(&lines);
    assert_eq!(rs.len(), 4, "no warm-up line, no sample lost");
    assert!(rs.iter().all(|r| !r.warmup));
    let failed: Vec<_> = rs.iter().filter(|r| r.error.is_some()).collect();
    assert_eq!(failed.len(), 1, "only the invalid request is an error");
    assert!(
        failed[0]
            .error
            .as_ref()
            .unwrap()
            .contains("invalid_request_error")
    );
    assert_eq!(failed[0].batch_id.as_deref(), Some("msgbatch_1"));
    assert_eq!(failed[0].cost_usd, Some(0.0));
    let again: Vec<_> = rs
        .iter()
        .filter(|r| r.batch_id.as_deref() == Some("msgbatch_2"))
        .collect();
    assert_eq!(again.len(), 2);
    assert!(again.iter().all(|r| r.attempts == 2 && r.error.is_none()));
    for r in rs.iter().filter(|r| r.error.is_none()) {
        // claude-haiku-4-5: $1 in, $5 out per 1M; 1,000 in and 100 out is $0.0015 live.
        let cost = r.cost_usd.unwrap();
        assert!((cost - 0.00075).abs() < 1e-12, "batch price: {cost}");
        assert_eq!(r.usage.input, 1000);
        assert_eq!(r.status, Some(200));
        // A batch answer's request id is its custom id (Anthropic gives it none of its own).
        let key = bench::runner::plan::SampleKey::of(r);
        assert_eq!(r.request_id, Some(bench::runner::ledger::custom_id(&key)));
    }
    let ledger = Ledger::load(&dir).unwrap();
    assert_eq!(ledger.batches.len(), 2);
    assert!(
        ledger
            .batches
            .iter()
            .all(|b| b.collected && b.state == "ended")
    );
    assert_key_nowhere(KEY, tmp.path(), &[&out]);
}

#[tokio::test(flavor = "multi_thread")]
async fn no_retry_logs_failed_and_expired_requests_as_errors() {
    let (api, s, tmp, root) = ended(Script {
        faults: true,
        ..Script::default()
    })
    .await;
    // Failures are what this run is about: a share of 1 lets it pass.
    let out = haiku_run(&s.uri(), tmp.path())
        .args(["--no-retry", "--max-failed-share", "1"])
        .output_blocking()
        .await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(api.batches.lock().unwrap().len(), 1, "nothing resubmitted");
    let lines = parse(&run_dir(&root).join("formats.jsonl"));
    let rs = results(&lines);
    assert_eq!(rs.len(), 4);
    let errors: Vec<&str> = rs.iter().filter_map(|r| r.error.as_deref()).collect();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("overloaded_error")));
    assert!(errors.iter().any(|e| e.contains("expired")));
}

#[tokio::test(flavor = "multi_thread")]
async fn results_that_cannot_be_read_end_as_errors_after_three_tries_not_an_endless_poll() {
    let (api, s, tmp, root) = ended(Script {
        garbage: true,
        ..Script::default()
    })
    .await;
    let out = haiku_run(&s.uri(), tmp.path()).output_blocking().await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    // No result could be read: no answers, so the run does not pass as a success.
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("no answers from anthropic/"), "{stderr}");
    assert_eq!(api.reads.load(Ordering::SeqCst), 3, "{stderr}");
    assert_eq!(api.batches.lock().unwrap().len(), 1, "nothing resubmitted");
    assert_eq!(stderr.matches("trying again").count(), 2, "{stderr}");
    let lines = parse(&run_dir(&root).join("formats.jsonl"));
    let rs = results(&lines);
    assert_eq!(rs.len(), 4, "every request logged once");
    for r in &rs {
        let e = r.error.as_deref().unwrap_or_default();
        assert!(
            e.contains("batch msgbatch_1: its results could not be read (3 tries)"),
            "{e}"
        );
        assert_eq!(r.batch_id.as_deref(), Some("msgbatch_1"));
    }
}

/// Starts a batch run under `dir` in the background and kills it (SIGKILL) once it is polling.
async fn killed_while_polling(api: &Arc<Api>, uri: &str, dir: &Path) {
    let polls = || api.polls.lock().unwrap().iter().sum::<usize>();
    haiku_run(uri, dir)
        .kill_when("bench never polled", || polls() >= 3)
        .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn kill_9_while_polling_then_resume_submits_nothing_and_loses_nothing() {
    let (api, s) = server(Script::default()).await;
    let tmp = tempfile::tempdir().unwrap();
    killed_while_polling(&api, &s.uri(), tmp.path()).await;
    let dir = run_dir(&tmp.path().join("data"));
    let ledger = Ledger::load(&dir).unwrap();
    assert_eq!(ledger.batches.len(), 1);
    assert!(!ledger.batches[0].collected);
    assert_eq!(ledger.batches[0].requests.len(), 4);
    assert!(results(&parse(&dir.join("formats.jsonl"))).is_empty());

    api.script.ended.store(true, Ordering::SeqCst);
    let out = resume(tmp.path(), &dir, &[]).output_blocking().await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("continues in batch mode"), "{stderr}");
    assert!(
        stderr.contains("polling 1 batch(es) submitted earlier"),
        "{stderr}"
    );
    assert_eq!(
        api.batches.lock().unwrap().len(),
        1,
        "nothing submitted again"
    );
    let rs_lines = parse(&dir.join("formats.jsonl"));
    let rs = results(&rs_lines);
    assert_eq!(rs.len(), 4, "every sample once");
    let keys: std::collections::HashSet<_> =
        rs.iter().map(|r| bench::runner::SampleKey::of(r)).collect();
    assert_eq!(keys.len(), 4);
    assert!(
        rs.iter()
            .all(|r| r.error.is_none() && r.batch_id.as_deref() == Some("msgbatch_1"))
    );
    assert!(Ledger::load(&dir).unwrap().batches[0].collected);
    assert_key_nowhere(KEY, tmp.path(), &[&out]);
}

#[tokio::test(flavor = "multi_thread")]
async fn cancel_batches_collects_them_and_logs_the_cancelled_requests() {
    let (api, s) = server(Script::default()).await;
    let tmp = tempfile::tempdir().unwrap();
    killed_while_polling(&api, &s.uri(), tmp.path()).await;
    let dir = run_dir(&tmp.path().join("data"));
    let out = resume(tmp.path(), &dir, &["--cancel-batches"])
        .output_blocking()
        .await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Every request was cancelled: no answers, so the run does not pass as a success.
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("no answers from anthropic/"), "{stderr}");
    assert!(
        stderr.contains("batch msgbatch_1: cancel requested"),
        "{stderr}"
    );
    assert!(api.canceled.load(Ordering::SeqCst));
    let lines = parse(&dir.join("formats.jsonl"));
    let rs = results(&lines);
    assert_eq!(rs.len(), 4);
    assert!(
        rs.iter()
            .all(|r| r.error.as_deref().is_some_and(|e| e.contains("cancelled")))
    );
    assert_eq!(api.batches.lock().unwrap().len(), 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_budget_for_part_of_the_plan_submits_that_part_and_resume_stays_in_batch_mode() {
    let (api, s, tmp, _) = ended(Script::default()).await;
    // Each request books about $0.011 (prompt plus 4,096 output tokens at half price).
    let out = haiku_run(&s.uri(), tmp.path())
        .args(["--budget-usd", "0.025"])
        .output_blocking()
        .await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("requests not submitted"), "{stderr}");
    let first = api.custom_ids();
    assert_eq!(first.len(), 1, "what fits is submitted: {stderr}");
    let n = first[0].len();
    assert!((1..4).contains(&n), "{n}");
    let dir = run_dir(&tmp.path().join("data"));
    assert_eq!(results(&parse(&dir.join("formats.jsonl"))).len(), n);

    // Resumed without --batch and with room: the rest goes in a batch, not live.
    let out = resume(tmp.path(), &dir, &[]).output_blocking().await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let all = api.custom_ids();
    assert_eq!(all.len(), 2, "{stderr}");
    assert_eq!(all[1].len(), 4 - n);
    let rs_lines = parse(&dir.join("formats.jsonl"));
    let rs = results(&rs_lines);
    assert_eq!(rs.len(), 4);
    assert!(rs.iter().all(|r| r.batch_id.is_some()), "no live call");
}
