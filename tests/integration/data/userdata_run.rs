//! `bench run --data FILE` and `bench generate --data FILE` on the shapes users' records take:
//! the reference scores 100 % on every format that can represent the shape (so SQL's answer key,
//! each rendering and the reference's evaluator agree), and the others are skipped with a
//! reason on screen and in the metadata.

use crate::support::{ONE_TABLE_RUN, bench, parse, results, run_dir, run_in};
use bench::formats::Format;
use bench::runlog::Line;
use bench::suites::lookup::DataMeta;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn jsonl(records: &[Value]) -> String {
    records.iter().map(|r| r.to_string() + "\n").collect()
}

/// Runs the reference over `file` in all 12 formats; returns stdout and the run's metadata.
fn run_all(dir: &Path, file: &Path, extra: &[&str]) -> (String, DataMeta) {
    let root = dir.join(format!(
        "data-{}",
        file.file_name().unwrap().to_string_lossy()
    ));
    let ran = run_in(
        dir,
        &["run", "--formats", "all", "--runs", "1", "--no-report"],
    )
    .args([Path::new("--data"), file])
    .args(extra)
    .root(&root)
    .ok();
    // The formats suite over the user's records (issue 54: it was named after the file).
    let lines = ran.lines("formats.jsonl");
    let Line::Metadata(meta) = &lines[0] else {
        panic!("no metadata line")
    };
    assert_eq!(meta.suite_name, "formats");
    let data = DataMeta::of(meta).unwrap().expect("data metadata");
    let rs = results(&lines);
    let rendered: Vec<Format> = rs.iter().map(|r| r.format).collect();
    assert_eq!(
        rendered.len() + data.skipped.len(),
        Format::ALL.len(),
        "every format rendered or skipped"
    );
    for r in &rs {
        for m in &r.metrics {
            assert_eq!(
                m.passed,
                1,
                "{} {}: {} — expected {} got {}",
                file.display(),
                r.format,
                m.metric,
                m.expected,
                m.actual
            );
        }
        assert_eq!(r.metrics.len(), data.questions);
    }
    for s in &data.skipped {
        assert!(!rendered.contains(&s.format));
        assert!(s.reason.contains("cannot represent"), "{}", s.reason);
        assert!(
            ran.stderr.contains(&s.to_string()) || ran.stdout.contains(&s.to_string()),
            "skip not on screen: {s}"
        );
    }
    (ran.stdout + &ran.stderr, data)
}

fn skipped(meta: &DataMeta) -> Vec<&str> {
    let mut v: Vec<&str> = meta.skipped.iter().map(|s| s.format.name()).collect();
    v.sort();
    v
}

#[test]
fn flat_records_render_in_every_format_and_score_100() {
    let dir = tempfile::tempdir().unwrap();
    let recs: Vec<Value> = (0..30)
        .map(|i| {
            json!({"sku": format!("S{i:03}"), "kind": (["tool", "toy", "food"][i % 3]),
                   "price": 1.5 * i as f64, "stock": i * 7 % 11, "active": i % 4 != 0})
        })
        .collect();
    let f = write(dir.path(), "items.jsonl", &jsonl(&recs));
    let (screen, meta) = run_all(dir.path(), &f, &[]);
    assert!(skipped(&meta).is_empty(), "{:?}", meta.skipped);
    assert_eq!(meta.id_field, "sku");
    assert_eq!(meta.questions, 124);
    assert_eq!(meta.records, 30);
    assert_eq!(meta.sha256.len(), 64);
    assert!(
        meta.schema
            .iter()
            .any(|c| c.name == "price" && c.duckdb_type == "DOUBLE")
    );
    assert!(
        screen.contains("124 questions, records identified by `sku`"),
        "{screen}"
    );
}

