//! What real servers say, against mocks shaped like them: the model that served a call and
//! the server's own timings (llama.cpp, Ollama), recorded and in the views; the warnings a run
//! prints when replies are cut at the output limit or a chat template leaks into them.

use crate::support::mocks::fake_env;
use crate::support::{bench, parse, results, run_dir};
use bench::formats::Format;
use bench::providers::{self, ModelConfig};
use bench::runner::{Outcome, Plan, sequential};
use serde_json::{Value, json};
use std::path::Path;

/// A llama.cpp `/v1/chat/completions` reply: the GGUF path as model, and `timings`.
fn llama_cpp(answer: &str) -> Value {
    json!({"id": "chatcmpl-x", "object": "chat.completion",
        "model": "/models/SmolLM2-135M-Instruct.Q4_1.gguf",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": answer}}],
        "usage": {"prompt_tokens": 900, "completion_tokens": 40, "total_tokens": 940},
        "timings": {"prompt_n": 900, "prompt_ms": 812.5, "predicted_n": 40, "predicted_ms": 301.2,
                    "predicted_per_second": 132.8}})
}

fn plan(root: &Path, formats: Vec<Format>) -> Plan {
    Plan {
        formats,
        records: vec![3],
        seed: 1,
        runs: 2,
        ..crate::support::one_table_plan(root)
    }
}

/// Runs `plan` against one mock answering every call with `body`.
fn run_against(body: Value, plan: &Plan) -> Outcome {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let server = rt.block_on(crate::support::mocks::answering(body));
    let mut cfg = ModelConfig::from_spec("openai-compatible:smollm2").unwrap();
    cfg.base_url = Some(format!("{}/v1", server.uri()));
    let p = providers::build(&cfg, &fake_env).unwrap();
    rt.block_on(sequential(plan, vec![p])).unwrap()
}

#[test]
fn served_model_and_llama_cpp_timings_are_recorded_and_in_the_views() {
    let tmp = tempfile::tempdir().unwrap();
    let outcome = run_against(
        llama_cpp("{\"q001\": 1}"),
        &plan(tmp.path(), vec![Format::Csv]),
    );
    assert!(outcome.warnings.is_empty(), "{:?}", outcome.warnings);
    let lines = parse(&outcome.jsonl);
    let rs = results(&lines);
    assert_eq!(rs.len(), 2);
    for r in &rs {
        assert_eq!(r.provider_config.model, "smollm2", "the model asked for");
        assert_eq!(
            r.served_model.as_deref(),
            Some("/models/SmolLM2-135M-Instruct.Q4_1.gguf")
        );
        assert_eq!(r.server.as_ref().unwrap()["predicted_n"], 40);
    }
    let db = bench::analytics::Analytics::open_run(outcome.jsonl.parent().unwrap()).unwrap();
    let t = db
        .query(
            "SELECT DISTINCT model, served_model, finish, CAST(server->>'prompt_ms' AS DOUBLE) \
             FROM results",
        )
        .unwrap();
    assert_eq!(
        t.rows,
        vec![vec![
            json!("smollm2"),
            json!("/models/SmolLM2-135M-Instruct.Q4_1.gguf"),
            json!("stop"),
            json!(812.5)
        ]]
    );
}

#[test]
fn ollama_durations_are_the_server_object() {
    let tmp = tempfile::tempdir().unwrap();
    let mut body = llama_cpp("{\"q001\": 1}");
    body.as_object_mut().unwrap().remove("timings");
    body["model"] = json!("llama3.1:8b");
    body["total_duration"] = json!(5_000_000_000u64);
    body["eval_count"] = json!(40);
    let outcome = run_against(body, &plan(tmp.path(), vec![Format::Csv]));
    let lines = parse(&outcome.jsonl);
    let r = results(&lines)[0];
    assert_eq!(r.served_model.as_deref(), Some("llama3.1:8b"));
    assert_eq!(
        r.server,
        Some(json!({"total_duration": 5_000_000_000u64, "eval_count": 40}))
    );
}

