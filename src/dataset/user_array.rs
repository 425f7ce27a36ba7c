//! Which array of a top-level JSON object holds the records: the one `--root-key` names, the
//! only one, the first of several, or the largest one nested inside.

use super::super::textcheck;
use super::db::Db;
use serde_json::Value;
use std::path::Path;

/// The path of the array of records in a top-level JSON object: `root_key` (a top-level key,
/// else a dotted path), or the only top-level key holding an array of objects, or the first of
/// several, or, when none is at the top, the largest array of objects inside it; every choice
/// but the only one is said in a note.
pub(super) fn pick_array(
    db: &Db,
    object: &str,
    file: &Path,
    root_key: Option<&str>,
    notes: &mut Vec<String>,
) -> Result<Vec<String>, String> {
    let columns = db
        .rows(&format!("DESCRIBE SELECT * FROM {object}"), |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
        })
        .map_err(|e| textcheck::read_error(&e))?;
    let of_objects = |ty: &str| {
        ty.strip_suffix("[]")
            .is_some_and(|el| el.starts_with("STRUCT(") && el.ends_with(')'))
    };
    let arrays: Vec<&str> = columns
        .iter()
        .filter(|(_, ty)| of_objects(ty))
        .map(|(k, _)| k.as_str())
        .collect();
    let listed = if arrays.is_empty() {
        "none".to_string()
    } else {
        arrays.join(", ")
    };
    let deep = || nested_arrays(file);
    let shown = |p: &[String]| p.join(".");
    match root_key {
        Some(key) => match columns.iter().find(|(k, _)| k == key) {
            Some((k, ty)) if of_objects(ty) => Ok(vec![k.clone()]),
            Some((_, ty)) => Err(format!(
                "--root-key '{key}' holds {ty}, not an array of objects (arrays of objects: {listed})"
            )),
            None => {
                let found = deep()?;
                match found.iter().find(|(p, _)| shown(p) == key) {
                    Some((p, _)) => Ok(p.clone()),
                    None => Err(format!(
                        "--root-key '{key}' is not a key of the top-level object nor a dotted path \
                         to an array of objects (arrays of objects: {})",
                        if found.is_empty() {
                            "none".to_string()
                        } else {
                            found
                                .iter()
                                .map(|(p, _)| shown(p))
                                .collect::<Vec<_>>()
                                .join(", ")
                        }
                    )),
                }
            }
        },
        None => match arrays.as_slice() {
            [one] => Ok(vec![one.to_string()]),
            [] => {
                let mut found = deep()?;
                // The largest; the first of equals.
                found.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
                let Some((best, n)) = found.first() else {
                    let keys: Vec<&str> = columns.iter().map(|(k, _)| k.as_str()).collect();
                    return Err(format!(
                        "the top-level object holds no array of objects at any depth (keys: {}): \
                         there are no records to ask about",
                        keys.join(", ")
                    ));
                };
                let others: Vec<String> = found[1..]
                    .iter()
                    .take(5)
                    .map(|(p, n)| format!("{} ({n})", shown(p)))
                    .collect();
                notes.push(format!(
                    "no array of objects at the top level: reading the largest one inside, '{}' \
                     ({n} records){}; --root-key PATH reads another",
                    shown(best),
                    if others.is_empty() {
                        String::new()
                    } else {
                        format!("; others: {}", others.join(", "))
                    }
                ));
                Ok(best.clone())
            }
            [first, ..] => {
                notes.push(format!(
                    "the top-level object holds {} arrays of objects ({listed}): reading the \
                     first, '{first}'; --root-key KEY reads another",
                    arrays.len()
                ));
                Ok(vec![first.to_string()])
            }
        },
    }
}

/// Every non-empty array of objects inside the JSON object in `file`, reached through objects
/// only (an array inside a record is a field of it), with its length, in document order.
fn nested_arrays(file: &Path) -> Result<Vec<(Vec<String>, usize)>, String> {
    fn walk(v: &Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, usize)>) {
        match v {
            Value::Array(items) if !items.is_empty() && items.iter().all(Value::is_object) => {
                out.push((path.clone(), items.len()));
            }
            Value::Object(o) => {
                for (k, x) in o {
                    path.push(k.clone());
                    walk(x, path, out);
                    path.pop();
                }
            }
            _ => {}
        }
    }
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read: {e}"))?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| format!("not JSON: {e}"))?;
    let mut out = Vec::new();
    walk(&doc, &mut Vec::new(), &mut out);
    Ok(out)
}
