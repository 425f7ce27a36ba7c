//! Whole runs through the real runner against local mock servers: injected faults lose no
//! sample and duplicate none, a 401 or a used-up spend or quota limit stops its provider at
//! once, the budget stops scheduling, and no file written holds the key.

use crate::support::mocks::{FAKE_KEY, apis, config, fake_env};
use crate::support::run_plan as run;
use crate::support::{files_under, one_table_plan};
use bench::formats::Format;
use bench::providers::{self, Price};
use bench::runlog::Line;
use bench::runner::{Cache, Model, Options, Plan, RetryPolicy, SampleKey, StopReason};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// 20 % 429, 10 % 5xx, 5 % timeouts, 5 % garbage, the rest a good answer; a low-discrepancy
/// sequence instead of a random one, so every run injects the same faults.
struct Faults {
    ok: fn(&str) -> Value,
    n: AtomicU64,
}

impl Respond for Faults {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        let i = self.n.fetch_add(1, Ordering::Relaxed);
        let roll = (i as f64 * 0.618_033_988_75).fract();
        match roll {
            r if r < 0.20 => ResponseTemplate::new(429).insert_header("retry-after-ms", "15"),
            r if r < 0.30 => ResponseTemplate::new(503).set_body_string("unavailable"),
            r if r < 0.35 => ResponseTemplate::new(200)
                .set_body_json((self.ok)("{}"))
                .set_delay(Duration::from_secs(1)),
            r if r < 0.40 => ResponseTemplate::new(200).set_body_string("<<garbage>>"),
            _ => ResponseTemplate::new(200).set_body_json((self.ok)("{\"q001\": \"x\"}")),
        }
    }
}

fn plan(root: &Path, runs: u32) -> Plan {
    Plan {
        formats: vec![Format::Csv, Format::JsonCompact],
        runs,
        ..one_table_plan(root)
    }
}

fn fast_retries() -> RetryPolicy {
    RetryPolicy {
        max_retries: 12,
        base: Duration::from_millis(5),
        max_delay: Duration::from_millis(40),
        max_wait: Duration::from_secs(5),
    }
}

