//! Reading a task file: unknown fields are warnings, missing or mistyped ones errors, each
//! naming the file, the task id and the field; every expected value is computed from its data
//! and checked against a literal `value` when the file gives one.

use super::{DataSource, Task, TaskDef};
use crate::UsageError;
use crate::grading::rubric;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Fields a task file's root may have.
const ROOT_FIELDS: &[&str] = &["version", "description", "tasks"];

/// Fields a task may have: TeaLeaf's, plus `expected_values`.
const TASK_FIELDS: &[&str] = &[
    "id",
    "category",
    "subcategory",
    "prompt_template",
    "complexity",
    "output_type",
    "expected_output_type",
    "data_file",
    "max_tokens",
    "temperature",
    "expected_elements",
    "grading_rubric",
    "include_format_hint",
    "expected_values",
];

/// Fields an expected value may have.
const VALUE_FIELDS: &[&str] = &["description", "query", "value", "tolerance"];

/// Tasks every task needs.
const REQUIRED: &[&str] = &["id", "category", "prompt_template"];

/// A task file's tasks and what the loader warned about.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The file read.
    pub path: PathBuf,
    /// Its `description`, if any.
    pub description: Option<String>,
    /// Tasks in file order.
    pub tasks: Vec<Task>,
    /// Unknown fields, one line each.
    pub warnings: Vec<String>,
}

/// Loads the task file `--tasks` names, or the bundled one of `source`.
pub fn load_source(tasks: Option<&Path>, source: DataSource) -> Result<Loaded, UsageError> {
    match tasks {
        Some(p) => load(p),
        // Read from disk when run in a checkout (so edits count), else from the binary.
        None => load(&source.path()),
    }
}

/// Loads and checks a task file. A bundled path (`benchmarks/tasks/…`) missing on disk is read
/// from the binary; messages and the run log keep the path as given.
pub fn load(path: &Path) -> Result<Loaded, UsageError> {
    let file = path.display().to_string();
    let fail = |msg: String| UsageError::new(format!("{file}: {msg}"));
    let real = crate::bundle::resolve(path)?;
    let text = std::fs::read_to_string(&real).map_err(|e| fail(format!("cannot read: {e}")))?;
    let root: Value = serde_json::from_str(&text).map_err(|e| fail(format!("not JSON: {e}")))?;
    let root = root
        .as_object()
        .ok_or_else(|| fail("expected an object with a \"tasks\" array".into()))?;
    let mut warnings = Vec::new();
    unknown(root, ROOT_FIELDS, &format!("{file}:"), &mut warnings);
    let items = root
        .get("tasks")
        .and_then(Value::as_array)
        .ok_or_else(|| fail("missing required field 'tasks' (an array)".into()))?;
    let dir = real.parent().unwrap_or(Path::new("."));
    let shown_dir = path.parent().unwrap_or(Path::new("."));
    let hints = Arc::new(hints(dir)?);
    let mut tasks: Vec<Task> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let obj = item
            .as_object()
            .ok_or_else(|| fail(format!("task {i} is not an object")))?;
        let id = obj
            .get("id")
            .and_then(Value::as_str)
            .map_or_else(|| format!("#{i}"), str::to_string);
        let at = |msg: String| fail(format!("task '{id}': {msg}"));
        for field in REQUIRED {
            if !obj.contains_key(*field) {
                return Err(at(format!("missing required field '{field}'")));
            }
        }
        unknown(
            obj,
            TASK_FIELDS,
            &format!("{file}: task '{id}':"),
            &mut warnings,
        );
        if let Some(values) = obj.get("expected_values").and_then(Value::as_array) {
            for (j, v) in values.iter().enumerate() {
                if let Some(v) = v.as_object() {
                    let at = format!("{file}: task '{id}': expected_values[{j}]:");
                    unknown(v, VALUE_FIELDS, &at, &mut warnings);
                }
            }
        }
        let def: TaskDef = serde_json::from_value(item.clone()).map_err(|e| at(e.to_string()))?;
        if tasks.iter().any(|t| t.def.id == def.id) {
            return Err(at("the id is used twice".into()));
        }
        // TeaLeaf substitutes `{tl_data}` and `{data}` alike, and its real prompts do not name
        // the format; a prompt with neither data placeholder would never show the model its data.
        if !["{data}", "{tl_data}"]
            .iter()
            .any(|p| def.prompt_template.contains(p))
        {
            return Err(at(
                "prompt_template has no {data} (or {tl_data}): the data would not reach the model"
                    .into(),
            ));
        }
        rubric::check_patterns(&def.expected_elements).map_err(at)?;
        // TeaLeaf allows a task without data; bench measures reading data, so such a task is
        // kept (listed, selectable) and every format skips it with the reason.
        let Some(rel) = def.data_file.clone() else {
            if !def.expected_values.is_empty() {
                return Err(at(
                    "expected_values need a data_file to be computed from".into()
                ));
            }
            tasks.push(Task {
                def,
                data: Arc::new(Value::Null),
                data_path: PathBuf::new(),
                truths: Vec::new(),
                hints: hints.clone(),
            });
            continue;
        };
        let data_path = shown_dir.join(&rel);
        let data_text = std::fs::read_to_string(dir.join(&rel))
            .map_err(|e| at(format!("data_file '{}': {e}", data_path.display())))?;
        let data: Value = serde_json::from_str(&data_text).map_err(|e| {
            at(format!(
                "data_file '{}': not JSON: {e}",
                data_path.display()
            ))
        })?;
        let mut truths = Vec::with_capacity(def.expected_values.len());
        for (j, ev) in def.expected_values.iter().enumerate() {
            let at = |msg: String| at(format!("expected_values[{j}] ({}): {msg}", ev.description));
            let truth = ev.query.evaluate(&data).map_err(at)?;
            if let Some(literal) = &ev.value
                && !agrees(literal, &truth)
            {
                return Err(at(format!(
                    "value {literal} differs from what the query computes from the data: {truth}"
                )));
            }
            if truth.is_null() {
                return Err(at("the query finds nothing in the data".into()));
            }
            truths.push(truth);
        }
        tasks.push(Task {
            def,
            data: Arc::new(data),
            data_path,
            truths,
            hints: hints.clone(),
        });
    }
    Ok(Loaded {
        path: path.to_path_buf(),
        description: root
            .get("description")
            .and_then(Value::as_str)
            .map(String::from),
        tasks,
        warnings,
    })
}

