//! `bench run --suite write --batch` against a local mock of Anthropic's Message Batches API:
//! repairs go through the batch API one round per batch, a conversation is logged once with
//! every turn at the batch price, and kill -9 between rounds followed by `--resume` (with the
//! response cache gone) continues the conversation from `batches.json` without paying twice.

use crate::support::mocks::{BatchScript, MessageBatches, result_lines};
use crate::support::{RunIn, assert_key_nowhere, parse, results, run_dir, run_in};
use bench::runner::ledger::{Ledger, custom_id};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

const KEY: &str = "sk-ant-write-batch-0123456789";

/// Two cases: `pair`, whose first shot does not parse and whose repair is right, and `solo`,
/// right the first time.
const CASES: &str = r#"{"cases": [
  {"id": "pair", "kind": "transcode",
   "gold": {"pair": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bo"}]}},
  {"id": "solo", "kind": "transcode", "gold": {"solo": [{"id": 3, "name": "Cy"}]}}]}"#;

const PAIR: &str =
    "```json\n{\"pair\":[{\"id\":1,\"name\":\"Ann\"},{\"id\":2,\"name\":\"Bo\"}]}\n```";
const BROKEN: &str = "```json\n{\"pair\":[{\"id\":1,\"name\":\"Ann\"},\n```";
const SOLO: &str = "```json\n{\"solo\":[{\"id\":3,\"name\":\"Cy\"}]}\n```";

/// How the mock answers: the first shot of `pair` does not parse, its repair and `solo` are
/// right; while `hold` is set, batches after the first stay `in_progress`.
#[derive(Default)]
struct Repairs {
    hold: AtomicBool,
}

/// The mock batch API and what it has seen.
type Api = MessageBatches<Repairs>;

impl BatchScript for Repairs {
    fn ended(&self, i: usize) -> bool {
        i == 0 || !self.hold.load(Ordering::SeqCst)
    }

    fn results(&self, _: usize, requests: &[Value]) -> String {
        result_lines(requests, |_, r| {
            let m = r["params"]["messages"].as_array().unwrap();
            let turns = m.len();
            let text = match (m[0]["content"].to_string().contains("Cy"), turns) {
                (true, _) => SOLO,
                (false, 1) => BROKEN,
                _ => PAIR,
            };
            let message = json!({"id": "m", "type": "message", "role": "assistant",
                "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
                "usage": {"input_tokens": 100 * turns, "output_tokens": 10}});
            json!({"type": "succeeded", "message": message})
        })
    }
}

/// Each created batch: every request's custom id and message count.
fn seen(api: &Api) -> Vec<Vec<(String, usize)>> {
    let batches = api.batches.lock().unwrap();
    let request = |r: &Value| {
        let turns = r["params"]["messages"].as_array().unwrap().len();
        (r["custom_id"].as_str().unwrap().to_string(), turns)
    };
    batches
        .iter()
        .map(|b| b.iter().map(request).collect())
        .collect()
}

/// `bench run --suite write --batch` of the two cases in json_compact with 2 repairs, under
/// `dir`, with the key; killed after a minute, so a run that would poll for ever fails.
fn write_run(uri: &str, dir: &Path) -> RunIn {
    let cases = dir.join("cases.json");
    std::fs::write(&cases, CASES).unwrap();
    let plan = [
        "run",
        "--suite",
        "write",
        "--provider",
        "anthropic:claude-haiku-4-5",
        "--batch",
        "--batch-poll",
        "0.05",
        "--formats",
        "json_compact",
        "--no-json-schema",
        "--repairs",
        "2",
        "--runs",
        "1",
        "--no-report",
    ];
    run_in(dir, &plan)
        .args(["--base-url", uri, "--cases", cases.to_str().unwrap()])
        .env("ANTHROPIC_API_KEY", KEY)
        .timeout(Duration::from_secs(60))
}

/// The run's result lines, by case.
fn by_case(dir: &Path) -> Vec<(String, bench::runlog::ResultRecord)> {
    let lines = parse(&dir.join("write.jsonl"));
    let mut rs: Vec<_> = results(&lines)
        .into_iter()
        .map(|r| (r.task.clone().unwrap(), r.clone()))
        .collect();
    rs.sort_by(|a, b| a.0.cmp(&b.0));
    rs
}

/// The repaired `pair` sample: first shot unparseable, final exact, both turns summed and
/// priced at half of claude-haiku-4-5's $1 in / $5 out per million.
fn assert_repaired(r: &bench::runlog::ResultRecord) {
    let w = &bench::suites::write::scores(r).unwrap().unwrap();
    assert_eq!(w.first.failure.as_deref(), Some("unparseable"), "{w:?}");
    assert!(w.last.exact, "{w:?}");
    assert_eq!(w.repairs, 1);
    assert_eq!(r.turns.len(), 2);
    assert_eq!((r.usage.input, r.usage.output), (100 + 300, 20));
    let cost = r.cost_usd.unwrap();
    assert!((cost - (400.0 + 100.0) / 1e6 * 0.5).abs() < 1e-12, "{cost}");
    assert_eq!(r.batch_id.as_deref(), Some("msgbatch_2"));
    assert_eq!(r.attempts, 2, "one submission per round");
    let roles: Vec<&str> = r.sample.input.iter().map(|m| m.role.as_str()).collect();
    assert_eq!(roles, ["user", "assistant", "user"]);
    assert_eq!(r.sample.input[1].content, BROKEN);
}

