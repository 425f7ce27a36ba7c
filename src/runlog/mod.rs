//! The JSONL run log: typed lines (metadata first, one `result` per call, `summary` last) and
//! the append-only writer that flushes each line as soon as it is complete.

mod inline;
pub mod meta;
mod payload;
pub mod rankings;
mod summary;
mod tail;

use crate::dataset::{Structure, Variant};
use crate::formats::Format;
use crate::grading::{Metric, Summary};
use crate::prompt::Message;
use crate::providers::{Finish, Usage};
use crate::tokens::DataStats;
use anyhow::{Context, Result};
pub use inline::{INLINE_DATA_MAX, as_logged, logged_input};
use meta::QuestionMode;
pub use payload::Payload;
pub use rankings::RankingRow;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
pub use summary::{ProviderIssue, SummaryRecord, build_summary};
pub use tail::last_line;

/// One line of the run log.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type", content = "data", rename_all = "snake_case")]
pub enum Line {
    /// First line: what was run.
    Metadata(Box<Metadata>),
    /// One provider call.
    Result(Box<ResultRecord>),
    /// Last line: aggregates and rankings.
    Summary(Box<SummaryRecord>),
}

/// A provider and model with its parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProviderConfig {
    /// Provider name.
    pub provider: String,
    /// Model id.
    pub model: String,
    /// Model parameters.
    pub model_params: Value,
    /// Full non-secret settings (metadata line only), so `--resume` can rebuild the provider.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<Value>,
    /// What the run leaves out of or changes in this model's requests and why
    /// (`providers::capabilities::notes`; metadata line only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// What the model's ranked data tokens rest on (metadata line only): `{"basis": …}` when the
    /// provider counted every rendering, `{"fallback": "o200k_base", "reason": …}` when it could
    /// not; absent for the offline reference, which ranks by o200k_base.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_basis: Option<Value>,
}

/// The `metadata` line.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Metadata {
    /// Unique id of this run.
    pub benchmark_id: String,
    /// Start time, RFC 3339.
    pub timestamp: String,
    /// Suite name (`formats`).
    pub suite_name: String,
    /// Human description.
    pub description: String,
    /// Free tags.
    pub tags: Vec<String>,
    /// Providers and models in this run.
    pub providers: Vec<ProviderConfig>,
    /// bench version.
    pub bench_version: String,
    /// Dataset seed.
    pub seed: u64,
    /// Record counts (one per dataset size; older logs hold a single number).
    #[serde(deserialize_with = "one_or_many")]
    pub records: Vec<usize>,
    /// Formats run.
    pub formats: Vec<Format>,
    /// Structures run.
    pub structures: Vec<Structure>,
    /// Variants run.
    pub variants: Vec<Variant>,
    /// Full runs per combination.
    pub runs: u32,
    /// Category weights of weighted accuracy.
    pub weights: Value,
    /// Tokenizers counted.
    pub tokenizers: Vec<String>,
    /// sha256 of the generated records.
    pub dataset_hash: String,
    /// Batch or per-question prompts.
    #[serde(default)]
    pub question_mode: QuestionMode,
    /// Primer settings run (`[false]` without `--primer`).
    #[serde(default = "no_primer")]
    pub primers: Vec<bool>,
    /// The run this one re-graded (`bench rescore`); absent for a run that made its calls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rescored_from: Option<RescoredFrom>,
    /// The suite's own fields (a task file, a `--data` file, write cases), each read and
    /// written by its suite ([`Payload`]: flattened, so they stand here in the line).
    #[serde(flatten)]
    pub payload: Payload,
    /// The product suite's question file (`--questions FILE` without `--data`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub questions_file: Option<std::path::PathBuf>,
    /// Its SHA-256, checked when the run is planned again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub questions_sha256: Option<String>,
    /// sha256 of the questions asked of each size and variant, keyed `"{records}/{variant}"`:
    /// with the data's hash, what keeps rankings of different question sets apart
    /// (`experiment` in sql/views.sql). Empty for suites whose items carry their own questions.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub question_sets: std::collections::BTreeMap<String, String>,
    /// The instruction wordings asked, one per run in turn (`--prompt-variants`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prompt_variants: Vec<String>,
    /// Records were put in another seeded order each run (`--shuffle`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shuffle: bool,
    /// The non-inferiority margin in percentage points (`--margin`) the report decides with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin_pp: Option<f64>,
    /// `--shard K/N`: which slice of the plan this run holds (`bench merge` puts them together).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// Where the answers came from when another benchmark produced them (`bench import`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imported: Option<meta::Imported>,
}

