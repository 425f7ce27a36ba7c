//! Edits in words and facts as a bullet list, generated from a document. Both name a place by
//! its path in neutral words (`order › lines › item 2 › qty`) and write values as JSON writes
//! scalars (text in double quotes), so no output format is favoured by how the input is put.

use serde_json::{Map, Value};

/// A path in words: keys joined by ` › `, list positions as `item N` (from 1).
pub fn path_words(path: &[String]) -> String {
    path.join(" › ")
}

/// A scalar as the prompts write it: text in double quotes (JSON escapes), others bare.
pub fn literal(v: &Value) -> String {
    match v {
        Value::Array(a) if a.is_empty() => "an empty list".into(),
        Value::Object(o) if o.is_empty() => "an empty object".into(),
        other => other.to_string(),
    }
}

/// Every leaf of `v` as `- path: value`, in document order.
pub fn facts(v: &Value) -> String {
    let mut out = String::new();
    leaves(v, &mut Vec::new(), &mut |path, leaf| {
        out.push_str(&format!("- {}: {}\n", path_words(path), literal(leaf)));
    });
    out
}

/// Calls `f` on every scalar, empty list and empty object of `v` with its path.
fn leaves(v: &Value, path: &mut Vec<String>, f: &mut dyn FnMut(&[String], &Value)) {
    match v {
        Value::Object(o) if !o.is_empty() => {
            for (k, x) in o {
                path.push(k.clone());
                leaves(x, path, f);
                path.pop();
            }
        }
        Value::Array(a) if !a.is_empty() => {
            for (i, x) in a.iter().enumerate() {
                path.push(format!("item {}", i + 1));
                leaves(x, path, f);
                path.pop();
            }
        }
        leaf => f(path, leaf),
    }
}

/// The field that tells records apart: `id` when there is one, else the first field whose
/// scalar values are set and unique over the records.
fn id_field(items: &[&Map<String, Value>]) -> Option<String> {
    let first = items.first()?;
    let unique = |k: &String| {
        let vals: Vec<&Value> = items.iter().filter_map(|r| r.get(k)).collect();
        vals.len() == items.len()
            && vals
                .iter()
                .all(|v| v.is_string() || v.is_i64() || v.is_u64())
            && vals.iter().enumerate().all(|(i, v)| !vals[..i].contains(v))
    };
    let by_name = first
        .keys()
        .find(|k| k.eq_ignore_ascii_case("id") && unique(k));
    by_name
        .or_else(|| first.keys().find(|k| unique(k)))
        .cloned()
}

/// A changed value: integers + 7, other numbers × 1.1 (two decimals), text + " (revised)".
fn changed(v: &Value) -> Option<Value> {
    match v {
        Value::Number(n) if n.is_i64() => Some(Value::from(n.as_i64()? + 7)),
        Value::Number(n) => {
            let x = (n.as_f64()? * 1.1 * 100.0).round() / 100.0;
            Some(Value::from(if x == n.as_f64()? { x + 1.0 } else { x }))
        }
        Value::String(s) => Some(Value::String(format!("{s} (revised)"))),
        _ => None,
    }
}

/// How a record is named in an edit: by its id field, else by its position.
fn name_record(id: Option<&String>, r: &Map<String, Value>, i: usize) -> String {
    match id.and_then(|k| Some((k, r.get(k)?))) {
        Some((k, v)) => format!("the record whose {k} is {}", literal(v)),
        None => format!("record {} (counting from 1)", i + 1),
    }
}

/// The edited document and the edits in words. A document of records gets three: change a
/// value, remove the last record, add a record; any other document has two of its values
/// changed.
pub fn generate(doc: &Value) -> (Value, Vec<String>) {
    match crate::formats::records("write", doc) {
        Ok(r) if !r.items.is_empty() => records_edits(doc, r.key.map(str::to_string)),
        _ => value_edits(doc),
    }
}

