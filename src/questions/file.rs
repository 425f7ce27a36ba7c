//! `--questions FILE`: the user's own questions about their records, instead of synthesised
//! ones. Two layouts:
//! - bench's rows (a JSON array, `{"questions": [...]}`, JSONL or CSV), each with `question`,
//!   `category` (one of the four, or a name of the user's own) and `sql` (DuckDB SQL over the table `records`), or `expected` with
//!   `validation`, or both (then the key is checked against its own SQL);
//! - the original file-format benchmark's answer key (`questions_and_answers_with_…json`,
//!   `answersAndQuestions`), or its questionnaire (`questions_with_…json`), whose key is read
//!   from `../answers_validation/` beside it, as that benchmark lays its files out.
//!
//! Every row is checked at load; an error names the file, the row and the field.

use super::sql::Table;
use super::{Category, Query, Question, Validation};
use crate::dataset::Record;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// Absolute tolerance of a numeric answer whose key is not an integer, unless the row gives
/// one: two decimals, as an average is usually stated.
const DECIMAL_TOLERANCE: f64 = 0.01;

/// The fields a bench question row may have.
const FIELDS: &[&str] = &[
    "id",
    "question",
    "category",
    "sql",
    "expected",
    "validation",
    "tolerance",
];

/// Whether an answer passes a question's rule: `agrees(rule, expected, answer)` (the
/// grader's `validate`, passed in because grading builds on this module).
pub type Agrees = fn(&Validation, &Value, &Value) -> bool;

/// The questions of `path` about `records`, with their answer keys; a key given next to its
/// own `sql` must pass `agrees` against the SQL's answer.
pub fn load(path: &Path, records: &[Record], agrees: Agrees) -> Result<Vec<Question>, String> {
    let at = |e: String| format!("{}: {e}", path.display());
    let rows = rows(path)?;
    let table = if rows.iter().any(|r| r.get("sql").is_some()) {
        Some(Table::load(records).map_err(at)?)
    } else {
        None
    };
    let mut questions: Vec<Question> = Vec::with_capacity(rows.len());
    for (i, row) in rows.iter().enumerate() {
        let label = match row_id(i, row) {
            Ok(id) => format!("row {} ({id})", i + 1),
            Err(_) => format!("row {}", i + 1),
        };
        let q =
            question(i, row, table.as_ref(), agrees).map_err(|e| at(format!("{label}: {e}")))?;
        if questions.iter().any(|o| o.id == q.id) {
            return Err(at(format!("row {}: id '{}' is used twice", i + 1, q.id)));
        }
        questions.push(q);
    }
    Ok(questions)
}

/// The category of every row of `path`, in row order, without evaluating anything.
pub fn categories(path: &Path) -> Result<Vec<Category>, String> {
    rows(path)?
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let name = text_field(row, "category")
                .and_then(|c| c.ok_or_else(|| "field 'category' is missing".to_string()))
                .map_err(|e| format!("{}: row {}: {e}", path.display(), i + 1))?;
            Ok(Category::from_name(name.trim()))
        })
        .collect()
}

/// SHA-256 of a question file's bytes, hex (pins it in the run log); `None` when unreadable.
pub fn sha256(path: &Path) -> Option<String> {
    use sha2::Digest;
    let bytes = std::fs::read(path).ok()?;
    Some(format!("{:x}", sha2::Sha256::digest(bytes)))
}

/// The rows of a question file in bench's field names, whatever its layout.
fn rows(path: &Path) -> Result<Vec<Map<String, Value>>, String> {
    let at = |e: String| format!("{}: {e}", path.display());
    let text = std::fs::read_to_string(path).map_err(|e| at(e.to_string()))?;
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let rows = match ext.to_ascii_lowercase().as_str() {
        "csv" => csv_rows(&text).map_err(at)?,
        "jsonl" | "ndjson" => jsonl_rows(&text).map_err(at)?,
        _ => {
            let doc: Value =
                serde_json::from_str(&text).map_err(|e| at(format!("not JSON: {e}")))?;
            match original::layout(&doc) {
                Some(original::Layout::Key) => original::rows(&doc).map_err(at)?,
                Some(original::Layout::Questionnaire) => {
                    let key_path = original::key_beside(path).map_err(at)?;
                    original::joined(&doc, &key_path).map_err(at)?
                }
                None => json_rows(doc).map_err(at)?,
            }
        }
    };
    if rows.is_empty() {
        return Err(at("no questions".into()));
    }
    Ok(rows)
}

