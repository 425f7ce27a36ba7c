//! `bench dump-prompts` writes the prompts `bench run` would send, for every suite, and
//! `--show-requests --full` prints the same prompt whole inside the request body.

use crate::support::bench;
use serde_json::Value;

#[test]
fn dump_prompts_writes_every_suites_prompts() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("people.csv");
    std::fs::write(&data, "id,name,age\n1,Ann,31\n2,Bob,42\n3,Cy,27\n").unwrap();
    let data = data.to_str().unwrap();
    let suites: [(&str, &[&str]); 5] = [
        (
            "formats",
            &["--suite", "formats", "--formats", "csv,json_compact"],
        ),
        ("data", &["--data", data, "--formats", "csv,yaml"]),
        (
            "tasks",
            &[
                "--suite",
                "tasks",
                "--task-ids",
                "HR-002",
                "--formats",
                "csv",
            ],
        ),
        ("write", &["--suite", "write", "--formats", "yaml"]),
        ("corrupted", &["--suite", "corrupted", "--formats", "csv"]),
    ];
    for (name, args) in suites {
        let dir = tmp.path().join(name);
        let out = bench(tmp.path())
            .arg("dump-prompts")
            .args(args)
            .arg("--output")
            .arg(&dir)
            .output()
            .unwrap();
        let stdout = crate::support::success_stdout(&out);
        let files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(!files.is_empty(), "{name}: {stdout}");
        assert!(
            stdout.starts_with(&format!("{} prompts written", files.len())),
            "{name}: {stdout}"
        );
        for f in &files {
            let text = std::fs::read_to_string(dir.join(f)).unwrap();
            assert!(text.len() > 50, "{name}/{f}: {text}");
        }
        match name {
            "formats" => {
                for f in ["csv-flat-mandatory.txt", "json_compact-nested-optional.txt"] {
                    assert!(files.contains(&f.to_string()), "{files:?}");
                }
                assert_eq!(files.len(), 6, "{files:?}");
            }
            "tasks" => assert_eq!(files, ["HR-002-csv.txt"]),
            _ => {}
        }
    }
}

#[test]
fn show_requests_full_prints_the_whole_prompt_that_dump_prompts_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let plan = [
        "--formats",
        "csv",
        "--structures",
        "flat",
        "--variants",
        "mandatory",
    ];
    let dry = |full: bool| {
        let out = bench(tmp.path())
            .args([
                "run",
                "--provider",
                "openai:gpt-4o-mini",
                "--dry-run",
                "--show-requests",
            ])
            .args(full.then_some("--full"))
            .args(plan)
            .output()
            .unwrap();
        crate::support::success_stdout(&out)
    };
    let body = |text: &str| -> Value {
        let start = text.find("\n{\n").unwrap() + 1;
        let end = start + text[start..].find("\n}\n").unwrap() + 2;
        serde_json::from_str(&text[start..end]).unwrap()
    };
    let short = dry(false);
    assert!(short.contains("more characters]"), "{short}");
    let full = dry(true);
    assert!(!full.contains("more characters]"), "{full}");
    let sent = body(&full)["messages"][0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    let dir = tmp.path().join("prompts");
    let out = bench(tmp.path())
        .arg("dump-prompts")
        .args(plan)
        .arg("--output")
        .arg(&dir)
        .output()
        .unwrap();
    crate::support::success_stdout(&out);
    let written = std::fs::read_to_string(dir.join("csv.txt")).unwrap();
    assert_eq!(sent, written);
}
