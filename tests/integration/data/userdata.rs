//! `bench tokens --data FILE`: the user's own records read through DuckDB, sampled, and rendered
//! in every format.

use bench::dataset::user::{self as userdata, LoadOptions, Sample, UserData};
use bench::formats::Format;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// Writes `text` to `dir/name` and returns the path.
fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn load(path: &Path) -> Result<UserData, String> {
    userdata::load(path, &LoadOptions::default()).map_err(|e| e.to_string())
}

fn load_err(path: &Path, opts: &LoadOptions) -> String {
    match userdata::load(path, opts) {
        Ok(d) => panic!("{} loaded {} records", path.display(), d.records.len()),
        Err(e) => e.to_string(),
    }
}

/// `bench tokens --data PATH`, caching under `dir`, which must succeed: its stdout and stderr.
fn tokens(dir: &Path, path: &Path) -> (String, String) {
    let out = crate::support::bench(&dir.join("cache"))
        .args(["tokens", "--data"])
        .arg(path)
        .assert()
        .success()
        .get_output()
        .clone();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (text(out.stdout), text(out.stderr))
}

/// The `id` of each loaded record, in order.
fn ids(d: &UserData) -> Vec<i64> {
    d.records
        .iter()
        .map(|r| r["id"].as_i64().unwrap())
        .collect()
}

/// Ten flat records, one a line.
fn flat_jsonl(dir: &Path) -> PathBuf {
    let lines: Vec<String> = (1..=10)
        .map(|i| {
            json!({"id": i, "name": format!("item {i}"), "price": i as f64 + 0.5, "ok": i % 2 == 0})
                .to_string()
        })
        .collect();
    write(dir, "flat.jsonl", &(lines.join("\n") + "\n"))
}

/// Records nested three levels deep (record → object → array of objects).
fn nested_json(dir: &Path) -> PathBuf {
    let records: Vec<Value> = (1..=4)
        .map(|i| {
            json!({
                "id": i,
                "customer": {"name": format!("c{i}"), "address": {"city": "Oslo", "zip": "0150"}},
                "lines": [{"sku": format!("s{i}"), "qty": i, "tags": ["a", "b"]}],
            })
        })
        .collect();
    write(
        dir,
        "orders.json",
        &serde_json::to_string_pretty(&records).unwrap(),
    )
}

#[test]
fn loads_flat_jsonl_in_file_order_with_duckdb_types() {
    let dir = tempfile::tempdir().unwrap();
    let d = load(&flat_jsonl(dir.path())).unwrap();
    assert_eq!(d.name, "flat");
    assert_eq!(d.total, 10);
    assert_eq!(d.records.len(), 10);
    assert_eq!(d.records[0]["id"], json!(1));
    assert_eq!(d.records[9]["name"], json!("item 10"));
    let keys: Vec<&str> = d.records[0].keys().map(String::as_str).collect();
    assert_eq!(keys, ["id", "name", "price", "ok"]);
    let schema: Vec<(&str, &str)> = d
        .schema
        .iter()
        .map(|(c, t)| (c.as_str(), t.as_str()))
        .collect();
    assert_eq!(
        schema,
        [
            ("id", "BIGINT"),
            ("name", "VARCHAR"),
            ("price", "DOUBLE"),
            ("ok", "BOOLEAN")
        ]
    );
    assert_eq!(d.sha256.len(), 64);
    let doc = d.document();
    assert_eq!(doc["flat"].as_array().unwrap().len(), 10);
}

#[test]
fn sparse_json_records_keep_their_own_keys_and_text() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("sparse.jsonl");
    std::fs::write(
        &p,
        "{\"id\":\"A\",\"x\":1}\n{\"id\":\"B\",\"y\":{\"z\":2}}\n{\"id\":\"C\",\"when\":\"2024-01-01T10:00:00Z\"}\n",
    )
    .unwrap();
    let d = load(&p).unwrap();
    // DuckDB's typed table would give every record x, y and when (null where absent).
    assert_eq!(
        d.records[0],
        serde_json::from_value(json!({"id": "A", "x": 1})).unwrap()
    );
    assert_eq!(
        d.records[1],
        serde_json::from_value(json!({"id": "B", "y": {"z": 2}})).unwrap()
    );
    assert_eq!(d.records[2]["when"], json!("2024-01-01T10:00:00Z"));
    // The schema is still DuckDB's view of the whole file.
    assert_eq!(d.schema.len(), 4, "{:?}", d.schema);
}