fn json_rows(doc: Value) -> Result<Vec<Map<String, Value>>, String> {
    let list = match doc {
        Value::Array(a) => a,
        Value::Object(mut o) => match o.remove("questions") {
            Some(Value::Array(a)) => a,
            _ => return Err("expected an array of question rows or {\"questions\": [...]}".into()),
        },
        _ => return Err("expected an array of question rows".into()),
    };
    list.into_iter()
        .enumerate()
        .map(|(i, v)| match v {
            Value::Object(o) => Ok(o),
            _ => Err(format!("row {}: not an object", i + 1)),
        })
        .collect()
}

fn jsonl_rows(text: &str) -> Result<Vec<Map<String, Value>>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| match serde_json::from_str(l) {
            Ok(Value::Object(o)) => Ok(o),
            Ok(_) => Err(format!("line {}: not an object", i + 1)),
            Err(e) => Err(format!("line {}: not JSON: {e}", i + 1)),
        })
        .collect()
}

/// CSV rows: an empty cell is an absent field; `expected` is read as JSON when it parses
/// (`["a","b"]`, `12.5`), else as text; `tolerance` as a number.
fn csv_rows(text: &str) -> Result<Vec<Map<String, Value>>, String> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().map_err(|e| e.to_string())?.clone();
    let mut rows = Vec::new();
    for (i, rec) in reader.records().enumerate() {
        let rec = rec.map_err(|e| format!("row {}: {e}", i + 1))?;
        let mut row = Map::new();
        for (name, cell) in header.iter().zip(rec.iter()) {
            if cell.is_empty() {
                continue;
            }
            let value = match name {
                "expected" | "tolerance" | "id" => {
                    serde_json::from_str(cell).unwrap_or_else(|_| Value::String(cell.into()))
                }
                _ => Value::String(cell.into()),
            };
            row.insert(name.to_string(), value);
        }
        rows.push(row);
    }
    Ok(rows)
}

fn text_field<'a>(row: &'a Map<String, Value>, name: &str) -> Result<Option<&'a str>, String> {
    match row.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(Some(s)),
        Some(other) => Err(format!("field '{name}': expected text, found {other}")),
    }
}

/// A row's id: its `id` (a whole number n is `q` and n in 3 digits, as bench numbers
/// questions), else `q` and its row number.
fn row_id(i: usize, row: &Map<String, Value>) -> Result<String, String> {
    Ok(match row.get("id") {
        None | Some(Value::Null) => format!("q{:03}", i + 1),
        Some(Value::Number(n)) if n.is_u64() => format!("q{:03}", n.as_u64().expect("u64")),
        Some(Value::String(s)) if !s.trim().is_empty() => s.trim().to_string(),
        Some(other) => {
            return Err(format!(
                "field 'id': expected text or a whole number, found {other}"
            ));
        }
    })
}

fn question(
    i: usize,
    row: &Map<String, Value>,
    table: Option<&Table>,
    agrees: Agrees,
) -> Result<Question, String> {
    if let Some(unknown) = row.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(format!(
            "field '{unknown}' is not a question field ({})",
            FIELDS.join(", ")
        ));
    }
    let id = row_id(i, row)?;
    let text = text_field(row, "question")?.ok_or("field 'question' is missing")?;
    let category = text_field(row, "category")?.ok_or("field 'category' is missing")?;
    let category = Category::from_name(category.trim());
    let tolerance = match row.get("tolerance") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_f64()
                .filter(|t| *t >= 0.0)
                .ok_or_else(|| format!("field 'tolerance': expected a number ≥ 0, found {v}"))?,
        ),
    };
    let rule = text_field(row, "validation")?;
    let given = row.get("expected").filter(|v| !v.is_null());
    let sql = text_field(row, "sql")?;
    let list = rule == Some("array_set") || (rule.is_none() && given.is_some_and(Value::is_array));
    let computed = match (sql, table) {
        (Some(sql), Some(t)) => Some(sql_answer(t, sql, list, rule.is_none())?),
        _ => None,
    };
    let expected = match (given, &computed) {
        (Some(g), _) => g.clone(),
        (None, Some(c)) => c.clone(),
        (None, None) => return Err("needs 'sql' (a query) or 'expected' (an answer)".into()),
    };
    let validation = validation(rule, &expected, tolerance)?;
    if let (Some(g), Some(c)) = (given, &computed)
        && !agrees(&validation, c, g)
    {
        return Err(format!(
            "field 'expected': the key says {g}, but its own sql gives {c} ({} rule)",
            validation.name()
        ));
    }
    Ok(Question {
        id,
        category,
        text: text.to_string(),
        expected,
        validation,
        query: match sql {
            Some(sql) => Query::Sql {
                sql: sql.to_string(),
                list,
            },
            None => Query::Given,
        },
        position: None,
    })
}

