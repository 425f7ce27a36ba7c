//! Each suite turns `bench run`'s arguments into its plan (issue 43 item 12): the command
//! handlers ask no suite's identity, `--suite` lists the registry, and what a suite refuses,
//! and the flags only it reads, reach the user from the suite.

use std::path::Path;

/// Exit code, stdout and stderr of `bench args…`, from an empty folder.
fn in_empty_folder(args: &[&str]) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = crate::support::binary()
        .current_dir(dir.path())
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The selectable suites other than the default.
fn other_suites() -> Vec<&'static str> {
    let kinds: Vec<&str> = bench::suites::selectable()
        .map(|(e, _)| e.kind)
        .filter(|k| *k != "formats")
        .collect();
    assert!(kinds.len() >= 3, "{kinds:?}");
    kinds
}

/// No file in `src/commands/` tests which suite it runs (`args.suite == Suite::Tasks`, a
/// suite's kind compared), so a new suite needs no change there.
#[test]
fn command_handlers_ask_no_suite_its_identity() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/commands");
    let identity = regex::Regex::new(r"Suite::[A-Z]|(suite|kind)\s*[!=]=|cli::Suite\b").unwrap();
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (i, line) in code.lines().enumerate() {
            assert!(
                !identity.is_match(line),
                "{}:{}: a command handler tests the suite: {line}",
                path.display(),
                i + 1
            );
        }
        files += 1;
    }
    assert!(files > 10, "{files} files in {}", dir.display());
}

/// `--suite` takes the registry's suites, each listed in the help with its line.
#[test]
fn suite_values_come_from_the_registry() {
    let (code, _, err) = in_empty_folder(&["run", "--suite", "nope", "--dry-run"]);
    assert_eq!(code, Some(2), "{err}");
    let (_, help, _) = in_empty_folder(&["run", "--help"]);
    for (e, s) in bench::suites::selectable() {
        assert!(err.contains(e.kind), "{} not offered: {err}", e.kind);
        let about: String = s
            .about
            .split_whitespace()
            .take(4)
            .collect::<Vec<_>>()
            .join(" ");
        let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(&about), "{about:?} not in run --help");
    }
}

/// Every suite plans a dry run from the defaults.
#[test]
fn every_suite_plans_a_dry_run() {
    for kind in other_suites().into_iter().chain(["formats"]) {
        let (code, out, err) =
            in_empty_folder(&["run", "--suite", kind, "--runs", "1", "--dry-run"]);
        assert_eq!(code, Some(0), "--suite {kind}: {err}");
        assert!(
            out.contains("calls") || out.contains("prompt"),
            "{kind}: {out}"
        );
    }
}

/// Each suite refuses, in one line and with exit 2, an option it does not take, saying why.
#[test]
fn each_suite_refuses_what_it_does_not_take() {
    let cases: &[(&[&str], &str)] = &[
        (&["--suite", "tasks", "--data", "x.csv"], "pick one"),
        (
            &["--suite", "tasks", "--primer", "on"],
            "--primer do not apply",
        ),
        (
            &["--suite", "write", "--question-mode", "per-question"],
            "--question-mode per-question does not apply",
        ),
        (
            &[
                "--suite",
                "corrupted",
                "--prompt-variants",
                "2",
                "--runs",
                "2",
            ],
            "--prompt-variants does not apply",
        ),
        (&["--suite", "tasks", "--shuffle"], "--shuffle applies to"),
        (
            &["--suite", "write", "--questions", "10"],
            "--questions applies to",
        ),
        (
            &["--suite", "corrupted", "--questions", "q.json"],
            "--questions applies to",
        ),
    ];
    for (args, says) in cases {
        let mut all = vec!["run", "--dry-run"];
        all.extend_from_slice(args);
        let (code, _, err) = in_empty_folder(&all);
        assert_eq!(code, Some(2), "{all:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{all:?}: {err}");
        assert!(err.contains(says), "{all:?}: {err}");
    }
}

