//! Test doubles run through the real runner: a provider that answers like the reference but
//! for planted wrong answers, the plans they are asked, and the runs they make.

use bench::dataset::{Structure, Variant};
use bench::formats::Format;
use bench::prompt::parse_data_block;
use bench::providers::{ModelConfig, Provider, ProviderError, Reference, Request, Response};
use bench::report::data::ComparisonRow;
use bench::runner::progress::Silent;
use bench::runner::{self, Model, Options, Outcome, Plan, QuestionMode, Stop};
use bench::tokens::Tokenizer;
use serde_json::{Map, Value, json};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The smallest plan with real calls (CSV, flat, mandatory, 31 records, seed 42, one run): the
/// fields a test does not name, as in `Plan { records: vec![3], ..one_table_plan(root) }`.
pub fn one_table_plan(root: &Path) -> Plan {
    Plan {
        formats: vec![Format::Csv],
        structures: vec![Structure::Flat],
        variants: vec![Variant::Mandatory],
        records: vec![31],
        seed: 42,
        runs: 1,
        tokenizers: vec![Tokenizer::O200kBase],
        output_root: root.to_path_buf(),
        question_mode: QuestionMode::OnePrompt,
        prompt_variants: 1,
        shuffle: false,
        shard: None,
        primers: vec![false],
        suite: bench::suites::product(),
    }
}

/// Answers like the reference, but "WRONG" for the planted question ids of each format, and
/// fails the `fail_call`-th call (1-based) of the format `fail_format`.
pub struct Double {
    /// The model name it reports.
    pub model: String,
    /// The planted wrong question ids, per format name.
    pub wrong: HashMap<&'static str, BTreeSet<String>>,
    /// The format whose `fail_call`-th call fails ("" for none).
    pub fail_format: &'static str,
    /// Which call of `fail_format` fails (1-based; 0 for none).
    pub fail_call: usize,
    /// The calls of `fail_format` so far.
    pub calls: std::sync::atomic::AtomicUsize,
}

impl Double {
    /// Wrong on `wrong`'s question ids of each format, never failing a call.
    pub fn new(model: &str, wrong: HashMap<&'static str, BTreeSet<String>>) -> Self {
        Self {
            model: model.into(),
            wrong,
            fail_format: "",
            fail_call: 0,
            calls: Default::default(),
        }
    }
}

/// The question ids `q{i:03}` of `range`.
pub fn ids(range: std::ops::RangeInclusive<u32>) -> BTreeSet<String> {
    range.map(|i| format!("q{i:03}")).collect()
}

#[async_trait::async_trait]
impl Provider for Double {
    fn name(&self) -> &str {
        "double"
    }
    fn model(&self) -> &str {
        &self.model
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
    async fn complete(&self, req: &Request<'_>) -> Result<Response, ProviderError> {
        let mut resp = Reference.complete(req).await?;
        let input: String = req.messages.iter().map(|m| m.content.as_str()).collect();
        let (format, _) = parse_data_block(&input).expect("data block");
        if format == self.fail_format
            && self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1 == self.fail_call
        {
            return Err(ProviderError::BadPrompt("simulated failure".into()));
        }
        let mut answers: Map<String, Value> = serde_json::from_str(&resp.output).unwrap();
        if let Some(wrong) = self.wrong.get(format) {
            for (id, v) in answers.iter_mut() {
                if wrong.contains(id) {
                    *v = json!("WRONG");
                }
            }
        }
        resp.output = serde_json::to_string(&answers).unwrap();
        Ok(resp)
    }
}

/// `d` as a model of the run, provider "double".
pub fn model(d: Double) -> Model {
    Model {
        config: ModelConfig {
            provider: "double".into(),
            model: d.model.clone(),
            ..ModelConfig::default()
        },
        provider: Box::new(d),
    }
}

/// Four formats (csv, json_compact, json_pretty, yaml) of `records` records, `runs` times.
pub fn plan(root: &Path, records: Vec<u32>, runs: u32) -> Plan {
    Plan {
        formats: vec![
            Format::Csv,
            Format::JsonCompact,
            Format::JsonPretty,
            Format::Yaml,
        ],
        records,
        runs,
        ..one_table_plan(root)
    }
}

/// The comparison row of `model` in `format`.
pub fn find<'a>(rows: &'a [ComparisonRow], model: &str, format: &str) -> &'a ComparisonRow {
    rows.iter()
        .find(|c| c.family.model == model && c.format == format)
        .unwrap_or_else(|| panic!("no comparison for {model} {format}"))
}

/// A whole run of `plan` through the real runner, quietly, with no stop asked for.
pub async fn run_plan(plan: &Plan, models: Vec<Model>, opts: Options) -> Outcome {
    runner::run(
        plan,
        models,
        opts,
        None,
        Arc::new(Silent),
        Arc::new(Stop::default()),
    )
    .await
    .unwrap()
}

/// One run of `name`'s double over `records` records, under `root`.
pub async fn run_double(
    root: &Path,
    name: &str,
    wrong: &[(&'static str, u32)],
    records: u32,
) -> PathBuf {
    let wrong: HashMap<_, _> = wrong.iter().map(|&(f, n)| (f, ids(1..=n))).collect();
    let plan = plan(root, vec![records], 1);
    let outcome = run_plan(
        &plan,
        vec![model(Double::new(name, wrong))],
        Options::default(),
    )
    .await;
    assert_eq!(outcome.missing, 0);
    outcome.jsonl.parent().unwrap().to_path_buf()
}