impl Metadata {
    /// Refuses `what` (`resume`, `rescore`) of an imported run: bench made none of its calls.
    pub fn refuse_imported(&self, what: &str, log: &Path) -> Result<(), crate::UsageError> {
        match &self.imported {
            Some(i) => Err(crate::UsageError::new(format!(
                "cannot {what} '{}': its answers were imported from {} ({}), not produced by \
                 bench; import them again instead",
                log.display(),
                i.name,
                i.url
            ))),
            None => Ok(()),
        }
    }
}

/// One slice of a plan split across machines or keys (`bench run --shard K/N`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shard {
    /// K, 1-based.
    pub index: u32,
    /// N.
    pub of: u32,
    /// sha256 of the whole plan (every metadata field that decides the samples), the same in
    /// every shard of one plan.
    pub plan_sha256: String,
}

/// Where a rescored run's responses came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RescoredFrom {
    /// Folder name of the source run (`benchmarks/<this>`).
    pub run: String,
    /// benchmark_id of the source run.
    pub benchmark_id: String,
    /// Start time of the source run.
    pub timestamp: String,
}

fn no_primer() -> Vec<bool> {
    vec![false]
}

/// A number or a list of numbers, as a list.
fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<usize>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(usize),
        Many(Vec<usize>),
    }
    Ok(match OneOrMany::deserialize(d)? {
        OneOrMany::One(n) => vec![n],
        OneOrMany::Many(v) => v,
    })
}

/// `sample.output`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Output {
    /// Raw model text.
    pub content: String,
}

/// `sample`: the call as sent and received.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Sample {
    /// Wall time of the call.
    pub duration_ms: u64,
    /// `{format}_{structure}_{variant}_{N}_run{r}` (`…_warmup` for warm-ups).
    pub tag: String,
    /// Messages sent.
    pub input: Vec<Message>,
    /// Raw output.
    pub output: Output,
    /// Model id.
    pub model: String,
    /// Model parameters.
    pub model_params: Value,
    /// Call start, ms since the epoch.
    pub start_time_ms: u64,
    /// Call end, ms since the epoch.
    pub end_time_ms: u64,
    /// Endpoint, without secrets; null for the offline reference.
    pub url: Option<String>,
}

/// `timing`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Timing {
    /// Time spent in the provider.
    pub provider_latency_ms: u64,
    /// Time spent extracting and grading.
    pub evaluation_time_ms: u64,
}

/// One `result` line: one provider call with its grades.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ResultRecord {
    /// Id of the run this call belongs to (as in the metadata line).
    pub benchmark_id: String,
    /// Provider and model.
    pub provider_config: ProviderConfig,
    /// The call.
    pub sample: Sample,
    /// One grade per question.
    pub metrics: Vec<Metric>,
    /// Aggregates of `metrics`.
    pub summary: Summary,
    /// Timing.
    pub timing: Timing,
    /// Format.
    pub format: Format,
    /// Structure.
    pub structure: Structure,
    /// Variant.
    pub variant: Variant,
    /// Record count of the data.
    pub records: usize,
    /// Run index, 1-based (0 for a warm-up).
    pub run: u32,
    /// Whether this was a cache warm-up (excluded from metrics).
    pub warmup: bool,
    /// Whether a one-line format description preceded the data (`--primer`).
    #[serde(default)]
    pub primer: bool,
    /// The question asked, in per-question mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// The instruction wording asked with (`--prompt-variants`; absent: the default only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_variant: Option<String>,
    /// The seed of this run's record order (`--shuffle`; absent: the data's own order).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order_seed: Option<u64>,
    /// The analysis task asked about (`tasks` suite).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    /// The suite's own grades of the reply (a task's rubric scores, a written document's
    /// first and last grade), each read and written by its suite ([`Payload`]: flattened, so
    /// they stand here in the line).
    #[serde(flatten)]
    pub payload: Payload,
    /// Token usage (summed over a conversation's turns when repairs were asked).
    pub usage: Usage,
    /// Each turn's usage when the call was a conversation (a first reply and its repairs);
    /// empty for a single call.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turns: Vec<Usage>,
    /// Size and tokens of the rendered data.
    pub data_stats: DataStats,
    /// The rendering's data tokens as the provider counts them (`runner::tokens::counter`): its first
    /// prompt counted as sent minus the same prompt without the data. Absent when the provider
    /// has no counter (the reference, Ollama) or counting failed; rankings then use o200k_base.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub billed_data_tokens: Option<u64>,
    /// What `billed_data_tokens` rests on (`anthropic count_tokens`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_basis: Option<String>,
    /// Cost in USD from usage × price (0 for the offline reference and failed calls; null
    /// when the model has no known price).
    pub cost_usd: Option<f64>,
    /// Whether the response came from bench's response cache (nothing spent this time).
    #[serde(default)]
    pub cached: bool,
    /// HTTP attempts made (0 for a cache hit).
    #[serde(default)]
    pub attempts: u32,
    /// HTTP status of the last attempt.
    #[serde(default)]
    pub status: Option<u16>,
    /// The provider's request id.
    #[serde(default)]
    pub request_id: Option<String>,
    /// Why the model stopped, normalised (`stop`, `length`, …; `error` for a failed call);
    /// null when unknown (older logs, cache entries from before it was recorded).
    #[serde(default)]
    pub finish: Option<Finish>,
    /// The stop or finish reason exactly as the API gave it.
    #[serde(default)]
    pub finish_reason: Option<String>,
    /// The model the server says answered (null when it named none, or for a failed call).
    #[serde(default)]
    pub served_model: Option<String>,
    /// The server's own timings as it reported them (llama.cpp `timings`, Ollama durations).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<serde_json::Value>,
    /// The provider's batch this call ran in (`--batch`); absent for live calls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch_id: Option<String>,
    /// `order` when the batch answer came back without its custom id and was matched by its
    /// position in the submitted batch; absent when matched by id (and for live calls).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch_matched_by: Option<String>,
    /// Both grades of an imported answer (`bench import`); absent for a call bench made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imported: Option<meta::ImportedGrades>,
    /// Why the call failed, null if it did not.
    pub error: Option<String>,
}