#[test]
fn nested_records_three_levels_deep_skip_the_tabular_formats() {
    let dir = tempfile::tempdir().unwrap();
    let recs: Vec<Value> = (0..20)
        .map(|i| {
            json!({"id": i + 100, "customer": {"name": format!("c{i}"),
                   "address": {"city": (["Oslo", "Bergen"][i % 2]), "geo": {"lat": i as f64 / 4.0, "lon": 10.5}}},
                   "total": (i * 13 % 40) as f64 + 0.99, "status": (["new", "paid"][i % 2])})
        })
        .collect();
    let f = write(
        dir.path(),
        "orders.json",
        &serde_json::to_string_pretty(&recs).unwrap(),
    );
    let (_, meta) = run_all(dir.path(), &f, &[]);
    // JSONL holds any record, one a line; the delimited formats and the Markdown table hold
    // flat values only.
    assert_eq!(
        skipped(&meta),
        ["csv", "html_table", "markdown_table", "psv", "tsv"]
    );
    assert_eq!(meta.id_field, "id");
    // Questions reach the third level.
    let log = std::fs::read_to_string(
        run_dir(&dir.path().join("data-orders.json")).join("formats.jsonl"),
    )
    .unwrap();
    assert!(
        log.contains("customer.address.geo.lat"),
        "no 3-level path asked"
    );
    // Only formats that cannot hold the records: an error, not a run of 0 calls that exits 0.
    let out = run_in(
        dir.path(),
        &["run", "--runs", "1", "--formats", "csv,markdown_table"],
    )
    .args([Path::new("--data"), &f])
    .root(&dir.path().join("none"))
    .output();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        !dir.path().join("none").exists(),
        "no run folder for 0 calls"
    );
    let err = stderr.trim().lines().last().unwrap();
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains("nothing to run"), "{err}");
    assert!(err.contains("in csv: csv: cannot represent"), "{err}");
    assert!(err.contains("in markdown_table"), "{err}");
}

#[test]
fn sparse_records_keep_absent_fields_absent() {
    let dir = tempfile::tempdir().unwrap();
    // `note` and `rating` are absent in 40 % of records, `owner` null in some.
    let recs: Vec<Value> = (0..25)
        .map(|i| {
            let mut r =
                json!({"id": format!("r{i}"), "team": (["a", "b", "c"][i % 3]), "score": i * 3});
            if i % 5 >= 2 {
                r["note"] = json!(format!("n{i}"));
                r["rating"] = json!(i % 4);
            }
            r["owner"] = if i % 6 == 0 {
                Value::Null
            } else {
                json!("kim")
            };
            r
        })
        .collect();
    let f = write(dir.path(), "tickets.jsonl", &jsonl(&recs));
    let (_, meta) = run_all(dir.path(), &f, &[]);
    assert!(skipped(&meta).is_empty(), "{:?}", meta.skipped);
}

#[test]
fn awkward_text_survives_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let texts = [
        "Zürich, CH",
        "say \"hi\"",
        "line one\nline two",
        "a|b;c\td",
        "日本語 テキスト",
        "emoji 🚀 ok",
        "- dash first",
        "trailing space ",
    ];
    let recs: Vec<Value> = (0..16)
        .map(|i| json!({"code": format!("K{i}"), "label": texts[i % texts.len()], "n": i}))
        .collect();
    let f = write(
        dir.path(),
        "labels.json",
        &serde_json::to_string(&recs).unwrap(),
    );
    let (_, meta) = run_all(dir.path(), &f, &[]);
    assert!(skipped(&meta).is_empty(), "{:?}", meta.skipped);
}

#[test]
fn numbers_stored_as_strings_are_asked_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let recs: Vec<Value> = (0..18)
        .map(|i| {
            json!({"id": format!("{}", 5000 + i), "zip": format!("0{}", 150 + i % 4),
                   "amount": format!("{}.50", i * 10), "qty": i % 5})
        })
        .collect();
    let f = write(dir.path(), "ledger.jsonl", &jsonl(&recs));
    let (_, meta) = run_all(dir.path(), &f, &[]);
    assert_eq!(meta.id_field, "id");
    assert!(skipped(&meta).is_empty(), "{:?}", meta.skipped);
}

#[test]
fn an_array_valued_field_is_asked_as_a_set() {
    let dir = tempfile::tempdir().unwrap();
    let recs: Vec<Value> = (0..15)
        .map(|i| json!({"id": i, "tags": (["x", "y", "z"][..(1 + i % 3)].to_vec()), "w": i % 4}))
        .collect();
    let f = write(dir.path(), "tagged.jsonl", &jsonl(&recs));
    let (_, meta) = run_all(dir.path(), &f, &[]);
    // The delimited formats and the Markdown table hold flat values only; JSONL holds any record.
    assert_eq!(
        skipped(&meta),
        ["csv", "html_table", "markdown_table", "psv", "tsv"]
    );
}

#[test]
fn an_object_holding_two_arrays_reads_the_first_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let users: Vec<Value> = (0..12)
        .map(|i| json!({"uid": format!("u{i}"), "plan": (["free", "pro"][i % 2]), "seats": i}))
        .collect();
    let doc = json!({"users": users, "teams": [{"tid": 1}, {"tid": 2}], "version": 3});
    let f = write(dir.path(), "export.json", &doc.to_string());
    let (screen, meta) = run_all(dir.path(), &f, &[]);
    let note = "the top-level object holds 2 arrays of objects (users, teams): reading the \
                first, 'users'; --root-key KEY reads another";
    assert!(screen.contains(&format!("note: {note}")), "{screen}");
    assert!(meta.notices.iter().any(|n| n == note), "{:?}", meta.notices);
    assert_eq!(meta.id_field, "uid");
    assert_eq!(meta.records, 12);
    let (_, meta) = run_all(dir.path(), &f, &["--root-key", "teams"]);
    assert_eq!(meta.root_key.as_deref(), Some("teams"));
    assert_eq!(meta.id_field, "tid");
    assert_eq!(meta.records, 2);
}

