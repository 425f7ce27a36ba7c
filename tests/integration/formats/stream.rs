//! Rendering by chunks (`bench::formats::stream`): the joined text is the whole rendering,
//! byte for byte, for every format and chunk size, or the format is rendered whole and says
//! why; and `bench tokens --data` counts the same by chunks as whole.

use super::properties::{config, flat_records, records};
use bench::formats::Format;
use bench::formats::stream::{Stop, joined, refusal};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use serde_json::Value;

/// The key and records of a `{key: [records]}` document.
fn parts(doc: &Value) -> (&str, Vec<serde_json::Map<String, Value>>) {
    let (key, list) = doc.as_object().unwrap().iter().next().unwrap();
    let records = list
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_object().unwrap().clone())
        .collect();
    (key, records)
}

/// Joined equals whole whenever it is given, and a refusal by chunks is one the whole makes
/// too; returns what happened: `joined`, `refused` (by the records up to the chunk) or `whole`.
fn joins_exactly(f: Format, doc: &Value, size: usize) -> Result<&'static str, TestCaseError> {
    let (key, records) = parts(doc);
    let whole = f.encode(doc);
    match joined(f, key, &records, size) {
        Ok(text) => {
            let whole = whole.map_err(|e| {
                TestCaseError::fail(format!("{f}: joined a text the whole refuses: {e}"))
            })?;
            prop_assert_eq!(text, whole, "{} in chunks of {} of {}", f, size, doc);
            Ok("joined")
        }
        Err(Stop::Refused(prefix)) => {
            if let Some(e) = refusal(f, key, &records[..prefix], records.len()) {
                prop_assert!(
                    whole.as_ref().is_err_and(|w| w.is_cannot_represent()),
                    "{}: the first {} records refuse ({}) but all render, in chunks of {} of {}",
                    f,
                    prefix,
                    e,
                    size,
                    doc
                );
                return Ok("refused");
            }
            Ok("whole")
        }
        Err(Stop::Whole(why)) => {
            prop_assert!(!why.contains('\n'), "{f}: {why}");
            Ok("whole")
        }
    }
}

fn many_records() -> impl Strategy<Value = Value> {
    // Several generated lists joined, so there are chunks to join.
    proptest::collection::vec(prop_oneof![records(), flat_records()], 1..5).prop_map(|docs| {
        let mut all = Vec::new();
        for d in &docs {
            all.extend(parts(d).1.into_iter().map(Value::Object));
        }
        serde_json::json!({ "rows": all })
    })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn chunks_join_into_the_whole_rendering(doc in many_records(), size in 1usize..5) {
        for &f in Format::ALL.iter() {
            joins_exactly(f, &doc, size)?;
        }
    }
}

#[test]
fn uniform_records_join_in_every_format() {
    // Records of one shape, as a public table has: every format joins them (none falls back
    // to whole), across a numbered heading's 9 → 10 and TOON's count width.
    let records: Vec<Value> = (0..23)
        .map(|i| {
            serde_json::json!({
                "id": i, "name": format!("n{i}, \"q\"\n2"), "price": i as f64 * 1.5,
                "ok": i % 2 == 0, "note": if i % 3 == 0 { Value::Null } else { "x".into() }
            })
        })
        .collect();
    let doc = serde_json::json!({ "items": records });
    for &f in Format::ALL.iter() {
        for size in [1, 4, 10, 23] {
            let how = joins_exactly(f, &doc, size).unwrap();
            assert_eq!(how, "joined", "{f} in chunks of {size}");
        }
    }
}

#[test]
#[ignore = "long mode: PROPTEST_CASES=5000 cargo test --test integration stream -- --ignored --nocapture"]
fn long_join_counts() {
    // Per format: how many generated lists joined by chunks, were refused by the records up to
    // a chunk, or were rendered whole.
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(500u32);
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(cases));
    let mut counts =
        std::collections::BTreeMap::<&str, std::collections::BTreeMap<&str, u32>>::new();
    for _ in 0..cases {
        let doc = many_records().new_tree(&mut runner).unwrap().current();
        for &f in Format::ALL.iter() {
            let how = joins_exactly(f, &doc, 2).unwrap();
            *counts.entry(f.name()).or_default().entry(how).or_default() += 1;
        }
    }
    for (f, c) in counts {
        println!("{f}: {c:?}");
    }
}