fn lines(jsonl: &Path) -> Vec<Line> {
    std::fs::read_to_string(jsonl)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn injected_faults_lose_and_duplicate_nothing_and_no_file_holds_the_key() {
    let tmp = tempfile::tempdir().unwrap();
    let cache_dir = tmp.path().join("cache");
    let mut servers = Vec::new();
    let mut models = Vec::new();
    for api in apis() {
        let server = MockServer::start().await;
        Mock::given(wiremock::matchers::method("POST"))
            .respond_with(Faults {
                ok: api.ok,
                n: AtomicU64::new(0),
            })
            .mount(&server)
            .await;
        let mut cfg = config(&api, &server, 0.3);
        cfg.concurrency = Some(6);
        models.push(Model {
            provider: providers::build(&cfg, &fake_env).unwrap(),
            config: cfg,
        });
        servers.push(server);
    }
    let plan = plan(tmp.path(), 10);
    let opts = Options {
        warmup: None,
        cache: Some(Cache::new(cache_dir.clone())),
        budget_usd: None,
        retry: fast_retries(),
        batch: None,
        margin_pp: None,
    };
    let outcome = run(&plan, models, opts).await;
    assert_eq!(outcome.missing, 0);
    assert!(outcome.stopped.is_none() && outcome.fatal.is_empty());

    let all = lines(&outcome.jsonl);
    assert!(matches!(all.first(), Some(Line::Metadata(_))));
    assert!(matches!(all.last(), Some(Line::Summary(_))));
    let mut seen: HashMap<SampleKey, usize> = HashMap::new();
    for l in &all {
        if let Line::Result(r) = l {
            *seen.entry(SampleKey::of(r)).or_default() += 1;
            assert!(r.attempts >= 1);
        }
    }
    // 4 providers × 2 renderings × (1 warm-up + 10 runs), each exactly once.
    assert_eq!(seen.len(), 4 * 2 * 11, "{seen:?}");
    assert!(seen.values().all(|&n| n == 1), "duplicates: {seen:?}");
    let retried: u32 = all
        .iter()
        .filter_map(|l| match l {
            Line::Result(r) => Some(r.attempts - 1),
            _ => None,
        })
        .sum();
    assert!(
        retried > 20,
        "faults were injected and retried ({retried} retries)"
    );
    for s in &servers {
        assert!(calls(s).await > 22, "faults cost extra requests");
    }

    // The same plan again is served from the cache: no request reaches the servers.
    let before: Vec<usize> = futures_len(&servers).await;
    let mut models = Vec::new();
    for (api, server) in apis().iter().zip(&servers) {
        let mut cfg = config(api, server, 0.3);
        cfg.concurrency = Some(6);
        models.push(Model {
            provider: providers::build(&cfg, &fake_env).unwrap(),
            config: cfg,
        });
    }
    let again = run(
        &plan,
        models,
        Options {
            warmup: None,
            cache: Some(Cache::new(cache_dir.clone())),
            budget_usd: None,
            retry: fast_retries(),
            batch: None,
            margin_pp: None,
        },
    )
    .await;
    let cached = lines(&again.jsonl)
        .iter()
        .filter(|l| matches!(l, Line::Result(r) if r.cached))
        .count();
    let errors_first = outcome
        .summary
        .rankings
        .iter()
        .map(|r| r.errors)
        .sum::<usize>();
    assert_eq!(cached, 88 - errors_first, "every success is a cache hit");
    let after = futures_len(&servers).await;
    let new_requests: usize = after.iter().zip(&before).map(|(a, b)| a - b).sum();
    assert!(
        new_requests <= errors_first * 13,
        "only failed calls go out again"
    );

    for f in files_under(tmp.path()) {
        let bytes = std::fs::read(&f).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains(FAKE_KEY), "key leaked into {}", f.display());
    }
    assert!(files_under(&cache_dir).len() >= 80, "cache entries written");
}

async fn futures_len(servers: &[MockServer]) -> Vec<usize> {
    let mut v = Vec::new();
    for s in servers {
        v.push(calls(s).await);
    }
    v
}

/// The model calls `s` received: the token counts a real run makes first (Anthropic
/// count_tokens, Gemini countTokens, `/tokenize`; `runner::tokens::ranking_basis`) are not calls.
async fn calls(s: &MockServer) -> usize {
    let counting = |p: &str| {
        p.ends_with("/count_tokens")
            || p.ends_with(":countTokens")
            || p.ends_with("/tokenize")
            || p.ends_with("/input_tokens")
    };
    let reqs = s.received_requests().await.unwrap();
    reqs.iter().filter(|r| !counting(r.url.path())).count()
}

