//! The exit status table of docs/commands.md is what bench does: each row's example command is
//! run and must end with the row's code; a row without one names the test that checks it.

use crate::support::bench;
use std::path::PathBuf;

/// The rows of the "Exit status" table: code and the text of its example column.
fn rows() -> Vec<(i32, String)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/commands.md")).unwrap();
    let section = &doc[doc.find("## Exit status").expect("an Exit status section")..];
    section
        .lines()
        .skip_while(|l| !l.starts_with("| code"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split(" | ").map(str::trim).collect();
            (cells[0].parse().expect("a code"), cells[2].to_string())
        })
        .collect()
}

/// The `…` spans of a cell.
fn code_spans(cell: &str) -> Vec<&str> {
    cell.split('`').skip(1).step_by(2).collect()
}

#[test]
fn every_exit_code_in_the_table_is_what_its_example_ends_with() {
    let rows = rows();
    let codes: Vec<i32> = rows.iter().map(|r| r.0).collect();
    assert_eq!(codes, [0, 1, 2, 3, 130], "the table's codes");
    let tmp = tempfile::tempdir().unwrap();
    for (code, example) in &rows {
        if let Some(test) = example.strip_prefix("tested by ") {
            // `folder::file::name`: that test exists and checks this code.
            let test = test.trim_matches('`');
            let (module, name) = test.rsplit_once("::").unwrap();
            let file = module.replace("::", "/");
            let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join(format!("tests/integration/{file}.rs"));
            let src = std::fs::read_to_string(&path).unwrap();
            let body = &src[src.find(&format!("fn {name}(")).expect(test)..];
            assert!(
                body.contains(&format!("Some({code})")),
                "{test} checks {code}"
            );
            continue;
        }
        let commands = code_spans(example);
        assert!(!commands.is_empty(), "row {code} has no example");
        for command in commands {
            let args: Vec<&str> = command.split_whitespace().collect();
            assert_eq!(args[0], "bench", "{command}");
            let out = bench(tmp.path())
                .current_dir(tmp.path())
                .args(&args[1..])
                .output()
                .unwrap();
            assert_eq!(
                out.status.code(),
                Some(*code),
                "`{command}`: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}
