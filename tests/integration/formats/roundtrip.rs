//! Every format decodes its own output back to the same document, for every structure and
//! variant it supports, at several sizes and seeds.

use bench::dataset::{self, Structure, Variant, records_from_document};
use bench::formats::{Format, same_value};

#[test]
fn every_combination_round_trips() {
    let mut checked = 0;
    for (n, seed) in [(31, 42), (1, 7), (200, 3)] {
        let ds = dataset::generate(n, seed);
        for v in Variant::ALL {
            for s in Structure::ALL {
                let doc = ds.document(v, s);
                for f in Format::ALL.iter().copied().filter(|f| f.supports(s)) {
                    let text = f
                        .encode(&doc)
                        .unwrap_or_else(|e| panic!("{f} {s} {v}: {e}"));
                    let back = f
                        .decode_as(&text, Some("products"))
                        .unwrap_or_else(|e| panic!("{f} {s} {v} n={n}: {e}"));
                    assert!(
                        same_value(&doc, &back),
                        "{f} {s} {v} n={n}: decoded document differs"
                    );
                    let records = records_from_document(&back).unwrap();
                    assert_eq!(records.len(), n as usize);
                    for (a, b) in records.iter().zip(ds.records(v).iter()) {
                        assert!(same_value(
                            &serde_json::Value::Object(a.clone()),
                            &serde_json::Value::Object(b.clone())
                        ));
                    }
                    checked += 1;
                }
            }
        }
    }
    let per_size: usize = Format::ALL
        .iter()
        .map(|f| if f.spec().flat_only { 2 } else { 4 })
        .sum();
    assert!(per_size >= 30);
    assert_eq!(
        checked,
        3 * per_size,
        "every supported combination per size"
    );
}

#[test]
fn csv_refuses_nested_data() {
    let doc = dataset::generate(2, 1).document(Variant::Mandatory, Structure::Nested);
    let err = Format::Csv.encode(&doc).unwrap_err();
    assert!(err.is_cannot_represent(), "{err}");
    let err = err.to_string();
    assert!(
        err.starts_with("csv: cannot represent: record 0: field '")
            && err.contains("holds an object"),
        "{err}"
    );
}

#[test]
fn empty_strings_are_refused_where_an_empty_cell_means_null_and_kept_elsewhere() {
    // As a public contributions table: one status is "" where the others are letters.
    let doc = serde_json::json!({"rows": [
        {"id": "a", "status": "C", "share": 7.692870742481609e-6},
        {"id": "b", "status": "", "share": 0.25}
    ]});
    for f in Format::ALL.iter().copied() {
        match f.encode(&doc) {
            Ok(text) => {
                let back = f.decode_as(&text, Some("rows")).unwrap();
                // Formats with a root key give {"rows": [...]}, the others the bare array.
                let back = back
                    .get("rows")
                    .unwrap_or(&back)
                    .as_array()
                    .unwrap()
                    .clone();
                assert_eq!(back[1]["status"], "", "{f}: {text}");
                assert_eq!(back[0]["share"], 7.692870742481609e-6, "{f}: {text}");
            }
            Err(e) => {
                assert!(
                    matches!(
                        f,
                        Format::Csv
                            | Format::Tsv
                            | Format::Psv
                            | Format::HtmlTable
                            | Format::MarkdownTable
                    ),
                    "{f}: {e}"
                );
                assert_eq!(
                    e.to_string(),
                    format!(
                        "{f}: cannot represent: record 1: field 'status' holds an empty \
                         string, which an empty cell would read back as null"
                    )
                );
            }
        }
    }
}

#[test]
fn decoders_reject_garbage_with_the_format_name() {
    for f in [
        Format::JsonCompact,
        Format::XmlPretty,
        Format::Yaml,
        Format::ToonDefault,
    ] {
        let err = f
            .decode("products: [\n  {{ <unclosed")
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(err.starts_with(f.name()), "{f}: {err}");
    }
}

#[test]
fn nested_structure_has_single_key_chains_that_key_folding_collapses() {
    let doc = dataset::generate(3, 1).document(Variant::Mandatory, Structure::Nested);
    let plain = Format::ToonDefault.encode(&doc).unwrap();
    let folded = Format::ToonKeyfold.encode(&doc).unwrap();
    assert!(folded.contains("location.warehouse.code: WH-"), "{folded}");
    assert!(!plain.contains("location.warehouse"));
    assert!(folded.len() < plain.len());
}

#[test]
fn nulls_render_per_format_convention() {
    let ds = dataset::generate(31, 42);
    let doc = ds.document(Variant::Optional, Structure::Flat);
    assert!(
        Format::JsonCompact
            .encode(&doc)
            .unwrap()
            .contains("\"color\":null")
    );
    assert!(
        Format::XmlCompact
            .encode(&doc)
            .unwrap()
            .contains("<color/>")
    );
    assert!(Format::Yaml.encode(&doc).unwrap().contains("color: null"));
    let csv = Format::Csv.encode(&doc).unwrap();
    assert!(
        csv.lines().skip(1).any(|l| l.ends_with(',')),
        "a null last column is an empty cell"
    );
}

/// Column names with dots, as R, pandas and spreadsheets export them (`amnesia.before`): every
/// format reads each back as one key, key-folded TOON included (where a bare dotted key would
/// expand to a nested path).
#[test]
fn dotted_column_names_read_back_as_one_key_in_every_format() {
    let records: Vec<serde_json::Value> = (1..=4)
        .map(|i| {
            serde_json::json!({
                "id": i,
                "amnesia.before": f64::from(i) * 1.5,
                "price.heinz": format!("p{i}"),
                "plain": i % 2 == 0,
            })
        })
        .collect();
    let doc = serde_json::json!({ "records": records });
    for f in Format::ALL.iter().copied() {
        let text = f.encode(&doc).unwrap_or_else(|e| panic!("{f}: {e}"));
        let back = f
            .decode_as(&text, Some("records"))
            .unwrap_or_else(|e| panic!("{f}: {e}\n{text}"));
        assert!(
            same_value(&doc, &back),
            "{f}: dotted keys changed\n{text}\n{back}"
        );
    }
    // Nested: a dotted key under a single-key chain that folding would otherwise collapse.
    let nested = serde_json::json!({ "records": [
        { "id": 1, "meta": { "price.heinz": { "unit": 3 } }, "a": { "b": { "c": 1 } } },
    ]});
    for f in Format::ALL.iter().copied().filter(|f| !f.spec().flat_only) {
        let text = f.encode(&nested).unwrap_or_else(|e| panic!("{f}: {e}"));
        let back = f
            .decode_as(&text, Some("records"))
            .unwrap_or_else(|e| panic!("{f}: {e}\n{text}"));
        assert!(
            same_value(&nested, &back),
            "{f}: nested dotted key changed\n{text}\n{back}"
        );
    }
}
