//! `--questions FILE`: the user's own questions. SQL questions score 100 % with the reference
//! answerer on every format; the original benchmark's questionnaire and answer key load
//! unchanged and grade a mock model by their rules; a key every answer contradicts in
//! agreement is flagged in the report; a key contradicting its own SQL is refused.

use crate::support::{bench, parse, run_dir};
use bench::runlog::Line;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/original_benchmark")
        .join(rel)
}

/// Every graded metric of a run log, with the format it was asked in.
fn metrics(log: &Path) -> Vec<(String, Value)> {
    parse(log)
        .into_iter()
        .filter_map(|l| match l {
            Line::Result(r) => Some(r),
            _ => None,
        })
        .flat_map(|r| {
            let f = r.format.to_string();
            r.metrics
                .iter()
                .map(|m| (f.clone(), serde_json::to_value(m).unwrap()))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn sql_questions_score_100_with_the_reference_on_every_format_that_holds_the_records() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("orders.json");
    std::fs::write(
        &data,
        json!({"orders": [
            {"id": "O-1", "customer": {"city": "Zürich", "vip": true}, "total": 12.5, "items": ["a", "b"], "note": "a | b, \"c\""},
            {"id": "O-2", "customer": {"city": "Basel", "vip": false}, "total": 3, "items": ["c"], "note": null},
            {"id": "O-3", "customer": {"city": "Zürich", "vip": false}, "total": 7.25, "items": [], "note": "x = y # z"}
        ]})
        .to_string(),
    )
    .unwrap();
    let questions = tmp.path().join("questions.jsonl");
    let rows = [
        json!({"question": "How many orders are from Zürich?", "category": "filtering",
               "sql": "SELECT count(*) FROM records WHERE customer.city = 'Zürich'"}),
        json!({"question": "What is the total of all orders?", "category": "aggregation",
               "sql": "SELECT sum(total) FROM records"}),
        json!({"question": "Which orders have more than one item?", "category": "filtering",
               "sql": "SELECT id FROM records WHERE len(items) > 1", "validation": "array_set"}),
        json!({"question": "What is the note of order O-3?", "category": "field_retrieval",
               "sql": "SELECT note FROM records WHERE id = 'O-3'"}),
        json!({"question": "Which order is first?", "category": "structure_awareness",
               "sql": "SELECT id FROM records LIMIT 1", "expected": "O-1"}),
    ];
    let text: String = rows.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(&questions, text).unwrap();
    let root = tmp.path().join("out");
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
        .arg(&data)
        .arg("--questions")
        .arg(&questions)
        .arg("--output-root")
        .arg(&root)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("5 questions"), "{stderr}");
    let m = metrics(&run_dir(&root).join("formats.jsonl"));
    let formats: std::collections::BTreeSet<&str> = m.iter().map(|(f, _)| f.as_str()).collect();
    // Nested records: every format but the five flat-only ones, and XML, which cannot tell
    // O-3's empty list from an empty string; each skip is said with its reason.
    assert_eq!(formats.len(), 10, "{formats:?}");
    for skipped in ["csv", "html_table", "xml_compact", "xml_pretty"] {
        assert!(
            stderr.contains(&format!(
                "skipped orders in {skipped}: {skipped}: cannot represent"
            )),
            "{stderr}"
        );
    }
    assert!(
        formats.contains("markdown_kv") && formats.contains("ini"),
        "{formats:?}"
    );
    assert_eq!(m.len(), 10 * 5);
    for (f, metric) in &m {
        assert_eq!(metric["passed"], 1, "{f}: {metric}");
    }
}

/// A mock model's fixed answers: right on q002 (other case) and q004 (other order), and the
/// true values on q003 and q005, which the fixture's keys get wrong.
const ANSWERS: &str =
    r#"{"q002": "basic wrench 3584", "q003": 1.2, "q004": ["materials", "Tools"], "q005": 900}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_original_benchmarks_files_load_unchanged_and_a_key_all_answers_contradict_is_flagged()
{
    use wiremock::{Mock, MockServer, matchers::method};
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(crate::support::mocks::FirstThenLater {
            first: ANSWERS.into(),
            later: ANSWERS.into(),
        })
        .mount(&server)
        .await;
    let tmp = tempfile::tempdir().unwrap();
    let (uri, root) = (format!("{}/v1", server.uri()), tmp.path().to_path_buf());
    let (stderr, report) = tokio::task::spawn_blocking(move || {
        let out = bench(&root.join("cache"))
            .args([
                "run",
                "--provider",
                "openai-compatible:m",
                "--base-url",
                &uri,
            ])
            .args([
                "--formats",
                "json_compact,markdown_kv",
                "--runs",
                "1",
                "--no-cache",
            ])
            .arg("--data")
            .arg(fixture(
                "data/json_compact_with_optional_4_flat_records.json",
            ))
            .arg("--questions")
            .arg(fixture("questions/questions_with_optional_4_records.json"))
            .arg("--output-root")
            .arg(root.join("out"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(out.status.success(), "{stderr}");
        let dir = run_dir(&root.join("out"));
        let report = std::fs::read_to_string(dir.join("formats/BENCHMARK_REPORT.md"))
            .unwrap_or_else(|e| {
                panic!(
                    "{e}: {:?}",
                    std::fs::read_dir(&dir).unwrap().collect::<Vec<_>>()
                )
            });
        (stderr, (report, dir))
    })
    .await
    .unwrap();
    let (report, dir) = report;
    assert!(
        stderr.contains("4 question(s) have a given answer and no sql"),
        "{stderr}"
    );
    let m = metrics(&dir.join("formats.jsonl"));
    assert_eq!(m.len(), 2 * 4);
    for (f, metric) in &m {
        let want = match metric["metric"].as_str().unwrap() {
            "q002" | "q004" => 1,
            _ => 0,
        };
        assert_eq!(metric["passed"], want, "{f}: {metric}");
    }
    assert!(report.contains("## Check the key"), "{report}");
    assert!(
        report.contains("check the key of q003: all 2 answers say 1.2, the key says 0"),
        "{report}"
    );
    assert!(
        report.contains("check the key of q005: all 2 answers say 900, the key says 450"),
        "{report}"
    );
    assert!(!report.contains("check the key of q002"), "{report}");
}

#[test]
fn a_key_that_contradicts_its_own_sql_is_refused_before_any_call() {
    let tmp = tempfile::tempdir().unwrap();
    let questions = tmp.path().join("q.json");
    std::fs::write(
        &questions,
        r#"[{"id": 3, "question": "What is the lowest avg rating?", "category": "aggregation",
             "sql": "SELECT min(avgRating) FROM records", "expected": 0}]"#,
    )
    .unwrap();
    let out = bench(&tmp.path().join("cache"))
        .args(["run", "--runs", "1", "--no-report", "--data"])
        .arg(fixture(
            "data/json_compact_with_optional_4_flat_records.json",
        ))
        .arg("--questions")
        .arg(&questions)
        .arg("--output-root")
        .arg(tmp.path().join("out"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "q.json: row 1 (q003): field 'expected': the key says 0, but its own sql gives 1.2"
        ),
        "{stderr}"
    );
    assert!(!tmp.path().join("out/benchmarks").exists(), "{stderr}");
}

#[test]
fn a_question_file_about_the_product_records_scores_100_in_every_structure_and_weights_its_own_category()
 {
    let tmp = tempfile::tempdir().unwrap();
    let questions = tmp.path().join("q.csv");
    std::fs::write(
        &questions,
        "question,category,sql,validation\n\
         How many products are there?,structure_awareness,SELECT count(*) FROM records,\n\
         What is the price of PROD-000003?,field_retrieval,SELECT price FROM records WHERE id = 'PROD-000003',\n\
         Which products are in Toys?,filtering,SELECT id FROM records WHERE category = 'Toys',array_set\n\
         Lowest warehouse code?,warehouse,SELECT min(warehouse_code) FROM records,\n",
    )
    .unwrap();
    let root = tmp.path().join("out");
    let out = bench(&tmp.path().join("cache"))
        .args([
            "run",
            "--formats",
            "json_compact,csv,markdown_kv,ini",
            "--records",
            "31,62",
        ])
        .args(["--runs", "1", "--no-report", "--questions"])
        .arg(&questions)
        .arg("--output-root")
        .arg(&root)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log = run_dir(&root).join("formats.jsonl");
    let m = metrics(&log);
    // 2 sizes × 2 variants × (4 flat + 3 nested renderings) × 4 questions.
    assert_eq!(m.len(), 2 * 2 * 7 * 4);
    assert!(m.iter().all(|(_, x)| x["passed"] == 1), "{m:?}");
    assert!(m.iter().any(|(_, x)| x["category"] == "warehouse"));
    let meta = parse(&log)
        .into_iter()
        .find_map(|l| match l {
            Line::Metadata(m) => Some(m),
            _ => None,
        })
        .unwrap();
    assert_eq!(meta.questions_file.as_deref(), Some(questions.as_path()));
    // A category of the file's own: every category weighted equally.
    let weights = serde_json::to_value(&meta).unwrap()["weights"].clone();
    assert_eq!(weights["warehouse"], 1.0, "{weights}");
    assert_eq!(weights["field_retrieval"], 1.0, "{weights}");
    let out = bench(&tmp.path().join("cache"))
        .args(["run", "--questions", "50"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("--questions 50 sets how many questions to synthesise from --data"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
