//! What `bench run` prints into a terminal: the finished progress bar ends its line before the
//! ranking starts, and the ranking fits the terminal's width (COLUMNS where the terminal does not
//! say), naming what it left out. Run under `script`, which gives bench a pseudo-terminal.

use std::process::Command;

#[test]
fn a_run_in_a_terminal_ends_the_bar_line_and_fits_the_ranking_to_the_width() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipping: no `script` (util-linux) to give bench a terminal");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let bench = assert_cmd::cargo::cargo_bin("bench");
    let line = format!(
        "{} run --formats csv,json_compact --runs 1 --no-report --output-root {}",
        bench.display(),
        tmp.path().join("data").display()
    );
    let out = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .env("COLUMNS", "100")
        .env("BENCH_CACHE_DIR", tmp.path().join("cache"))
        .env_remove("OPENAI_API_KEY")
        .env_remove("ANTHROPIC_API_KEY")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).replace('\r', "");
    assert!(out.status.success(), "{text}");
    let at = text.find("data: products").expect("the ranking's caption");
    assert!(
        text[..at].ends_with('\n'),
        "the bar's line runs into the ranking: {text}"
    );
    let ranking: Vec<&str> = text[at..]
        .lines()
        .take_while(|l| !l.starts_with("run log:"))
        .collect();
    assert!(ranking.len() > 5, "{text}");
    for l in &ranking {
        assert!(
            l.chars().count() <= 100,
            "{} characters: {l}",
            l.chars().count()
        );
    }
    assert!(
        ranking
            .iter()
            .any(|l| l.starts_with("--wide adds: tokens/value")),
        "{text}"
    );
}
