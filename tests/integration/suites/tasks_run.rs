//! The `tasks` suite as a user runs it: the reference provider at 100 % fact accuracy on every
//! task × format that can represent the data (the round-trip proof for tasks), skips recorded
//! with reasons, a mock model answering every call with one canned reply, `bench query
//! sql/task_scores.sql`, `list-tasks` and `dump-prompts`.

use crate::support::{bench, parse, results, run_dir};
use bench::runlog::Line;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn manifest(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

fn lines(root: &Path) -> Vec<Line> {
    parse(&run_dir(root).join("tasks.jsonl"))
}

fn query(root: &Path, cache: &Path) -> Vec<Value> {
    let out = bench(cache)
        .args(["query", "--format", "json", "--root"])
        .arg(root)
        .arg(manifest("sql/task_scores.sql"))
        .assert()
        .success();
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

#[test]
fn reference_states_every_fact_on_every_representable_rendering() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    for source in ["synthetic", "real"] {
        let root = tmp.path().join(source);
        let out = bench(&cache)
            .args(["run", "--suite", "tasks", "--data-source", source])
            .args(["--tasks"])
            .arg(manifest(&format!("benchmarks/tasks/{source}.json")))
            .args([
                "--formats",
                "all",
                "--runs",
                "1",
                "--no-report",
                "--output-root",
            ])
            .arg(&root)
            .assert()
            .success();
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        let lines = lines(&root);
        let Line::Metadata(meta) = &lines[0] else {
            panic!("metadata first")
        };
        assert_eq!(meta.suite_name, "tasks");
        let skipped = &bench::suites::tasks::TaskMeta::of(meta)
            .unwrap()
            .unwrap()
            .skipped;
        for s in skipped {
            assert!(s.reason.contains("cannot represent: "), "{s:?}");
            // Every skip is on screen too.
            assert!(
                stderr.contains(&format!("skipped {} in {}", s.task, s.format)),
                "{stderr}"
            );
        }
        let results = results(&lines);
        let tasks = bench::suites::tasks::TaskMeta::of(meta)
            .unwrap()
            .unwrap()
            .ids
            .len();
        assert_eq!(
            results.len() + skipped.len(),
            tasks * bench::formats::Format::ALL.len(),
            "{source}"
        );
        for r in &results {
            let s = bench::suites::tasks::scores(r).unwrap().unwrap();
            assert_eq!(
                s.fact_accuracy,
                Some(1.0),
                "{source} {:?} {}: {:?}",
                r.task,
                r.format,
                r.metrics.iter().find(|m| m.passed == 0)
            );
            assert!(r.metrics.iter().all(|m| m.category.name() == "fact"));
        }
        // CSV cannot hold the nested tasks, JSON holds every one.
        assert!(skipped.iter().any(|s| s.format.name() == "csv"));
        assert!(!skipped.iter().any(|s| s.format.name() == "json_compact"));
        let rows = query(&root, &cache);
        assert_eq!(rows.len(), bench::formats::Format::ALL.len(), "{rows:?}");
        for row in &rows {
            assert_eq!(row["fact_accuracy_pct"], 100.0, "{row}");
            // Formats that skipped a task rank after those that rendered all of them.
            let partial = skipped.iter().any(|s| s.format.name() == row["format"]);
            assert_eq!(row["all_tasks"], !partial, "{row}");
        }
        let first_partial = rows.iter().position(|r| r["all_tasks"] == false).unwrap();
        assert!(
            rows[first_partial..]
                .iter()
                .all(|r| r["all_tasks"] == false)
        );
    }
}

/// A chat server that answers every call with `reply`.
async fn canned_server(reply: &str) -> wiremock::MockServer {
    let server = wiremock::MockServer::start().await;
    wiremock::Mock::given(wiremock::matchers::method("POST"))
        .respond_with(wiremock::ResponseTemplate::new(200).set_body_json(serde_json::json!({
            "choices": [{"message": {"role": "assistant", "content": reply}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 900, "completion_tokens": 60}
        })))
        .mount(&server)
        .await;
    server
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mock_model_is_scored_on_facts_and_rubric_then_ranked_by_sql() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let root = tmp.path().join("data");
    // Right about two of RET-001's six facts, in prose; the rest is made up.
    let reply = "## Summary\n\n- Total revenue from completed orders: $2,945.43\n\
                 - Percentage of orders returned: 40%\n- Channel with the most orders: store\n\
                 - Average items per order: 2.75\n- Orders without a discount: 3\n\
                 - Distinct customers: 99\n";
    let server = canned_server(reply).await;
    let config = tmp.path().join("models.toml");
    std::fs::write(
        &config,
        format!(
            "[[models]]\nprovider = \"openai-compatible\"\nmodel = \"mock\"\nbase_url = \"{}/v1\"\nconcurrency = 2\n",
            server.uri()
        ),
    )
    .unwrap();
    let root2 = root.clone();
    let cache2 = cache.clone();
    let config2 = config.clone();
    tokio::task::spawn_blocking(move || {
        bench(&cache2)
            .args([
                "run",
                "--suite",
                "tasks",
                "--task-ids",
                "RET-001",
                "--tasks",
            ])
            .arg(manifest("benchmarks/tasks/synthetic.json"))
            .args(["--formats", "csv,json_compact,toon_default", "--runs", "2"])
            .args(["--no-report", "--config"])
            .arg(&config2)
            .arg("--output-root")
            .arg(&root2)
            .assert()
            .success();
    })
    .await
    .unwrap();
    // The task's own output limit and temperature go with each call (TeaLeaf's defaults here).
    // (The GETs before them ask the server for its context window; the token counts, sent to
    // its root, are not calls.)
    let sent: Vec<_> = server
        .received_requests()
        .await
        .unwrap()
        .into_iter()
        .filter(|r| r.method.as_str() == "POST" && r.url.path().ends_with("/chat/completions"))
        .collect();
    assert_eq!(sent.len(), 6);
    for r in &sent {
        let body: Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(body["max_tokens"], 2048, "{body}");
        assert_eq!(body["temperature"], 0.3, "{body}");
    }
    let (root3, cache3) = (root.clone(), cache.clone());
    let rows = tokio::task::spawn_blocking(move || query(&root, &cache))
        .await
        .unwrap();
    assert_eq!(rows.len(), 3, "{rows:?}");
    for row in &rows {
        assert_eq!(row["model"], "mock");
        assert_eq!(row["calls"], 2);
        assert_eq!(row["tasks"], 1);
        // 2 of 6 facts right (revenue, average items), whatever the format.
        assert_eq!(row["fact_accuracy_pct"], 33.3, "{row}");
        assert!(row["composite_pct"].as_f64().unwrap() > 0.0, "{row}");
    }
    // The report: the same statistics as for lookups, over the task's facts. Every format got
    // the same reply, so each is paired with json_compact on 6 facts × 2 runs with no
    // discordant pair.
    let dir = tokio::task::spawn_blocking(move || {
        let out = bench(&cache3)
            .args(["report", "latest", "--root"])
            .arg(&root3)
            .output()
            .unwrap();
        crate::support::success_stdout(&out);
        run_dir(&root3)
    })
    .await
    .unwrap();
    let results: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("tasks").join("analytics_results.json")).unwrap(),
    )
    .unwrap();
    let accuracy = results["accuracy"].as_array().unwrap();
    assert_eq!(accuracy.len(), 3, "{accuracy:?}");
    for r in accuracy {
        assert_eq!(r["records"], 1, "one task: {r}");
        assert!(
            (r["weighted_accuracy"].as_f64().unwrap() - 2.0 / 6.0).abs() < 1e-9,
            "{r}"
        );
        assert_eq!(r["n_answers"], 12, "{r}");
    }
    let comparisons = results["comparisons"].as_array().unwrap();
    assert_eq!(comparisons.len(), 2, "{comparisons:?}");
    for c in comparisons {
        assert_eq!(c["baseline"], "json_compact");
        assert_eq!(c["n_pairs"], 12, "{c}");
        assert_eq!(c["delta_accuracy_pp"], 0.0, "{c}");
        assert_eq!(c["significant"], false, "{c}");
    }
    assert_eq!(results["task_formats"].as_array().unwrap().len(), 3);
}

