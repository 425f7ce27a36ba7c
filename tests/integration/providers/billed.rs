//! The verdict ranks by the tokens the provider bills (issue 44): a mock Anthropic server whose
//! `count_tokens` makes csv's data cost more than json_compact's (the opposite of o200k_base)
//! gets json_compact recommended, with both orders named; the offline reference keeps csv and
//! names o200k_base; a provider without a counter falls back to o200k_base with its reason in
//! the log and on screen.

use crate::support::{bench, run_dir};
use bench::prompt::parse_data_block;
use bench::runlog::{Line, Metadata, ResultRecord};
use serde_json::{Value, json};
use std::path::Path;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request as Received, Respond, ResponseTemplate};

/// The plan of every run here: two formats of one small table, three runs.
const PLAN: [&str; 12] = [
    "run",
    "--formats",
    "csv,json_compact",
    "--structures",
    "flat",
    "--variants",
    "mandatory",
    "--records",
    "10",
    "--runs",
    "3",
    "--no-cache",
];

/// Every text of a Messages request (or count_tokens body), in order.
fn texts(body: &Value) -> String {
    let mut out = String::new();
    for m in body["messages"].as_array().into_iter().flatten() {
        match &m["content"] {
            Value::String(s) => out.push_str(s),
            Value::Array(parts) => parts
                .iter()
                .filter_map(|p| p["text"].as_str())
                .for_each(|t| out.push_str(t)),
            _ => {}
        }
    }
    out
}

/// A planted tokenizer: a token per 4 characters, and a csv rendering's data costs one more
/// token per character, so csv's data share is larger than json_compact's (o200k_base says
/// the opposite).
struct Counter;

impl Respond for Counter {
    fn respond(&self, req: &Received) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap();
        let text = texts(&body);
        let planted = match parse_data_block(&text) {
            Some(("csv", data)) => data.chars().count(),
            _ => 0,
        };
        let n = text.chars().count() / 4 + planted;
        ResponseTemplate::new(200).set_body_json(json!({"input_tokens": n}))
    }
}

/// Answers every prompt with `answer` (the reference's reply: right in every format).
struct Answerer {
    answer: String,
    anthropic: bool,
}

