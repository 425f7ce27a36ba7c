//! Prompts checked against the model's context window before any call (issue 41, item 3): in
//! `run`, its `--dry-run`, batch mode, `sweep` and `recommend`; the table's windows, a config's
//! `context_tokens`, the `--records` said to fit, and the dry run's line for a missing key.

use crate::support::{bench, run_in};
use std::path::{Path, PathBuf};
use std::process::Output;
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, ResponseTemplate};

/// A key that must never be printed.
const KEY: &str = "sk-window-test-do-not-print";

/// A config of gpt-5-mini at `base_url` whose window is `context` tokens, max_tokens 1,000.
fn config(dir: &Path, base_url: &str, context: u32) -> PathBuf {
    let path = dir.join("models.toml");
    std::fs::write(
        &path,
        format!(
            "[[models]]\nprovider = \"openai\"\nmodel = \"gpt-5-mini\"\nbase_url = \"{base_url}\"\n\
             max_tokens = 1000\ncontext_tokens = {context}\n"
        ),
    )
    .unwrap();
    path
}

/// `bench ARGS --no-report --output-root ROOT` with the fake key set (that it is never printed
/// is what `refused` checks).
fn run(dir: &Path, args: &[&str]) -> Output {
    let cmd = run_in(dir, args).args(["--no-report"]);
    cmd.env("OPENAI_API_KEY", KEY).output()
}

/// The last stderr line of a command refused with exit 2, checked for the key.
fn refused(out: &Output, what: &str) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{what}: {stderr}\n{stdout}");
    assert!(!stderr.contains(KEY) && !stdout.contains(KEY), "{what}");
    stderr.trim().lines().last().unwrap().to_string()
}

/// The `--records N` a refusal says would fit.
fn suggested(line: &str) -> u32 {
    let at = line
        .find("; --records ")
        .unwrap_or_else(|| panic!("no --records in: {line}"));
    line[at + 12..]
        .split(' ')
        .next()
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_prompt_over_the_window_is_refused_before_any_call_in_every_command() {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(500))
        .mount(&server)
        .await;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let cfg = config(&dir, &format!("{}/v1", server.uri()), 6_000);
    let cfg = cfg.to_str().unwrap().to_string();
    let outs = tokio::task::spawn_blocking(move || {
        let commands: [&[&str]; 7] = [
            &["run", "--runs", "1"],
            &["run", "--runs", "1", "--dry-run"],
            &["run", "--runs", "1", "--batch", "--batch-poll", "0.1"],
            &["recommend"],
            &["recommend", "--dry-run"],
            &["sweep", "--max-records", "62"],
            &["sweep", "--max-records", "62", "--dry-run"],
        ];
        commands.map(|c| {
            let args = [c, &["--config", &cfg]].concat();
            (c.join(" "), run(&dir, &args))
        })
    })
    .await
    .unwrap();
    for (what, out) in &outs {
        let line = refused(out, what);
        if what.starts_with("sweep") {
            assert!(
                line.starts_with("error: nothing to sweep: 31 records make a prompt of ")
                    && line.contains(
                        "openai:gpt-5-mini's context window 6,000 less max_tokens 1,000); \
                         start with --records "
                    ),
                "{what}: {line}"
            );
        } else {
            assert!(
                line.starts_with("error: openai:gpt-5-mini: ")
                    && line.contains("renderings make prompts that do not fit (context window 6,000 less max_tokens 1,000, context_tokens in the config): the largest, ")
                    && line.contains(" records, is about ")
                    && line.contains("o200k_base count, the vocabulary of OpenAI's current models"),
                "{what}: {line}"
            );
            assert!(suggested(&line) < 31, "{what}: {line}");
        }
    }
    let calls = server.received_requests().await.unwrap();
    assert!(
        calls.is_empty(),
        "{} requests reached the server",
        calls.len()
    );
    assert!(
        !tmp.path().join("data").exists(),
        "nothing written before a refusal"
    );
}

