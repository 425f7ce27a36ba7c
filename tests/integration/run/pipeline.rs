//! The pipeline with providers other than the happy path: the reference answerer reads only the
//! prompt, and unparseable model output is graded wrong and kept verbatim.

use bench::dataset::{self, Structure, Variant};
use bench::formats::Format;
use bench::prompt::Prompt;
use bench::providers::reference::LookupQuestions;
use bench::providers::{Provider, ProviderError, Reference, Request, Response, Usage};
use bench::questions;
use bench::runner::{Plan, sequential};
use serde_json::{Value, json};

fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(f)
}

#[test]
fn reference_answers_from_the_prompt_text_not_the_original_records() {
    let ds = dataset::generate(31, 42);
    let records = &ds.mandatory;
    let qs = questions::generate(records, 42);
    let doc = ds.document(Variant::Mandatory, Structure::Flat);
    let text = Format::JsonPretty.encode(&doc).unwrap();
    let price = records[0]["price"].to_string();
    // Change one price in the rendered text only.
    let tampered = text.replacen(&format!("\"price\": {price}"), "\"price\": 0.01", 1);
    assert_ne!(tampered, text);
    let prompt = Prompt::render(Format::JsonPretty, &tampered, &qs, false);
    let asked = LookupQuestions {
        questions: qs.clone(),
        root_key: None,
    };
    let resp = block_on(Reference.complete(&Request {
        messages: &prompt.messages(),
        cache_prefix: 0,
        settings: Default::default(),
        answerable: Some(&asked),
        schema: None,
    }))
    .unwrap();
    let answers: Value = serde_json::from_str(&resp.output).unwrap();
    // The average price depends on every price, the tampered one included.
    let q = qs
        .iter()
        .find(|q| q.text == "What is the average price of all products?")
        .expect("average price question");
    assert_ne!(
        answers[&q.id], q.expected,
        "{}: the reference must see the tampered value",
        q.text
    );
    assert!(resp.usage.input > 1000);
}

#[test]
fn reference_reports_an_undecodable_data_block() {
    let qs = questions::generate(&dataset::generate(3, 1).mandatory, 1);
    let prompt = Prompt::render(Format::Yaml, "products: [unclosed", &qs, false);
    let asked = LookupQuestions {
        questions: qs.clone(),
        root_key: None,
    };
    let err = block_on(Reference.complete(&Request {
        messages: &prompt.messages(),
        cache_prefix: 0,
        settings: Default::default(),
        answerable: Some(&asked),
        schema: None,
    }))
    .unwrap_err();
    assert!(err.to_string().contains("yaml"), "{err}");
}

/// A provider that answers with prose and no JSON.
struct Chatty;

#[async_trait::async_trait]
impl Provider for Chatty {
    fn name(&self) -> &str {
        "chatty"
    }
    fn model(&self) -> &str {
        "prose-1"
    }
    fn params(&self) -> Value {
        json!({"temperature": 0})
    }
    fn url(&self) -> Option<String> {
        None
    }
    fn caches_prompts(&self) -> bool {
        true
    }
    async fn complete(&self, _: &Request<'_>) -> Result<Response, ProviderError> {
        Ok(Response {
            output: "I think the answers are {q001: 12".into(),
            usage: Usage {
                input: 10,
                output: 7,
                ..Usage::default()
            },
            ..Response::default()
        })
    }
}

#[test]
fn unparseable_output_fails_every_question_and_is_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let plan = Plan {
        variants: vec![Variant::Optional],
        records: vec![5],
        seed: 1,
        runs: 2,
        ..crate::support::one_table_plan(tmp.path())
    };
    let providers: Vec<Box<dyn Provider>> = vec![Box::new(Chatty)];
    let outcome = block_on(sequential(&plan, providers)).unwrap();
    let text = std::fs::read_to_string(&outcome.jsonl).unwrap();
    let results: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|l| l["type"] == "result")
        .collect();
    assert_eq!(
        results.len(),
        3,
        "a warm-up (the provider caches prompts) and 2 runs"
    );
    assert_eq!(
        results
            .iter()
            .filter(|r| r["data"]["warmup"] == true)
            .count(),
        1
    );
    for r in &results {
        let d = &r["data"];
        assert_eq!(
            d["sample"]["output"]["content"],
            "I think the answers are {q001: 12"
        );
        assert_eq!(d["summary"]["passed_metrics"], 0);
        let metrics = d["metrics"].as_array().unwrap();
        assert_eq!(metrics.len(), 124);
        assert!(
            metrics
                .iter()
                .all(|m| m["reason"] == "unparseable" && m["passed"] == 0)
        );
    }
    assert_eq!(outcome.summary.total_samples, 2, "warm-ups are excluded");
    assert_eq!(outcome.summary.rankings[0].weighted_accuracy, 0.0);
}
