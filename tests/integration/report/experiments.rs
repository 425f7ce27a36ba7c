//! Rankings never pool different data (issue 41, item 1): every row is one experiment (suite,
//! data and its hash or the product seed, size, question set) and says which data in words;
//! runs of one plan pool; `--run` narrows the views to one run folder; a SQL file that ranks
//! none of the runs read names the file that does.

use crate::support::run_in;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;

/// `bench run` offline of three formats, once, the report left out.
const RUN: [&str; 6] = [
    "run",
    "--runs",
    "1",
    "--formats",
    "csv,json_compact,yaml",
    "--no-report",
];

/// `bench query` over `root` with `args`, its rows as JSON objects.
fn query(root: &Path, args: &[&str]) -> Vec<serde_json::Map<String, Value>> {
    let out = crate::support::binary()
        .arg("query")
        .args(args)
        .args(["--format", "json", "--root"])
        .arg(root)
        .output()
        .unwrap();
    let text = crate::support::success_stdout(&out);
    let rows: Vec<Value> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    rows.into_iter()
        .map(|r| r.as_object().unwrap().clone())
        .collect()
}

/// A small CSV of `n` products whose names are `width` characters long, so two files differ in
/// their token counts.
fn csv(dir: &Path, name: &str, n: usize, width: usize) -> String {
    let mut text = String::from("id,name,price,stock\n");
    for i in 1..=n {
        let word = format!("item{i}")
            .repeat(width)
            .chars()
            .take(width)
            .collect::<String>();
        text.push_str(&format!("P{i:03},{word},{}.5,{}\n", 10 + i, 3 * i));
    }
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn rankings_keep_each_data_set_apart_and_pool_the_runs_of_one_plan() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let (a, b) = (
        csv(tmp.path(), "shop_a.csv", 12, 6),
        csv(tmp.path(), "shop_b.csv", 12, 60),
    );
    run_in(tmp.path(), &RUN).args(["--data", &a]).ok();
    run_in(tmp.path(), &RUN).args(["--data", &b]).ok();
    // Two runs of one plan, one run of another size, one of another seed.
    run_in(tmp.path(), &RUN).args(["--records", "10"]).ok();
    run_in(tmp.path(), &RUN).args(["--records", "10"]).ok();
    run_in(tmp.path(), &RUN).args(["--records", "12"]).ok();
    run_in(tmp.path(), &RUN)
        .args(["--records", "10", "--seed", "7"])
        .ok();

    let rows = query(&root, &["sql/rankings.sql"]);
    let mut by_data: BTreeMap<String, Vec<&serde_json::Map<String, Value>>> = BTreeMap::new();
    for r in &rows {
        by_data
            .entry(r["dataset"].as_str().unwrap().to_string())
            .or_default()
            .push(r);
    }
    assert_eq!(
        by_data.keys().map(String::as_str).collect::<Vec<_>>(),
        [
            "products seed 42 · 10 records",
            "products seed 42 · 12 records",
            "products seed 7 · 10 records",
            "shop_a.csv · 12 records",
            "shop_b.csv · 12 records",
        ],
        "{rows:#?}"
    );
    for (data, rs) in &by_data {
        // One row per rendering of each data set, ranked within it: each has its own first.
        let renderings: std::collections::BTreeSet<(&str, &str, &str)> = rs
            .iter()
            .map(|r| {
                let s = |k: &str| r[k].as_str().unwrap();
                (s("format"), s("structure"), s("variant"))
            })
            .collect();
        assert_eq!(renderings.len(), rs.len(), "{data}: {rs:#?}");
        assert!(rs.iter().any(|r| r["rank"] == 1), "{data}: {rs:#?}");
        let experiments: std::collections::BTreeSet<&str> = rs
            .iter()
            .map(|r| r["experiment"].as_str().unwrap())
            .collect();
        assert_eq!(experiments.len(), 1, "{data}: {rs:#?}");
        // The two runs of one plan pool; every other data set was asked once.
        let runs = if data == "products seed 42 · 10 records" {
            2
        } else {
            1
        };
        assert!(rs.iter().all(|r| r["runs"] == runs), "{data}: {rs:#?}");
    }
    // Token counts are each file's own, not an average of the two.
    let tokens = |data: &str| {
        by_data[data]
            .iter()
            .find(|r| r["format"] == "csv")
            .map(|r| r["data_tokens"].as_u64().unwrap())
            .unwrap()
    };
    assert!(
        tokens("shop_b.csv · 12 records") > tokens("shop_a.csv · 12 records") + 50,
        "{rows:#?}"
    );

    // The other ranking and comparison files keep the data sets apart too: accuracy.sql has
    // a row per rendering of each data set as the ranking has, provider_comparison.sql a row
    // per model and data set.
    for (file, rows_expected) in [
        ("sql/accuracy.sql", Some(rows.len())),
        ("sql/token_efficiency.sql", None),
        ("sql/provider_comparison.sql", Some(5)),
        ("sql/paired_comparison.sql", None),
    ] {
        let got = query(&root, &[file]);
        let data: std::collections::BTreeSet<&str> =
            got.iter().map(|r| r["dataset"].as_str().unwrap()).collect();
        assert_eq!(data.len(), 5, "{file}: {got:#?}");
        if let Some(n) = rows_expected {
            assert_eq!(got.len(), n, "{file}: {got:#?}");
        }
    }
}

