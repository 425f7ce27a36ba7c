//! Request bodies against what the real APIs accept. Each mock answers like the real API: a
//! body whose keys or shapes the official SDK types do not have, or a setting the model refuses
//! (a temperature for a reasoning model, a thinking budget not below `max_tokens`, the budget
//! form where only adaptive thinking is taken), gets the API's own 400; anything else a 200.
//! Every family of `providers::capabilities::TABLE` is called through every wire API that
//! serves it, with and without thinking, as the tasks suite calls it (temperature 0.3).

use crate::support::mocks::{FAKE_KEY, fake_env};
use crate::support::{parse, run_dir};
use bench::formats::Format;
use bench::prompt::Message;
use bench::providers::capabilities::{self, Api, Capabilities, Sampling, Thinking};
use bench::providers::{self, ModelConfig, Request, Wire};
use bench::runlog::Line;
use bench::suites::CallSettings;
use bench::suites::tasks::TaskRequest;
use serde_json::{Value, json};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// Top-level request keys of Anthropic's `MessageCreateParams`
/// (anthropic-sdk-python, src/anthropic/types/message_create_params.py).
const ANTHROPIC_KEYS: &[&str] = &[
    "model",
    "max_tokens",
    "messages",
    "system",
    "temperature",
    "top_p",
    "top_k",
    "thinking",
    "output_config",
    "stop_sequences",
    "metadata",
    "tools",
    "tool_choice",
    "stream",
    "service_tier",
];
/// Chat Completions `CompletionCreateParams` (openai-python,
/// src/openai/types/chat/completion_create_params.py), the keys bench could send.
const CHAT_KEYS: &[&str] = &[
    "model",
    "messages",
    "max_completion_tokens",
    "max_tokens",
    "temperature",
    "top_p",
    "reasoning_effort",
    "stream",
    "seed",
    "stop",
];
/// Responses `ResponseCreateParams` (openai-python,
/// src/openai/types/responses/response_create_params.py), the keys bench could send.
const RESPONSES_KEYS: &[&str] = &[
    "model",
    "input",
    "instructions",
    "max_output_tokens",
    "store",
    "temperature",
    "top_p",
    "reasoning",
    "stream",
];
/// `GenerateContentConfig` fields as the REST API names them (googleapis/python-genai,
/// google/genai/types.py), and the request's top-level keys.
const GEMINI_CONFIG_KEYS: &[&str] = &[
    "maxOutputTokens",
    "temperature",
    "topP",
    "topK",
    "thinkingConfig",
    "stopSequences",
];
const GEMINI_KEYS: &[&str] = &["contents", "generationConfig", "systemInstruction"];

fn keys_within(body: &Value, allowed: &[&str]) -> Result<(), String> {
    let extra: Vec<&String> = body
        .as_object()
        .ok_or("body is not an object")?
        .keys()
        .filter(|k| !allowed.contains(&k.as_str()))
        .collect();
    if extra.is_empty() {
        Ok(())
    } else {
        Err(format!("Extra inputs are not permitted: {extra:?}"))
    }
}

/// The 400 message the real API gives `body` for a `caps` model, or None when it is accepted.
fn refusal(wire: Wire, caps: &Capabilities, body: &Value) -> Option<String> {
    let r = match wire {
        Wire::Anthropic => anthropic(caps, body),
        Wire::OpenAi => openai(caps, body, "reasoning_effort", CHAT_KEYS),
        Wire::OpenAiResponses => openai(caps, body, "reasoning", RESPONSES_KEYS),
        Wire::Gemini => gemini(caps, body),
        _ => Ok(()),
    };
    r.err()
}

