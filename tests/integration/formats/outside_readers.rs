//! The formats people compare in public, read by readers nobody on the team wrote:
//! `tools/outside_readers.py` reads bench's TSV and PSV with Python's standard `csv` module, its
//! HTML table with `html.parser` and its INI with `configparser`; Markdown-KV is parsed by
//! pulldown-cmark (CommonMark) here and its blocks' lines read by the script. Every value is
//! compared with the source records, on the product records and on awkward text and keys.

use bench::dataset::{self, Structure, Variant};
use bench::formats::Format;
use serde_json::{Value, json};
use std::path::Path;

/// Records whose text needs every escape: separators, quotes, newlines, `=`, `[`, `#`, leading
/// spaces, unicode, and a sparse field.
fn awkward() -> Value {
    json!({"rows": [
        {"id": "A-1", "note": "tab\there | pipe, comma", "q": "say \"hi\"", "n": 1.5, "ok": true},
        {"id": "A-2", "note": "two\nlines\r\nand more", "q": "=SUM(A1) [x] #tag", "n": -3, "ok": false},
        {"id": "A-3", "note": "  leading spaces", "q": "Zürich 東京 مرحبا", "n": 0},
        {"id": "A-4", "note": null, "q": "|", "n": 1e21, "ok": null},
        {"id": "A-5", "note": "<b>bold</b> &amp; <!-- not a comment -->", "q": "a&b", "n": 2}
    ]})
}

/// Nested records whose keys need quoting in INI and Markdown-KV paths.
fn awkward_keys() -> Value {
    json!([
        {"id": "K-1", "a.b": {"c:d": 1, "e=f": ["x", "", " y"]}, "[x]": "#h", "; c": {"k k": null}},
        {"id": "K-2", "a.b": {}, "[x]": "= v", "; c": {"k k": [[1, "2"], []]}, "ünï": "1e5"}
    ])
}

/// The text of every fenced code block under a `## Record N` heading, as CommonMark reads it;
/// the headings must be Record 1, Record 2, … in order.
fn markdown_blocks(text: &str) -> Vec<String> {
    use pulldown_cmark::{Event, Parser, Tag, TagEnd};
    let (mut headings, mut blocks) = (Vec::new(), Vec::new());
    let mut current: Option<String> = None;
    for event in Parser::new(text) {
        match event {
            Event::Start(Tag::Heading { .. }) => headings.push(String::new()),
            Event::Start(Tag::CodeBlock(_)) => current = Some(String::new()),
            Event::End(TagEnd::CodeBlock) => blocks.push(current.take().unwrap()),
            Event::Text(t) => match current.as_mut() {
                Some(block) => block.push_str(&t),
                None => headings.last_mut().unwrap().push_str(&t),
            },
            _ => {}
        }
    }
    let want: Vec<String> = (1..=blocks.len()).map(|i| format!("Record {i}")).collect();
    assert_eq!(headings, want, "{text}");
    blocks
}

fn check(dir: &Path, format: Format, name: &str, doc: &Value) {
    let text = format.encode(doc).unwrap();
    let (reader, text) = if format == Format::MarkdownKv {
        let blocks = markdown_blocks(&text);
        (
            "markdown_kv_blocks",
            serde_json::to_string(&blocks).unwrap(),
        )
    } else {
        (format.name(), text)
    };
    let rendering = dir.join(format!("{name}.{}", format.spec().extension));
    let source = dir.join(format!("{name}.json"));
    std::fs::write(&rendering, &text).unwrap();
    std::fs::write(&source, serde_json::to_string(doc).unwrap()).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/outside_readers.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .arg(reader)
        .arg(&rendering)
        .arg(&source)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{format} {name}: {}{stdout}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("ok: "), "{stdout}");
}

#[test]
fn outside_readers_read_the_source_records() {
    if std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!(
            "notice: python3 not found; the outside-reader check of TSV, PSV, HTML, INI and Markdown-KV is skipped"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ds = dataset::generate(31, 42);
    for format in [Format::Tsv, Format::Psv, Format::HtmlTable] {
        for v in [Variant::Mandatory, Variant::Optional] {
            let doc = ds.document(v, Structure::Flat);
            check(dir.path(), format, &format!("products_{}", v.name()), &doc);
        }
        check(dir.path(), format, "awkward", &awkward());
    }
    // A --data file with awkward values, read as bench reads it (DuckDB's CSV reader), in all
    // five formats.
    let csv = dir.path().join("awkward_data.csv");
    std::fs::write(
        &csv,
        "id,note,q,n\n\
         A-1,\"tab\there | pipe, comma\",\"say \"\"hi\"\"\",1.5\n\
         A-2,\"two\nlines\",=SUM(A1) [x] #tag,-3\n\
         A-3,\"  leading spaces\",Zürich 東京 مرحبا,0\n\
         A-4,key = value; # not a comment,|,2\n",
    )
    .unwrap();
    let opts = bench::dataset::user::LoadOptions {
        root_key: None,
        records: None,
        sample: bench::dataset::user::Sample::First,
        seed: 1,
    };
    let data = bench::dataset::user::load(&csv, &opts).unwrap().document();
    assert_eq!(data["awkward_data"][1]["note"], "two\nlines", "{data}");
    for format in [
        Format::Tsv,
        Format::Psv,
        Format::HtmlTable,
        Format::Ini,
        Format::MarkdownKv,
    ] {
        check(dir.path(), format, "awkward_data", &data);
    }
    for format in [Format::Ini, Format::MarkdownKv] {
        for v in [Variant::Mandatory, Variant::Optional] {
            for s in [Structure::Flat, Structure::Nested] {
                let doc = ds.document(v, s);
                check(
                    dir.path(),
                    format,
                    &format!("products_{}_{s:?}", v.name()),
                    &doc,
                );
            }
        }
        check(dir.path(), format, "awkward", &awkward());
        check(dir.path(), format, "awkward_keys", &awkward_keys());
    }
}
