//! The asked record of each wrong answer the report shows: its lines in the rendering the
//! model read, found by `formats::locate` in the run's saved data file from the identifier the
//! question names (the same lookup `bench view` highlights with). Part of the data layer: it
//! reads the run's artifacts and adds a `record` column (and the question's text, `asked`) to
//! the wrong-answer rows.

use crate::analytics::Table;
use crate::formats::Format;
use crate::formats::locate::locate_asked;
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

/// Adds a `record` and an `asked` column to `wrong` (rows of `sql/wrong_answers.sql`): the
/// question's text, and the asked record's text
/// in the rendering, or null where the question names no record (an aggregate), the data file
/// or the question is not in `artifacts` (a tasks or write run, an old run folder).
pub fn add_asked_records(wrong: &mut Table, artifacts: &Path) {
    let col = |name: &str| wrong.columns.iter().position(|c| c == name);
    let (Some(f), Some(s), Some(v), Some(n), Some(q)) = (
        col("format"),
        col("structure"),
        col("variant"),
        col("records"),
        col("question"),
    ) else {
        return;
    };
    let mut texts: HashMap<String, Option<String>> = HashMap::new();
    let mut questions: HashMap<String, Option<HashMap<String, String>>> = HashMap::new();
    let mut read = |rel: String| -> Option<String> {
        texts
            .entry(rel.clone())
            .or_insert_with(|| std::fs::read_to_string(artifacts.join(&rel)).ok())
            .clone()
    };
    let mut asked = Vec::with_capacity(wrong.rows.len());
    for row in &mut wrong.rows {
        let text = |i: usize| {
            row[i]
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| row[i].to_string())
        };
        let (format, structure, variant, records, id) =
            (text(f), text(s), text(v), text(n), text(q));
        let question = questions
            .entry(format!("{variant}/{records}"))
            .or_insert_with(|| question_texts(artifacts, &variant, &records))
            .as_ref()
            .and_then(|qs| qs.get(&id).cloned());
        asked.push(question.clone().map_or(Value::Null, Value::String));
        let record = Format::from_name(&format)
            .zip(question)
            .and_then(|(fmt, question)| {
                let ext = fmt.spec().extension;
                let rendering = read(format!(
                    "data/{format}/{format}_with_{variant}_{records}_{structure}_records.{ext}"
                ))?;
                let (_, range) = locate_asked(&format, &rendering, &question)?;
                Some(rendering[range].to_string())
            });
        row.push(record.map_or(Value::Null, Value::String));
    }
    wrong.columns.push("record".into());
    // The question as asked, beside its id: a report read away from the run must say what was
    // asked (the viewer shows it too).
    for (row, q) in wrong.rows.iter_mut().zip(asked) {
        row.push(q);
    }
    wrong.columns.push("asked".into());
}

/// Question id → question text of the run's `questions/questions_with_{variant}_{records}_records.json`.
fn question_texts(
    artifacts: &Path,
    variant: &str,
    records: &str,
) -> Option<HashMap<String, String>> {
    let path = artifacts.join(format!(
        "questions/questions_with_{variant}_{records}_records.json"
    ));
    let list: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    Some(
        list.iter()
            .filter_map(|q| {
                Some((
                    q["id"].as_str()?.to_string(),
                    q["question"].as_str()?.to_string(),
                ))
            })
            .collect(),
    )
}