fn anthropic(caps: &Capabilities, body: &Value) -> Result<(), String> {
    keys_within(body, ANTHROPIC_KEYS)?;
    let max = body["max_tokens"]
        .as_u64()
        .ok_or("max_tokens: Field required")?;
    let thinking = &body["thinking"];
    if caps.sampling == Sampling::DefaultOnly && body.get("temperature").is_some() {
        return Err("`temperature` is deprecated for this model.".into());
    }
    match thinking["type"].as_str() {
        None => Ok(()),
        Some("enabled") => {
            let b = thinking["budget_tokens"]
                .as_u64()
                .ok_or("budget_tokens: Field required")?;
            if caps.thinking == Thinking::Adaptive || caps.thinking == Thinking::None {
                return Err("thinking.type.enabled is not supported for this model. Use thinking.type.adaptive and output_config.effort to control thinking behavior.".into());
            }
            if b < 1024 {
                return Err(
                    "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024"
                        .into(),
                );
            }
            if max <= b {
                return Err("`max_tokens` must be greater than `thinking.budget_tokens`".into());
            }
            if body.get("temperature").is_some() {
                return Err("`temperature` may only be set to 1 when thinking is enabled".into());
            }
            Ok(())
        }
        Some("adaptive") => {
            if !matches!(
                caps.thinking,
                Thinking::Adaptive | Thinking::BudgetOrAdaptive
            ) {
                return Err("adaptive thinking is not supported on this model".into());
            }
            if body.get("temperature").is_some() {
                return Err("`temperature` may only be set to 1 when thinking is enabled".into());
            }
            Ok(())
        }
        Some(other) => Err(format!("thinking.type: unknown variant {other}")),
    }
}

fn openai(
    caps: &Capabilities,
    body: &Value,
    effort_key: &str,
    keys: &[&str],
) -> Result<(), String> {
    keys_within(body, keys)?;
    if body.get("max_tokens").is_some() && caps.sampling != Sampling::Any {
        return Err("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.".into());
    }
    let effort = match effort_key {
        "reasoning" => body["reasoning"]["effort"].as_str(),
        _ => body["reasoning_effort"].as_str(),
    };
    if let Some(t) = body["temperature"].as_f64() {
        let reasoning_off = effort.is_none_or(|e| e == "none");
        let ok = match caps.sampling {
            Sampling::Any => true,
            Sampling::DefaultOnly => t == 1.0,
            Sampling::WithoutReasoning => reasoning_off || t == 1.0,
        };
        if !ok {
            return Err(format!(
                "Unsupported value: 'temperature' does not support {t} with this model. Only the default (1) value is supported."
            ));
        }
    }
    match (caps.thinking, effort) {
        (Thinking::Effort(values), Some(e)) if !values.contains(&e) => Err(format!(
            "Unsupported value: '{e}' is not supported with this model."
        )),
        (Thinking::None, Some(_)) => Err(format!(
            "Unsupported parameter: '{effort_key}' is not supported with this model."
        )),
        _ => Ok(()),
    }
}

fn gemini(caps: &Capabilities, body: &Value) -> Result<(), String> {
    keys_within(body, GEMINI_KEYS)?;
    let config = &body["generationConfig"];
    keys_within(config, GEMINI_CONFIG_KEYS)?;
    match (
        caps.thinking,
        config["thinkingConfig"]["thinkingBudget"].as_u64(),
    ) {
        (Thinking::None, Some(_)) => Err("Thinking is not supported by this model.".into()),
        (Thinking::GeminiBudget { off: false }, Some(0)) => {
            Err("Budget 0 is invalid. This model only works in thinking mode.".into())
        }
        _ => Ok(()),
    }
}

/// A reply each API would give to a valid body.
fn ok_body(wire: Wire, answer: &str) -> Value {
    match wire {
        Wire::Anthropic => json!({"content": [{"type": "text", "text": answer}],
            "stop_reason": "end_turn", "usage": {"input_tokens": 10, "output_tokens": 5}}),
        Wire::OpenAiResponses => json!({"status": "completed", "output": [{"type": "message",
            "content": [{"type": "output_text", "text": answer}]}],
            "usage": {"input_tokens": 10, "output_tokens": 5}}),
        Wire::Gemini => json!({"candidates": [{"content": {"parts": [{"text": answer}]},
            "finishReason": "STOP"}], "usageMetadata": {"promptTokenCount": 10,
            "candidatesTokenCount": 5}}),
        _ => json!({"choices": [{"message": {"content": answer}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5}}),
    }
}

/// A server answering as the real API does for a `caps` model behind `wire`.
async fn strict_api(wire: Wire, caps: &'static Capabilities, answer: &'static str) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(wiremock::matchers::method("POST"))
        .respond_with(move |req: &wiremock::Request| {
            let body: Value = serde_json::from_slice(&req.body).unwrap_or(Value::Null);
            match refusal(wire, caps, &body) {
                Some(message) => ResponseTemplate::new(400).set_body_json(json!({"type": "error",
                    "error": {"type": "invalid_request_error", "message": message,
                    "param": null, "code": "unsupported_value"}})),
                None => ResponseTemplate::new(200).set_body_json(ok_body(wire, answer)),
            }
        })
        .mount(&server)
        .await;
    server
}

