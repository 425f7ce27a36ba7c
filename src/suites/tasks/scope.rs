//! The records an expected value's query ranges over: the `from` path into the task's data
//! document (`orders`, `company.departments`, `departments[].employees`).

use crate::dataset::Record;
use serde_json::Value;

/// Resolves `from` in `doc` to its records. `None` means the document itself when it is an
/// array, else the only array under a root key. Non-object items are an error; a missing key
/// inside a flattened list (a department without employees) contributes nothing.
pub fn select(doc: &Value, from: Option<&str>) -> Result<Vec<Record>, String> {
    let Some(path) = from else {
        return match doc {
            Value::Array(items) => objects(items, "the document"),
            Value::Object(o) => {
                let arrays: Vec<(&String, &Vec<Value>)> = o
                    .iter()
                    .filter_map(|(k, v)| v.as_array().map(|a| (k, a)))
                    .collect();
                match arrays.as_slice() {
                    [(k, items)] => objects(*items, k),
                    [] => Err("the document holds no array of records; give `from`".into()),
                    many => Err(format!(
                        "the document holds {} arrays ({}); give `from`",
                        many.len(),
                        many.iter()
                            .map(|(k, _)| k.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                }
            }
            _ => Err("the document is a single value, not records".into()),
        };
    };
    // Walk the path segment by segment over a frontier of values; `key[]` fans out.
    let mut frontier: Vec<&Value> = vec![doc];
    let segments: Vec<&str> = path.split('.').collect();
    for (i, seg) in segments.iter().enumerate() {
        let (key, flatten) = match seg.strip_suffix("[]") {
            Some(k) => (k, true),
            None => (*seg, false),
        };
        let last = i + 1 == segments.len();
        let mut next = Vec::new();
        for v in frontier {
            let Some(child) = v.as_object().and_then(|o| o.get(key)) else {
                if frontier_is_fanned(i, &segments) {
                    continue;
                }
                return Err(format!("`from` '{path}': no key '{key}'"));
            };
            if flatten || (last && child.is_array()) {
                let items = child
                    .as_array()
                    .ok_or_else(|| format!("`from` '{path}': '{key}' is not a list"))?;
                next.extend(items.iter());
            } else {
                next.push(child);
            }
        }
        frontier = next;
    }
    objects(frontier, &format!("`from` '{path}'"))
}

/// Whether an earlier segment fanned out, so a missing key is one record lacking it.
fn frontier_is_fanned(i: usize, segments: &[&str]) -> bool {
    segments[..i].iter().any(|s| s.ends_with("[]"))
}

/// The items as records, naming `what` and the index of one that is not an object.
fn objects<'a>(
    items: impl IntoIterator<Item = &'a Value>,
    what: &str,
) -> Result<Vec<Record>, String> {
    items
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            v.as_object()
                .cloned()
                .ok_or_else(|| format!("{what}: item {i} is not an object"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_flatten_nest_and_default() {
        let doc = json!({"company": {"departments": [
            {"name": "Eng", "employees": [{"id": 1}, {"id": 2}]},
            {"name": "Ops"},
            {"name": "HR", "employees": [{"id": 3}]}
        ]}});
        let ids = |v: Vec<Record>| v.iter().map(|r| r["id"].clone()).collect::<Vec<_>>();
        let all = select(&doc, Some("company.departments[].employees")).unwrap();
        assert_eq!(ids(all), vec![json!(1), json!(2), json!(3)]);
        assert_eq!(select(&doc, Some("company.departments")).unwrap().len(), 3);
        let flat = json!({"orders": [{"id": 7}]});
        assert_eq!(ids(select(&flat, None).unwrap()), vec![json!(7)]);
        assert_eq!(select(&json!([{"id": 1}]), None).unwrap().len(), 1);
        let two = json!({"a": [], "b": []});
        assert!(select(&two, None).unwrap_err().contains("2 arrays (a, b)"));
        assert!(
            select(&flat, Some("nope"))
                .unwrap_err()
                .contains("no key 'nope'")
        );
    }
}
