//! `--prompt-variants`: every format of a run is asked in that run's wording, and the report
//! says whether the verdict holds under each wording. A test double answers like the
//! reference, except that yaml loses ten retrieval answers under the `numbered` wording only;
//! the report must find that and name the wording.

use crate::support::run_plan;
use bench::formats::Format;
use bench::prompt::parse_data_block;
use bench::providers::{ModelConfig, Provider, ProviderError, Reference, Request, Response};
use bench::runlog::Line;
use bench::runner::{Model, Options};
use serde_json::{Map, Value, json};

/// Answers like the reference, but "WRONG" on q001 … qN, N = `wrong(format, data, prompt)`:
/// a model whose accuracy depends on what it is shown (the wording here, the size in
/// tests/integration/run/sweep.rs).
pub(super) struct WrongFirst {
    /// Model name.
    pub(super) model: &'static str,
    /// How many answers to spoil, from the format name, the data block and the whole prompt.
    pub(super) wrong: fn(&str, &str, &str) -> usize,
}

impl WrongFirst {
    /// The double as a runner model.
    pub(super) fn into_model(self) -> Model {
        Model {
            config: ModelConfig {
                provider: "double".into(),
                model: self.model.into(),
                ..ModelConfig::default()
            },
            provider: Box::new(self),
        }
    }
}

#[async_trait::async_trait]
impl Provider for WrongFirst {
    fn name(&self) -> &str {
        "double"
    }
    fn model(&self) -> &str {
        self.model
    }
    fn params(&self) -> Value {
        json!({})
    }
    fn url(&self) -> Option<String> {
        None
    }
    fn caches_prompts(&self) -> bool {
        false
    }
    async fn complete(&self, req: &Request<'_>) -> Result<Response, ProviderError> {
        let mut resp = Reference.complete(req).await?;
        let input: String = req.messages.iter().map(|m| m.content.as_str()).collect();
        let (format, data) = parse_data_block(&input).expect("data block");
        let mut answers: Map<String, Value> = serde_json::from_str(&resp.output).unwrap();
        for i in 1..=(self.wrong)(format, data, &input) {
            answers.insert(format!("q{i:03}"), json!("WRONG"));
        }
        resp.output = serde_json::to_string(&answers).unwrap();
        Ok(resp)
    }
}