/// A model id of the row (a `*` row gets a made-up member of its family).
fn model_of(caps: &Capabilities) -> String {
    let id = caps.ids[0];
    match id.strip_suffix('*') {
        Some(prefix) if prefix.ends_with('.') => format!("{prefix}1"),
        Some(prefix) => format!("{prefix}-pro-preview"),
        None => id.to_string(),
    }
}

/// The thinking settings a user would pick for the row, or None when it has none.
fn thinking(caps: &Capabilities, cfg: &mut ModelConfig) -> bool {
    match caps.thinking {
        Thinking::None | Thinking::GeminiLevel => return false,
        Thinking::Budget | Thinking::GeminiBudget { .. } => cfg.thinking_budget = Some(2048),
        Thinking::BudgetOrAdaptive | Thinking::Adaptive => {
            cfg.reasoning_effort = Some("high".into())
        }
        Thinking::Effort(values) => cfg.reasoning_effort = Some(values[values.len() / 2].into()),
    }
    true
}

fn wires(caps: &Capabilities) -> Vec<Wire> {
    match caps.api {
        Api::Anthropic => vec![Wire::Anthropic],
        Api::OpenAi if caps.chat_completions => vec![Wire::OpenAi, Wire::OpenAiResponses],
        Api::OpenAi => vec![Wire::OpenAiResponses],
        Api::Gemini => vec![Wire::Gemini],
    }
}

#[tokio::test]
async fn every_family_gets_a_body_its_api_accepts_as_the_tasks_suite_calls_it() {
    let messages = vec![Message {
        role: "user".into(),
        content: "DATA\nTASK".into(),
    }];
    let task = TaskRequest {
        format: Format::ALL[0],
        root_key: None,
        values: Vec::new(),
        max_tokens: 2048,
        temperature: Some(0.3),
    };
    let req = Request {
        messages: &messages,
        cache_prefix: 5,
        settings: CallSettings {
            max_tokens: Some(task.max_tokens),
            temperature: task.temperature,
        },
        answerable: Some(&task),
        schema: None,
    };
    let mut checked = 0;
    for caps in capabilities::TABLE {
        for wire in wires(caps) {
            for with_thinking in [false, true] {
                let server = strict_api(wire, caps, "ok").await;
                let mut cfg =
                    ModelConfig::from_spec(&format!("{}:{}", wire.name(), model_of(caps))).unwrap();
                assert!(std::ptr::eq(
                    capabilities::lookup(wire, &cfg.model).unwrap(),
                    caps
                ));
                if with_thinking && !thinking(caps, &mut cfg) {
                    continue;
                }
                let suffix = if matches!(wire, Wire::OpenAi | Wire::OpenAiResponses) {
                    "/v1"
                } else {
                    ""
                };
                cfg.base_url = Some(format!("{}{suffix}", server.uri()));
                let label = format!("{} {} thinking={with_thinking}", wire.name(), cfg.model);
                let p =
                    providers::build(&cfg, &fake_env).unwrap_or_else(|e| panic!("{label}: {e}"));
                let body = p.preview(&req).unwrap();
                let resp = p.complete(&req).await;
                assert!(resp.is_ok(), "{label}: {resp:?}\n{body:#}");
                assert_eq!(resp.unwrap().output, "ok");
                let sent = &server.received_requests().await.unwrap()[0];
                let sent: Value = serde_json::from_slice(&sent.body).unwrap();
                assert_eq!(sent, body, "{label}: --show-requests shows what is sent");
                checked += 1;
            }
        }
    }
    assert!(
        checked >= 20,
        "{checked} family × wire × thinking combinations"
    );
}