#[tokio::test(flavor = "multi_thread")]
async fn repairs_go_through_the_batch_api_one_round_per_batch() {
    let (api, s) = MessageBatches::start(Repairs::default(), KEY).await;
    let tmp = tempfile::tempdir().unwrap();
    let out = write_run(&s.uri(), tmp.path()).output_blocking().await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("batch msgbatch_1: 1 reply gets a follow-up request"),
        "{stderr}"
    );
    let batches = seen(&api);
    assert_eq!(batches.len(), 2, "{batches:?}");
    assert_eq!(batches[0].len(), 2, "both first shots in one batch");
    assert!(batches[0].iter().all(|(_, n)| *n == 1));
    assert_eq!(batches[1].len(), 1, "only the broken reply is repaired");
    let (repair_id, turns) = &batches[1][0];
    assert_eq!(*turns, 3, "the repair carries the conversation");
    assert!(
        batches[0]
            .iter()
            .any(|(id, _)| format!("{id}r1") == *repair_id)
    );

    let dir = run_dir(&tmp.path().join("data"));
    let rs = by_case(&dir);
    assert_eq!(rs.len(), 2, "each sample logged once");
    assert_repaired(&rs[0].1);
    let solo = &rs[1].1;
    let w = &bench::suites::write::scores(solo).unwrap().unwrap();
    assert!(w.first.exact && w.last.exact && w.repairs == 0);
    assert!(solo.turns.is_empty() && solo.batch_id.as_deref() == Some("msgbatch_1"));
    let ledger = Ledger::load(&dir).unwrap();
    assert!(ledger.batches.iter().all(|b| b.collected));
    assert!(
        ledger.conversations.is_empty(),
        "logged conversations leave the ledger"
    );
}

/// Starts the run and kills it (SIGKILL) while the repair batch is being polled.
async fn killed_in_round_two(api: &Arc<Api>, uri: &str, tmp: &Path) {
    api.script.hold.store(true, Ordering::SeqCst);
    let later_polls = || api.polls.lock().unwrap().iter().skip(1).sum::<usize>();
    write_run(uri, tmp)
        .kill_when("no repair batch", || later_polls() >= 2)
        .await;
    api.script.hold.store(false, Ordering::SeqCst);
}

#[tokio::test(flavor = "multi_thread")]
async fn kill_9_between_rounds_then_resume_continues_the_conversation_from_the_ledger() {
    let (api, s) = MessageBatches::start(Repairs::default(), KEY).await;
    let tmp = tempfile::tempdir().unwrap();
    let cache: PathBuf = tmp.path().join("cache");
    killed_in_round_two(&api, &s.uri(), tmp.path()).await;
    let dir = run_dir(&tmp.path().join("data"));
    let rs = by_case(&dir);
    assert_eq!(
        rs.len(),
        1,
        "only the unrepaired sample is logged before the kill"
    );
    let ledger = Ledger::load(&dir).unwrap();
    assert_eq!(ledger.conversations.len(), 1, "{:?}", ledger.conversations);
    let conv = ledger.conversations.values().next().unwrap();
    assert_eq!(conv.replies, [BROKEN]);
    assert!(
        ledger
            .conversations
            .contains_key(&custom_id(&bench::runner::SampleKey {
                task: Some("transcode:pair".into()),
                records: 2,
                ..bench::runner::SampleKey::of(&rs[0].1)
            }))
    );

    // The cached first reply is gone: only the ledger can carry the conversation on.
    std::fs::remove_dir_all(&cache).ok();
    let out = run_in(tmp.path(), &["run", "--resume", dir.to_str().unwrap()])
        .args(["--batch-poll", "0.05", "--no-report"])
        .env("ANTHROPIC_API_KEY", KEY)
        .timeout(Duration::from_secs(60))
        .output_blocking()
        .await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("polling 1 batch(es) submitted earlier"),
        "{stderr}"
    );
    assert_eq!(
        api.batches.lock().unwrap().len(),
        2,
        "nothing submitted again"
    );
    let rs = by_case(&dir);
    assert_eq!(rs.len(), 2, "each sample once");
    assert_repaired(&rs[0].1);
    let ledger = Ledger::load(&dir).unwrap();
    assert!(ledger.batches.iter().all(|b| b.collected));
    assert!(ledger.conversations.is_empty());
    assert_key_nowhere(KEY, tmp.path(), &[&out]);
}
