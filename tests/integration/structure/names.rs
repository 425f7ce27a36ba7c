//! Format names a user can find: `bench formats` lists every id from the registry, the docs list
//! the same, and a mistyped name gets the likely ones (issue 43, item 7).

use crate::support::binary;
use bench::formats::Format;
use std::path::Path;

#[test]
fn bench_formats_and_the_docs_list_every_id_alike() {
    let out = binary()
        .args(["formats", "--format", "csv"])
        .output()
        .unwrap();
    let csv = crate::support::success_stdout(&out);
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), Format::ALL.len(), "{csv}");
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/formats.md"))
            .unwrap();
    for (f, row) in Format::ALL.iter().zip(&rows) {
        let spec = f.spec();
        assert_eq!(row[0], spec.name);
        assert_eq!(row[2] == "yes", !spec.extra, "{row:?}");
        assert_eq!(row[3] == "yes", spec.flat_only, "{row:?}");
        // The docs' table row of this id says the same about the default set and flat-only.
        let line = docs
            .lines()
            .find(|l| l.starts_with(&format!("| `{}` |", spec.name)))
            .unwrap_or_else(|| panic!("docs/formats.md has no row for {}", spec.name));
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(cells[3], row[2], "docs/formats.md: {line}");
        assert_eq!(cells[4], row[3], "docs/formats.md: {line}");
    }
}

#[test]
fn a_mistyped_format_gets_the_likely_names() {
    for (typed, meant) in [
        ("json", "did you mean json_compact, json_pretty or jsonl?"),
        (
            "toon",
            "did you mean toon_default, toon_keyfold or toon_v4?",
        ),
        ("markdown", "did you mean markdown_table or markdown_kv?"),
        ("yml", "did you mean yaml?"),
    ] {
        let out = binary()
            .args(["run", "--dry-run", "--formats", &format!("csv,{typed}")])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!("unknown format '{typed}': {meant}")),
            "{err}"
        );
    }
}

#[test]
fn query_lists_its_sql_files_and_names_the_one_a_typo_meant() {
    let out = binary().args(["query", "--list"]).output().unwrap();
    let list = crate::support::success_stdout(&out);
    let sql = Path::new(env!("CARGO_MANIFEST_DIR")).join("sql");
    let on_disk = std::fs::read_dir(sql).unwrap().count();
    assert_eq!(list.lines().count(), on_disk, "{list}");
    let rankings = list
        .lines()
        .find(|l| l.starts_with("sql/rankings.sql "))
        .expect("rankings listed");
    assert!(rankings.contains("One ranked table"), "{rankings}");

    let tmp = tempfile::tempdir().unwrap();
    let out = binary()
        .current_dir(tmp.path())
        .args([
            "query",
            "sql/ranking.sql",
            "--root",
            tmp.path().to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("did you mean sql/rankings.sql?"), "{err}");
}
