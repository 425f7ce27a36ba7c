//! The `tasks` suite's matrix: one rendering and one prompt per (task, format). A format that
//! cannot represent a task's data is a skip with its reason, kept for the screen, the run's
//! metadata and the report — never dropped silently.

pub mod facts;
pub mod grade;
pub mod list;
mod load;
mod meta;
pub mod panel;
pub mod prompt;
mod report;
pub mod scope;
mod task;

pub use load::{Loaded, load, load_source, select};
pub use meta::{TaskMeta, rubric_payload, scores, scores_payload};
pub use task::{DataSource, ExpectedValue, Task, TaskDef, TaskRequest, ValueQuery, state_fact};

use super::asked::{self, Asked, Entry, Planned, Select, refuse};
use super::plan::{CallSettings, ForReference, Scored, Scorer, Suite};
use super::plan::{Combo, Matrix, Plan, QuestionMode, Unit};
use super::render::or_skip;
use crate::dataset::{Structure, Variant};
use crate::formats::{self, Format};
use crate::layout::{self, Rendering};
use crate::prompt::wording;
use crate::providers::{Answerable, ProviderError};
use crate::questions::Category;
use crate::runlog::Metadata;
use crate::tokens::Tokenizer;
use anyhow::{Context, Result};
use std::path::PathBuf;
use std::sync::Arc;

/// Name of the analysis-task suite.
pub const SUITE: &str = "tasks";

/// What the `tasks` suite runs: the task file and the selected tasks.
#[derive(Debug, Clone)]
pub struct TaskPlan {
    /// The task file they came from.
    pub file: PathBuf,
    /// Selected tasks, in file order.
    pub tasks: Vec<Task>,
}

/// Claims a metadata line that names a task file.
pub const ENTRY: Entry = Entry {
    kind: SUITE,
    from_metadata: |m| match TaskMeta::of(m)? {
        Some(t) => Ok(Some(Arc::new(t.plan()?) as Arc<dyn Suite>)),
        None => Ok(None),
    },
    items: true,
    ranked_by: "sql/task_scores.sql",
    result_mode: None,
    check_own: |m| TaskMeta::of(m).map(drop),
    select: Some(Select {
        about: "Analysis tasks over task data files, scored against values computed from the data",
        plan,
        group: Some(asked::FlagGroup::of::<TaskArgs>()),
        flags: &["tasks", "data_source", "task_ids", "categories"],
        given,
    }),
    panel: Some(&panel::TasksPanel),
    report: Some(report::SECTIONS),
};

/// Which analysis tasks: shared by `run --suite tasks`, `list-tasks` and `dump-prompts`.
#[derive(Debug, Clone, clap::Args)]
pub struct TaskArgs {
    /// Task file in the TeaLeaf schema; default: the bundled file of --data-source.
    #[arg(long, value_name = "FILE")]
    pub tasks: Option<PathBuf>,
    /// Bundled task file: synthetic (benchmarks/tasks/synthetic.json) or real (real.json).
    #[arg(long, value_enum, default_value = "synthetic")]
    pub data_source: DataSource,
    /// Only these task ids, comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "IDS")]
    pub task_ids: Vec<String>,
    /// Only tasks of these categories (domains), comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub categories: Vec<String>,
}

/// The task flags `a` sets away from their defaults.
fn given(a: &Asked) -> Vec<&'static str> {
    let (t, d) = (a.own::<TaskArgs>(), asked::defaults::<TaskArgs>());
    asked::set_flags([
        ("tasks", t.tasks.is_some()),
        ("data_source", t.data_source != d.data_source),
        ("task_ids", !t.task_ids.is_empty()),
        ("categories", !t.categories.is_empty()),
    ])
}

/// `bench run --suite tasks`: the selected tasks of the task file, one prompt per format.
fn plan(a: &Asked) -> Result<Planned> {
    asked::refuse_lookup_options(a)?;
    refuse(
        a.data.is_some(),
        "--data asks questions about your records; --suite tasks runs the task files' analysis \
         tasks: pick one",
    )?;
    refuse(
        a.question_mode != QuestionMode::OnePrompt || a.primer,
        "--suite tasks asks one prompt per task and format: --question-mode per-question and \
         --primer do not apply (format hints come from the task file's include_format_hint)",
    )?;
    let (tasks, notes) = selected(&a.own::<TaskArgs>())?;
    Ok(Planned::product(a, Arc::new(tasks), notes))
}

