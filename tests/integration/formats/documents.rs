//! Any JSON document: every format either reads its own rendering back to the same document,
//! or refuses with a typed "cannot represent" error naming why — which formats do which is
//! asserted per shape, so a format that starts refusing (or silently mangling) a shape fails.

use bench::formats::{Format, records, same_value};
use serde_json::{Value, json};

/// A shape, its document, and the formats expected to refuse it.
fn shapes() -> Vec<(&'static str, Value, &'static [&'static str])> {
    const TABULAR: &[&str] = &["csv", "tsv", "psv", "html_table", "markdown_table"];
    vec![
        (
            "flat records under one key, sparse, awkward text",
            json!({"orders": [
                {"id": "O-1", "note": "a, \"quoted\"\nline | pipe\ttab", "total": 12.5, "paid": true},
                {"id": "O-2", "total": 3, "city": "Zürich"},
                {"id": "O-3", "note": null, "total": -0.25, "paid": false, "city": "東京"}
            ]}),
            &[],
        ),
        (
            "a bare array of flat records",
            json!([{"k": "a", "n": 1}, {"k": "b", "n": 2}]),
            &[],
        ),
        (
            "nested objects three levels deep",
            json!({"shipments": [
                {"id": "S-1", "origin": {"city": "Rotterdam", "geo": {"lat": 51.9, "lon": 4.5}}},
                {"id": "S-2", "origin": {"city": "Hamburg", "geo": {"lat": 53.5, "lon": 10.0}}}
            ]}),
            TABULAR,
        ),
        (
            "lists of objects inside records",
            json!({"departments": [
                {"name": "Eng", "employees": [{"id": "E-1", "salary": 100}, {"id": "E-2", "salary": 90}]},
                {"name": "Ops", "employees": [{"id": "E-3", "salary": 70}]}
            ]}),
            TABULAR,
        ),
        (
            "several top-level keys",
            json!({"company": "Acme", "year": 2025, "regions": [{"name": "West", "sales": 10}]}),
            &["csv", "tsv", "psv", "html_table", "markdown_table", "jsonl"],
        ),
        (
            "lists of scalars in records",
            json!({"items": [{"id": "I-1", "tags": ["a", "b"]}, {"id": "I-2", "tags": ["c"]}]}),
            TABULAR,
        ),
        (
            "an empty list, which XML cannot tell from an empty string",
            json!({"patients": [{"id": "P-1", "medications": []}, {"id": "P-2", "medications": ["x"]}]}),
            &[
                "csv",
                "tsv",
                "psv",
                "html_table",
                "markdown_table",
                "xml_compact",
                "xml_pretty",
            ],
        ),
    ]
}

/// The document with every null-valued object key removed.
fn drop_nulls(v: &Value) -> Value {
    match v {
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), drop_nulls(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(drop_nulls).collect()),
        v => v.clone(),
    }
}

#[test]
fn every_format_round_trips_or_refuses_with_a_reason() {
    for (shape, doc, refusers) in shapes() {
        for &f in Format::ALL {
            let root_key = records(f.name(), &doc).ok().and_then(|r| r.key);
            match f.encode(&doc) {
                Ok(text) => {
                    assert!(
                        !refusers.contains(&f.name()),
                        "{f} rendered '{shape}', expected a refusal:\n{text}"
                    );
                    let back = f
                        .decode_as(&text, root_key)
                        .unwrap_or_else(|e| panic!("{f} '{shape}': {e}\n{text}"));
                    // Columns have one cell per field: an absent key reads back as null, which
                    // the query language treats alike ("no value"); every other format is exact.
                    let (back, want) = if f.spec().flat_only {
                        (drop_nulls(&back), drop_nulls(&doc))
                    } else {
                        (back, doc.clone())
                    };
                    assert!(
                        same_value(&back, &want),
                        "{f} '{shape}' read back differently:\n{text}\n{back:#}"
                    );
                }
                Err(e) => {
                    assert!(refusers.contains(&f.name()), "{f} refused '{shape}': {e}");
                    assert!(e.is_cannot_represent(), "{f} '{shape}': {e}");
                    assert!(
                        e.to_string()
                            .starts_with(&format!("{f}: cannot represent: ")),
                        "{e}"
                    );
                }
            }
        }
    }
}

#[test]
fn refusals_name_the_part_they_cannot_express() {
    let nested = json!({"orders": [{"id": 1, "ship": {"city": "X"}}]});
    let e = Format::Csv.encode(&nested).unwrap_err().to_string();
    assert_eq!(
        e,
        "csv: cannot represent: record 0: field 'ship' holds an object; rows hold flat values only"
    );
    let two = json!({"a": [], "b": []});
    let e = Format::Jsonl.encode(&two).unwrap_err().to_string();
    assert!(e.contains("2 keys (a, b)"), "{e}");
    // A key that is not an XML name is kept in a `name` attribute, not refused.
    let bad_key = json!({"rows": [{"first name": "Ann"}]});
    let text = Format::XmlCompact.encode(&bad_key).unwrap();
    assert_eq!(
        text,
        r#"<?xml version="1.0" encoding="UTF-8"?><rows><row><field name="first name">Ann</field></row></rows>"#
    );
    assert_eq!(Format::XmlCompact.decode(&text).unwrap(), bad_key);
    let empty = json!({"rows": [{"id": 1, "tags": []}]});
    let e = Format::XmlCompact.encode(&empty).unwrap_err().to_string();
    assert_eq!(
        e,
        "xml_compact: cannot represent: rows[0].tags is an empty list, which reads back as an empty string"
    );
}

#[test]
fn product_xml_keeps_its_root_and_other_documents_get_a_wrapper() {
    let one = json!({"products": [{"id": "P1"}]});
    let text = Format::XmlCompact.encode(&one).unwrap();
    assert!(
        text.contains("<products><product><id>P1</id></product></products>"),
        "{text}"
    );
    // A one-key document whose key is the wrapper's own name is wrapped too, so it reads back.
    let clash = json!({"document": {"a": 1, "b": "x"}});
    let text = Format::XmlCompact.encode(&clash).unwrap();
    assert!(text.contains("<document><document>"), "{text}");
    assert_eq!(Format::XmlCompact.decode(&text).unwrap(), clash);
}
