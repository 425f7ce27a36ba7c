//! Plans the (format, structure, variant, provider) matrix and executes it: renders each
//! combination once, calls the provider for each run, grades, and appends every call to the
//! JSONL log as soon as it is graded.

mod call;

use crate::UsageError;
use crate::dataset::{self, Structure, Variant};
use crate::formats::Format;
use crate::layout::{self, Writer, dataset_hash};
use crate::providers::Provider;
use crate::questions::{self, Category, Question};
use crate::records::{JsonlWriter, Line, Metadata, ProviderConfig, SummaryRecord, build_summary};
use crate::tokens::Tokenizer;
use anyhow::Result;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Name of the default suite.
pub const SUITE: &str = "formats";

/// What to run.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Formats, in order.
    pub formats: Vec<Format>,
    /// Structures, in order.
    pub structures: Vec<Structure>,
    /// Variants, in order.
    pub variants: Vec<Variant>,
    /// Records in the dataset.
    pub records: u32,
    /// Dataset seed.
    pub seed: u64,
    /// Full runs per combination.
    pub runs: u32,
    /// Tokenizers to count data with.
    pub tokenizers: Vec<Tokenizer>,
    /// Root of `benchmarks/<timestamp>/`.
    pub output_root: PathBuf,
}

impl Plan {
    /// The (format, structure, variant) combinations, skipping what a format cannot render.
    pub fn combinations(&self) -> Vec<(Format, Structure, Variant)> {
        let mut out = Vec::new();
        for &v in &self.variants {
            for &s in &self.structures {
                for &f in &self.formats {
                    if f.supports(s) {
                        out.push((f, s, v));
                    }
                }
            }
        }
        out
    }
}

/// Where a finished run went.
pub struct Outcome {
    /// The JSONL run log.
    pub jsonl: PathBuf,
    /// The artifacts folder.
    pub artifacts: PathBuf,
    /// The summary line that was written.
    pub summary: SummaryRecord,
}

/// Creates `root/benchmarks/<timestamp>/`, unique even for two runs in the same second.
fn create_run_dir(root: &Path, stamp: &str) -> Result<PathBuf, UsageError> {
    let parent = root.join("benchmarks");
    std::fs::create_dir_all(&parent).map_err(|e| {
        UsageError::new(format!(
            "cannot write to output root '{}': {e}",
            root.display()
        ))
    })?;
    for i in 1.. {
        let name = if i == 1 {
            stamp.to_string()
        } else {
            format!("{stamp}_{i}")
        };
        let dir = parent.join(name);
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                return Err(UsageError::new(format!(
                    "cannot write to '{}': {e}",
                    dir.display()
                )));
            }
        }
    }
    unreachable!("the loop returns")
}

fn weights() -> Value {
    Category::ALL
        .iter()
        .map(|c| (c.name().to_string(), json!(c.weight())))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// Executes the plan against each provider; `progress` is told about every finished call.
pub async fn run(
    plan: &Plan,
    providers: &[Box<dyn Provider>],
    progress: &dyn Fn(call::Progress),
) -> Result<Outcome> {
    let combos = plan.combinations();
    if combos.is_empty() {
        return Err(UsageError::new(
            "nothing to run: no format supports the chosen structures (csv is flat only)",
        )
        .into());
    }
    let now = chrono::Utc::now();
    let dir = create_run_dir(
        &plan.output_root,
        &now.format("%Y-%m-%d_%H-%M-%S").to_string(),
    )?;
    let benchmark_id = format!(
        "bench_{}_{:06x}",
        now.format("%Y%m%d_%H%M%S"),
        now.timestamp_subsec_micros() ^ std::process::id()
    );
    let timestamp = now.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let mut log = JsonlWriter::create(&dir.join(format!("{SUITE}.jsonl")))?;
    let mut artifacts = Writer::create(&dir.join(SUITE))?;

    let ds = dataset::generate(plan.records, plan.seed);
    let n = ds.mandatory.len();
    let questions: BTreeMap<Variant, Vec<Question>> = plan
        .variants
        .iter()
        .map(|&v| (v, questions::generate(&ds.records(v), plan.seed)))
        .collect();
    for (&v, qs) in &questions {
        artifacts.questions(v, n, qs)?;
    }
    let configs: Vec<ProviderConfig> = providers
        .iter()
        .map(|p| ProviderConfig {
            provider: p.name().into(),
            model: p.model().into(),
            model_params: p.params(),
        })
        .collect();
    log.append(&Line::Metadata(Box::new(Metadata {
        benchmark_id: benchmark_id.clone(),
        timestamp: timestamp.clone(),
        suite_name: SUITE.into(),
        description:
            "Which data format does an LLM read best: same data, same questions, many formats."
                .into(),
        tags: vec![],
        providers: configs,
        bench_version: env!("CARGO_PKG_VERSION").into(),
        seed: plan.seed,
        records: n,
        formats: plan.formats.clone(),
        structures: plan.structures.clone(),
        variants: plan.variants.clone(),
        runs: plan.runs,
        weights: weights(),
        tokenizers: plan
            .tokenizers
            .iter()
            .map(|t| t.name().to_string())
            .collect(),
        dataset_hash: dataset_hash(&ds),
    })))?;

    let total = combos.len() * providers.len() * plan.runs as usize;
    let mut ctx = call::Context {
        benchmark_id: &benchmark_id,
        log: &mut log,
        artifacts: &mut artifacts,
        n,
        multi_provider: providers.len() > 1,
        done: 0,
        total,
        progress,
    };
    let mut results = Vec::new();
    for &v in &plan.variants {
        for &s in &plan.structures {
            let doc = ds.document(v, s);
            for &f in plan.formats.iter().filter(|f| f.supports(s)) {
                let rendering = layout::render(&doc, f, s, v, &plan.tokenizers)?;
                ctx.artifacts.data(&rendering, n)?;
                for p in providers {
                    results.extend(
                        ctx.combination(p.as_ref(), &rendering, &questions[&v], plan.runs)
                            .await?,
                    );
                }
            }
        }
    }
    let summary = build_summary(&benchmark_id, &timestamp, SUITE, &results, false);
    log.append(&Line::Summary(Box::new(summary.clone())))?;
    let jsonl = log.path().to_path_buf();
    log.finish()?;
    artifacts.metadata(
        &ds,
        json!({"seed": plan.seed, "records": n, "runs": plan.runs, "suite": SUITE}),
    )?;
    Ok(Outcome {
        jsonl,
        artifacts: dir.join(SUITE),
        summary,
    })
}