/// Loads and selects the tasks the arguments name, with the loader's warnings.
pub fn selected(args: &TaskArgs) -> Result<(TaskPlan, Vec<String>)> {
    let loaded = load_source(args.tasks.as_deref(), args.data_source)?;
    let warnings = loaded
        .warnings
        .iter()
        .map(|w| format!("warning: {w}"))
        .collect();
    let file = loaded.path.clone();
    let tasks = select(loaded, &args.task_ids, &args.categories)?;
    Ok((TaskPlan { file, tasks }, warnings))
}

impl Suite for TaskPlan {
    fn name(&self) -> String {
        SUITE.into()
    }

    fn description(&self) -> &'static str {
        "Which data format does an LLM analyse best: the same tasks over the same data, many formats."
    }

    fn categories(&self) -> &'static [Category] {
        &[Category::Fact]
    }

    fn renderings(&self, plan: &Plan) -> usize {
        self.tasks.len() * plan.formats.len()
    }

    fn build(&self, plan: &Plan) -> Result<(Matrix, Vec<super::Skip>)> {
        build(plan, self)
    }

    fn data_hashes(&self, _: &Matrix) -> Vec<String> {
        self.tasks.iter().map(data_hash).collect()
    }

    fn record(&self, meta: &mut Metadata, skipped: &[Skip]) {
        TaskMeta {
            file: self.file.clone(),
            ids: self.tasks.iter().map(|t| t.def.id.clone()).collect(),
            skipped: skipped.to_vec(),
        }
        .set(meta);
    }

    // Task renderings are in their prompts (`bench dump-prompts` writes them as files).

    fn data_first(&self) -> bool {
        false
    }

    fn own_call_settings(&self) -> bool {
        true
    }

    fn ranking_sql(&self) -> Option<&'static str> {
        Some(crate::analytics::sql::TASK_SCORES)
    }

    fn wording_ids(&self) -> Vec<&'static str> {
        wording::ids(wording::tasks())
    }
}

/// A (task, format) cell of the matrix: the task, graded by its facts and rubric, and what
/// the reference provider needs.
#[derive(Debug)]
pub struct TaskCombo {
    /// The task.
    pub task: Task,
    /// Format, root key and queries (the unit's payload, for the reference answerer), and the
    /// task's own output limit and temperature.
    pub request: Arc<TaskRequest>,
}

impl Scorer for TaskCombo {
    fn item(&self) -> Option<&str> {
        Some(&self.task.def.id)
    }

    fn call_settings(&self) -> CallSettings {
        let r = &self.request;
        CallSettings {
            max_tokens: Some(r.max_tokens),
            temperature: r.temperature,
        }
    }

    fn score(&self, _: &Unit, reply: Option<&str>, cut: bool) -> Scored {
        let (metrics, scores) = grade::grade(&self.task, reply, cut);
        Scored {
            metrics,
            payload: scores_payload(&scores),
        }
    }

    /// Its facts, stated one per line as the reference states them.
    fn answer_key(&self, _: &Unit) -> String {
        self.task
            .def
            .expected_values
            .iter()
            .zip(&self.task.truths)
            .map(|(v, truth)| state_fact(&v.description, truth))
            .collect()
    }
}

pub use crate::runlog::meta::Skip;

impl Answerable for TaskRequest {
    /// The data block decoded with the task's format, each expected value's query evaluated
    /// on it, one "- description: value" line each.
    fn answer(&self, input: &str) -> Result<String, ProviderError> {
        let data = prompt::data_block(input).ok_or_else(|| {
            ProviderError::BadPrompt("no fenced data block in the task prompt".into())
        })?;
        let doc = self
            .format
            .decode_as(data, self.root_key.as_deref())
            .map_err(|e| ProviderError::BadPrompt(format!("decode failed: {e}")))?;
        let mut out = String::new();
        for (description, query) in &self.values {
            let value = query
                .evaluate(&doc)
                .map_err(|e| ProviderError::BadPrompt(format!("{description}: {e}")))?;
            out.push_str(&state_fact(description, &value));
        }
        Ok(out)
    }
}