#[test]
fn list_tasks_and_dump_prompts_write_every_task_in_every_format() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let out = bench(&cache)
        .args(["list-tasks", "--format", "json", "--tasks"])
        .arg(manifest("benchmarks/tasks/synthetic.json"))
        .args(["--categories", "hr"])
        .assert()
        .success();
    let listed: Vec<Value> = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let ids: Vec<&str> = listed.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["HR-001", "HR-002"]);

    let dir = tmp.path().join("prompts");
    bench(&cache)
        .args([
            "dump-prompts",
            "--suite",
            "tasks",
            "--task-ids",
            "HR-002",
            "--formats",
            "all",
            "--tasks",
        ])
        .arg(manifest("benchmarks/tasks/synthetic.json"))
        .arg("--output")
        .arg(&dir)
        .assert()
        .success();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names.len(),
        bench::formats::Format::ALL.len(),
        "HR-002's data is flat: every format renders it: {names:?}"
    );
    let csv = std::fs::read_to_string(dir.join("HR-002-csv.txt")).unwrap();
    assert!(
        csv.contains("(provided in CSV format)") || csv.contains("CSV"),
        "{csv}"
    );
    assert!(csv.contains("```csv\n") && !csv.contains("{data}"), "{csv}");
    let data = bench::suites::tasks::prompt::data_block(&csv).unwrap();
    assert!(data.starts_with("id,"), "{data}");

    let err = bench(&cache)
        .args(["list-tasks", "--task-ids", "NOPE-1", "--tasks"])
        .arg(manifest("benchmarks/tasks/synthetic.json"))
        .assert()
        .failure();
    let stderr = String::from_utf8_lossy(&err.get_output().stderr).to_string();
    assert!(
        stderr.contains("has no task 'NOPE-1' (it has FIN-001"),
        "{stderr}"
    );
}