impl Respond for Answerer {
    fn respond(&self, _: &Received) -> ResponseTemplate {
        let body = if self.anthropic {
            json!({"id": "msg_1", "type": "message", "role": "assistant",
                "model": "claude-sonnet-4-5-20250929",
                "content": [{"type": "text", "text": self.answer}], "stop_reason": "end_turn",
                "usage": {"input_tokens": 900, "output_tokens": 200}})
        } else {
            json!({"id": "c", "object": "chat.completion", "model": "m",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": self.answer},
                             "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 900, "completion_tokens": 200, "total_tokens": 1100}})
        };
        ResponseTemplate::new(200).set_body_json(body)
    }
}

/// The lines of the run log in `dir`.
fn log(dir: &Path) -> (Metadata, Vec<ResultRecord>) {
    let logs = bench::runlog::run_logs(dir).unwrap();
    let text = std::fs::read_to_string(&logs[0]).unwrap();
    let mut meta = None;
    let mut results = Vec::new();
    for l in text.lines() {
        match serde_json::from_str::<Line>(l).unwrap() {
            Line::Metadata(m) => meta = Some(*m),
            Line::Result(r) => results.push(*r),
            Line::Summary(_) => {}
        }
    }
    (meta.unwrap(), results)
}

/// The offline reference run of [`PLAN`] under `root`: its folder and its right answer.
fn reference(root: &Path) -> (std::path::PathBuf, String) {
    let out = bench(&root.join("cache"))
        .args(PLAN)
        .arg("--output-root")
        .arg(root.join("ref"))
        .output()
        .unwrap();
    crate::support::success_stdout(&out);
    let dir = run_dir(&root.join("ref"));
    let (_, results) = log(&dir);
    let answer = results[0].sample.output.content.clone();
    assert!(results.iter().all(|r| r.summary.pass_rate == 1.0));
    (dir, answer)
}

/// The plain first sentence(s) of a report: the verdict section up to its note.
fn report(dir: &Path) -> String {
    let suite = bench::runlog::run_logs(dir).unwrap()[0]
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    std::fs::read_to_string(dir.join(suite).join("BENCHMARK_REPORT.md")).unwrap()
}

#[test]
fn the_verdict_follows_the_providers_counts_where_o200k_base_orders_otherwise() {
    let tmp = tempfile::tempdir().unwrap();
    let (ref_dir, answer) = reference(tmp.path());
    // The reference: csv is cheaper under o200k_base, and its verdict says that basis.
    let (_, ref_results) = log(&ref_dir);
    let o200k = |rs: &[ResultRecord], f: &str| {
        rs.iter()
            .find(|r| r.format.name() == f)
            .unwrap()
            .data_stats
            .tokens["o200k_base"]
    };
    assert!(o200k(&ref_results, "csv") < o200k(&ref_results, "json_compact"));
    assert!(ref_results.iter().all(|r| r.billed_data_tokens.is_none()));
    let ref_report = report(&ref_dir);
    assert!(ref_report.contains("use `csv`"), "{ref_report}");
    assert!(
        ref_report.contains("Data tokens are counted with o200k_base."),
        "{ref_report}"
    );

    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(MockServer::start());
    rt.block_on(
        Mock::given(method("POST"))
            .and(path("/v1/messages/count_tokens"))
            .respond_with(Counter)
            .mount(&server),
    );
    rt.block_on(
        Mock::given(method("POST"))
            .and(path("/v1/messages"))
            .respond_with(Answerer {
                answer,
                anthropic: true,
            })
            .mount(&server),
    );
    let out = bench(&tmp.path().join("cache"))
        .env("ANTHROPIC_API_KEY", "sk-ant-fake-DO-NOT-LEAK")
        .args(PLAN)
        .args(["--provider", "anthropic:claude-sonnet-4-5", "--base-url"])
        .arg(server.uri())
        .arg("--output-root")
        .arg(tmp.path().join("data"))
        .output()
        .unwrap();
    let stdout = crate::support::success_stdout(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "anthropic:claude-sonnet-4-5: data tokens as anthropic count_tokens counts them: \
             2 renderings, 4 counts (0 from cache)"
        ),
        "{stderr}"
    );
    assert!(
        stdout.contains(
            "data tokens as counted by: anthropic/claude-sonnet-4-5: anthropic count_tokens"
        ),
        "{stdout}"
    );
    let dir = run_dir(&tmp.path().join("data"));
    let (meta, results) = log(&dir);
    assert_eq!(
        meta.providers[0].token_basis,
        Some(json!({"basis": "anthropic count_tokens"}))
    );
    let billed = |f: &str| {
        let of: Vec<u64> = results
            .iter()
            .filter(|r| r.format.name() == f)
            .map(|r| r.billed_data_tokens.unwrap())
            .collect();
        assert!(of.iter().all(|&n| n == of[0]), "one count per rendering");
        of[0]
    };
    // The planted order: csv costs more under the provider's counts.
    assert!(billed("csv") > billed("json_compact"));
    assert!(o200k(&results, "csv") < o200k(&results, "json_compact"));
    assert!(
        results
            .iter()
            .all(|r| r.token_basis.as_deref() == Some("anthropic count_tokens"))
    );
    let text = report(&dir);
    assert!(text.contains("use `json_compact`"), "{text}");
    assert!(
        text.contains(
            "Data tokens are claude-sonnet-4-5's own, as anthropic count_tokens counts them. \
             o200k_base orders them otherwise: cheapest under o200k_base: `csv`; under \
             claude-sonnet-4-5's own counts: `json_compact`."
        ),
        "{text}"
    );
    assert!(text.contains("tokens, anthropic count_tokens)"), "{text}");
    assert!(!text.contains("sk-ant-fake"), "no key in the report");
}

#[test]
fn a_server_without_a_counter_ranks_by_o200k_base_and_says_why() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, answer) = reference(tmp.path());
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(MockServer::start());
    // Chat completions only: no `/tokenize` at the root (wiremock answers 404).
    rt.block_on(
        Mock::given(method("POST"))
            .and(path("/v1/chat/completions"))
            .respond_with(Answerer {
                answer,
                anthropic: false,
            })
            .mount(&server),
    );
    let out = bench(&tmp.path().join("cache"))
        .args(PLAN)
        .args(["--provider", "openai-compatible:m", "--base-url"])
        .arg(format!("{}/v1", server.uri()))
        .arg("--output-root")
        .arg(tmp.path().join("data"))
        .output()
        .unwrap();
    let stdout = crate::support::success_stdout(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let warning = stderr
        .lines()
        .find(|l| l.contains("its rankings rest on o200k_base"))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(
        warning.starts_with("warning: openai-compatible:m: "),
        "{warning}"
    );
    assert!(!stdout.contains("data tokens as counted by"), "{stdout}");
    let dir = run_dir(&tmp.path().join("data"));
    let (meta, results) = log(&dir);
    let basis = meta.providers[0].token_basis.clone().unwrap();
    assert_eq!(basis["fallback"], json!("o200k_base"));
    let reason = basis["reason"].as_str().unwrap();
    assert!(
        !reason.is_empty() && warning.ends_with(reason),
        "{reason} / {warning}"
    );
    assert!(results.iter().all(|r| r.billed_data_tokens.is_none()));
    let text = report(&dir);
    assert!(text.contains("use `csv`"), "{text}");
    assert!(
        text.contains("Data tokens are counted with o200k_base."),
        "{text}"
    );
}