/// `sweep` and `recommend` run the formats suite: each flag only another suite reads (the
/// registry's list) is refused by name; `--resume` refuses each too.
#[test]
fn sweep_and_recommend_refuse_every_suite_flag() {
    let value = |flag: &str| match flag {
        "--cases" | "--tasks" => Some("x.json"),
        "--write-from" => Some("yaml"),
        "--repairs" => Some("0"),
        "--kinds" => Some("compose"),
        "--data-source" => Some("real"),
        "--task-ids" | "--categories" => Some("a"),
        "--no-json-schema" => None,
        other => panic!("give {other} a value here"),
    };
    let flags: Vec<String> = bench::suites::own_flags()
        .map(|id| format!("--{}", id.replace('_', "-")))
        .collect();
    assert!(flags.iter().any(|f| f == "--cases"), "{flags:?}");
    assert!(flags.iter().any(|f| f == "--task-ids"), "{flags:?}");
    // `--resume` takes its plan from the run log: each suite flag conflicts with it.
    for flag in &flags {
        let mut args = vec!["run", "--resume", "latest", flag.as_str()];
        args.extend(value(flag));
        let (code, _, err) = in_empty_folder(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains("cannot be used with"), "{args:?}: {err}");
    }
    for command in ["sweep", "recommend"] {
        for flag in &flags {
            let mut args = vec![command, "--dry-run", flag.as_str()];
            args.extend(value(flag));
            let (code, _, err) = in_empty_folder(&args);
            assert_eq!(code, Some(2), "{args:?}: {err}");
            assert!(
                err.contains(&format!("{flag} does not apply")),
                "{args:?}: {err}"
            );
        }
    }
}

