//! TeaLeaf's published task files (`tests/fixtures/tealeaf`, vendored unchanged) load with
//! bench's loader, their data survives every format that can hold it, and they run offline; the
//! parts of TeaLeaf's schema its own files do not use (`{tl_data}`, aliases, a task without
//! data) work too.

use crate::support::{bench, parse, results, run_dir};
use bench::formats::{self, Format, same_value};
use bench::runlog::Line;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/tealeaf/tasks")
        .join(name)
}

#[test]
fn published_task_files_load_unchanged() {
    let synthetic = bench::suites::tasks::load(&fixture("synthetic.json")).unwrap();
    let real = bench::suites::tasks::load(&fixture("real.json")).unwrap();
    assert_eq!((synthetic.tasks.len(), real.tasks.len()), (9, 14));
    assert!(synthetic.warnings.is_empty(), "{:?}", synthetic.warnings);
    assert!(real.warnings.is_empty(), "{:?}", real.warnings);
    // TeaLeaf's real prompts do not name the format (the refusal this fixes).
    assert!(
        real.tasks
            .iter()
            .all(|t| !t.def.prompt_template.contains("{format_name}"))
    );
    assert_eq!(real.tasks[0].def.id, "FIN-001");
    assert_eq!(real.tasks[0].def.max_tokens, 8192);
    // Every task has its data and the hints beside the file.
    for t in synthetic.tasks.iter().chain(&real.tasks) {
        assert!(!t.data.is_null(), "{}", t.def.id);
        assert!(t.hints.contains_key("tl"), "{}", t.def.id);
    }
}

#[test]
fn their_data_reads_back_exactly_in_every_format_that_holds_it() {
    let (mut exact, mut refused, mut untyped) = (0, 0, 0);
    let mut seen = BTreeSet::new();
    for file in ["synthetic.json", "real.json"] {
        for task in bench::suites::tasks::load(&fixture(file)).unwrap().tasks {
            if !seen.insert(task.data_path.clone()) {
                continue;
            }
            for &f in Format::ALL {
                let text = match f.encode(&task.data) {
                    Ok(t) => t,
                    Err(e) if e.is_cannot_represent() => {
                        refused += 1;
                        continue;
                    }
                    Err(e) => panic!("{} in {f}: {e}", task.data_path.display()),
                };
                let key = formats::records(f.name(), &task.data)
                    .ok()
                    .and_then(|r| r.key);
                let back = f
                    .decode_as(&text, key)
                    .unwrap_or_else(|e| panic!("{} in {f}: {e}", task.data_path.display()));
                // XML has no types: a string of digits reads back as a number. That is what the
                // model sees too, so the texts must agree (and only XML may differ so).
                let xml = matches!(f, Format::XmlCompact | Format::XmlPretty);
                if xml && !same_value(&task.data, &back) {
                    assert!(
                        same_text(&task.data, &back),
                        "{} in {f} differs beyond scalar types at {}",
                        task.data_path.display(),
                        first_difference(&task.data, &back, "$")
                    );
                    untyped += 1;
                    continue;
                }
                assert!(
                    same_value(&task.data, &back),
                    "{} in {f} differs at {}",
                    task.data_path.display(),
                    first_difference(&task.data, &back, "$")
                );
                exact += 1;
            }
        }
    }
    // 16 data files: every nested format holds all of them; the tabular ones refuse most.
    assert_eq!(seen.len(), 16);
    println!(
        "{exact} renderings exact, {untyped} exact up to XML's missing types, {refused} refused"
    );
    assert!(
        exact + untyped >= 16 * 7,
        "{exact} exact, {untyped} untyped, {refused} refused"
    );
    assert_eq!(exact + untyped + refused, 16 * Format::ALL.len());
}

#[test]
fn both_files_run_offline_with_every_skip_named() {
    let tmp = tempfile::tempdir().unwrap();
    for (file, tasks) in [("synthetic.json", 9), ("real.json", 14)] {
        let root = tmp.path().join(file);
        let out = bench(&tmp.path().join("cache"))
            .args(["run", "--suite", "tasks", "--tasks"])
            .arg(fixture(file))
            .args([
                "--formats",
                "all",
                "--runs",
                "1",
                "--no-report",
                "--output-root",
            ])
            .arg(&root)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{file}: {stderr}");
        let lines = parse(&run_dir(&root).join("tasks.jsonl"));
        let Line::Metadata(meta) = &lines[0] else {
            panic!("metadata first")
        };
        let skipped = &bench::suites::tasks::TaskMeta::of(meta)
            .unwrap()
            .unwrap()
            .skipped;
        let done = results(&lines);
        assert_eq!(
            done.len() + skipped.len(),
            tasks * Format::ALL.len(),
            "{file}"
        );
        assert!(
            done.iter()
                .all(|r| bench::suites::tasks::scores(r).unwrap().is_some()),
            "{file}: a call was not graded"
        );
        for s in skipped {
            assert!(
                stderr.contains(&s.to_string()),
                "{file}: not on screen: {s}"
            );
        }
    }
}

