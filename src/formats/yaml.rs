//! `yaml`, block style, via serde-saphyr.

use super::encoder::{Encoder, FormatSpec, Splice};
use super::error::FormatError;
use serde_json::Value;

/// YAML block style.
pub struct Yaml;

/// YAML block style.
pub static YAML: FormatSpec = FormatSpec {
    name: "yaml",
    display: "YAML",
    extension: "yaml",
    fence: "yaml",
    flat_only: false,
    extra: false,
    primer: "YAML: `products` is a list with one mapping per product (`- ` starts a product); null means no value.",
    encoder: &Yaml,
};

/// Deepest nesting of lists and mappings the decoder reads (serde-saphyr's default, which
/// guards the stack); a document nested deeper is refused when rendered, never sent.
const MAX_DEPTH: usize = 64;

/// The decoder's budget for `text`. serde-saphyr's default (250,000 nodes, 1,000,000 events,
/// 64 MiB of scalars) suits a configuration file: bench's own renderings pass it by about
/// 5,500 product records (nfl.csv's 9,999 rows made 250,001 nodes). Every node and event
/// takes at least one byte of text, so limits that grow with the text never refuse what bench
/// rendered and still bound what a short text can cost; the limits on what expands (aliases,
/// anchors, merge keys) and on depth keep their defaults.
fn budget(text: &str) -> serde_saphyr::Budget {
    let mut b = serde_saphyr::Budget::default();
    let n = text.len().saturating_add(1024);
    b.max_nodes = b.max_nodes.max(n);
    b.max_events = b.max_events.max(n.saturating_mul(2));
    // An escape such as `\L` (2 bytes) stands for 3 bytes of text.
    b.max_total_scalar_bytes = b.max_total_scalar_bytes.max(n.saturating_mul(2));
    b.max_depth = MAX_DEPTH;
    b
}

impl Encoder for Yaml {
    fn encode(&self, doc: &Value) -> Result<String, FormatError> {
        super::shape::within_depth("yaml", doc, MAX_DEPTH)?;
        serde_saphyr::to_string(doc).map_err(|e| FormatError::new("yaml", e))
    }

    fn decode(&self, text: &str) -> Result<Value, FormatError> {
        let options = serde_saphyr::options! { budget: Some(budget(text)) };
        serde_saphyr::from_str_with_options(text, options)
            .map_err(|e| FormatError::new("yaml", crate::error::one_line(&e.to_string())))
    }

    fn splice(&self) -> Option<Splice> {
        Some(Splice::joined(""))
    }

    fn frame(&self, text: &str, key: &str) -> Option<(usize, usize)> {
        super::encoder::framed(text, &format!("{key}:\n"), "")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Records of `fields` numbers each, `n` of them: `n * (2 * fields + 1) + 2` nodes.
    fn records(n: usize, fields: usize) -> Value {
        let rows: Vec<Value> = (0..n)
            .map(|i| {
                let r: serde_json::Map<String, Value> = (0..fields)
                    .map(|f| (format!("f{f}"), json!(i * f)))
                    .collect();
                Value::Object(r)
            })
            .collect();
        json!({ "rows": rows })
    }

    #[test]
    fn a_rendering_past_the_default_node_budget_reads_back() {
        // 30,000 records of 5 fields: 330,002 nodes, past serde-saphyr's 250,000.
        let doc = records(30_000, 5);
        let text = Yaml.encode(&doc).unwrap();
        let default: Result<Value, _> = serde_saphyr::from_str(&text);
        let e = default
            .expect_err("the default budget refuses it")
            .to_string();
        assert!(e.contains("Nodes"), "{e}");
        assert_eq!(Yaml.decode(&text).unwrap(), doc);
    }

    #[test]
    fn the_budget_still_bounds_a_short_text() {
        // A short text cannot claim more nodes than its length allows.
        let text = "a: 1\n";
        let b = budget(text);
        assert_eq!(b.max_nodes, serde_saphyr::Budget::default().max_nodes);
        let big = "x".repeat(1 << 20);
        assert!(budget(&big).max_nodes < 2 << 20);
    }

    #[test]
    fn a_document_deeper_than_the_reader_goes_is_refused_when_rendered() {
        let mut doc = json!(1);
        for _ in 0..MAX_DEPTH {
            doc = json!([doc]);
        }
        // At the limit: rendered and read back.
        let text = Yaml.encode(&doc).unwrap();
        assert_eq!(Yaml.decode(&text).unwrap(), doc);
        let deeper = json!([doc]);
        let e = Yaml.encode(&deeper).unwrap_err();
        assert!(e.is_cannot_represent(), "{e}");
        assert!(e.to_string().contains("65 deep"), "{e}");
    }
}
