//! A suite's own fields of a log line (the `tasks` suite's task file, a written document's
//! grades), held untyped: the run log knows every line's common fields and no suite's types,
//! so a suite keeps its types in its own folder and reads and writes them here by key.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The fields a suite adds to a metadata or result line, by key, in the order they were set.
///
/// A line holds it `#[serde(flatten)]`, so its fields are written at its place among the
/// line's own, as the suites' typed fields were (the logs stay byte-identical). Flattening
/// also makes it take, on reading, every key the line's own fields do not name: a field of a
/// suite this build does not know (a newer bench's) is kept and written again by `rescore`,
/// `merge` and `--resume` rather than dropped without a word. The price, chosen knowingly: a
/// key an older bench wrote and this one no longer reads moves to this place when its line is
/// written again, and is kept rather than refused.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Payload(Map<String, Value>);

impl Payload {
    /// The suite field `key` read as the suite's type `T`; `None` when the line has none (or
    /// null). An error names the key and says what in it does not fit `T`.
    pub fn own<T: DeserializeOwned>(&self, key: &str) -> anyhow::Result<Option<T>> {
        match self.0.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => T::deserialize(v)
                .map(Some)
                .map_err(|e| anyhow::anyhow!("the run log's '{key}' field: {e}")),
        }
    }

    /// Sets the suite field `key` to `value` (in its old place when it was set before, else
    /// after the fields set so far).
    pub fn set_own<T: Serialize>(&mut self, key: &str, value: &T) {
        // A suite's types are plain data with string keys: they always make JSON.
        let v = serde_json::to_value(value).expect("a suite's field serializes as JSON");
        self.0.insert(key.to_string(), v);
    }

    /// Whether the line holds the suite field `key` (not null).
    pub fn has(&self, key: &str) -> bool {
        self.0.get(key).is_some_and(|v| !v.is_null())
    }

    /// The suite field `key` as JSON, for a reader that needs one value of it untyped.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.get(key).filter(|v| !v.is_null())
    }
}

#[cfg(test)]
mod tests {
    use super::Payload;
    use serde::{Deserialize, Serialize};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Own {
        b: f64,
        a: Vec<u32>,
    }

    #[derive(Debug, Serialize, Deserialize)]
    struct Line {
        first: u32,
        #[serde(flatten)]
        payload: Payload,
        last: Option<String>,
    }

    #[test]
    fn fields_are_written_in_place_and_read_back_typed() {
        let mut line = Line {
            first: 1,
            payload: Payload::default(),
            last: None,
        };
        let own = Own {
            b: 0.1 + 0.2,
            a: vec![3, 1],
        };
        line.payload.set_own("suite", &own);
        line.payload.set_own("other", &"x");
        let text = serde_json::to_string(&line).unwrap();
        assert_eq!(
            text,
            r#"{"first":1,"suite":{"b":0.30000000000000004,"a":[3,1]},"other":"x","last":null}"#
        );
        let back: Line = serde_json::from_str(&text).unwrap();
        assert_eq!(back.payload.own::<Own>("suite").unwrap(), Some(own));
        assert_eq!(serde_json::to_string(&back).unwrap(), text);
        assert!(back.payload.has("other") && !back.payload.has("none"));
        // Absent and null read as none; a field of the wrong shape is an error naming it.
        let null: Line = serde_json::from_str(r#"{"first":1,"suite":null,"last":null}"#).unwrap();
        assert_eq!(null.payload.own::<Own>("suite").unwrap(), None);
        assert_eq!(back.payload.own::<Own>("none").unwrap(), None);
        let err = back.payload.own::<Own>("other").unwrap_err().to_string();
        assert!(err.contains("'other'"), "{err}");
    }
}