#[test]
fn the_rest_of_tealeafs_schema_loads_and_a_task_without_data_is_skipped_with_its_reason() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(
        tmp.path().join("rows.json"),
        r#"{"rows":[{"id":1,"v":"{data}"},{"id":2,"v":"b"}]}"#,
    )
    .unwrap();
    let file = tmp.path().join("tasks.json");
    std::fs::write(
        &file,
        r#"{"tasks":[
          {"id":"TL-1","category":"tech","subcategory":"ops","complexity":"expert",
           "output_type":"forecast","temperature":null,"data_file":"rows.json",
           "prompt_template":"Forecast the next value.\n\n{tl_data}"},
          {"id":"TL-2","category":"tech","complexity":"4","expected_output_type":"extraction",
           "prompt_template":"Summarise {data}"}
        ]}"#,
    )
    .unwrap();
    let loaded = bench::suites::tasks::load(&file).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let (a, b) = (&loaded.tasks[0].def, &loaded.tasks[1].def);
    assert_eq!(
        (a.complexity.name(), a.output_type.name(), a.temperature),
        ("expert", "prediction", None)
    );
    assert_eq!(
        (b.complexity.name(), b.output_type.name()),
        ("advanced", "summary")
    );

    let root = tmp.path().join("out");
    let out = bench(&tmp.path().join("cache"))
        .args(["run", "--suite", "tasks", "--tasks"])
        .arg(&file)
        .args([
            "--formats",
            "csv,json_compact",
            "--runs",
            "1",
            "--no-report",
            "--output-root",
        ])
        .arg(&root)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let why = "the task has no data_file";
    for f in ["csv", "json_compact"] {
        assert!(
            stderr.contains(&format!("skipped TL-2 in {f}: {why}")),
            "{stderr}"
        );
    }
    let lines = parse(&run_dir(&root).join("tasks.jsonl"));
    let Line::Metadata(meta) = &lines[0] else {
        panic!("metadata first")
    };
    let skipped = &bench::suites::tasks::TaskMeta::of(meta)
        .unwrap()
        .unwrap()
        .skipped;
    assert_eq!(skipped.len(), 2);
    assert!(
        skipped
            .iter()
            .all(|s| s.task == "TL-2" && s.reason.contains(why))
    );
    let done = results(&lines);
    assert_eq!(done.len(), 2);
    for r in done {
        // `{tl_data}` became the data block, and the data's own "{data}" text stayed as it was.
        let prompt = &r.sample.input[0].content;
        assert!(
            prompt.starts_with("Forecast the next value.\n\n"),
            "{prompt}"
        );
        assert!(
            prompt.contains("{data}") && !prompt.contains("{tl_data}"),
            "{prompt}"
        );
    }

    // Only the data-less task selected: nothing to run, said so.
    let out = bench(&tmp.path().join("cache"))
        .args(["run", "--suite", "tasks", "--task-ids", "TL-2", "--tasks"])
        .arg(&file)
        .args(["--formats", "csv", "--runs", "1", "--output-root"])
        .arg(&root)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(why), "{stderr}");
}

#[test]
fn a_prompt_that_never_shows_the_data_is_refused_naming_the_task() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("tasks.json");
    std::fs::write(
        &file,
        r#"{"tasks":[{"id":"X-1","category":"c","prompt_template":"Answer."}]}"#,
    )
    .unwrap();
    let err = bench::suites::tasks::load(&file).unwrap_err().to_string();
    assert!(
        err.contains("task 'X-1'") && err.contains("{data}"),
        "{err}"
    );
}

/// Where two documents first differ, as a path with both values.
fn first_difference(a: &serde_json::Value, b: &serde_json::Value, at: &str) -> String {
    use serde_json::Value::{Array, Object};
    match (a, b) {
        (Object(x), Object(y)) if x.keys().eq(y.keys()) => x
            .iter()
            .find(|(k, v)| !same_value(v, &y[k.as_str()]))
            .map(|(k, v)| first_difference(v, &y[k.as_str()], &format!("{at}.{k}")))
            .unwrap_or_default(),
        (Array(x), Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find(|(_, (p, q))| !same_value(p, q))
            .map(|(i, (p, q))| first_difference(p, q, &format!("{at}[{i}]")))
            .unwrap_or_default(),
        _ => format!("{at}: {a:.200} became {b:.200}"),
    }
}

/// Equal when every scalar is compared by its text (`"320193"` and `320193` agree).
fn same_text(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value::{Array, Object, String as Text};
    match (a, b) {
        (Object(x), Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((k, v), (l, w))| k == l && same_text(v, w))
        }
        (Array(x), Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_text(p, q)),
        (Text(s), other) | (other, Text(s)) if !other.is_string() => {
            other.is_number() && same_value(&serde_json::from_str(s).unwrap_or_default(), other)
        }
        _ => same_value(a, b),
    }
}
