//! Docs as the binary behaves (issue 54): the README's first command says how many renderings
//! the run makes, docs/providers.md's exit codes for a provider without a counter are the
//! binary's, and docs/delimited.md's example makes the files it reads.

use crate::support::bench;
use std::path::Path;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// The repository's `rel` file.
fn doc(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap()
}

#[test]
fn the_readme_counts_the_renderings_the_first_command_makes() {
    let readme = doc("README.md");
    let line = readme
        .lines()
        .find(|l| l.starts_with("cargo run -- run "))
        .expect("the first command");
    let claimed: usize = line
        .split_whitespace()
        .zip(line.split_whitespace().skip(1))
        .find(|(_, w)| *w == "renderings")
        .and_then(|(n, _)| n.trim_start_matches('(').parse().ok())
        .unwrap_or_else(|| panic!("no 'N renderings' in: {line}"));
    let tmp = tempfile::tempdir().unwrap();
    let out = bench(tmp.path())
        .args(["run", "--dry-run"])
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    // One table row per rendering.
    let rows = text
        .lines()
        .filter(|l| l.starts_with('│') && l.contains("┆ false "))
        .count();
    assert_eq!(rows, claimed, "{line}\n{text}");
}

#[test]
fn providers_doc_states_the_exit_codes_of_a_missing_counter() {
    let text = doc("docs/providers.md").replace('\n', " ");
    assert!(
        text.contains("(the `reference` answerer) is refused"),
        "exit 2 case"
    );
    assert!(
        text.contains("answered 404: this server has no token counter"),
        "exit 1 case"
    );
    let tmp = tempfile::tempdir().unwrap();
    let out = bench(tmp.path())
        .args(["tokens", "--provider", "reference"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(async {
        let s = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path("/tokenize"))
            .respond_with(ResponseTemplate::new(404))
            .mount(&s)
            .await;
        s
    });
    let out = bench(tmp.path())
        .args([
            "tokens",
            "--formats",
            "csv",
            "--provider",
            "openai-compatible:m",
            "--base-url",
        ])
        .arg(format!("{}/v1", server.uri()))
        .args(["--no-cache"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("answered 404: this server has no token counter"),
        "{err}"
    );
}

#[test]
fn the_delimited_example_makes_the_files_it_reads() {
    let text = doc("docs/delimited.md");
    let block = text
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("an sh block");
    let tmp = tempfile::tempdir().unwrap();
    let mut ran = 0;
    for line in block.lines().filter(|l| !l.trim().is_empty()) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[0] {
            "bench" => {
                let out = bench(&tmp.path().join("cache"))
                    .current_dir(tmp.path())
                    .args(&words[1..])
                    .output()
                    .unwrap();
                assert!(
                    out.status.success(),
                    "{line}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                ran += 1;
            }
            "python3" => {
                // Every file the reader is given exists after the lines before it.
                for w in &words[2..] {
                    if w.contains('.') && !w.starts_with('-') {
                        assert!(tmp.path().join(w).is_file(), "{w} is never made: {block}");
                    }
                }
                ran += 1;
            }
            other => panic!("unexpected command {other}"),
        }
    }
    assert_eq!(ran, 2, "{block}");
}
