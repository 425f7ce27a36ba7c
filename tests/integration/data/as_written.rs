//! A user's values as written (issue 54): a table of tricky values (timestamps with `T` and
//! `Z`, dates, `20` and `20.50`, leading zeros, integers past 64 bits, `yes`/`no`, `NA`, empty
//! cells, non-ASCII) read from CSV, TSV, JSON, JSONL and Parquet, rendered in every format and
//! decoded back: every value's text is the file's. DuckDB's typed reading printed
//! `2024-09-05 12:32:00+00`, `20.0`, `true` and `9.876543210987654e+19` instead.

use crate::support::{bench, run_dir};
use bench::dataset::user::{LoadOptions, load};
use bench::formats::Format;
use bench::scalar;
use std::path::{Path, PathBuf};

const COLUMNS: [&str; 9] = [
    "id", "ts", "day", "amount", "code", "big", "ok", "note", "name",
];

/// The rows as the user wrote them; "" is an empty cell (null in JSON).
const ROWS: [[&str; 9]; 3] = [
    [
        "1",
        "2024-09-05T12:32:00Z",
        "2024-09-05",
        "20",
        "007",
        "98765432109876543210",
        "yes",
        "NA",
        "Zoë",
    ],
    [
        "2",
        "2024-09-06T08:15:30Z",
        "2024-09-06",
        "20.50",
        "012",
        "12345678901234567890123",
        "no",
        "",
        "Ångström 北京",
    ],
    [
        "3",
        "2024-09-07T23:59:59Z",
        "2024-09-07",
        "3.25",
        "100",
        "5",
        "yes",
        "x",
        "plain",
    ],
];

/// Columns JSON holds as numbers (written unquoted, as a JSON user would).
const NUMERIC: [&str; 3] = ["id", "amount", "big"];