/// `format_hints.json` beside the task file, if there is one.
fn hints(dir: &Path) -> Result<BTreeMap<String, String>, UsageError> {
    let path = dir.join("format_hints.json");
    if !path.exists() {
        return Ok(BTreeMap::new());
    }
    let text = std::fs::read_to_string(&path)
        .map_err(|e| UsageError::new(format!("{}: cannot read: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| {
        UsageError::new(format!(
            "{}: expected an object of hint texts by format: {e}",
            path.display()
        ))
    })
}

/// Adds one warning per field of `obj` not in `known`.
fn unknown(obj: &Map<String, Value>, known: &[&str], at: &str, warnings: &mut Vec<String>) {
    for k in obj.keys().filter(|k| !known.contains(&k.as_str())) {
        warnings.push(format!("{at} unknown field '{k}' (ignored)"));
    }
}

/// A literal value agrees with the computed one: numbers within float rounding (1e-9
/// relative), lists item by item, everything else exactly.
fn agrees(literal: &Value, truth: &Value) -> bool {
    match (literal, truth) {
        (Value::Number(a), Value::Number(b)) => {
            let (a, b) = (
                a.as_f64().unwrap_or(f64::NAN),
                b.as_f64().unwrap_or(f64::NAN),
            );
            (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| agrees(x, y))
        }
        _ => literal == truth,
    }
}

/// The tasks whose id is in `ids` and whose category is in `categories` (empty = all); an id
/// or category the file does not have is an error listing what it has.
pub fn select(
    loaded: Loaded,
    ids: &[String],
    categories: &[String],
) -> Result<Vec<Task>, UsageError> {
    let file = loaded.path.display().to_string();
    for id in ids {
        if !loaded.tasks.iter().any(|t| &t.def.id == id) {
            let have: Vec<&str> = loaded.tasks.iter().map(|t| t.def.id.as_str()).collect();
            return Err(UsageError::new(format!(
                "--task-ids: {file} has no task '{id}' (it has {})",
                have.join(", ")
            )));
        }
    }
    for c in categories {
        if !loaded.tasks.iter().any(|t| &t.def.category == c) {
            let mut have: Vec<&str> = loaded
                .tasks
                .iter()
                .map(|t| t.def.category.as_str())
                .collect();
            have.sort();
            have.dedup();
            return Err(UsageError::new(format!(
                "--categories: {file} has no task of category '{c}' (it has {})",
                have.join(", ")
            )));
        }
    }
    let tasks: Vec<Task> = loaded
        .tasks
        .into_iter()
        .filter(|t| ids.is_empty() || ids.contains(&t.def.id))
        .filter(|t| categories.is_empty() || categories.contains(&t.def.category))
        .collect();
    if tasks.is_empty() {
        return Err(UsageError::new(format!(
            "{file}: no task matches both --task-ids and --categories"
        )));
    }
    Ok(tasks)
}