#[test]
fn cut_replies_and_a_leaked_chat_template_are_warned_about() {
    let tmp = tempfile::tempdir().unwrap();
    let mut cut = llama_cpp("{\"q001\": 1, \"q0");
    cut["choices"][0]["finish_reason"] = json!("length");
    let outcome = run_against(cut, &plan(tmp.path(), vec![Format::Csv]));
    assert_eq!(outcome.warnings.len(), 1, "{:?}", outcome.warnings);
    let w = &outcome.warnings[0];
    assert!(
        w.contains("openai-compatible:smollm2, csv flat mandatory 3 records")
            && w.contains("2 of 2 calls (100 %) stopped at the output limit (max_tokens 4096)")
            && w.contains("raise max_tokens"),
        "{w}"
    );

    let tmp = tempfile::tempdir().unwrap();
    let junk = "<|im_start|>assistant\nThe data<|im_end|>\n<|im_start|>user\nmore";
    let outcome = run_against(llama_cpp(junk), &plan(tmp.path(), vec![Format::Csv]));
    assert_eq!(outcome.warnings.len(), 1, "{:?}", outcome.warnings);
    assert!(
        outcome.warnings[0].contains("chat-template marker <|im_start|>")
            && outcome.warnings[0].contains("--chat-template"),
        "{}",
        outcome.warnings[0]
    );

    // Unparseable prose without markers is a bad reader, not a template problem.
    let tmp = tempfile::tempdir().unwrap();
    let outcome = run_against(
        llama_cpp("I think the answer is seven."),
        &plan(tmp.path(), vec![Format::Csv]),
    );
    assert!(outcome.warnings.is_empty(), "{:?}", outcome.warnings);
}

/// A server that counts fewer prompt tokens than half the data block cut the prompt (Ollama at
/// its num_ctx does so without an error): warned about, with both counts.
#[test]
fn a_prompt_the_server_cut_is_warned_about() {
    let tmp = tempfile::tempdir().unwrap();
    let mut body = llama_cpp("{\"q001\": 1}");
    body["usage"]["prompt_tokens"] = json!(12);
    let outcome = run_against(body, &plan(tmp.path(), vec![Format::JsonPretty]));
    let cut: Vec<&String> = outcome
        .warnings
        .iter()
        .filter(|w| w.contains("cut the prompt"))
        .collect();
    assert_eq!(cut.len(), 1, "{:?}", outcome.warnings);
    assert!(
        cut[0].contains("json_pretty flat mandatory 3 records: 2 of 2 calls were counted by the server as 12 prompt tokens")
            && cut[0].contains("OLLAMA_CONTEXT_LENGTH"),
        "{}",
        cut[0]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn bench_run_prints_the_warning_lines() {
    let mut cut = llama_cpp("{\"q001\": 1, \"q0");
    cut["choices"][0]["finish_reason"] = json!("length");
    let server = crate::support::mocks::answering(cut).await;
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let uri = format!("{}/v1", server.uri());
    let (cache, root2) = (tmp.path().join("cache"), root.clone());
    let out = tokio::task::spawn_blocking(move || {
        bench(&cache)
            .args([
                "run",
                "--provider",
                "openai-compatible:smollm2",
                "--base-url",
                &uri,
            ])
            .args(["--formats", "csv,json_compact", "--structures", "flat"])
            .args(["--variants", "mandatory", "--runs", "1", "--no-report"])
            .arg("--output-root")
            .arg(&root2)
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("warning:") && l.contains("stopped at the output limit"))
        .collect();
    assert_eq!(warnings.len(), 2, "one per rendering: {stderr}");
    assert!(warnings.iter().any(|w| w.contains("json_compact flat")));
    let lines = parse(&run_dir(&root).join("formats.jsonl"));
    assert!(
        results(&lines)
            .iter()
            .all(|r| r.finish_reason.as_deref() == Some("length"))
    );
}