#[test]
fn a_table_without_a_one_column_key_is_named_by_a_composite_key() {
    // As a weather or flights table: `origin` repeats, `hour` repeats, together they do not.
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from("origin,hour,temp,wind_dir\n");
    for hour in 0..10 {
        for origin in ["EWR", "JFK", "LGA"] {
            csv += &format!(
                "{origin},{hour},{}.{},{}\n",
                30 + hour,
                hour % 3,
                hour * 40 % 360
            );
        }
    }
    let f = write(dir.path(), "weather.csv", &csv);
    let (screen, meta) = run_all(dir.path(), &f, &[]);
    assert_eq!(meta.id_field, "origin,hour");
    assert_eq!(meta.id_by, "fields");
    assert!(
        screen.contains("questions, records identified by `origin` + `hour`"),
        "{screen}"
    );
    let (_, meta) = run_all(dir.path(), &f, &["--id-field", "hour,origin"]);
    assert_eq!(meta.id_field, "hour,origin");
}

#[test]
fn a_table_with_no_key_at_all_is_named_by_position() {
    // Repeated rows: no field or combination is unique, only the position is.
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from("species,island,mass\n");
    for i in 0..24 {
        csv += &format!(
            "{},{},{}\n",
            ["Adelie", "Gentoo"][i % 2],
            ["Biscoe", "Dream", "Torgersen"][i % 3],
            3000 + (i % 4) * 250
        );
    }
    let f = write(dir.path(), "penguins.csv", &csv);
    let (screen, meta) = run_all(dir.path(), &f, &[]);
    assert_eq!(meta.id_by, "position");
    assert_eq!(meta.id_field, "");
    assert!(
        screen.contains("records identified by position"),
        "{screen}"
    );
}

#[test]
fn a_field_of_mixed_types_is_asked_as_text_and_the_file_runs() {
    // As a public movie table: one title is a number.
    let dir = tempfile::tempdir().unwrap();
    let recs: Vec<Value> = (0..25)
        .map(|i| {
            let title = if i == 21 {
                json!(1917)
            } else {
                json!(format!("Movie {}", i % 9))
            };
            json!({"Title": title, "Year": 1990 + i % 7, "Gross": i * 1000 + 17})
        })
        .collect();
    let f = write(dir.path(), "movies.json", &Value::Array(recs).to_string());
    let (screen, meta) = run_all(dir.path(), &f, &[]);
    let notice = "field 'Title' mixes types: string in record 1, number in record 22: asked \
                  about as text (values compared as text); numeric questions (sums, averages, \
                  ranges) skip it";
    assert!(
        meta.notices.iter().any(|n| n == notice),
        "{:?}",
        meta.notices
    );
    assert!(screen.contains(&format!("questions: {notice}")), "{screen}");
    assert_eq!(meta.questions, 124);
}

/// Runs `bench run --data` expecting a one-line usage error; returns it.
fn run_error(dir: &Path, file: &Path, extra: &[&str]) -> String {
    let out = run_in(dir, &["run", "--runs", "1", "--dry-run"])
        .args([Path::new("--data"), file])
        .args(extra)
        .output();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    err
}

