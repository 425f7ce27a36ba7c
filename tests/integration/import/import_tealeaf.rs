//! `bench import --from tealeaf`: TeaLeaf's shipped evidence run (84 replies) becomes one run
//! whose questions are the tasks' expected elements; bench's copy of TeaLeaf's rubric gives the
//! published scores of every reply, `sql/imported_replies.sql` reproduces the evidence README's
//! tables (mean score and tokens per model and format), and bad input is one line naming the
//! file and the row, exit 2, nothing written.

use crate::support::binary;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn shipped() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks/published/tealeaf")
}

fn import(sources: &[&Path], root: &Path) -> std::process::Output {
    binary()
        .arg("import")
        .args(sources)
        .args(["--from", "tealeaf", "--output-root"])
        .arg(root)
        .output()
        .unwrap()
}

/// `sql/imported_replies.sql` over the runs under `root`, as JSON rows.
fn replies(root: &Path) -> Vec<Value> {
    let out = binary()
        .args([
            "query",
            "sql/imported_replies.sql",
            "--format",
            "json",
            "--root",
        ])
        .arg(root)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    serde_json::from_str(&crate::support::success_stdout(&out)).unwrap()
}

#[test]
fn the_evidence_run_reproduces_tealeafs_tables_and_its_scores() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    let out = import(&[&shipped().join("2026-02-14-01")], &root);
    let said = crate::support::success_stdout(&out);
    assert!(
        said.contains("answers imported from TeaLeaf's accuracy benchmark")
            && said.contains("4e007f783cfa")
            && said.contains("equal TeaLeaf's on 84 of 84 replies"),
        "{said}"
    );
    let rows = replies(&root);
    // The evidence README's "Accuracy" and "Token Usage" tables.
    for (model, format, score, input, output) in [
        (
            "claude-sonnet-4-5-20250929",
            "tealeaf",
            0.944,
            421_141,
            85_275,
        ),
        (
            "claude-sonnet-4-5-20250929",
            "json_pretty",
            0.949,
            864_232,
            70_953,
        ),
        (
            "claude-sonnet-4-5-20250929",
            "toon_default",
            0.949,
            678_626,
            76_638,
        ),
        ("gpt-5.2-2025-12-11", "tealeaf", 0.937, 362_918, 32_793),
        ("gpt-5.2-2025-12-11", "json_pretty", 0.941, 734_984, 33_034),
        ("gpt-5.2-2025-12-11", "toon_default", 0.940, 593_902, 32_555),
    ] {
        let row = rows
            .iter()
            .find(|r| r["model"] == model && r["format"] == format)
            .unwrap_or_else(|| panic!("{model} {format} in {rows:?}"));
        assert_eq!(row["replies"], 14, "{row}");
        assert_eq!(row["composite"].as_f64(), Some(score), "{row}");
        assert_eq!(row["input_tokens"].as_u64(), Some(input), "{row}");
        assert_eq!(row["output_tokens"].as_u64(), Some(output), "{row}");
    }
    // One question per expected element, paired by bench's statistics like any run.
    assert!(
        said.contains("on gpt-5.2-2025-12-11, tealeaf against json_pretty: "),
        "{said}"
    );
}

/// A small evidence folder: `calls` rows in `analysis.tl`, a reply for each, one task.
fn evidence(dir: &Path, calls: &[(&str, &str)], reply_for: &[&str]) {
    let responses = dir.join("responses");
    std::fs::create_dir_all(&responses).unwrap();
    let mut tl = String::from(
        "@struct api_response (task_id: string, provider: string, format: string, model: string?, \
         input_tokens: int, output_tokens: int, latency_ms: int, http_status: int, retry_count: \
         int, response_length: int, timestamp: timestamp, status: string)\n\
         @struct analysis_result (task_id: string, provider: string, format: string, \
         completeness: float, relevance: float, coherence: float, factual_accuracy: float)\n\
         responses: @table api_response [\n",
    );
    for (provider, format) in calls {
        tl.push_str(&format!(
            "    (\"T-1\", \"{provider}\", \"{format}\", \"m-{provider}\", 100, 10, 5, 200, 0, 9, \
             2026-02-14T07:05:08Z, \"success\"),\n"
        ));
    }
    tl.push_str("]\nanalysis_results: @table analysis_result [\n]\n");
    std::fs::write(dir.join("analysis.tl"), tl).unwrap();
    for name in reply_for {
        std::fs::write(
            responses.join(format!("real-t-1-{name}.txt")),
            "Total revenue is $1,234.\n",
        )
        .unwrap();
    }
    let task = serde_json::json!({"tasks": [{
        "id": "T-1", "category": "finance", "prompt_template": "{data}",
        "expected_elements": [
            {"element_type": "metric", "description": "Total revenue", "required": true,
             "validation_pattern": "\\$[\\d,]+"},
            {"element_type": "analysis", "description": "Quarterly growth trend", "required": true}
        ]
    }]});
    std::fs::write(dir.join("real.json"), task.to_string()).unwrap();
}

/// Imports `dir`: exit 2, one line containing every needle, no run folder.
fn refused(dir: &Path, needles: &[&str]) {
    let root = dir.join("data");
    let out = import(&[dir], &root);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    for n in needles {
        assert!(err.contains(n), "{n} not in {err}");
    }
    assert!(!root.join("benchmarks").exists(), "nothing written");
}

#[test]
fn an_excerpt_imports_and_bad_evidence_is_named_once() {
    let tmp = tempfile::tempdir().unwrap();
    let good = tmp.path().join("good");
    evidence(&good, &[("a", "json"), ("a", "tl")], &["a-json", "a-tl"]);
    let root = good.join("data");
    let said = crate::support::success_stdout(&import(&[&good], &root));
    // Two replies × two elements; the regex element is found, the keyword one is not.
    assert!(said.contains("4 answers"), "{said}");
    assert!(
        said.contains("scores differ: T-1 a json: no TeaLeaf score published"),
        "{said}"
    );
    let rows = replies(&root);
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(rows.iter().all(|r| r["detected_pct"] == 50.0), "{rows:?}");

    let unknown = tmp.path().join("unknown");
    evidence(
        &unknown,
        &[("a", "json"), ("a", "yaml")],
        &["a-json", "a-yaml"],
    );
    refused(
        &unknown,
        &[
            "analysis.tl",
            "responses row 2 (T-1 a yaml)",
            "unknown format 'yaml'",
        ],
    );
    let missing = tmp.path().join("missing");
    evidence(&missing, &[("a", "json"), ("a", "tl")], &["a-json"]);
    refused(&missing, &["responses", "no reply file *-t-1-a-tl.txt"]);
    let twice = tmp.path().join("twice");
    evidence(&twice, &[("a", "json"), ("a", "json")], &["a-json"]);
    refused(&twice, &["duplicate answer"]);
    let broken = tmp.path().join("broken");
    evidence(&broken, &[("a", "json")], &["a-json"]);
    std::fs::write(
        broken.join("analysis.tl"),
        "responses: @table api_response [\n",
    )
    .unwrap();
    refused(
        &broken,
        &["analysis.tl", "not a TeaLeaf document", "line 1"],
    );
    let no_tasks = tmp.path().join("no_tasks");
    evidence(&no_tasks, &[("a", "json")], &["a-json"]);
    std::fs::remove_file(no_tasks.join("real.json")).unwrap();
    refused(&no_tasks, &["no task file (real.json)"]);
}