#[test]
fn the_strict_mocks_refuse_what_the_real_apis_refuse() {
    // The matchers above must be able to fail, or the test above proves nothing.
    let row = |w, m| capabilities::lookup(w, m).unwrap();
    let gpt5 = row(Wire::OpenAi, "gpt-5-mini");
    let body = json!({"model": "gpt-5-mini", "messages": [], "max_completion_tokens": 10, "temperature": 0.3});
    assert!(
        refusal(Wire::OpenAi, gpt5, &body)
            .unwrap()
            .contains("Only the default (1)")
    );
    let opus47 = row(Wire::Anthropic, "claude-opus-4-7");
    let body = json!({"model": "claude-opus-4-7", "max_tokens": 4096, "messages": [],
        "thinking": {"type": "enabled", "budget_tokens": 2048}});
    assert!(
        refusal(Wire::Anthropic, opus47, &body)
            .unwrap()
            .contains("adaptive")
    );
    let sonnet = row(Wire::Anthropic, "claude-sonnet-4-5");
    let body = json!({"model": "claude-sonnet-4-5", "max_tokens": 2048, "messages": [],
        "thinking": {"type": "enabled", "budget_tokens": 2048}});
    assert!(
        refusal(Wire::Anthropic, sonnet, &body)
            .unwrap()
            .contains("greater than")
    );
    let body = json!({"model": "x", "max_tokens": 2048, "messages": [], "temprature": 1});
    assert!(
        refusal(Wire::Anthropic, sonnet, &body)
            .unwrap()
            .contains("Extra inputs")
    );
    let pro = row(Wire::Gemini, "gemini-2.5-pro");
    let body = json!({"contents": [], "generationConfig": {"maxOutputTokens": 10, "thinkingConfig": {"thinkingBudget": 0}}});
    assert!(refusal(Wire::Gemini, pro, &body).is_some());
}

/// A tasks run of a reasoning model and a Claude model that refuse any temperature, each behind
/// a mock answering as the real API does: every call succeeds because none carries one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tasks_run_never_sends_a_temperature_the_model_refuses() {
    let gpt = capabilities::lookup(Wire::OpenAi, "gpt-5-mini").unwrap();
    let opus = capabilities::lookup(Wire::Anthropic, "claude-opus-4-7").unwrap();
    let openai = strict_api(Wire::OpenAi, gpt, "- Distinct customers: 9").await;
    let anthropic = strict_api(Wire::Anthropic, opus, "- Distinct customers: 9").await;
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("models.toml");
    std::fs::write(
        &config,
        format!(
            "[[models]]\nprovider = \"openai\"\nmodel = \"gpt-5-mini\"\nbase_url = \"{}/v1\"\n\n\
             [[models]]\nprovider = \"anthropic\"\nmodel = \"claude-opus-4-7\"\nbase_url = \"{}\"\n\
             reasoning_effort = \"low\"\n",
            openai.uri(),
            anthropic.uri()
        ),
    )
    .unwrap();
    let root = tmp.path().join("data");
    let (root2, cache) = (root.clone(), tmp.path().join("cache"));
    let out = tokio::task::spawn_blocking(move || {
        crate::support::bench(&cache)
            .env("OPENAI_API_KEY", FAKE_KEY)
            .env("ANTHROPIC_API_KEY", FAKE_KEY)
            .args([
                "run",
                "--suite",
                "tasks",
                "--task-ids",
                "RET-001",
                "--tasks",
            ])
            .arg(
                std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("benchmarks/tasks/synthetic.json"),
            )
            .args([
                "--formats",
                "csv,json_compact",
                "--runs",
                "1",
                "--no-report",
                "--config",
            ])
            .arg(&config)
            .arg("--output-root")
            .arg(&root2)
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("openai:gpt-5-mini: temperature: the tasks' own temperatures are not sent"),
        "{stderr}"
    );
    for server in [&openai, &anthropic] {
        // The calls; the token counts before them (every suite counts: Anthropic's
        // count_tokens, OpenAI's input_tokens) set nothing.
        let sent: Vec<_> = server
            .received_requests()
            .await
            .unwrap()
            .into_iter()
            .filter(|r| {
                let p = r.url.path();
                !p.ends_with("/count_tokens") && !p.ends_with("/input_tokens")
            })
            .collect();
        assert_eq!(sent.len(), 2);
        for r in sent {
            let body: Value = serde_json::from_slice(&r.body).unwrap();
            assert!(body.get("temperature").is_none(), "{body}");
        }
    }
    let lines = parse(&run_dir(&root).join("tasks.jsonl"));
    let mut results = 0;
    for line in &lines {
        match line {
            Line::Result(r) => {
                assert!(r.error.is_none(), "{:?}", r.error);
                assert_eq!(r.status, Some(200));
                results += 1;
            }
            Line::Metadata(m) => {
                let gpt = m
                    .providers
                    .iter()
                    .find(|p| p.model == "gpt-5-mini")
                    .unwrap();
                assert!(
                    gpt.notes.iter().any(|n| n.contains("temperature")),
                    "{:?}",
                    gpt.notes
                );
            }
            _ => {}
        }
    }
    assert_eq!(results, 4);
}
