//! The Parquet export on Apache Spark (pyspark, local mode): a history of several runs, suites
//! and the shards of one plan, exported into one folder, gives on Spark SQL the rows DuckDB
//! gives, for every statistics file, from the one source of each (`bench sql --dialect
//! spark`); the shards read as their merged run; an export that appends a run and re-exports
//! another keeps counts and rankings exact. Skipped with a notice when Java or pyspark is
//! missing, unless BENCH_SPARK_PYTHON (set by .ci/run) names the Python to use: then they must
//! be there.

use crate::support::{bench, run_in};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `bench run` of the reference answerer, without a report.
const RUN: [&str; 2] = ["run", "--no-report"];

/// The statistics files that run on both engines (issue 53).
const FILES: [&str; 8] = [
    "rankings.sql",
    "accuracy.sql",
    "weighted_accuracy.sql",
    "token_efficiency.sql",
    "provider_comparison.sql",
    "paired_comparison.sql",
    "format_comparison.sql",
    "pareto.sql",
];

/// The Python with pyspark, or None (with a printed notice) when this machine has none.
fn spark_python() -> Option<String> {
    let set = std::env::var("BENCH_SPARK_PYTHON").ok();
    let python = set.clone().unwrap_or_else(|| "python3".into());
    let java = Command::new("java").arg("-version").output();
    let pyspark = Command::new(&python)
        .args(["-c", "import pyspark"])
        .output();
    let missing = match (&java, &pyspark) {
        (Ok(j), _) if !j.status.success() => Some("java does not run"),
        (Err(_), _) => Some("no java on PATH"),
        (_, Ok(p)) if !p.status.success() => Some("pyspark is not installed"),
        (_, Err(_)) => Some("no python"),
        _ => None,
    };
    match (missing, set) {
        (None, _) => Some(python),
        (Some(why), Some(p)) => panic!("BENCH_SPARK_PYTHON={p} is set but {why}"),
        (Some(why), None) => {
            eprintln!(
                "skipped: the Spark tests need Java 17 and pyspark ({why}); set \
                 BENCH_SPARK_PYTHON to a Python with pyspark (see README.md)"
            );
            None
        }
    }
}

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `tools/spark/bench_sql.py --counts DIR FILES…` in one Spark session: each output section
/// (`counts` first, then each file's CSV) by name.
fn spark(python: &str, dir: &Path, files: &[&str]) -> BTreeMap<String, String> {
    let bin = assert_cmd::cargo::cargo_bin("bench");
    let started = std::time::Instant::now();
    let out = Command::new(python)
        .arg(manifest().join("tools/spark/bench_sql.py"))
        .arg("--counts")
        .arg(dir)
        .args(files.iter().map(|f| manifest().join("sql").join(f)))
        .env("BENCH_BIN", bin)
        .env("BENCH_SPARK_MASTER", "local[2]")
        .output()
        .unwrap();
    let stdout = crate::support::success_stdout(&out);
    eprintln!(
        "spark: {} files in {:.1} s",
        files.len(),
        started.elapsed().as_secs_f64()
    );
    let mut sections = BTreeMap::new();
    let mut name = String::new();
    for line in stdout.lines() {
        match line.strip_prefix("==> ") {
            Some(n) => {
                name = Path::new(n)
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                sections.insert(name.clone(), String::new());
            }
            None => {
                let s = sections.entry(name.clone()).or_default();
                s.push_str(line);
                s.push('\n');
            }
        }
    }
    sections
}

/// `bench query --format csv FILE` over the run logs of `root`, or over the export `parquet`.
fn duckdb(tmp: &Path, source: (&str, &Path), file: &str) -> String {
    let out = bench(&tmp.join("cache"))
        .args(["query", "--format", "csv", source.0])
        .arg(source.1)
        .arg(manifest().join("sql").join(file))
        .output()
        .unwrap();
    crate::support::success_stdout(&out)
}

fn rows(csv_text: &str) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(csv_text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

/// Two cells agree: equal text, equal numbers to 1e-9 (relative beyond 1), or equal JSON
/// objects whose numbers agree so.
fn same_cell(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => (x - y).abs() <= 1e-9 * x.abs().max(1.0),
        _ => match (
            serde_json::from_str::<serde_json::Value>(a),
            serde_json::from_str::<serde_json::Value>(b),
        ) {
            (Ok(x), Ok(y)) => same_json(&x, &y),
            _ => false,
        },
    }
}