fn records_edits(doc: &Value, key: Option<String>) -> (Value, Vec<String>) {
    let mut after = doc.clone();
    let list = match &key {
        Some(k) => after[k.as_str()].as_array_mut().expect("records"),
        None => after.as_array_mut().expect("records"),
    };
    let items: Vec<Map<String, Value>> = list
        .iter()
        .map(|v| v.as_object().expect("records are objects").clone())
        .collect();
    let refs: Vec<&Map<String, Value>> = items.iter().collect();
    let id = id_field(&refs);
    let mut words = Vec::new();
    // 1. Change a value of the middle record: its first number, else its first text.
    let mid = items.len() / 2;
    let target = &items[mid];
    let pick = |want_number: bool| {
        target.iter().find(|(k, v)| {
            Some(*k) != id.as_ref()
                && (if want_number {
                    v.is_number()
                } else {
                    v.is_string()
                })
        })
    };
    if let Some((k, v)) = pick(true).or_else(|| pick(false)) {
        let new = changed(v).expect("number or text");
        words.push(format!(
            "In {}, change {k} from {} to {}.",
            name_record(id.as_ref(), target, mid),
            literal(v),
            literal(&new)
        ));
        list[mid][k.as_str()] = new;
    }
    // 2. Remove the last record (when one would be left).
    if items.len() > 1 {
        let last = items.len() - 1;
        words.push(format!(
            "Remove {}.",
            name_record(id.as_ref(), &items[last], last)
        ));
        list.pop();
    }
    // 3. Add a record like the first, with a new id and changed values.
    let mut added = items[0].clone();
    for (k, v) in added.iter_mut() {
        if Some(k) == id.as_ref() {
            let new = match &*v {
                Value::Number(_) => Value::from(
                    items
                        .iter()
                        .filter_map(|r| r.get(k).and_then(Value::as_i64))
                        .max()
                        .unwrap_or(0)
                        + 1,
                ),
                Value::String(s) => Value::String(format!("{s}-new")),
                other => other.clone(),
            };
            *v = new;
        } else if let Some(c) = changed(v) {
            *v = c;
        }
    }
    let added = Value::Object(added);
    let mut fields = String::new();
    leaves(&added, &mut Vec::new(), &mut |path, leaf| {
        fields.push_str(&format!("\n  - {}: {}", path_words(path), literal(leaf)));
    });
    words.push(format!(
        "Add a new record at the end with these values:{fields}"
    ));
    list.push(added);
    (after, words)
}

fn value_edits(doc: &Value) -> (Value, Vec<String>) {
    let mut after = doc.clone();
    let mut words = Vec::new();
    let mut targets: Vec<(Vec<String>, Vec<Step>, Value)> = Vec::new();
    walk(doc, &mut Vec::new(), &mut Vec::new(), &mut targets);
    let first_number = targets.iter().find(|t| t.2.is_number()).cloned();
    let first_text = targets.iter().find(|t| t.2.is_string()).cloned();
    for (words_path, steps, v) in first_number.into_iter().chain(first_text) {
        let new = changed(&v).expect("number or text");
        words.push(format!(
            "Change {} from {} to {}.",
            path_words(&words_path),
            literal(&v),
            literal(&new)
        ));
        *at(&mut after, &steps) = new;
    }
    (after, words)
}

/// One step into a document: an object key or a list index.
#[derive(Debug, Clone)]
enum Step {
    Key(String),
    Index(usize),
}

fn walk(
    v: &Value,
    words: &mut Vec<String>,
    steps: &mut Vec<Step>,
    out: &mut Vec<(Vec<String>, Vec<Step>, Value)>,
) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                words.push(k.clone());
                steps.push(Step::Key(k.clone()));
                walk(x, words, steps, out);
                steps.pop();
                words.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                words.push(format!("item {}", i + 1));
                steps.push(Step::Index(i));
                walk(x, words, steps, out);
                steps.pop();
                words.pop();
            }
        }
        leaf => out.push((words.clone(), steps.clone(), leaf.clone())),
    }
}

fn at<'a>(v: &'a mut Value, steps: &[Step]) -> &'a mut Value {
    steps.iter().fold(v, |v, s| match s {
        Step::Key(k) => &mut v[k.as_str()],
        Step::Index(i) => &mut v[*i],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn record_edits_change_remove_and_add_by_id() {
        let doc = json!({"users": [
            {"id": 1, "name": "Ann", "age": 30},
            {"id": 2, "name": "Bo", "age": 41},
            {"id": 3, "name": "Cy", "age": 25}
        ]});
        let (after, words) = generate(&doc);
        assert_eq!(words.len(), 3, "{words:?}");
        assert_eq!(
            words[0],
            "In the record whose id is 2, change age from 41 to 48."
        );
        assert_eq!(words[1], "Remove the record whose id is 3.");
        assert!(words[2].contains("  - id: 4") && words[2].contains("  - name: \"Ann (revised)\""));
        assert_eq!(
            after,
            json!({"users": [
                {"id": 1, "name": "Ann", "age": 30},
                {"id": 2, "name": "Bo", "age": 48},
                {"id": 4, "name": "Ann (revised)", "age": 37}
            ]})
        );
    }

    #[test]
    fn object_edits_change_a_number_and_a_text_at_their_paths() {
        let doc = json!({"invoice": {"no": "A-1", "lines": [{"qty": 2.5}]}});
        let (after, words) = generate(&doc);
        assert_eq!(
            words,
            [
                "Change invoice › lines › item 1 › qty from 2.5 to 2.75.",
                "Change invoice › no from \"A-1\" to \"A-1 (revised)\"."
            ]
        );
        assert_eq!(
            after,
            json!({"invoice": {"no": "A-1 (revised)", "lines": [{"qty": 2.75}]}})
        );
    }

    #[test]
    fn facts_list_every_leaf_with_its_path() {
        let f = facts(&json!({"a": {"b": [1, "x"], "c": null, "d": []}}));
        assert_eq!(
            f,
            "- a › b › item 1: 1\n- a › b › item 2: \"x\"\n- a › c: null\n- a › d: an empty list\n"
        );
    }
}
