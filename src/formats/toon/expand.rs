//! Object construction for the decoder: duplicate-key policy and safe path
//! expansion (`a.b.c: 1` → `{"a":{"b":{"c":1}}}`), applied as each key is
//! inserted so conflicts can be reported with the line that caused them.

use std::collections::HashSet;

use serde_json::map::Entry;
use serde_json::{Map, Value};

use super::error::ToonError;
use super::text::is_identifier_segment;

type Object = Map<String, Value>;

pub(super) struct ObjBuilder {
    map: Object,
    strict: bool,
    expand: bool,
    /// Literal keys already seen; with expansion on, `map` no longer holds them verbatim.
    seen: Option<HashSet<String>>,
}

impl ObjBuilder {
    pub(super) fn new(strict: bool, expand: bool) -> Self {
        Self {
            map: Object::new(),
            strict,
            expand,
            seen: (strict && expand).then(HashSet::new),
        }
    }

    pub(super) fn finish(self) -> Value {
        Value::Object(self.map)
    }

    /// Inserts one decoded field. Strict mode rejects duplicate literal keys and
    /// expansion conflicts; otherwise the last write wins (keeping the first position).
    pub(super) fn insert(
        &mut self,
        key: String,
        quoted: bool,
        value: Value,
        line: usize,
    ) -> Result<(), ToonError> {
        if !self.expand {
            return match self.map.entry(key) {
                Entry::Occupied(mut slot) => {
                    if self.strict {
                        return Err(duplicate(line, slot.key()));
                    }
                    slot.insert(value);
                    Ok(())
                }
                Entry::Vacant(slot) => {
                    slot.insert(value);
                    Ok(())
                }
            };
        }
        if let Some(seen) = &mut self.seen
            && !seen.insert(key.clone())
        {
            return Err(duplicate(line, &key));
        }
        // Quoted keys stay literal: quoting is how a document opts out of expansion.
        if !quoted && key.contains('.') && key.split('.').all(is_identifier_segment) {
            let segments: Vec<&str> = key.split('.').collect();
            return insert_path(&mut self.map, &segments, value, self.strict, line);
        }
        put(&mut self.map, key, value, self.strict, line)
    }
}

fn duplicate(line: usize, key: &str) -> ToonError {
    ToonError::new(line, format!("duplicate key \"{key}\""))
}

fn conflict(line: usize, path: &str) -> ToonError {
    ToonError::new(
        line,
        format!("path expansion conflict at \"{path}\": object vs non-object"),
    )
}

/// Inserts `value` under `key`, deep-merging objects and resolving other clashes.
fn put(
    map: &mut Object,
    key: String,
    value: Value,
    strict: bool,
    line: usize,
) -> Result<(), ToonError> {
    match map.entry(key) {
        Entry::Vacant(slot) => {
            slot.insert(value);
        }
        Entry::Occupied(mut slot) => match (slot.get_mut(), value) {
            (Value::Object(target), Value::Object(source)) => merge(target, source, strict, line)?,
            (_, value) => {
                if strict {
                    return Err(conflict(line, slot.key()));
                }
                slot.insert(value);
            }
        },
    }
    Ok(())
}

fn merge(target: &mut Object, source: Object, strict: bool, line: usize) -> Result<(), ToonError> {
    for (k, v) in source {
        put(target, k, v, strict, line)?;
    }
    Ok(())
}

fn insert_path(
    map: &mut Object,
    segments: &[&str],
    value: Value,
    strict: bool,
    line: usize,
) -> Result<(), ToonError> {
    let Some((last, parents)) = segments.split_last() else {
        return Ok(());
    };
    let mut cur = map;
    for seg in parents {
        let slot = cur
            .entry(*seg)
            .or_insert_with(|| Value::Object(Object::new()));
        if !slot.is_object() {
            if strict {
                return Err(conflict(line, seg));
            }
            *slot = Value::Object(Object::new());
        }
        let Value::Object(next) = slot else {
            unreachable!("slot was just made an object")
        };
        cur = next;
    }
    put(cur, (*last).to_owned(), value, strict, line)
}