/// The answer of `sql`; with no validation named, a query returning several rows (or none) is
/// a list.
fn sql_answer(t: &Table, sql: &str, list: bool, infer: bool) -> Result<Value, String> {
    let wrap = |e: String| format!("field 'sql': {e}");
    if list || !infer {
        return t.answer(sql, list).map_err(wrap);
    }
    let rows = t.rows(sql).map_err(wrap)?;
    Ok(match <[Value; 1]>::try_from(rows) {
        Ok([v]) => v,
        Err(rows) => Value::Array(rows),
    })
}

fn validation(
    rule: Option<&str>,
    expected: &Value,
    tolerance: Option<f64>,
) -> Result<Validation, String> {
    let numeric = || Validation::Numeric {
        tolerance: tolerance.unwrap_or(match expected.as_f64() {
            Some(x) if x.fract() != 0.0 => DECIMAL_TOLERANCE,
            _ => 0.0,
        }),
    };
    Ok(match rule {
        Some("exact") => Validation::Exact,
        Some("numeric") => {
            let text_number = expected.as_str().and_then(|s| s.trim().parse::<f64>().ok());
            if !expected.is_number() && text_number.is_none() {
                return Err(format!(
                    "field 'expected': numeric needs a number, found {expected}"
                ));
            }
            numeric()
        }
        Some("array_set") if expected.is_array() => Validation::ArraySet,
        Some("array_set") => {
            return Err(format!(
                "field 'expected': array_set needs a list, found {expected}"
            ));
        }
        Some("fuzzy") => Validation::Fuzzy,
        Some(other) => {
            return Err(format!(
                "field 'validation': '{other}' is not exact, numeric, array_set or fuzzy"
            ));
        }
        None if expected.is_number() => numeric(),
        None if expected.is_array() => Validation::ArraySet,
        None => Validation::Exact,
    })
}

/// The original file-format benchmark's question files, read as they are published.
mod original {
    use super::*;

    /// Which of its files a document is.
    pub enum Layout {
        /// `questions_and_answers_with_…json`: questions with categories and expected answers.
        Key,
        /// `questions_with_…json`: instructions and bare questions.
        Questionnaire,
    }

    pub fn layout(doc: &Value) -> Option<Layout> {
        let o = doc.as_object()?;
        if o.contains_key("answersAndQuestions") {
            Some(Layout::Key)
        } else if o.contains_key("instructions") && o.get("questions").is_some_and(Value::is_array)
        {
            Some(Layout::Questionnaire)
        } else {
            None
        }
    }

    /// `answers_validation/questions_and_answers_with_X` for `questions/questions_with_X`.
    pub fn key_beside(path: &Path) -> Result<PathBuf, String> {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let rest = name.strip_prefix("questions_with_").ok_or(
            "a questionnaire without answers; name it questions_with_….json beside \
             ../answers_validation/, or pass the answer key file itself",
        )?;
        let dir = path
            .parent()
            .and_then(Path::parent)
            .unwrap_or(Path::new("."));
        let key = dir
            .join("answers_validation")
            .join(format!("questions_and_answers_with_{rest}"));
        if key.is_file() {
            Ok(key)
        } else {
            Err(format!(
                "a questionnaire without answers, and its answer key {} is missing",
                key.display()
            ))
        }
    }