/// A suite's own flag is never ignored (issue 50 item 6): without `--suite` it selects its
/// suite, said in one line; beside another `--suite`, or beside another suite's flag, it is
/// refused in one line naming `--suite`; in `run`, `dump-prompts` and `tokens`.
#[test]
fn a_suite_flag_selects_its_suite_or_is_refused() {
    let tasks = Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks/tasks/synthetic.json");
    let tasks = tasks.to_str().unwrap();
    for flags in [vec!["--tasks", tasks], vec!["--task-ids", "FIN-001"]] {
        let mut args = vec!["run", "--dry-run", "--formats", "csv"];
        args.extend(&flags);
        let (code, out, err) = in_empty_folder(&args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(
            err.contains(&format!("{} selects --suite tasks", flags[0])),
            "{args:?}: {err}"
        );
        // The task prompts are planned, not the product questions.
        assert!(out.contains("FIN-001"), "{args:?}: {out}");
    }
    let one_line = |args: &[&str], needles: &[&str]| {
        let (code, _, err) = in_empty_folder(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        for n in needles {
            assert!(err.contains(n), "{args:?}: {err}");
        }
    };
    one_line(
        &[
            "run",
            "--suite",
            "formats",
            "--task-ids",
            "FIN-001",
            "--dry-run",
        ],
        &["--suite formats", "--task-ids (--suite tasks)"],
    );
    one_line(
        &["run", "--tasks", tasks, "--cases", "x.json", "--dry-run"],
        &["--suite tasks", "--suite write", "--suite"],
    );
    one_line(
        &[
            "dump-prompts",
            "--suite",
            "write",
            "--tasks",
            tasks,
            "--output",
            "p",
        ],
        &["--suite write", "--tasks (--suite tasks)"],
    );
    one_line(&["tokens", "--tasks", tasks], &["--provider"]);
    // dump-prompts writes the task prompts, as it did before the suites planned.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("prompts");
    let (code, stdout, err) = in_empty_folder(&[
        "dump-prompts",
        "--tasks",
        tasks,
        "--task-ids",
        "FIN-001",
        "--formats",
        "csv,json_compact",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["FIN-001-csv.txt", "FIN-001-json_compact.txt"],
        "{stdout}"
    );
}

// ---- A suite's name is matched only in its own folder and the registry (issue 52 item 2) ----
//
// A match of a suite's name is one of, in non-test code of `src/` (comments left out):
// - a path into the suite's module: `suites::<name>` (from anywhere, `crate::`/`bench::`
//   included), or `super::<name>::` from another file of `src/suites/`;
// - its name as a string literal compared: `== "<name>"`, `!= Some("<name>")`, `"<name>" ==`;
// - its name as a string literal matched: a `"<name>"` before `=>` on one line (a match arm,
//   a tuple pattern such as `("<name>", Some(t)) =>`), or inside `matches!(…)`.
// The suite's own file or folder (`src/suites/<name>.rs`, `src/suites/<name>/`) and the
// registry (`src/suites/mod.rs`) may name it; any other file that does makes a new suite (or a
// changed one) a change in two places.

/// The suite-name matches of `code` (the file `rel`, as `src/…`), each as `rel: kind: line`.
fn suite_name_matches(rel: &str, code: &str, kinds: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for kind in kinds {
        let own = rel == format!("src/suites/{kind}.rs")
            || rel.starts_with(&format!("src/suites/{kind}/"))
            || rel == "src/suites/mod.rs";
        if own {
            continue;
        }
        let k = regex::escape(kind);
        let mut patterns = vec![
            format!(r"\bsuites::{k}\b"),
            format!(r#"(==|!=)\s*(Some\()?"{k}""#),
            format!(r#""{k}"\)?\s*(==|!=)"#),
            format!(r#""{k}"[^\n]*=>"#),
            format!(r#"matches!\([^)]*"{k}""#),
        ];
        if rel.starts_with("src/suites/") {
            patterns.push(format!(r"\bsuper::{k}\b"));
        }
        let re = regex::Regex::new(&patterns.join("|")).unwrap();
        for line in code.lines() {
            if re.is_match(line) {
                out.push(format!("{rel}: {kind}: {}", line.trim()));
            }
        }
    }
    out
}

/// The non-test code of a source file, `//` comments removed.
fn code_of(text: &str) -> String {
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    code.lines()
        .map(|l| match l.find("//") {
            Some(i) if !l[..i].contains('"') => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_suite_name_is_matched_only_in_its_folder_and_the_registry() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let kinds: Vec<&str> = bench::suites::REGISTRY.iter().map(|e| e.kind).collect();
    assert!(kinds.contains(&"tasks") && kinds.len() >= 5, "{kinds:?}");
    let mut files = Vec::new();
    let mut stack = vec![root.join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut found = Vec::new();
    for f in &files {
        let rel = f
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let code = code_of(&std::fs::read_to_string(f).unwrap());
        found.extend(suite_name_matches(&rel, &code, &kinds));
    }
    assert!(
        found.is_empty(),
        "a suite's name matched outside its folder and the registry (move it into \
         src/suites/<name>/, or reach it through the registry):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_suite_name_scan_catches_a_planted_match() {
    let kinds = ["tasks", "write", "corrupted"];
    let caught = |rel: &str, line: &str| !suite_name_matches(rel, line, &kinds).is_empty();
    // Compared, matched, or reached by path, outside the suite's folder: caught.
    assert!(caught("src/view/x.rs", r#"if suite == "write" {"#));
    assert!(caught("src/view/x.rs", r#"if Some("corrupted") != s {"#));
    assert!(caught(
        "src/view/x.rs",
        r#"x.suite.as_deref() == Some("tasks")"#
    ));
    assert!(caught(
        "src/view/x.rs",
        r#"("tasks", Some(t)) => format!("{t}"),"#
    ));
    assert!(caught("src/report/x.rs", r#""corrupted" | "write" => 1,"#));
    assert!(caught("src/report/x.rs", r#"matches!(kind, "write")"#));
    assert!(caught(
        "src/cli/x.rs",
        "use crate::suites::tasks::TaskArgs;"
    ));
    assert!(caught("src/suites/data.rs", "super::tasks::or_skip(r)"));
    // In the suite's own folder or the registry, or merely written (not compared): not caught.
    assert!(!caught(
        "src/suites/write/mod.rs",
        r#"if suite == "write" {"#
    ));
    assert!(!caught("src/suites/write.rs", r#"if suite == "write" {"#));
    assert!(!caught(
        "src/suites/mod.rs",
        "use crate::suites::tasks::TaskArgs;"
    ));
    assert!(!caught("src/view/x.rs", r#"let name = "tasks";"#));
    assert!(!caught("src/view/x.rs", r#"if suite == "writer" {"#));
    // A comment is not code.
    assert!(code_of("let a = 1; // suite == \"write\"\n").trim() == "let a = 1;");
}