#[test]
fn bad_data_gets_one_line_errors_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let plain = write(
        d,
        "plain.jsonl",
        &jsonl(&[json!({"id": 1}), json!({"id": 2})]),
    );
    let no_id = write(d, "noid.csv", "team,score\na,1\na,2\nb,2\n");
    let e = run_error(d, &no_id, &["--id-field", "score"]);
    assert!(
        e.contains("noid.csv: --id-field 'score' cannot identify records: not unique"),
        "{e}"
    );
    let e = run_error(d, &no_id, &["--id-field", "team,nope"]);
    assert!(e.contains("--id-field 'nope': no such field"), "{e}");
    let empty = write(d, "empty.json", "");
    assert!(run_error(d, &empty, &[]).contains("empty.json: the file is empty"));
    let scalars = write(d, "nums.json", "[1, 2, 3]");
    assert!(run_error(d, &scalars, &[]).contains("nums.json: not an array of objects"));
    let out = bench(&d.join("cache"))
        .args(["run", "--suite", "tasks", "--data"])
        .arg(&plain)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn generate_writes_the_layout_and_lists_skips() {
    let dir = tempfile::tempdir().unwrap();
    let recs: Vec<Value> = (0..10)
        .map(|i| json!({"id": i, "who": {"n": format!("p{i}")}, "v": i * 2}))
        .collect();
    let f = write(dir.path(), "people.jsonl", &jsonl(&recs));
    let out_dir = dir.path().join("gen");
    let out = bench(&dir.path().join("cache"))
        .args(["generate", "--questions", "40", "--data"])
        .arg(&f)
        .arg("--output")
        .arg(&out_dir)
        .output()
        .unwrap();
    let stdout = crate::support::success_stdout(&out);
    assert!(
        stdout.contains("skipped people in csv: csv: cannot represent"),
        "{stdout}"
    );
    assert!(
        stdout.contains("wrote 7 data files (1 skipped), 40 questions"),
        "{stdout}"
    );
    let key: Vec<Value> = serde_json::from_str(
        &std::fs::read_to_string(
            out_dir.join("answers_validation/questions_and_answers_with_mandatory_10_records.json"),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(key.len(), 40);
    let meta: Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("metadata.json")).unwrap())
            .unwrap();
    assert_eq!(meta["dataset"]["records"], 10);
    assert_eq!(meta["parameters"]["data"]["skipped"][0]["format"], "csv");
    assert!(
        out_dir
            .join("data/toon_default/toon_default_with_mandatory_10_nested_records.toon")
            .exists()
    );
}

#[test]
fn resume_reloads_the_file_and_refuses_a_changed_one() {
    let dir = tempfile::tempdir().unwrap();
    let recs: Vec<Value> = (0..10)
        .map(|i| json!({"id": i, "v": i % 3, "k": (["a", "b"][i % 2])}))
        .collect();
    let f = write(dir.path(), "small.jsonl", &jsonl(&recs));
    let plan = ["run", "--runs", "2", "--no-report", "--formats", "csv,yaml"];
    let folder = run_in(dir.path(), &plan)
        .args(["--data", f.to_str().unwrap()])
        .ok()
        .dir();
    let resume = |extra: &[&str]| {
        bench(&dir.path().join("cache"))
            .args(["run", "--resume", folder.to_str().unwrap()])
            .args(extra)
            .output()
            .unwrap()
    };
    let log = folder.join("formats.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6);
    // Keep metadata and two results: two calls left.
    std::fs::write(&log, lines[..3].join("\n") + "\n").unwrap();
    let out = resume(&["--no-report"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let all = parse(&log);
    assert_eq!(results(&all).len(), 4);
    assert!(results(&all).iter().all(|r| r.summary.pass_rate == 1.0));
    // The same cut with a changed file: refused, naming the file.
    std::fs::write(&log, lines[..3].join("\n") + "\n").unwrap();
    std::fs::write(&f, jsonl(&recs[..9])).unwrap();
    let out = resume(&[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("small.jsonl: the file changed since the run started"),
        "{err}"
    );
}

/// `--data orders.csv` is the formats suite over the user's records (issue 54): its log is
/// `formats.jsonl`, the report's title names the suite and the file, and `compare` against a
/// product run names the real difference (the data), not two suites `orders` and `formats`.
#[test]
fn a_data_run_is_the_formats_suite_over_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(
        dir.path(),
        "orders.csv",
        "id,total,city\n1,5,Oslo\n2,7,Rome\n3,9,Oslo\n4,2,Rome\n",
    );
    let run = |extra: &[&str]| {
        let cmd = run_in(dir.path(), &ONE_TABLE_RUN).args(["--runs", "1"]);
        cmd.args(extra).ok().dir()
    };
    let data_run = run(&["--data", f.to_str().unwrap()]);
    let lines = parse(&data_run.join("formats.jsonl"));
    let Line::Metadata(meta) = &lines[0] else {
        panic!("no metadata line")
    };
    assert_eq!(meta.suite_name, "formats");
    let report =
        std::fs::read_to_string(data_run.join("formats").join("BENCHMARK_REPORT.md")).unwrap();
    assert!(
        report.starts_with("# bench report — `formats` suite over `orders.csv`"),
        "{report:.300}"
    );
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let product_run = run(&["--no-report"]);
    let out = bench(&dir.path().join("cache"))
        .arg("compare")
        .args([&data_run, &product_run])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("ran on different data (RUN_A asked about `")
            && err.contains("orders.csv` and RUN_B about the product records"),
        "{err}"
    );
    assert!(!err.contains("`orders` run"), "{err}");
}