    /// The key's rows in bench's field names: `expectedAnswer.value` is `expected`,
    /// `expectedAnswer.validationMethod` is `validation`, `expectedAnswer.tolerance` (absent:
    /// 0, as the original validator reads it) is `tolerance`.
    pub fn rows(doc: &Value) -> Result<Vec<Map<String, Value>>, String> {
        let list = doc["answersAndQuestions"]
            .as_array()
            .ok_or("answersAndQuestions is not a list")?;
        list.iter()
            .enumerate()
            .map(|(i, q)| {
                let bad = |what: &str| format!("answersAndQuestions[{i}]: {what}");
                let expected = q
                    .get("expectedAnswer")
                    .ok_or_else(|| bad("no expectedAnswer"))?;
                let mut row = Map::new();
                for (ours, theirs) in [
                    ("id", &q["id"]),
                    ("question", &q["question"]),
                    ("category", &q["category"]),
                ] {
                    row.insert(ours.into(), theirs.clone());
                }
                row.insert("expected".into(), expected["value"].clone());
                row.insert("validation".into(), expected["validationMethod"].clone());
                row.insert(
                    "tolerance".into(),
                    expected.get("tolerance").cloned().unwrap_or(Value::from(0)),
                );
                Ok(row)
            })
            .collect()
    }

