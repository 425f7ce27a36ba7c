//! docs/commands.md and the man pages in docs/man/ say what `bench --help` says: both are
//! generated from the clap definitions, and this test fails on any difference. Regenerate them
//! with `BENCH_UPDATE_DOCS=1 cargo test --test integration cli_docs`.

use bench::cli::Cli;
use clap::CommandFactory;
use std::path::{Path, PathBuf};

/// The width the generated help is wrapped at (the width `--help` uses at most).
const WIDTH: usize = 100;
const BEGIN: &str = "<!-- BEGIN GENERATED HELP: do not edit by hand; \
                     BENCH_UPDATE_DOCS=1 cargo test --test integration cli_docs -->";
const END: &str = "<!-- END GENERATED HELP -->";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every command with its full name (`bench`, `bench run`, `bench perf tokens`), in the order
/// `bench --help` lists them.
fn commands() -> Vec<(String, clap::Command)> {
    fn walk(prefix: &str, cmd: &clap::Command, out: &mut Vec<(String, clap::Command)>) {
        // clap's own `help` subcommand is left out: it prints the others' help.
        for sub in cmd
            .get_subcommands()
            .filter(|s| !s.is_hide_set() && s.get_name() != "help")
        {
            let name = format!("{prefix} {}", sub.get_name());
            out.push((name.clone(), sub.clone()));
            walk(&name, sub, out);
        }
    }
    let mut top = Cli::command().term_width(WIDTH);
    top.build();
    let mut out = vec![("bench".to_string(), top.clone())];
    walk("bench", &top, &mut out);
    out
}

/// The generated block: each command's `--help`, as `bench … --help` prints it at 100 columns.
fn help_block() -> String {
    let mut text = format!("{BEGIN}\n");
    for (name, mut cmd) in commands() {
        let help = cmd.render_long_help().to_string();
        let help: Vec<&str> = help.lines().map(str::trim_end).collect();
        text += &format!(
            "\n### `{name}`\n\n```text\n{}\n```\n",
            help.join("\n").trim_end()
        );
    }
    text + "\n" + END
}

/// The man pages clap_mangen writes: bench.1 and bench-<command>.1 for each command.
fn man_pages(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    clap_mangen::generate_to(Cli::command(), dir).unwrap();
}

fn listing(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn commands_md_holds_every_commands_help_as_generated() {
    let path = root().join("docs/commands.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let (Some(start), Some(end)) = (doc.find(BEGIN), doc.find(END)) else {
        panic!("docs/commands.md has no generated help block ({BEGIN} … {END})");
    };
    let current = &doc[start..end + END.len()];
    let generated = help_block();
    if std::env::var_os("BENCH_UPDATE_DOCS").is_some() {
        std::fs::write(&path, doc.replace(current, &generated)).unwrap();
        return;
    }
    if current != generated {
        let diff = current
            .lines()
            .zip(generated.lines())
            .enumerate()
            .find(|(_, (a, b))| a != b)
            .map_or_else(
                || "one is longer".to_string(),
                |(i, (a, b))| format!("line {i}: docs say\n{a}\nthe help says\n{b}"),
            );
        panic!(
            "docs/commands.md's generated help differs from `bench --help` ({diff}); \
             regenerate with BENCH_UPDATE_DOCS=1 cargo test --test integration cli_docs"
        );
    }
}

#[test]
fn man_pages_are_generated_from_the_same_definitions() {
    let dir = root().join("docs/man");
    let fresh = tempfile::tempdir().unwrap();
    man_pages(fresh.path());
    if std::env::var_os("BENCH_UPDATE_DOCS").is_some() {
        let _ = std::fs::remove_dir_all(&dir);
        man_pages(&dir);
        return;
    }
    let want = listing(fresh.path());
    assert!(want.iter().any(|(n, _)| n == "bench-run.1"), "{want:?}");
    let have = if dir.is_dir() {
        listing(&dir)
    } else {
        Vec::new()
    };
    let names = |v: &[(String, String)]| v.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
    assert_eq!(names(&have), names(&want), "docs/man/ holds other pages");
    for ((name, a), (_, b)) in have.iter().zip(&want) {
        assert!(
            a == b,
            "docs/man/{name} differs from the clap definitions; regenerate with \
             BENCH_UPDATE_DOCS=1 cargo test --test integration cli_docs"
        );
    }
}

/// Every flag a command's help lists is one it accepts: `sweep` and `recommend` leave out the
/// run flags they refuse, and giving one is refused in one line naming it.
#[test]
fn sweep_and_recommend_list_only_the_flags_they_take() {
    for (name, mut cmd) in commands()
        .into_iter()
        .filter(|(n, _)| n == "bench sweep" || n == "bench recommend")
    {
        let help = cmd.render_long_help().to_string();
        for flag in [
            "--resume",
            "--suite",
            "--retry-errors",
            "--cases",
            "--task-ids",
        ] {
            // An option's own line, not a mention in another's text (`--batch` names `--resume`).
            let listed = help.lines().any(|l| {
                let l = l.trim_start();
                l == flag || l.starts_with(&format!("{flag} "))
            });
            assert!(!listed, "{name} --help lists {flag}:\n{help}");
        }
        assert!(help.contains("--provider"), "{help}");
    }
    let out = crate::support::binary()
        .args(["sweep", "--suite", "tasks", "--dry-run"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("--suite does not apply"), "{err}");
}

/// Counts and lists in help come from the registries: `--formats` says how many `all` holds,
/// `--suite` lists every suite, `sweep --records` takes one value.
#[test]
fn help_counts_come_from_the_registries() {
    let all = bench::formats::Format::ALL.len();
    let defaults = bench::formats::Format::defaults().len();
    let find = |name: &str| {
        let (_, mut cmd) = commands().into_iter().find(|(n, _)| n == name).unwrap();
        cmd.render_long_help()
            .to_string()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let run = find("bench run");
    assert!(run.contains(&format!("`all` ({all})")), "{run}");
    assert!(run.contains(&format!("default: the {defaults}")), "{run}");
    assert!(find("bench tokens").contains(&format!("default: all {all}")));
    assert!(run.contains("corrupted"), "{run}");
    for t in bench::tokens::Tokenizer::ALL {
        assert!(run.contains(t.name()), "{}", t.name());
    }
    let sweep = find("bench sweep");
    assert!(!sweep.contains("a comma list runs each size"), "{sweep}");
    assert!(run.contains("a comma list runs each size"), "{run}");
    assert!(sweep.contains("one value"), "{sweep}");
}

/// `--help` wraps to the terminal (COLUMNS when stdout is no terminal), at most 100 columns.
#[test]
fn help_wraps_to_the_terminal_width() {
    for (cols, max) in [("60", 60), ("300", 100)] {
        let out = crate::support::binary()
            .args(["run", "--help"])
            .env("COLUMNS", cols)
            .output()
            .unwrap();
        let text = crate::support::success_stdout(&out);
        let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
        assert!(
            widest <= max,
            "COLUMNS={cols}: a line of {widest} characters"
        );
        assert!(widest > max - 15, "COLUMNS={cols}: widest line {widest}");
    }
}