/// The `.jsonl` files directly in a run folder, sorted (a run folder holds exactly one; callers
/// word the error when it does not).
pub fn run_logs(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut logs: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    logs.sort();
    Ok(logs)
}

/// Why a run log cannot be read, when it holds no lines at all (0 bytes, or blank): one line,
/// the same from `report`, `query`, `rescore` and `compare`. `None` for a log with content (or
/// one that cannot be opened, which the reader reports).
pub fn holds_no_lines(log: &Path) -> Option<crate::UsageError> {
    let len = std::fs::metadata(log).ok()?.len();
    // A blank log is tiny; a larger one is read line by line by its reader.
    let blank =
        len == 0 || (len < 4096 && std::fs::read(log).ok()?.iter().all(u8::is_ascii_whitespace));
    blank.then(|| {
        crate::UsageError::new(format!(
            "{}: holds no lines: the run stopped before writing its first line; run it again, \
             or delete its folder",
            log.display()
        ))
    })
}

/// Append-only JSONL writer; every line is written whole and flushed before the next. A line
/// that could not be written whole (a full disk) is cut off again, and the writer refuses every
/// later line with the first error: the log never ends in half a line it wrote.
pub struct JsonlWriter {
    file: File,
    path: PathBuf,
    /// The first write error, once one happened.
    failed: Option<String>,
}

impl JsonlWriter {
    /// Creates the file (and parents); fails if it already exists.
    pub fn create(path: &Path) -> Result<Self> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create '{}'", parent.display()))?;
        }
        let file = OpenOptions::new()
            .create_new(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot create run log '{}'", path.display()))?;
        Ok(Self {
            file,
            path: path.to_path_buf(),
            failed: None,
        })
    }

    /// The file path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one line and flushes it to the OS.
    pub fn append(&mut self, line: &Line) -> Result<()> {
        if let Some(e) = &self.failed {
            anyhow::bail!("{e}");
        }
        let mut buf = serde_json::to_vec(line)?;
        buf.push(b'\n');
        let before = self.file.metadata().map(|m| m.len());
        if let Err(e) = self.file.write_all(&buf).and_then(|()| self.file.flush()) {
            // Cut the part that was written, so the log ends with its last whole line.
            if let Ok(len) = before {
                let _ = self.file.set_len(len);
            }
            let what = format!("cannot append to '{}'", self.path.display());
            self.failed = Some(format!("{what}: {e}"));
            // The OS error stays in the chain: a full disk is told apart from other failures.
            return Err(anyhow::Error::new(e).context(what));
        }
        Ok(())
    }

    /// Whether a write failed (every later one is refused).
    pub fn failed(&self) -> bool {
        self.failed.is_some()
    }

    /// Opens an existing log for appending (after `--resume` rewrote it).
    pub fn append_to(path: &Path) -> Result<Self> {
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .with_context(|| format!("cannot append to run log '{}'", path.display()))?;
        Ok(Self {
            file,
            path: path.to_path_buf(),
            failed: None,
        })
    }

    /// Syncs the file to disk.
    pub fn sync(&self) -> Result<()> {
        self.file
            .sync_all()
            .with_context(|| format!("cannot sync '{}'", self.path.display()))
    }

    /// Syncs the file to disk and closes it.
    pub fn finish(self) -> Result<()> {
        self.file
            .sync_all()
            .with_context(|| format!("cannot sync '{}'", self.path.display()))
    }
}