/// A run of 3 calls per API against a server answering every call with `status` and the
/// body `body` gives for that API: one call is made and recorded, the provider is stopped with
/// a message holding `needles`, and the rest is left missing.
async fn stops_after_one_call(status: u16, body: fn(&str) -> Value, needles: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    for api in apis() {
        let server = MockServer::start().await;
        Mock::given(wiremock::matchers::method("POST"))
            .respond_with(ResponseTemplate::new(status).set_body_json(body(api.spec)))
            .mount(&server)
            .await;
        let mut cfg = config(&api, &server, 1.0);
        cfg.concurrency = Some(1);
        let model = Model {
            provider: providers::build(&cfg, &fake_env).unwrap(),
            config: cfg,
        };
        let opts = Options {
            cache: None,
            retry: fast_retries(),
            ..Options::default()
        };
        let outcome = run(&plan(tmp.path(), 3), vec![model], opts).await;
        assert_eq!(
            calls(&server).await,
            1,
            "{}: HTTP {status} is neither retried nor sent again",
            api.spec
        );
        let (name, model) = api.spec.split_once(':').unwrap();
        let msg = outcome.fatal.join(" ");
        let status_text = format!("HTTP {status}");
        for needle in [name, model, &status_text].iter().chain(needles) {
            assert!(msg.contains(needle), "{msg} lacks {needle}");
        }
        assert!(!msg.contains('\n'), "one line: {msg}");
        assert!(outcome.missing > 0 && outcome.summary.interrupted);
        let errors: Vec<String> = lines(&outcome.jsonl)
            .into_iter()
            .filter_map(|l| match l {
                Line::Result(r) => r.error,
                _ => None,
            })
            .collect();
        assert_eq!(errors.len(), 1, "the failed call is recorded, not dropped");
        assert!(errors[0].starts_with(&format!("{name}:{model}: HTTP {status}")));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unauthorized_stops_the_provider_after_one_call() {
    let body = |_: &str| serde_json::json!({"error": {"message": "invalid x-api-key"}});
    stops_after_one_call(401, body, &["invalid x-api-key"]).await;
}

/// The 429 each API sends when the money or the day's quota is used up, as documented or
/// reported: OpenAI's `insufficient_quota` error object, Anthropic's `rate_limit_error` naming
/// the spend limit, Gemini's RESOURCE_EXHAUSTED with a per-day `QuotaFailure` (its message
/// spans lines).
fn limit_body(spec: &str) -> Value {
    if spec.starts_with("anthropic") {
        serde_json::json!({"type": "error", "error": {"type": "rate_limit_error",
            "message": "This request would exceed your account's monthly spend limit. Please try again later."}})
    } else if spec.starts_with("gemini") {
        serde_json::json!({"error": {"code": 429, "status": "RESOURCE_EXHAUSTED",
            "message": "You exceeded your current quota, please check your plan and billing details.\n* Quota exceeded for metric: generate_content_free_tier_requests, limit: 20",
            "details": [{"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": [
                {"quotaId": "GenerateRequestsPerDayPerProjectPerModel-FreeTier", "quotaValue": "20"}]},
                {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "36s"}]}})
    } else {
        serde_json::json!({"error": {"message": "You exceeded your current quota, please check your plan and billing details.",
            "type": "insufficient_quota", "param": null, "code": "insufficient_quota"}})
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spend_or_quota_limit_stops_the_provider_after_one_call() {
    stops_after_one_call(
        429,
        limit_body,
        &["spend or quota limit", "not a rate limit"],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn budget_stops_scheduling_and_marks_the_summary() {
    let tmp = tempfile::tempdir().unwrap();
    let apis = apis();
    let server = MockServer::start().await;
    Mock::given(wiremock::matchers::method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({
            "choices": [{"message": {"role": "assistant", "content": "{}"}}],
            "usage": {"prompt_tokens": 5000, "completion_tokens": 100}
        })))
        .mount(&server)
        .await;
    let mut cfg = config(&apis[1], &server, 1.0);
    cfg.concurrency = Some(1);
    cfg.max_tokens = Some(100);
    // ~5,100 tokens per call at $60 per 1M: about $0.31 per call, estimated and actual.
    cfg.price = Some(Price {
        input: 60.0,
        output: 60.0,
        cache_read: None,
        cache_write: None,
        batch: None,
    });
    let model = Model {
        provider: providers::build(&cfg, &fake_env).unwrap(),
        config: cfg,
    };
    let opts = Options {
        warmup: Some(false),
        cache: None,
        budget_usd: Some(1.0),
        retry: fast_retries(),
        batch: None,
        margin_pp: None,
    };
    let outcome = run(&plan(tmp.path(), 10), vec![model], opts).await;
    assert!(matches!(outcome.stopped, Some(StopReason::Budget(_))));
    let results: Vec<_> = lines(&outcome.jsonl)
        .into_iter()
        .filter_map(|l| match l {
            Line::Result(r) => Some(r),
            _ => None,
        })
        .collect();
    let spent: f64 = results.iter().filter_map(|r| r.cost_usd).sum();
    assert!(
        !results.is_empty() && spent <= 1.0,
        "spent {spent} over {} calls",
        results.len()
    );
    assert!(results.len() < 20);
    assert!(outcome.summary.interrupted);
    assert!(outcome.summary.stop_reason.unwrap().contains("budget"));
}