/// The structure a task's data has: flat when it is, or holds under one key, flat records.
pub fn structure_of(task: &Task) -> Structure {
    formats::structure_of(&task.data)
}

/// One task in one format, measured with `tokenizers`; a format that cannot represent the
/// task's data gives its [`Skip`], any other failure is an error.
pub fn render(
    task: &Task,
    format: Format,
    tokenizers: &[Tokenizer],
) -> Result<Result<Rendering, Skip>> {
    if task.def.data_file.is_none() {
        return Ok(Err(Skip {
            task: task.def.id.clone(),
            format,
            reason: "the task has no data_file, and bench measures how a format carries data"
                .into(),
        }));
    }
    let structure = structure_of(task);
    let rendered = layout::render(
        &task.data,
        format,
        structure,
        Variant::Mandatory,
        tokenizers,
    );
    or_skip(rendered, &task.def.id, format).with_context(|| format!("task '{}'", task.def.id))
}

/// Renders every selected (task, format); unrepresentable ones become [`Skip`]s.
pub fn build(plan: &Plan, tp: &TaskPlan) -> Result<(Matrix, Vec<Skip>)> {
    let mut combos = Vec::new();
    let mut skips = Vec::new();
    let slots = super::plan::worded_slots(plan, tp.wording_ids().into_iter());
    for task in &tp.tasks {
        let records = task.records();
        for &format in &plan.formats {
            let rendered = match render(task, format, &plan.tokenizers)? {
                Ok(r) => r,
                Err(skip) => {
                    skips.push(skip);
                    continue;
                }
            };
            let root_key = formats::records(format.name(), &task.data)
                .ok()
                .and_then(|r| r.key.map(String::from));
            let request = Arc::new(TaskRequest {
                format,
                root_key,
                values: task
                    .def
                    .expected_values
                    .iter()
                    .map(|v| (v.description.clone(), v.query.clone()))
                    .collect(),
                max_tokens: task.def.max_tokens,
                temperature: task.def.temperature,
            });
            let scorer: Arc<dyn Scorer> = Arc::new(TaskCombo {
                request: request.clone(),
                task: task.clone(),
            });
            // One prompt per wording (`--prompt-variants`), the runs taking turns.
            for slot in &slots {
                let text = prompt::render_worded(
                    task,
                    format,
                    &rendered.text,
                    wording::for_slot(wording::tasks(), slot),
                );
                // TeaLeaf's templates put instructions before the data: nothing to cache.
                let unit = Unit::one_message(&text, request.clone() as ForReference);
                combos.push(Combo {
                    slot: *slot,
                    records,
                    primer: false,
                    rendering: rendered.clone(),
                    units: vec![unit],
                    scorer: scorer.clone(),
                });
            }
        }
    }
    Ok((
        Matrix {
            sizes: Vec::new(),
            combos,
        },
        skips,
    ))
}

impl TaskMeta {
    /// Loads the task file again and selects the recorded ids.
    pub fn plan(&self) -> Result<TaskPlan> {
        let loaded = load(&self.file)?;
        let tasks: Vec<Task> = loaded
            .tasks
            .into_iter()
            .filter(|t| self.ids.contains(&t.def.id))
            .collect();
        if tasks.len() != self.ids.len() {
            anyhow::bail!(
                "{}: the run log names tasks the file no longer has ({})",
                self.file.display(),
                self.ids.join(", ")
            );
        }
        Ok(TaskPlan {
            file: self.file.clone(),
            tasks,
        })
    }
}

/// sha256 of a task's data document as loaded, so a run log pins the data it asked about.
pub fn data_hash(task: &Task) -> String {
    layout::sha256_hex(&serde_json::to_vec(task.data.as_ref()).expect("JSON serializes"))
}