/// Wrong on q001–q010 in yaml when the prompt is in the `numbered` wording; json_compact is
/// wrong on q001–q003 and csv on q001–q005 under every wording.
fn worded(format: &str, _: &str, prompt: &str) -> usize {
    let numbered = prompt.contains("Task:\n1. Read the product data above.");
    match format {
        "yaml" if numbered => 10,
        "json_compact" => 3,
        "csv" => 5,
        _ => 0,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_verdict_that_changes_under_one_wording_is_found_and_named() {
    let tmp = tempfile::tempdir().unwrap();
    let mut plan = crate::support::doubles::plan(tmp.path(), vec![31], 4);
    plan.formats = vec![Format::Csv, Format::JsonCompact, Format::Yaml];
    plan.prompt_variants = 4;
    let model = WrongFirst {
        model: "worded",
        wrong: worded,
    };
    let outcome = run_plan(&plan, vec![model.into_model()], Options::default()).await;
    assert_eq!(outcome.missing, 0);

    // Each run is asked in one wording, the same for every format, in file order.
    let text = std::fs::read_to_string(&outcome.jsonl).unwrap();
    let mut seen = std::collections::BTreeMap::new();
    for line in text.lines() {
        if let Ok(Line::Result(r)) = serde_json::from_str::<Line>(line) {
            let w = r.prompt_variant.clone().expect("a wording per result");
            assert!(
                seen.insert((r.format.to_string(), r.run), w.clone())
                    .is_none()
            );
            let prompt = &r.sample.input[0].content;
            let data_first = prompt.starts_with("Product data, format:");
            assert_eq!(
                data_first,
                w == "default" || w == "numbered",
                "{w}: {prompt:.80}"
            );
        }
    }
    let want = ["default", "numbered", "role_first", "terse_first"];
    for ((_, run), w) in &seen {
        assert_eq!(w, want[(*run - 1) as usize]);
    }
    assert_eq!(seen.len(), 3 * 4);

    let w = bench::report::write_report(outcome.jsonl.parent().unwrap(), "json_compact").unwrap();
    let report = std::fs::read_to_string(w.dir.join("BENCHMARK_REPORT.md")).unwrap();
    assert!(report.contains("## Prompt wording"), "{report}");
    let line = "**double/worded, flat · mandatory · 31**: the most accurate over all wordings, \
                `yaml`, holds under 3/4 wordings only; the verdict changes under `numbered` \
                (most accurate there: `json_compact`).";
    assert!(report.contains(line), "{report}");
    assert!(
        report.contains("| yaml | 100.0 % | 93.2 % | 100.0 % | 100.0 % | 6.8 |"),
        "{report}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shuffled_runs_keep_pairs_aligned_and_the_reference_at_100() {
    let tmp = tempfile::tempdir().unwrap();
    let mut plan = crate::support::doubles::plan(tmp.path(), vec![31], 3);
    plan.formats = vec![Format::Csv, Format::MarkdownKv, Format::ToonDefault];
    plan.shuffle = true;
    plan.prompt_variants = 3;
    let model = Model {
        config: ModelConfig::default(),
        provider: Box::new(Reference),
    };
    let outcome = run_plan(&plan, vec![model], Options::default()).await;
    assert_eq!(outcome.missing, 0);
    let text = std::fs::read_to_string(&outcome.jsonl).unwrap();
    // run → per format: (order seed, wording, the position of every retrieval target).
    let mut per_run: std::collections::BTreeMap<u32, Vec<(String, Value)>> = Default::default();
    for line in text.lines() {
        if let Ok(Line::Result(r)) = serde_json::from_str::<Line>(line) {
            assert_eq!(r.summary.pass_rate, 1.0, "{}", r.sample.tag);
            let positions: Vec<usize> = r
                .metrics
                .iter()
                .filter_map(|m| m.position.as_ref().map(|p| p.index))
                .collect();
            assert_eq!(positions.len(), 55);
            per_run.entry(r.run).or_default().push((
                r.format.to_string(),
                json!([r.order_seed, r.prompt_variant, positions]),
            ));
        }
    }
    assert_eq!(per_run.len(), 3);
    let mut seen_positions = Vec::new();
    for (run, rows) in &per_run {
        assert_eq!(rows.len(), 3, "run {run}: one call per format");
        // Every format of a run: the same order and the same target positions.
        let (seed, positions) = (&rows[0].1[0], &rows[0].1[2]);
        for (f, row) in rows {
            assert_eq!(&row[0], seed, "run {run} {f}");
            assert_eq!(&row[2], positions, "run {run} {f}");
        }
        assert!(seed.is_u64());
        let want = ["default", "numbered", "role_first"][(*run - 1) as usize];
        assert_eq!(rows[0].1[1], want, "run {run}: its wording");
        seen_positions.push(positions.clone());
    }
    assert_ne!(seen_positions[0], seen_positions[1]);
    assert_ne!(seen_positions[1], seen_positions[2]);
}

/// `bench rescore` finds each result's own prompt again when runs take turns over wordings and
/// record orders (one prompt key, a different prompt per run).
#[test]
fn a_shuffled_worded_run_rescores_to_the_same_grades() {
    use crate::support::{bench, run_dir};
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("out");
    let out = bench(&tmp.path().join("cache"))
        .args(["run", "--shuffle", "--prompt-variants", "2", "--runs", "2"])
        .args(["--question-mode", "per-question", "--formats", "csv,ini"])
        .args([
            "--structures",
            "flat",
            "--variants",
            "mandatory",
            "--no-report",
        ])
        .arg("--output-root")
        .arg(&root)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first = run_dir(&root);
    let out = bench(&tmp.path().join("cache"))
        .arg("rescore")
        .arg(&first)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let second = run_dir(&root);
    assert_ne!(first, second);
    let passed = |dir: &std::path::Path| -> Vec<(String, u32, Option<String>, f64)> {
        let text = std::fs::read_to_string(dir.join("formats.jsonl")).unwrap();
        let mut rows: Vec<_> = text
            .lines()
            .filter_map(|l| match serde_json::from_str::<Line>(l) {
                Ok(Line::Result(r)) => Some((
                    r.sample.tag.clone(),
                    r.run,
                    r.prompt_variant.clone(),
                    r.summary.pass_rate,
                )),
                _ => None,
            })
            .collect();
        rows.sort_by(|a, b| a.0.cmp(&b.0));
        rows
    };
    let (a, b) = (passed(&first), passed(&second));
    assert_eq!(a.len(), 2 * 2 * 124);
    assert_eq!(a, b);
    assert!(a.iter().all(|r| r.3 == 1.0));
}

/// Writes the gold of the case its prompt asks for, in the format it names, except yaml under
/// the `numbered` wording (a wrong name) and json for the `trio` case under every wording.
struct WorderWriter;

impl wiremock::Respond for WorderWriter {
    fn respond(&self, req: &wiremock::Request) -> wiremock::ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap();
        let prompt = body["messages"][0]["content"].as_str().unwrap();
        let yaml = prompt.contains("in YAML");
        let trio = prompt.contains("- trio:");
        let numbered = prompt.starts_with("Task:\n1.");
        let mut gold = if trio {
            json!({"trio": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bo"}, {"id": 3, "name": "Cy"}]})
        } else {
            json!({"pair": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bo"}]})
        };
        if (yaml && numbered) || (!yaml && trio) {
            gold[if trio { "trio" } else { "pair" }][0]["name"] = json!("WRONG");
        }
        let (format, fence) = if yaml {
            (Format::Yaml, "yaml")
        } else {
            (Format::JsonCompact, "json")
        };
        let text = format!("```{fence}\n{}\n```", format.encode(&gold).unwrap());
        wiremock::ResponseTemplate::new(200).set_body_json(json!({
            "id": "c", "object": "chat.completion", "model": "m",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                         "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}}))
    }
}

/// The write suite in four wordings (`benchmarks/prompts/write.json`): each run asks in its
/// own, the default is bench's prompt unchanged, and a model that writes yaml wrong under
/// `numbered` only has the report name that wording.
#[test]
fn the_write_suite_asks_in_each_wording_and_the_report_finds_the_one_that_changes_it() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(wiremock::MockServer::start());
    rt.block_on(
        wiremock::Mock::given(wiremock::matchers::method("POST"))
            .respond_with(WorderWriter)
            .mount(&server),
    );
    let tmp = tempfile::tempdir().unwrap();
    let cases = tmp.path().join("cases.json");
    std::fs::write(
        &cases,
        r#"{"cases": [
            {"id": "pair", "kind": "transcode",
             "gold": {"pair": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bo"}]}},
            {"id": "trio", "kind": "transcode",
             "gold": {"trio": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bo"}, {"id": 3, "name": "Cy"}]}}]}"#,
    )
    .unwrap();
    let root = tmp.path().join("data");
    let out = crate::support::bench(&tmp.path().join("cache"))
        .args([
            "run",
            "--suite",
            "write",
            "--runs",
            "4",
            "--prompt-variants",
            "4",
        ])
        .args(["--provider", "openai-compatible:m", "--base-url"])
        .arg(format!("{}/v1", server.uri()))
        .args([
            "--formats",
            "json_compact,yaml",
            "--no-json-schema",
            "--repairs",
            "0",
        ])
        .arg("--cases")
        .arg(&cases)
        .arg("--output-root")
        .arg(&root)
        .output()
        .unwrap();
    crate::support::success_stdout(&out);
    let dir = crate::support::run_dir(&root);
    let lines = crate::support::parse(&dir.join("write.jsonl"));
    let Line::Metadata(meta) = &lines[0] else {
        panic!("metadata first")
    };
    let want = ["default", "numbered", "role_first", "given_first"];
    assert_eq!(meta.prompt_variants, want);
    let rs = crate::support::results(&lines);
    assert_eq!(rs.len(), 2 * 2 * 4);
    for r in &rs {
        let w = r.prompt_variant.as_deref().unwrap();
        assert_eq!(w, want[(r.run - 1) as usize]);
        let prompt = &r.sample.input[0].content;
        match w {
            "default" => assert!(prompt.starts_with("Rewrite the document below, given in JSON")),
            "numbered" => assert!(prompt.starts_with("Task:\n1. Read the document below")),
            "role_first" => assert!(prompt.starts_with("You are a careful engineer")),
            _ => assert!(prompt.starts_with("Document:\n```json\n")),
        }
    }
    // Rescore finds each result's prompt in its own wording and grades it the same.
    let out = crate::support::bench(&tmp.path().join("cache"))
        .arg("rescore")
        .arg(&dir)
        .output()
        .unwrap();
    crate::support::success_stdout(&out);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let again = stdout
        .lines()
        .next()
        .unwrap()
        .trim_start_matches("rescored run: ");
    let again = crate::support::parse(&std::path::Path::new(again).join("write.jsonl"));
    let grades = |rs: Vec<&bench::runlog::ResultRecord>| {
        let mut g: Vec<_> = rs
            .iter()
            .map(|r| {
                (
                    r.sample.tag.clone(),
                    r.metrics[0].passed,
                    r.prompt_variant.clone(),
                )
            })
            .collect();
        g.sort();
        g
    };
    assert_eq!(grades(crate::support::results(&again)), grades(rs.clone()));
    let report = std::fs::read_to_string(dir.join("write/BENCHMARK_REPORT.md")).unwrap();
    let line = "**openai-compatible/m, write suite**: the most accurate over all wordings, \
                `yaml`, holds under 3/4 wordings only; the verdict changes under `numbered` \
                (most accurate there: `json_compact`).";
    assert!(report.contains(line), "{report}");
    assert!(
        report.contains("| yaml | 100.0 % | 100.0 % | 0.0 % | 100.0 % | 100.0 |"),
        "{report}"
    );
}