    /// The questionnaire's questions (its texts, in its order) with the key's answers.
    pub fn joined(doc: &Value, key_path: &Path) -> Result<Vec<Map<String, Value>>, String> {
        let key_text = std::fs::read_to_string(key_path)
            .map_err(|e| format!("{}: {e}", key_path.display()))?;
        let key: Value = serde_json::from_str(&key_text)
            .map_err(|e| format!("{}: not JSON: {e}", key_path.display()))?;
        let keyed = rows(&key).map_err(|e| format!("{}: {e}", key_path.display()))?;
        let asked = doc["questions"].as_array().expect("layout checked");
        asked
            .iter()
            .enumerate()
            .map(|(i, q)| {
                let found = keyed.iter().find(|r| r["id"] == q["id"]).ok_or_else(|| {
                    format!(
                        "questions[{i}]: id {} has no answer in {}",
                        q["id"],
                        key_path.display()
                    )
                })?;
                let mut row = found.clone();
                row.insert("question".into(), q["question"].clone());
                Ok(row)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn records() -> Vec<Record> {
        [
            json!({"id": "P-1", "rating": 4.5, "shelf": 10, "tags": "a"}),
            json!({"id": "P-2", "rating": null, "shelf": 20, "tags": "b"}),
            json!({"id": "P-3", "rating": 1.2, "tags": "a"}),
        ]
        .into_iter()
        .map(|v| v.as_object().unwrap().clone())
        .collect()
    }

    /// Passes when the numbers are within the rule's tolerance, or the texts are equal.
    fn agrees(v: &Validation, e: &Value, a: &Value) -> bool {
        match (v, e.as_f64(), a.as_f64()) {
            (Validation::Numeric { tolerance }, Some(x), Some(y)) => (x - y).abs() <= *tolerance,
            _ => e == a,
        }
    }

    fn load_text(name: &str, text: &str) -> Result<Vec<Question>, String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        load(&path, &records(), agrees)
            .map_err(|e| e.replace(&dir.path().display().to_string(), "DIR"))
    }

    #[test]
    fn rows_in_json_jsonl_and_csv_read_alike() {
        let json = r#"[{"question": "Lowest rating?", "category": "aggregation", "sql": "SELECT min(rating) FROM records"},
            {"id": 7, "question": "Tag a ids?", "category": "filtering", "sql": "SELECT id FROM records WHERE tags = 'a'"},
            {"id": "k", "question": "Shelf of P-1?", "category": "field_retrieval", "expected": 10}]"#;
        let qs = load_text("q.json", json).unwrap();
        assert_eq!(qs[0].id, "q001");
        assert_eq!(qs[0].expected, json!(1.2));
        assert_eq!(
            qs[0].validation,
            Validation::Numeric {
                tolerance: DECIMAL_TOLERANCE
            }
        );
        assert_eq!(qs[1].id, "q007");
        assert_eq!(qs[1].expected, json!(["P-1", "P-3"]));
        assert_eq!(qs[1].validation, Validation::ArraySet);
        assert_eq!(qs[2].query, Query::Given);
        assert_eq!(qs[2].validation, Validation::Numeric { tolerance: 0.0 });
        let jsonl: String = serde_json::from_str::<Vec<Value>>(json)
            .unwrap()
            .iter()
            .map(|v| format!("{v}\n"))
            .collect();
        assert_eq!(load_text("q.jsonl", &jsonl).unwrap(), qs);
        let csv = "id,question,category,sql,expected\n,Lowest rating?,aggregation,SELECT min(rating) FROM records,\n\
                   7,Tag a ids?,filtering,SELECT id FROM records WHERE tags = 'a',\nk,Shelf of P-1?,field_retrieval,,10\n";
        assert_eq!(load_text("q.csv", csv).unwrap(), qs);
    }

    #[test]
    fn bad_rows_get_one_line_errors_naming_file_row_and_field() {
        let cases = [
            (
                r#"[{"category": "aggregation", "sql": "SELECT 1"}]"#,
                "DIR/q.json: row 1 (q001): field 'question' is missing",
            ),
            (
                r#"[{"question": "x", "category": 7, "expected": 1}]"#,
                "field 'category': expected text, found 7",
            ),
            (
                r#"[{"question": "x", "category": "filtering"}]"#,
                "row 1 (q001): needs 'sql' (a query) or 'expected'",
            ),
            (
                r#"[{"question": "x", "category": "filtering", "answer": 1}]"#,
                "field 'answer' is not a question field",
            ),
            (
                r#"[{"question": "x", "category": "filtering", "sql": "SELECT nope FROM records"}]"#,
                "field 'sql': DuckDB: ",
            ),
            (
                r#"[{"question": "x", "category": "filtering", "expected": "a", "validation": "numeric"}]"#,
                "numeric needs a number",
            ),
            (
                r#"[{"question": "x", "category": "filtering", "expected": 1, "validation": "close"}]"#,
                "'close' is not exact",
            ),
            (
                r#"[{"id": 2, "question": "x", "category": "filtering", "expected": 1}, {"id": "q002", "question": "y", "category": "filtering", "expected": 1}]"#,
                "row 2: id 'q002' is used twice",
            ),
            ("[1]", "row 1: not an object"),
        ];
        for (text, want) in cases {
            let e = load_text("q.json", text).unwrap_err();
            assert!(e.contains(want), "{text}: {e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn a_key_that_contradicts_its_own_sql_is_refused() {
        let text = r#"[{"id": 3, "question": "Lowest rating?", "category": "aggregation",
                        "sql": "SELECT min(rating) FROM records", "expected": 0}]"#;
        let e = load_text("q.json", text).unwrap_err();
        assert!(
            e.contains("row 1 (q003): field 'expected': the key says 0, but its own sql gives 1.2"),
            "{e}"
        );
        let right = text.replace("\"expected\": 0", "\"expected\": 1.2");
        assert_eq!(load_text("q.json", &right).unwrap()[0].expected, json!(1.2));
    }

    #[test]
    fn the_original_benchmarks_questionnaire_finds_its_answer_key() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("questions")).unwrap();
        std::fs::create_dir_all(dir.path().join("answers_validation")).unwrap();
        let questionnaire = dir
            .path()
            .join("questions/questions_with_optional_3_records.json");
        std::fs::write(
            &questionnaire,
            r#"{"instructions": "Answer.", "questions": [{"id": 2, "question": "What is the lowest value in avg rating?"}]}"#,
        )
        .unwrap();
        let e = load(&questionnaire, &records(), agrees).unwrap_err();
        assert!(
            e.contains("its answer key")
                && e.contains("questions_and_answers_with_optional_3_records.json is missing"),
            "{e}"
        );
        std::fs::write(
            dir.path().join("answers_validation/questions_and_answers_with_optional_3_records.json"),
            r#"{"metadata": {"recordCount": 3}, "answersAndQuestions": [{"id": 2, "category": "aggregation",
                "difficulty": "easy", "question": "What is the lowest value in avg rating?",
                "expectedAnswer": {"value": 0, "validationMethod": "numeric"}, "dataReferences": ["avgRating"]}]}"#,
        )
        .unwrap();
        let qs = load(&questionnaire, &records(), agrees).unwrap();
        assert_eq!(qs.len(), 1);
        assert_eq!(
            (qs[0].id.as_str(), qs[0].category),
            ("q002", Category::Aggregation)
        );
        assert_eq!(qs[0].expected, json!(0));
        assert_eq!(qs[0].validation, Validation::Numeric { tolerance: 0.0 });
        assert_eq!(qs[0].query, Query::Given);
    }
}