#[test]
fn the_records_said_to_fit_do_fit() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = config(tmp.path(), "http://127.0.0.1:9/v1", 6_000);
    let cfg = cfg.to_str().unwrap();
    let line = refused(
        &run(tmp.path(), &["run", "--dry-run", "--config", cfg]),
        "31 records",
    );
    let n = suggested(&line);
    assert!((1..31).contains(&n), "{line}");
    // The 124 questions alone need more than 2,000 tokens: no size fits, and it says so.
    let small = config(tmp.path(), "http://127.0.0.1:9/v1", 3_000);
    let line = refused(
        &run(
            tmp.path(),
            &["run", "--dry-run", "--config", small.to_str().unwrap()],
        ),
        "a window smaller than the questions",
    );
    assert!(
        line.ends_with(
            "not even one record fits: choose a model with a larger window or fewer questions"
        ),
        "{line}"
    );
    let cfg = config(tmp.path(), "http://127.0.0.1:9/v1", 6_000);
    let cfg = cfg.to_str().unwrap();
    let out = run(
        tmp.path(),
        &[
            "run",
            "--dry-run",
            "--config",
            cfg,
            "--records",
            &n.to_string(),
        ],
    );
    let stdout = crate::support::success_stdout(&out);
    assert!(stdout.contains("prompt_tokens_per_call"), "{stdout}");
}

/// A CSV of `rows` players, about 20 o200k_base tokens a row as CSV.
fn players(dir: &Path, rows: usize) -> PathBuf {
    let mut text = String::from("id,player,team,position,season,yards,touchdowns,note\n");
    for i in 0..rows {
        text.push_str(&format!(
            "{i},Player {i},Team {},{},{},{},{},ok\n",
            i % 32,
            ["QB", "RB", "WR", "TE"][i % 4],
            2000 + i % 25,
            (i * 37) % 2000,
            i % 17
        ));
    }
    let path = dir.join("players.csv");
    std::fs::write(&path, text).unwrap();
    path
}

/// The session: a large `--data` file planned for gpt-5-mini, whose 400,000-token
/// window comes from the table.
#[test]
fn a_large_data_file_is_refused_for_gpt_5_mini_in_the_dry_run() {
    let tmp = tempfile::tempdir().unwrap();
    let data = players(tmp.path(), 9_999);
    let data = data.to_str().unwrap();
    let args = [
        "run",
        "--dry-run",
        "--provider",
        "openai:gpt-5-mini",
        "--data",
        data,
        "--formats",
        "csv,json_pretty",
    ];
    let line = refused(&run(tmp.path(), &args), "9,999 rows");
    assert!(
        line.contains("(context window 400,000 less max_tokens 4,096, https://platform.openai.com/docs/models/gpt-5)")
            && line.contains("the largest, json_pretty · flat · mandatory at 9,999 records, is about "),
        "{line}"
    );
    let n = suggested(&line);
    let out = run(
        tmp.path(),
        &[&args[..], &["--records", &n.to_string()]].concat(),
    );
    let stdout = crate::support::success_stdout(&out);
    assert!(stdout.contains("json_pretty"), "{stdout}");
}