#[test]
fn loads_a_nested_json_array_three_levels_deep() {
    let dir = tempfile::tempdir().unwrap();
    let d = load(&nested_json(dir.path())).unwrap();
    assert_eq!(d.total, 4);
    assert_eq!(d.records[1]["customer"]["address"]["city"], json!("Oslo"));
    assert_eq!(d.records[1]["lines"][0]["tags"], json!(["a", "b"]));
    assert!(d.schema[1].1.starts_with("STRUCT("), "{:?}", d.schema);
    assert!(Format::Csv.encode(&d.document()).is_err());
    assert!(Format::ToonV4.encode(&d.document()).is_ok());
}

#[test]
fn a_json_object_with_two_arrays_reads_the_first_unless_told() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "export.json",
        r#"{"meta": {"v": 1}, "users": [{"id": 1}, {"id": 2}], "orders": [{"n": 7}], "tags": ["x"]}"#,
    );
    let d = userdata::load(&path, &LoadOptions::default()).unwrap();
    assert_eq!(d.records.len(), 2, "the first array, users");
    assert_eq!(
        d.notes,
        [
            "the top-level object holds 2 arrays of objects (users, orders): reading the first, \
          'users'; --root-key KEY reads another"
        ]
    );
    let with = |key: &str| LoadOptions {
        root_key: Some(key.into()),
        ..LoadOptions::default()
    };
    let d = userdata::load(&path, &with("users")).unwrap();
    assert_eq!(d.records.len(), 2);
    assert_eq!(d.records[1]["id"], json!(2));
    assert_eq!(d.schema, [("id".to_string(), "BIGINT".to_string())]);
    let absent = load_err(&path, &with("nope"));
    assert!(absent.contains("'nope' is not a key"), "{absent}");
    assert!(absent.contains("users, orders"), "{absent}");
    let scalars = load_err(&path, &with("tags"));
    assert!(scalars.contains("not an array of objects"), "{scalars}");
}

#[test]
fn a_json_object_with_one_array_needs_no_root_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "one.json",
        r#"{"count": 2, "items": [{"a": 1}, {"a": 2}]}"#,
    );
    assert_eq!(load(&path).unwrap().records.len(), 2);
}

#[test]
fn loads_csv_with_quoted_commas_and_newlines() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "notes.csv",
        "id,text,score\n1,\"a, b\",1.5\n2,\"line one\nline two\",2\n3,plain,3\n",
    );
    let d = load(&path).unwrap();
    assert_eq!(d.total, 3);
    assert_eq!(d.records[0]["text"], json!("a, b"));
    assert_eq!(d.records[1]["text"], json!("line one\nline two"));
    assert_eq!(d.schema[0], ("id".to_string(), "BIGINT".to_string()));
}

#[test]
fn loads_parquet_written_by_duckdb() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.parquet");
    let conn = duckdb::Connection::open_in_memory().unwrap();
    conn.execute_batch(&format!(
        "COPY (SELECT i AS id, 'n' || i AS name, {{'k': i * 2}} AS inner_struct FROM range(5) t(i)) \
         TO '{}' (FORMAT parquet)",
        path.display()
    ))
    .unwrap();
    let d = load(&path).unwrap();
    assert_eq!(d.total, 5);
    assert_eq!(d.records[3]["name"], json!("n3"));
    assert_eq!(d.records[3]["inner_struct"]["k"], json!(6));
    assert_eq!(d.schema.len(), 3);
}

#[test]
fn refuses_empty_scalar_and_unknown_files_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    let opts = LoadOptions::default();
    let empty = write(dir.path(), "empty.jsonl", "");
    assert!(load_err(&empty, &opts).ends_with("empty.jsonl: the file is empty"));
    let no_rows = write(dir.path(), "none.json", "[]");
    assert!(load_err(&no_rows, &opts).ends_with("none.json: holds no records"));
    let header_only = write(dir.path(), "header.csv", "a,b\n");
    assert!(load_err(&header_only, &opts).ends_with("holds no records"));
    let scalars = write(dir.path(), "nums.json", "[1, 2, 3]");
    let e = load_err(&scalars, &opts);
    assert!(
        e.contains("nums.json") && e.contains("not an array of objects"),
        "{e}"
    );
    let scalar = write(dir.path(), "one.json", "42");
    assert!(load_err(&scalar, &opts).contains("a single value, not an array of objects"));
    let txt = write(dir.path(), "notes.txt", "hello");
    let e = load_err(&txt, &opts);
    assert!(e.contains("notes.txt: unknown extension '.txt'"), "{e}");
    assert!(e.contains(".json, .jsonl, .csv, .tsv, .parquet"), "{e}");
    let missing = load_err(&dir.path().join("missing.csv"), &opts);
    assert!(missing.ends_with("missing.csv: no such file"), "{missing}");
    for e in [load_err(&empty, &opts), load_err(&scalars, &opts), missing] {
        assert_eq!(e.lines().count(), 1, "{e}");
    }
}