#[test]
fn query_and_export_read_one_run_with_dash_dash_run() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    run_in(tmp.path(), &RUN).args(["--records", "10"]).ok();
    run_in(tmp.path(), &RUN).args(["--records", "12"]).ok();
    let count = "SELECT count(DISTINCT benchmark_id) AS runs, min(records) AS records FROM results";
    let all = query(&root, &["-e", count]);
    assert_eq!(
        (&all[0]["runs"], &all[0]["records"]),
        (&json!(2), &json!(10))
    );
    for (spec, records) in [("latest", 12), ("latest~1", 10)] {
        let one = query(&root, &["-e", count, "--run", spec]);
        let got = (&one[0]["runs"], &one[0]["records"]);
        assert_eq!(got, (&json!(1), &json!(records)), "{spec}");
    }
    let newest = bench::ops::runs::latest_run(&root).unwrap();
    let one = query(&root, &["-e", count, "--run", &newest.to_string_lossy()]);
    assert_eq!(one[0]["records"], 12);

    let export = |extra: &[&str], dir: &str| {
        let out = crate::support::binary()
            .args(["export", "--parquet"])
            .arg(tmp.path().join(dir))
            .arg("--root")
            .arg(&root)
            .args(extra)
            .output()
            .unwrap();
        let text = crate::support::success_stdout(&out);
        let rows = text
            .lines()
            .find_map(|l| l.strip_prefix("results: "))
            .unwrap()
            .to_string();
        rows.trim_end_matches(" rows").parse::<u64>().unwrap()
    };
    let (every, latest) = (export(&[], "all"), export(&["--run", "latest"], "one"));
    assert!(latest > 0 && 2 * latest == every, "{latest} of {every}");

    let out = crate::support::binary()
        .args(["query", "-e", count, "--run", "latest~5", "--root"])
        .arg(&root)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("latest~5 needs 6 runs"), "{err}");
}

#[test]
fn rankings_after_only_tasks_runs_name_the_file_that_ranks_them() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let out = crate::support::binary()
        .args([
            "run",
            "--suite",
            "tasks",
            "--runs",
            "1",
            "--no-report",
            "--output-root",
        ])
        .arg(&root)
        .output()
        .unwrap();
    crate::support::success_stdout(&out);
    let out = crate::support::binary()
        .args(["query", "sql/rankings.sql", "--root"])
        .arg(&root)
        .output()
        .unwrap();
    let stdout = crate::support::success_stdout(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stdout, "", "no empty table: {stdout}");
    assert!(
        stderr.contains("sql/rankings.sql: no rows")
            && stderr.contains("`bench query sql/task_scores.sql` ranks the tasks runs"),
        "{stderr}"
    );
    // The file that does rank them finds rows and says nothing more.
    let out = crate::support::binary()
        .args(["query", "sql/task_scores.sql", "--root"])
        .arg(&root)
        .output()
        .unwrap();
    assert!(crate::support::success_stdout(&out).contains("tasks"));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