fn same_json(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value::*;
    match (a, b) {
        (Number(x), Number(y)) => same_cell(&x.to_string(), &y.to_string()),
        (Object(x), Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        (Array(x), Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same_json(v, w)),
        _ => a == b,
    }
}

/// Spark's CSV of `file` holds DuckDB's rows, in order, header included.
fn assert_same_rows(file: &str, duck: &str, spark: &str) {
    let (d, s) = (rows(duck), rows(spark));
    assert_eq!(d.first(), s.first(), "{file}: header");
    assert!(d.len() > 1, "{file}: DuckDB returned no rows");
    assert_eq!(
        d.len(),
        s.len(),
        "{file}: row count\nduckdb:\n{duck}\nspark:\n{spark}"
    );
    for (i, (x, y)) in d.iter().zip(&s).enumerate().skip(1) {
        let differ: Vec<String> = d[0]
            .iter()
            .zip(x.iter().zip(y))
            .filter(|(_, (a, b))| !same_cell(a, b))
            .map(|(c, (a, b))| format!("{c}: duckdb {a:?} spark {b:?}"))
            .collect();
        assert!(differ.is_empty(), "{file} row {i}: {differ:?}");
    }
}

fn export(tmp: &Path, root: &Path, dir: &Path, run: Option<&Path>) -> String {
    let mut cmd = bench(&tmp.join("cache"));
    cmd.args(["export", "--parquet"])
        .arg(dir)
        .arg("--root")
        .arg(root);
    if let Some(run) = run {
        cmd.arg("--run").arg(run);
    }
    crate::support::success_stdout(&cmd.output().unwrap())
}

/// The row counts DuckDB reads from `source` (`--parquet` an export or `--root` the run logs),
/// as bench_sql.py's counts section.
fn duckdb_counts(tmp: &Path, source: (&str, &Path)) -> String {
    let out = bench(&tmp.join("cache"))
        .args(["query", "--format", "csv", source.0])
        .arg(source.1)
        .args([
            "-e",
            "SELECT 'results' AS \"table\", count(*) AS \"rows\" FROM results UNION ALL \
             SELECT 'answers', count(*) FROM answers UNION ALL \
             SELECT 'benchmarks', count(*) FROM benchmarks",
        ])
        .output()
        .unwrap();
    crate::support::success_stdout(&out)
}

#[test]
fn spark_sql_gives_duckdbs_rows_for_every_statistics_file() {
    let Some(python) = spark_python() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (history, merged) = (tmp.path().join("history"), tmp.path().join("merged"));
    // Two providers, one of them wrong on some questions and failing some calls.
    super::analytics::fixture(&history);
    run_in(tmp.path(), &RUN)
        .args(["--runs", "2", "--structures", "flat"])
        .args(["--formats", "csv,json_compact,yaml,toon_default"])
        .root(&history)
        .ok();
    let data = tmp.path().join("orders.json");
    std::fs::write(
        &data,
        r#"[{"id":1,"item":"pen","qty":3,"price":1.5},{"id":2,"item":"ink","qty":1,"price":7.25},
            {"id":3,"item":"pad","qty":10,"price":2.0}]"#,
    )
    .unwrap();
    run_in(tmp.path(), &RUN)
        .args([
            "--data",
            data.to_str().unwrap(),
            "--formats",
            "csv,json_compact,yaml",
        ])
        .root(&history)
        .ok();
    // The shards of one plan, run apart; the same history with them merged instead.
    let plan = [
        "--runs",
        "2",
        "--structures",
        "flat",
        "--formats",
        "csv,json_compact,markdown_table,yaml",
    ];
    for folder in std::fs::read_dir(history.join("benchmarks")).unwrap() {
        let folder = folder.unwrap().path();
        copy_dir(
            &folder,
            &merged.join("benchmarks").join(folder.file_name().unwrap()),
        );
    }
    let shards_root = tmp.path().join("shards");
    let shards: Vec<PathBuf> = ["1/2", "2/2"]
        .iter()
        .map(|k| {
            let shard = run_in(tmp.path(), &RUN).args(plan).args(["--shard", k]);
            shard.root(&shards_root).ok().dir()
        })
        .collect();
    // Under a name of their own: a shard started in the same second as the `--data` run above
    // has its folder name, and copied over it would replace that run's log (CI saw exactly
    // this: the export lost the orders.json run).
    for s in &shards {
        let name = format!("shard-{}", s.file_name().unwrap().to_string_lossy());
        let to = history.join("benchmarks").join(name);
        assert!(!to.exists(), "{}", to.display());
        copy_dir(s, &to);
    }
    let out = bench(&tmp.path().join("cache"))
        .args(["merge", "--no-report", "--output-root"])
        .arg(&merged)
        .args(&shards)
        .output()
        .unwrap();
    crate::support::success_stdout(&out);

    let dir = tmp.path().join("export");
    let said = export(tmp.path(), &history, &dir, None);
    assert!(said.contains("run plan-"), "the shards are one run: {said}");
    let sections = spark(&python, &dir, &FILES);
    assert_eq!(
        sections["counts"],
        duckdb_counts(tmp.path(), ("--parquet", &dir)),
        "row counts"
    );
    for file in FILES {
        let duck = duckdb(tmp.path(), ("--parquet", &dir), file);
        assert_same_rows(file, &duck, &sections[file]);
    }
    // The exported shards read as their merged run: DuckDB over the export gives the rows it
    // gives over the logs with the merged run instead (files without run ids).
    for file in [
        "rankings.sql",
        "paired_comparison.sql",
        "pareto.sql",
        "accuracy.sql",
    ] {
        assert_eq!(
            duckdb(tmp.path(), ("--parquet", &dir), file),
            duckdb(tmp.path(), ("--root", &merged), file),
            "{file}: the shards in the export against the merged run"
        );
    }
}

