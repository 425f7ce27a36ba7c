//! `bench run --suite write --batch` against a local mock of Anthropic's Message Batches API:
//! repairs go through the batch API one round per batch, a conversation is logged once with
//! every turn at the batch price, and kill -9 between rounds followed by `--resume` (with the
//! response cache gone) continues the conversation from `batches.json` without paying twice.

use crate::support::{bench, parse, results, run_dir};
use bench::runner::ledger::{Ledger, custom_id};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

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

/// What the mock has seen and how it answers.
#[derive(Default)]
struct Api {
    /// Each created batch: every request's custom id, message count and first prompt.
    batches: Mutex<Vec<Vec<(String, usize, String)>>>,
    /// Polls of batches after the first.
    later_polls: Mutex<usize>,
    /// While set, batches after the first stay `in_progress`.
    hold: AtomicBool,
    base: Mutex<String>,
}

fn index(req: &Request) -> usize {
    let id = req
        .url
        .path()
        .rsplit('/')
        .find(|s| s.starts_with("msgbatch_"))
        .unwrap();
    id.trim_start_matches("msgbatch_").parse::<usize>().unwrap() - 1
}

struct Create(Arc<Api>);
struct Poll(Arc<Api>);
struct Results(Arc<Api>);

impl Respond for Create {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap();
        let reqs = body["requests"].as_array().unwrap().iter().map(|r| {
            let m = r["params"]["messages"].as_array().unwrap();
            let first = m[0]["content"].to_string();
            (r["custom_id"].as_str().unwrap().to_string(), m.len(), first)
        });
        let mut b = self.0.batches.lock().unwrap();
        b.push(reqs.collect());
        ResponseTemplate::new(200).set_body_json(
            json!({"id": format!("msgbatch_{}", b.len()), "processing_status": "in_progress"}),
        )
    }
}

impl Respond for Poll {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let i = index(req);
        let id = format!("msgbatch_{}", i + 1);
        if i > 0 {
            *self.0.later_polls.lock().unwrap() += 1;
        }
        if i > 0 && self.0.hold.load(Ordering::SeqCst) {
            return ResponseTemplate::new(200).set_body_json(
                json!({"id": id, "processing_status": "in_progress", "request_counts": {"processing": 1}}),
            );
        }
        let url = format!(
            "{}/v1/messages/batches/{id}/results",
            self.0.base.lock().unwrap()
        );
        ResponseTemplate::new(200).set_body_json(json!({"id": id, "processing_status": "ended",
            "request_counts": {"processing": 0, "succeeded": 1}, "results_url": url}))
    }
}

impl Respond for Results {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let batch = self.0.batches.lock().unwrap()[index(req)].clone();
        let mut lines = String::new();
        for (cid, turns, first) in batch {
            let text = match (first.contains("Cy"), turns) {
                (true, _) => SOLO,
                (false, 1) => BROKEN,
                _ => PAIR,
            };
            let message = json!({"id": "m", "type": "message", "role": "assistant",
                "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
                "usage": {"input_tokens": 100 * turns, "output_tokens": 10}});
            let line =
                json!({"custom_id": cid, "result": {"type": "succeeded", "message": message}});
            lines.push_str(&format!("{line}\n"));
        }
        ResponseTemplate::new(200).set_body_string(lines)
    }
}

async fn server(api: &Arc<Api>) -> MockServer {
    let s = MockServer::start().await;
    *api.base.lock().unwrap() = s.uri();
    Mock::given(method("POST"))
        .and(path("/v1/messages/batches"))
        .respond_with(Create(api.clone()))
        .mount(&s)
        .await;
    Mock::given(method("GET"))
        .and(path_regex(r"^/v1/messages/batches/msgbatch_\d+$"))
        .respond_with(Poll(api.clone()))
        .mount(&s)
        .await;
    Mock::given(method("GET"))
        .and(path_regex(r"^/v1/messages/batches/msgbatch_\d+/results$"))
        .respond_with(Results(api.clone()))
        .mount(&s)
        .await;
    s
}

/// `bench run --suite write --batch` of the two cases in json_compact with 2 repairs.
fn args(uri: &str, tmp: &Path) -> Vec<String> {
    let cases = tmp.join("cases.json");
    std::fs::write(&cases, CASES).unwrap();
    let mut a: Vec<String> = [
        "run",
        "--suite",
        "write",
        "--provider",
        "anthropic:claude-haiku-4-5",
        "--base-url",
        uri,
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
    ]
    .map(String::from)
    .to_vec();
    a.extend(["--cases".into(), cases.display().to_string()]);
    a.extend([
        "--output-root".into(),
        tmp.join("data").display().to_string(),
    ]);
    a
}

async fn run_bench(cache: &Path, args: Vec<String>) -> std::process::Output {
    let cache = cache.to_path_buf();
    tokio::task::spawn_blocking(move || {
        bench(&cache)
            .timeout(Duration::from_secs(60))
            .env("ANTHROPIC_API_KEY", KEY)
            .args(args)
            .output()
            .unwrap()
    })
    .await
    .unwrap()
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
    let api = Arc::new(Api::default());
    let s = server(&api).await;
    let tmp = tempfile::tempdir().unwrap();
    let out = run_bench(&tmp.path().join("cache"), args(&s.uri(), tmp.path())).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("batch msgbatch_1: 1 reply gets a follow-up request"),
        "{stderr}"
    );
    let batches = api.batches.lock().unwrap().clone();
    assert_eq!(batches.len(), 2, "{batches:?}");
    assert_eq!(batches[0].len(), 2, "both first shots in one batch");
    assert!(batches[0].iter().all(|(_, n, _)| *n == 1));
    assert_eq!(batches[1].len(), 1, "only the broken reply is repaired");
    let (repair_id, turns, _) = &batches[1][0];
    assert_eq!(*turns, 3, "the repair carries the conversation");
    assert!(
        batches[0]
            .iter()
            .any(|(id, _, _)| format!("{id}r1") == *repair_id)
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
async fn killed_in_round_two(api: &Arc<Api>, uri: &str, tmp: &Path, cache: &Path) {
    api.hold.store(true, Ordering::SeqCst);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("bench"))
        .args(args(uri, tmp))
        .env("ANTHROPIC_API_KEY", KEY)
        .env("BENCH_CACHE_DIR", cache)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while *api.later_polls.lock().unwrap() < 2 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no repair batch"
        );
        assert!(child.try_wait().unwrap().is_none(), "bench exited early");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    child.kill().unwrap();
    child.wait().unwrap();
    api.hold.store(false, Ordering::SeqCst);
}

#[tokio::test(flavor = "multi_thread")]
async fn kill_9_between_rounds_then_resume_continues_the_conversation_from_the_ledger() {
    let api = Arc::new(Api::default());
    let s = server(&api).await;
    let tmp = tempfile::tempdir().unwrap();
    let cache: PathBuf = tmp.path().join("cache");
    killed_in_round_two(&api, &s.uri(), tmp.path(), &cache).await;
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
    let resume: Vec<String> = [
        "run",
        "--resume",
        dir.to_str().unwrap(),
        "--batch-poll",
        "0.05",
        "--no-report",
    ]
    .map(String::from)
    .to_vec();
    let out = run_bench(&cache, resume).await;
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
    for f in crate::support::files_under(tmp.path()) {
        let text = String::from_utf8_lossy(&std::fs::read(&f).unwrap()).to_string();
        assert!(!text.contains(KEY), "the key is in {}", f.display());
    }
}