#[test]
fn the_dry_run_says_a_missing_key_and_an_unknown_window_without_printing_a_key() {
    let tmp = tempfile::tempdir().unwrap();
    let one = [
        "run",
        "--dry-run",
        "--formats",
        "csv",
        "--structures",
        "flat",
        "--variants",
        "mandatory",
    ];
    let with = |args: &[&str], key: bool| {
        let mut c = bench(&tmp.path().join("cache"));
        if key {
            c.env("OPENAI_API_KEY", KEY);
        }
        let out = c.args(one).args(args).output().unwrap();
        let stdout = crate::support::success_stdout(&out);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!stderr.contains(KEY) && !stdout.contains(KEY));
        stderr
    };
    let gpt = ["--provider", "openai:gpt-5-mini"];
    let stderr = with(&gpt, false);
    assert!(
        stderr.contains(
            "note: openai:gpt-5-mini: OPENAI_API_KEY is not set: the dry run needs no key; a real \
             run refuses to start without it"
        ),
        "{stderr}"
    );
    assert!(!with(&gpt, true).contains("is not set"));
    let stderr = with(&["--provider", "ollama:llama3.1:8b"], false);
    // Notes point at the config key and the docs, never at a source file (issue 54).
    assert!(!stderr.contains("src/"), "{stderr}");
    assert!(
        stderr.contains("note: ollama:llama3.1:8b: context window unknown (llama3.1:8b is not in bench's window table, docs/providers.md \"Context windows\")"),
        "{stderr}"
    );
    // A local model's window set in the config is checked like the table's.
    let path = tmp.path().join("local.toml");
    std::fs::write(
        &path,
        "[[models]]\nprovider = \"ollama\"\nmodel = \"llama3.1:8b\"\ncontext_tokens = 2048\n",
    )
    .unwrap();
    let out = bench(&tmp.path().join("cache"))
        .args(one)
        .arg("--config")
        .arg(&path)
        .output()
        .unwrap();
    let line = refused(&out, "ollama with context_tokens 2048");
    assert!(
        line.ends_with(
            "ollama:llama3.1:8b: max_tokens 4,096 leaves no room for a prompt in the context \
             window of 2,048 (context_tokens in the config); lower max_tokens"
        ),
        "{line}"
    );
    // An output limit over the model's own (gpt-4o: 16,384) is refused too.
    std::fs::write(
        &path,
        "[[models]]\nprovider = \"openai\"\nmodel = \"gpt-4o\"\nmax_tokens = 20000\n",
    )
    .unwrap();
    let out = bench(&tmp.path().join("cache"))
        .args(one)
        .arg("--config")
        .arg(&path)
        .output()
        .unwrap();
    let line = refused(&out, "gpt-4o with max_tokens 20000");
    assert!(
        line.contains(
            "openai:gpt-4o: max_tokens 20,000 is over the model's output limit of 16,384 \
             (https://platform.openai.com/docs/models/gpt-4o)"
        ),
        "{line}"
    );
}

/// `bench run` against an OpenAI-compatible server at `server`, nothing in its config about
/// the window.
async fn run_served(
    server: &MockServer,
    extra: &'static [&'static str],
) -> (Output, tempfile::TempDir) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let base = format!("{}/v1", server.uri());
    let out = tokio::task::spawn_blocking(move || {
        let args = [
            "run",
            "--provider",
            "openai-compatible:local-model",
            "--base-url",
            &base,
            "--runs",
            "1",
            "--formats",
            "csv",
        ];
        run(&dir, &[&args[..], extra].concat())
    })
    .await
    .unwrap();
    (out, tmp)
}

/// A llama.cpp server says its window in `/props`, a vLLM server in `/v1/models`: a plan whose
/// prompts do not fit is refused before any call, naming where the window was read; the
/// window's kind is each server's (llama.cpp refuses a prompt over it, vLLM a prompt plus
/// max_tokens).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_local_servers_own_window_is_asked_and_checked() {
    use wiremock::matchers::{method, path};
    let llama = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/props"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            serde_json::json!({"default_generation_settings": {"n_ctx": 2048}, "total_slots": 1}),
        ))
        .mount(&llama)
        .await;
    let vllm = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({
            "object": "list",
            "data": [{"id": "other", "max_model_len": 1_000_000},
                     {"id": "local-model", "max_model_len": 6000}]
        })))
        .mount(&vllm)
        .await;
    // A dry run asks too when it may reach the provider (--count-with-provider).
    let dry: &[&str] = &["--dry-run", "--count-with-provider"];
    for (server, says, extra) in [
        (&llama, "(input limit 2,048, n_ctx of ", &[][..]),
        (&llama, "(input limit 2,048, n_ctx of ", dry),
        (
            &vllm,
            "(context window 6,000 less max_tokens 4,096, max_model_len of ",
            &[][..],
        ),
    ] {
        let (out, tmp) = run_served(server, extra).await;
        let line = refused(&out, says);
        assert!(
            line.contains("renderings make prompts that do not fit") && line.contains(says),
            "{line}"
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("as its server reports it"), "{err}");
        let posts = server
            .received_requests()
            .await
            .unwrap()
            .into_iter()
            .filter(|r| r.method.as_str() != "GET")
            .count();
        assert_eq!(posts, 0, "no call before the refusal");
        assert!(!tmp.path().join("data").exists(), "nothing written");
    }
}