/// `bench tokens --data` in chunks of `chunk` records, as JSON, with its stderr.
fn tokens_by_chunks(file: &std::path::Path, chunk: &str, tokenizers: &str) -> (Value, String) {
    let dir = file.parent().unwrap();
    let out = crate::support::bench(&dir.join("cache"))
        .args(["tokens", "--format", "json", "--tokenizers", tokenizers])
        .args(["--chunk-records", chunk, "--data"])
        .arg(file)
        .output()
        .unwrap();
    let stdout = crate::support::success_stdout(&out);
    (
        serde_json::from_str(&stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn tokens_by_chunks_count_as_the_whole_text() {
    // 40 flat records with nulls (TeaLeaf's nullable types come from all of them), then one
    // with a field the others lack (a column the tables learn first, a TOON table no longer
    // possible); every count equals the whole text's, in chunks of 4.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("teams.jsonl");
    let mut lines: Vec<String> = (0..40)
        .map(|i| {
            let wins = if i % 7 == 3 { Value::Null } else { i.into() };
            serde_json::json!({"id": i, "name": format!("team {i}  ünï"), "wins": wins, "ratio": i as f64 / 8.0})
                .to_string()
        })
        .collect();
    lines.push(r#"{"id": 40, "name": "late", "wins": 1, "ratio": 0.5, "coach": "x"}"#.into());
    std::fs::write(&file, lines.join("\n")).unwrap();
    let tokenizers = "o200k_base,cl100k_base,llama3,qwen2,mistral_v3,deepseek_v3";
    let (rows, stderr) = tokens_by_chunks(&file, "4", tokenizers);
    let data = bench::dataset::user::load(&file, &Default::default()).unwrap();
    let doc = data.document();
    let tokenizers: Vec<bench::tokens::Tokenizer> = bench::tokens::Tokenizer::ALL.to_vec();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), Format::ALL.len(), "{rows:?}");
    for row in rows {
        let f = Format::from_name(row["format"].as_str().unwrap()).unwrap();
        let text = f.encode(&doc).unwrap();
        let whole = bench::tokens::DataStats::measure(&text, 0, 0, &tokenizers);
        assert_eq!(row["chars"], whole.chars, "{f}");
        assert_eq!(row["bytes"], whole.bytes, "{f}");
        for t in &tokenizers {
            assert_eq!(row[t.name()], whole.tokens[t.name()], "{f} {t}");
        }
    }
    // The tables learn their columns from every chunk first and join; TOON's table form
    // needs every record to have the same keys, so the last chunk's head differs.
    for table in ["csv", "tsv", "markdown_table", "html_table"] {
        assert!(!stderr.contains(&format!("note: {table} ")), "{stderr}");
    }
    assert!(
        stderr.contains(
            "note: toon_default rendered whole, not by chunks: records 40..41 render another head"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("note: json_compact"), "{stderr}");
    assert!(!stderr.contains("note: tealeaf"), "{stderr}");
}

#[test]
fn a_refusal_by_chunks_names_the_record_in_the_whole_file() {
    // Record 9 is the first nested one, in the third chunk of 4: the tables refuse it by its
    // place in the file, read no further than that chunk, and the others count it.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("orders.jsonl");
    let lines: Vec<String> = (0..14)
        .map(|i| {
            let item = if i == 9 {
                serde_json::json!({"sku": "a"})
            } else {
                "b".into()
            };
            serde_json::json!({"id": i, "item": item}).to_string()
        })
        .collect();
    std::fs::write(&file, lines.join("\n")).unwrap();
    let out = crate::support::bench(&dir.path().join("cache"))
        .args(["tokens", "--chunk-records", "4", "--data"])
        .arg(&file)
        .output()
        .unwrap();
    let stdout = crate::support::success_stdout(&out);
    assert!(
        stdout.contains(
            "skipped csv: csv: cannot represent: record 9: field 'item' holds an object; rows hold flat values only"
        ),
        "{stdout}"
    );
    let whole = Format::Csv
        .encode(
            &bench::dataset::user::load(&file, &Default::default())
                .unwrap()
                .document(),
        )
        .unwrap_err();
    assert!(
        stdout.contains(&format!("skipped csv: {whole}")),
        "{stdout}"
    );
    assert!(stdout.contains(" json_compact "), "{stdout}");
}