fn delimited(dir: &Path, name: &str, sep: &str) -> PathBuf {
    let mut text = COLUMNS.join(sep) + "\n";
    for r in ROWS {
        text += &(r.join(sep) + "\n");
    }
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// One JSON object per row, numbers unquoted as written.
fn json_rows() -> Vec<String> {
    ROWS.iter()
        .map(|r| {
            let cells: Vec<String> = COLUMNS
                .iter()
                .zip(r)
                .map(|(c, v)| {
                    let value = match (*v, NUMERIC.contains(c)) {
                        ("", _) => "null".to_string(),
                        (v, true) => v.to_string(),
                        (v, false) => serde_json::Value::String(v.into()).to_string(),
                    };
                    format!("\"{c}\": {value}")
                })
                .collect();
            format!("{{{}}}", cells.join(", "))
        })
        .collect()
}

/// The same table as Parquet with types: TIMESTAMPTZ, DATE, DECIMAL(10,2) amounts and
/// DECIMAL(38,0) integers; their text is DuckDB's typed value in ISO 8601 and its scale.
fn parquet(dir: &Path) -> (PathBuf, Vec<[String; 9]>) {
    let p = dir.join("tricky.parquet");
    let csv = delimited(dir, "for_parquet.csv", ",");
    let db = duckdb::Connection::open_in_memory().unwrap();
    db.execute_batch(&format!(
        "COPY (SELECT id::INTEGER AS id, ts::TIMESTAMPTZ AS ts, day::DATE AS day, \
         amount::DECIMAL(10,2) AS amount, code, big::DECIMAL(38,0) AS big, ok, note, name \
         FROM read_csv('{}', all_varchar=true)) TO '{}' (FORMAT parquet)",
        csv.display(),
        p.display()
    ))
    .unwrap();
    let expected = ROWS
        .iter()
        .map(|r| {
            let mut e = r.map(str::to_string);
            e[3] = format!("{:.2}", r[3].parse::<f64>().unwrap());
            e
        })
        .collect();
    (p, expected)
}

/// Loads `file`, renders it in every format, decodes each back and compares every value's
/// text with `expected`; returns the loader's notes.
fn check(file: &Path, expected: &[[String; 9]]) -> Vec<String> {
    let data = load(file, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let doc = data.document();
    let mut rendered = 0;
    for f in Format::ALL.iter().copied() {
        let text = f
            .encode(&doc)
            .unwrap_or_else(|e| panic!("{}: {f}: {e}", file.display()));
        for bad in ["12:32:00+00", "e+19", "e19", "20.0,", "true"] {
            assert!(
                !text.contains(bad),
                "{}: {f} shows {bad}:\n{text}",
                file.display()
            );
        }
        let back = f
            .decode_as(&text, Some(&bench::dataset::user::root_name(&data.name)))
            .unwrap_or_else(|e| panic!("{f}: {e}"));
        // CSV decodes to the bare array; the others to `{"tricky": [...]}`.
        let records: Vec<serde_json::Value> = match back {
            serde_json::Value::Array(a) => a,
            serde_json::Value::Object(o) => {
                o.into_iter().next().unwrap().1.as_array().unwrap().clone()
            }
            other => panic!("{f}: {other}"),
        };
        assert_eq!(records.len(), expected.len(), "{f}");
        for (r, want) in records.iter().zip(expected) {
            for (c, w) in COLUMNS.iter().zip(want) {
                let got = r.get(c).and_then(scalar::to_text).unwrap_or_default();
                assert_eq!(&got, w, "{}: {f}: {c}:\n{text}", file.display());
            }
        }
        rendered += 1;
    }
    assert_eq!(rendered, Format::ALL.len());
    data.notes
}

#[test]
fn every_rendering_of_every_input_decodes_to_the_files_text() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let texts: Vec<[String; 9]> = ROWS.iter().map(|r| r.map(str::to_string)).collect();
    let csv = delimited(dir, "tricky.csv", ",");
    let tsv = delimited(dir, "tricky.tsv", "\t");
    let jsonl = dir.join("tricky.jsonl");
    std::fs::write(&jsonl, json_rows().join("\n") + "\n").unwrap();
    let json = dir.join("tricky.json");
    std::fs::write(&json, format!("[{}]", json_rows().join(",\n"))).unwrap();
    for f in [&csv, &tsv, &json, &jsonl] {
        let notes = check(f, &texts);
        // Where a value could not keep its type, the notes say so, naming the field.
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with("amount: 1 value kept as written, as text (20.50)")),
            "{}: {notes:?}",
            f.display()
        );
        assert!(notes.iter().any(|n| n.starts_with("big: ")), "{notes:?}");
    }
    let (pq, expected) = parquet(dir);
    check(&pq, &expected);
}

/// `bench run --data` over the CSV: the reference answers every question from the renderings,
/// and nothing in the run folder (renderings, prompts, answer keys) shows DuckDB's printing.
#[test]
fn a_run_over_the_csv_keeps_the_text_in_renderings_and_answer_keys() {
    let tmp = tempfile::tempdir().unwrap();
    let csv = delimited(tmp.path(), "tricky.csv", ",");
    let root = tmp.path().join("data");
    let out = bench(&tmp.path().join("cache"))
        .args([
            "run",
            "--formats",
            "all",
            "--runs",
            "1",
            "--no-report",
            "--data",
        ])
        .arg(&csv)
        .arg("--output-root")
        .arg(&root)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("amount: 1 value kept as written, as text (20.50)"),
        "{stderr}"
    );
    let mut seen = 0;
    let mut stack = vec![run_dir(&root)];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(text) = std::fs::read_to_string(&p) {
                for bad in ["12:32:00+00", "9.876543210987654e"] {
                    assert!(!text.contains(bad), "{} shows {bad}", p.display());
                }
                seen += usize::from(text.contains("2024-09-05T12:32:00Z"));
            }
        }
    }
    assert!(seen > 17, "the timestamp as written in {seen} files");
}