#[test]
fn resume_and_dry_run_work_for_tasks() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let root = tmp.path().join("data");
    let file = manifest("benchmarks/tasks/synthetic.json");
    let dry = bench(&cache)
        .args([
            "run",
            "--suite",
            "tasks",
            "--dry-run",
            "--task-ids",
            "HR-001,HR-002",
        ])
        .args([
            "--provider",
            "openai:gpt-4.1-mini",
            "--formats",
            "csv,yaml",
            "--tasks",
        ])
        .arg(&file)
        .assert()
        .success();
    let out = String::from_utf8_lossy(&dry.get_output().stdout).to_string();
    // 3 renderings (HR-001 has no CSV) × 3 runs, no network, no key.
    // No warm-ups: task prompts have no shared prefix to cache.
    assert!(out.contains("openai:gpt-4.1-mini ┆     9 ┆"), "{out}");
    assert!(out.contains("│ HR-002 ┆"), "{out}");
    assert!(
        out.contains("note: skipped HR-001 in csv: csv: cannot represent:"),
        "{out}"
    );

    bench(&cache)
        .args([
            "run",
            "--suite",
            "tasks",
            "--task-ids",
            "HR-001,HR-002",
            "--formats",
            "csv,yaml",
        ])
        .args(["--runs", "2", "--no-report", "--tasks"])
        .arg(&file)
        .arg("--output-root")
        .arg(&root)
        .assert()
        .success();
    let dir = run_dir(&root);
    let log = dir.join("tasks.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let full: Vec<&str> = text.lines().collect();
    assert_eq!(
        full.len(),
        1 + 6 + 1,
        "metadata, 3 renderings × 2 runs, summary"
    );
    // Cut after two results, mid-line, as a crash would.
    let cut = format!("{}\n{}\n{}\n{}", full[0], full[1], full[2], &full[3][..40]);
    std::fs::write(&log, cut).unwrap();
    bench(&cache)
        .args(["run", "--no-report", "--resume"])
        .arg(&dir)
        .assert()
        .success();
    let lines = lines(&root);
    let keys: std::collections::HashSet<_> = results(&lines)
        .into_iter()
        .map(|r| (r.task.clone(), r.format, r.run))
        .collect();
    assert_eq!(keys.len(), 6, "every (task, format, run) once: {keys:?}");
    // The report of a tasks run is the same report over fact accuracy: formats that rendered
    // the same tasks are one family (yaml: 2 tasks; csv rendered only HR-002: 1 task).
    let out = bench(&cache).arg("report").arg(&dir).output().unwrap();
    crate::support::success_stdout(&out);
    let md = std::fs::read_to_string(dir.join("tasks").join("BENCHMARK_REPORT.md")).unwrap();
    for want in [
        "| reference/reference | 2 tasks | `yaml` 100.0 %",
        "| reference/reference | 1 task | `csv` 100.0 %",
        "## Paired comparisons",
        "- HR-001 in `csv`: csv: cannot represent:",
    ] {
        assert!(md.contains(want), "{want} not in {md}");
    }
    assert!(md.contains("## Each task (sql/task_formats.sql)"), "{md}");
    let json: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("tasks").join("analytics_results.json")).unwrap(),
    )
    .unwrap();
    let per_task = json["task_formats"].as_array().unwrap();
    assert_eq!(
        per_task.len(),
        3,
        "one row per (task, format): {per_task:?}"
    );
    for row in per_task {
        assert_eq!(row["calls"], 2, "{row}");
        assert_eq!(row["fact_accuracy_pct"], 100.0, "{row}");
    }
}