/// The reference answerer behind a planted counter (as [`Counter`]): csv's data costs more
/// than json_compact's.
struct Planted;

#[async_trait::async_trait]
impl bench::providers::Provider for Planted {
    fn name(&self) -> &str {
        "planted"
    }
    fn model(&self) -> &str {
        "m"
    }
    fn params(&self) -> Value {
        json!({})
    }
    fn url(&self) -> Option<String> {
        None
    }
    fn caches_prompts(&self) -> bool {
        false
    }
    async fn complete(
        &self,
        req: &bench::providers::Request<'_>,
    ) -> Result<bench::providers::Response, bench::providers::ProviderError> {
        bench::providers::Reference.complete(req).await
    }
    fn counter(&self) -> Result<String, String> {
        Ok("planted count".into())
    }
    async fn count_tokens(
        &self,
        req: &bench::providers::Request<'_>,
    ) -> Result<u64, bench::providers::ProviderError> {
        let text: String = req.messages.iter().map(|m| m.content.as_str()).collect();
        let planted = match parse_data_block(&text) {
            Some(("csv", data)) => data.chars().count(),
            _ => 0,
        };
        Ok((text.chars().count() / 4 + planted) as u64)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn recommend_chooses_its_candidates_by_the_providers_counts() {
    use bench::formats::Format;
    let tmp = tempfile::tempdir().unwrap();
    let plan = crate::support::doubles::plan(tmp.path(), vec![31], 1);
    let offline = bench::recommend::candidates(&plan, Format::JsonCompact, &[]).unwrap();
    assert_eq!(offline[0].0, Format::Csv, "{offline:?}");
    let model = bench::runner::Model {
        config: bench::providers::ModelConfig {
            provider: "planted".into(),
            model: "m".into(),
            ..Default::default()
        },
        provider: Box::new(Planted),
    };
    let (billed, basis) = bench::recommend::billed_candidates(
        &plan,
        &model,
        (Format::JsonCompact, &[]),
        None,
        &bench::runner::progress::Silent,
    )
    .await
    .unwrap();
    assert_eq!(basis, "planted count");
    // csv costs more than json_compact under these counts: not a candidate at all.
    assert_eq!(billed[0].0, Format::JsonCompact, "{billed:?}");
    assert!(!billed.iter().any(|(f, _)| *f == Format::Csv), "{billed:?}");
}
