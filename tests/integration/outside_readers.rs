//! The tabular formats read by readers nobody on the team wrote: `tools/outside_readers.py`
//! reads bench's TSV and PSV with Python's standard `csv` module and its HTML table with
//! `html.parser`, and compares every cell with the source records, on the product records and
//! on awkward text.

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

fn check(dir: &Path, format: Format, name: &str, doc: &Value) {
    let text = format.encode(doc).unwrap();
    let rendering = dir.join(format!("{name}.{}", format.spec().extension));
    let source = dir.join(format!("{name}.json"));
    std::fs::write(&rendering, &text).unwrap();
    std::fs::write(&source, serde_json::to_string(doc).unwrap()).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/outside_readers.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .arg(format.name())
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
fn python_csv_reads_tsv_and_psv_as_the_source_records() {
    if std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("notice: python3 not found; the outside-reader check of TSV and PSV is skipped");
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
}