/// `--prompt-variants 4` (`benchmarks/prompts/tasks.json`): each run asks every task in its own
/// layout, the default is the task's template unchanged, the data block is where the wording
/// puts it, and the reference still states every fact.
#[test]
fn each_task_wording_moves_the_data_and_the_reference_states_every_fact() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    bench(&tmp.path().join("cache"))
        .args(["run", "--suite", "tasks", "--tasks"])
        .arg(manifest("benchmarks/tasks/real.json"))
        .args([
            "--formats",
            "csv,json_compact",
            "--runs",
            "4",
            "--prompt-variants",
            "4",
        ])
        .args(["--no-report", "--output-root"])
        .arg(&root)
        .assert()
        .success();
    let lines = lines(&root);
    let Line::Metadata(meta) = &lines[0] else {
        panic!("metadata first")
    };
    let want = ["default", "data_first", "data_last", "role_first"];
    assert_eq!(meta.prompt_variants, want);
    let tasks = bench::suites::tasks::load(&manifest("benchmarks/tasks/real.json")).unwrap();
    let results = results(&lines);
    let skipped = bench::suites::tasks::TaskMeta::of(meta)
        .unwrap()
        .unwrap()
        .skipped
        .len();
    assert_eq!(results.len() + 4 * skipped, tasks.tasks.len() * 2 * 4);
    let mut prompts = std::collections::BTreeMap::new();
    for r in &results {
        let w = r.prompt_variant.as_deref().unwrap();
        assert_eq!(w, want[(r.run - 1) as usize]);
        assert_eq!(
            bench::suites::tasks::scores(r)
                .unwrap()
                .unwrap()
                .fact_accuracy,
            Some(1.0),
            "{w} {:?}",
            r.task
        );
        let p = r.sample.input[0].content.clone();
        let task = tasks
            .tasks
            .iter()
            .find(|t| Some(&t.def.id) == r.task.as_ref())
            .unwrap();
        let data = bench::suites::tasks::prompt::data_block(&p).unwrap();
        assert_eq!(
            p,
            bench::suites::tasks::prompt::render_worded(
                task,
                r.format,
                data,
                bench::prompt::wording::tasks()
                    .iter()
                    .find(|x| x.id == w)
                    .unwrap()
            )
        );
        match w {
            "default" => assert_eq!(
                p,
                bench::suites::tasks::prompt::render(task, r.format, data)
            ),
            "data_first" => {
                assert!(p.starts_with("The data, in ") && p.contains("(the data above)"))
            }
            "data_last" => assert!(p.trim_end().ends_with("```") && p.contains("(the data below)")),
            _ => assert!(p.starts_with("You are a careful analyst")),
        }
        prompts.insert((r.task.clone(), r.format, w.to_string()), p);
    }
    // Four different prompts per task and format.
    for ((task, format, _), p) in &prompts {
        let same = prompts
            .iter()
            .filter(|((t, f, _), q)| t == task && f == format && *q == p)
            .count();
        assert_eq!(same, 1);
    }
}