#[test]
fn refuses_a_file_larger_than_a_quarter_of_available_memory() {
    let path = Path::new("big.jsonl");
    let e = userdata::check_size(path, 300_000_000, Some(1_000_000_000))
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("big.jsonl: the file is 300.0 MB"), "{e}");
    assert!(e.contains("at most 250.0 MB"), "{e}");
    assert!(userdata::check_size(path, 200_000_000, Some(1_000_000_000)).is_ok());
    assert!(userdata::check_size(path, u64::MAX, None).is_ok());
}

#[test]
fn a_seeded_random_sample_is_repeatable_and_in_file_order() {
    let dir = tempfile::tempdir().unwrap();
    let path = flat_jsonl(dir.path());
    let opts = LoadOptions {
        records: Some(3),
        sample: Sample::Random,
        seed: 1,
        ..LoadOptions::default()
    };
    let a = userdata::load(&path, &opts).unwrap();
    let b = userdata::load(&path, &opts).unwrap();
    assert_eq!(a.records, b.records);
    assert_eq!((a.records.len(), a.total), (3, 10));
    let sampled = ids(&a);
    assert!(sampled.windows(2).all(|w| w[0] < w[1]), "{sampled:?}");
    let first = userdata::load(
        &path,
        &LoadOptions {
            records: Some(3),
            ..LoadOptions::default()
        },
    )
    .unwrap();
    assert_eq!(ids(&first), [1, 2, 3]);
}

#[test]
fn root_name_is_a_plain_identifier() {
    assert_eq!(userdata::root_name("orders"), "orders");
    assert_eq!(userdata::root_name("my-data.v2"), "my_data_v2");
    assert_eq!(userdata::root_name("2024 sales"), "data_2024_sales");
}

#[test]
fn cli_tokens_of_flat_jsonl_lists_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let path = flat_jsonl(dir.path());
    let (stdout, stderr) = tokens(dir.path(), &path);
    for f in Format::ALL {
        assert!(
            stdout
                .lines()
                .any(|l| l.contains(&format!(" {} ", f.name()))),
            "{f} missing:\n{stdout}"
        );
    }
    assert!(!stdout.contains("skipped"), "{stdout}");
    assert!(
        stderr.starts_with("data: ") && stderr.contains("10 records (of 10), sha256 "),
        "{stderr}"
    );
    assert!(stderr.contains("4 columns"), "{stderr}");
}

#[test]
fn cli_tokens_of_nested_data_lists_the_skipped_formats() {
    let dir = tempfile::tempdir().unwrap();
    let path = nested_json(dir.path());
    let (stdout, _) = tokens(dir.path(), &path);
    assert!(
        stdout.contains("\nskipped csv: csv: cannot represent: "),
        "{stdout}"
    );
    assert!(
        stdout.contains("\nskipped markdown_table: markdown_table: cannot represent: "),
        "{stdout}"
    );
    assert!(stdout.contains(" nested "), "{stdout}");
}

#[test]
fn cli_data_errors_are_one_line_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "two.json",
        r#"{"a": [{"x": 1}], "b": [{"y": 2}]}"#,
    );
    let (_, stderr) = tokens(dir.path(), &path);
    assert!(
        stderr.contains(
            "note: the top-level object holds 2 arrays of objects (a, b): reading the first, 'a'"
        ),
        "{stderr}"
    );
    crate::support::bench(&dir.path().join("cache"))
        .args(["tokens", "--root-key", "a", "--records", "1", "--data"])
        .arg(&path)
        .assert()
        .success();
    crate::support::bench(&dir.path().join("cache"))
        .args(["tokens", "--records", "1,2", "--data"])
        .arg(&path)
        .assert()
        .code(2);
}