#[test]
fn an_export_appends_a_run_and_replaces_one_exported_again() {
    let Some(python) = spark_python() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let first = super::analytics::fixture(&root)
        .parent()
        .unwrap()
        .to_path_buf();
    let dir = tmp.path().join("export");
    export(tmp.path(), &root, &dir, Some(&first));
    let second = run_in(tmp.path(), &RUN)
        .args([
            "--runs",
            "2",
            "--structures",
            "flat",
            "--formats",
            "csv,json_compact,yaml",
        ])
        .root(&root)
        .ok()
        .dir();
    assert_ne!(first, second);
    export(tmp.path(), &root, &dir, Some(&second));
    let files_of = |run: &Path| -> BTreeMap<PathBuf, std::time::SystemTime> {
        let name = format!("ts={}", run.file_name().unwrap().to_string_lossy());
        crate::support::files_under(&dir)
            .into_iter()
            .filter(|p| p.components().any(|c| c.as_os_str() == name.as_str()))
            .map(|p| {
                let m = std::fs::metadata(&p).unwrap().modified().unwrap();
                (p, m)
            })
            .collect()
    };
    let second_files = files_of(&second);
    let first_files = files_of(&first);
    assert!(!second_files.is_empty() && !first_files.is_empty());
    std::thread::sleep(std::time::Duration::from_millis(20));
    // The first run again: its files replaced (same names), the second run's untouched.
    export(tmp.path(), &root, &dir, Some(&first));
    assert_eq!(
        files_of(&second),
        second_files,
        "the other run is not rewritten"
    );
    let again = files_of(&first);
    assert_eq!(
        again.keys().collect::<Vec<_>>(),
        first_files.keys().collect::<Vec<_>>()
    );
    assert!(again.iter().all(|(p, t)| *t > first_files[p]), "replaced");
    assert!(
        crate::support::files_under(&dir)
            .iter()
            .all(|p| !p.to_string_lossy().contains(".bench-export")),
        "no staging left"
    );

    let logs_counts = duckdb_counts(tmp.path(), ("--root", &root));
    let sections = spark(&python, &dir, &["rankings.sql"]);
    assert_eq!(sections["counts"], logs_counts, "no row twice, none lost");
    assert_eq!(duckdb_counts(tmp.path(), ("--parquet", &dir)), logs_counts);
    assert_same_rows(
        "rankings.sql",
        &duckdb(tmp.path(), ("--root", &root), "rankings.sql"),
        &sections["rankings.sql"],
    );
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let target = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_dir(&p, &target);
        } else {
            std::fs::copy(&p, &target).unwrap();
        }
    }
}