/// A server that says no window (neither path answers) leaves it unknown, as before: the run
/// goes on with the note.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_a_window_leaves_it_unknown() {
    use wiremock::matchers::{method, path};
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({
            "choices": [{"message": {"role": "assistant", "content": "{}"},
                         "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 2}
        })))
        .mount(&server)
        .await;
    let (out, _tmp) = run_served(&server, &[]).await;
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("context window unknown (local-model"), "{err}");
    assert!(
        err.contains("1 calls planned") || err.contains("calls planned"),
        "{err}"
    );
}

/// A CSV whose first `verbose` rows fill every field with long text and whose later rows
/// leave most fields empty (as birdstrikes.csv of vega-datasets: early rows fuller than the
/// file's average), `rows` in all.
fn uneven(dir: &Path, rows: usize, verbose: usize) -> PathBuf {
    let mut text = String::from(
        "airport,aircraft,damage,flight_date,operator,state,phase,size,species,time_of_day,\
         cost_other,cost_repair,cost_total,speed\n",
    );
    for i in 0..rows {
        if i < verbose {
            text.push_str(&format!(
                "BARKSDALE AIR FORCE BASE ARPT {i},KC-10A Extender {},Medium damage,1990-01-{:02},\
                 MILITARY AIRLIFT COMMAND,Louisiana,Approach on final,Large,Turkey vulture {},\
                 Night,{},{},{},{}\n",
                i % 7,
                1 + i % 28,
                i % 13,
                i * 3,
                i * 5,
                i * 8,
                120 + i % 200
            ));
        } else {
            text.push_str(&format!("X{i},,,,,,,,,,,,,\n"));
        }
    }
    let path = dir.join("uneven.csv");
    std::fs::write(&path, text).unwrap();
    path
}

/// The `--records` a refusal names fits (issue 50 item 2): checked by counting the rendering
/// at that size, on a shape with many renderings where the most verbose one binds and the
/// records asked first are fuller than the file's average (so tokens per record over the whole
/// file promise more than fits). In `run --dry-run`, `run` and `sweep`.
#[test]
fn the_records_a_refusal_names_fit_on_a_many_rendering_file() {
    let tmp = tempfile::tempdir().unwrap();
    let data = uneven(tmp.path(), 3_000, 1_500);
    let data = data.to_str().unwrap();
    let cfg = config(tmp.path(), "http://127.0.0.1:9/v1", 200_000);
    let cfg = cfg.to_str().unwrap();
    let plan = ["--config", cfg, "--data", data, "--runs", "1"];
    let line = refused(
        &run(tmp.path(), &[&["run", "--dry-run"][..], &plan].concat()),
        "the whole file",
    );
    assert!(
        line.contains("xml_pretty"),
        "the most verbose binds: {line}"
    );
    let n = suggested(&line);
    assert!(n > 1 && n < 3_000, "{line}");
    let sized = ["--records", &n.to_string()];
    let out = run(
        tmp.path(),
        &[&["run", "--dry-run"][..], &plan, &sized].concat(),
    );
    let stdout = crate::support::success_stdout(&out);
    assert!(stdout.contains("prompt_tokens_per_call"), "{stdout}");
    // The first sweep size over the window names a size that fits too.
    let out = run(
        tmp.path(),
        &[
            &[
                "sweep",
                "--dry-run",
                "--records",
                "2000",
                "--max-records",
                "2000",
            ][..],
            &plan[..4],
        ]
        .concat(),
    );
    let line = refused(&out, "sweep from 2,000");
    let at = line
        .find("start with --records ")
        .unwrap_or_else(|| panic!("{line}"));
    let k: u32 = line[at + 21..].split(' ').next().unwrap().parse().unwrap();
    let out = run(
        tmp.path(),
        &[
            &["sweep", "--dry-run", "--max-records", &k.to_string()][..],
            &["--records", &k.to_string()],
            &plan[..4],
        ]
        .concat(),
    );
    crate::support::success_stdout(&out);
}
