//! The report's layers are its folders, and they import in one direction only: data →
//! decisions → sections → renderers (below them all, outside the report, `crate::doc`). An
//! import the other way regrows silently (one `use super::` at a time), so this test reads the
//! sources and checks every file's imports: a file may name its own layer and the layers
//! before it, never one after.

use std::path::Path;

/// The report's layer folders, lowest first.
const LAYERS: [&str; 4] = ["data", "decisions", "sections", "renderers"];

/// The rank of a report-level name (a layer folder), lowest first.
fn rank(name: &str) -> Option<usize> {
    LAYERS.iter().position(|l| *l == name)
}

/// `a, b::{c, d}, e` split at its top-level commas.
fn split_top(group: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&group[start..]);
    out
}

/// The report-level names that `rest` (what follows `report::`) names: `x::…` or `{x, y::…}`.
fn names_after(rest: &str) -> Vec<String> {
    let first = |s: &str| -> String {
        s.trim()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    match rest.strip_prefix('{') {
        Some(group) => {
            let mut depth = 1;
            let end = group
                .char_indices()
                .find(|(_, c)| {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    depth == 0
                })
                .map_or(group.len(), |(i, _)| i);
            split_top(&group[..end]).into_iter().map(first).collect()
        }
        None => vec![first(rest)],
    }
}

/// The report-level names (layer folders) that `source` imports, where `module`
/// is its module path below `report` (`["sections", "verdict"]`; a folder's mod.rs is the
/// folder, `["sections"]`): `crate::report::x`, and `super::` paths that climb to `report`.
fn imports(source: &str, module: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find("crate::report::") {
        rest = &rest[at + "crate::report::".len()..];
        out.extend(names_after(rest));
    }
    let bytes = source.as_bytes();
    let mut i = 0;
    while let Some(at) = source[i..].find("super::") {
        let start = i + at;
        let glued =
            start > 0 && (bytes[start - 1] == b':' || bytes[start - 1].is_ascii_alphanumeric());
        let mut end = start;
        let mut climbs = 0;
        while source[end..].starts_with("super::") {
            end += "super::".len();
            climbs += 1;
        }
        i = end;
        // From `module`, `super` is its parent; `report` is reached after `module.len()` climbs.
        if !glued && climbs == module.len() {
            out.extend(names_after(&source[end..]));
        }
    }
    out.retain(|n| rank(n).is_some());
    out
}

/// The imports of `source` (module path `module` below report) that go against the layering:
/// to a later layer. Within a layer, its files' circles are module_graph.rs's to refuse.
fn wrong_imports(source: &str, module: &[&str]) -> Vec<String> {
    let me = rank(module[0]).expect("a ranked file");
    imports(source, module)
        .into_iter()
        .filter(|name| rank(name).is_some_and(|them| them > me))
        .collect()
}

/// Every `.rs` file under `dir`.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)
        .expect("a report folder is readable")
        .flatten()
    {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
    out
}

#[test]
fn report_layers_import_in_one_direction() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/report");
    let mut checked = 0;
    let mut wrong = Vec::new();
    for file in walk(&root) {
        let rel = file.strip_prefix(&root).unwrap().with_extension("");
        let mut module: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().to_string())
            .collect();
        if module == ["mod"] || module == ["layers"] {
            continue;
        }
        if module.last().is_some_and(|m| m == "mod") {
            module.pop();
        }
        assert!(
            rank(&module[0]).is_some(),
            "src/report/{} is in no layer: put it in a layer folder",
            rel.display()
        );
        let module: Vec<&str> = module.iter().map(String::as_str).collect();
        let source = std::fs::read_to_string(&file).expect("a report source is readable");
        checked += 1;
        for name in wrong_imports(&source, &module) {
            wrong.push(format!(
                "src/report/{} ({}) imports {name}",
                rel.display(),
                module[0]
            ));
        }
    }
    assert!(checked >= 18, "only {checked} report sources found");
    assert!(
        wrong.is_empty(),
        "imports against the layering:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_import_scan_sees_every_form_and_catches_a_wrong_one() {
    let src = "use crate::report::data::X;\nuse crate::report::{decisions::d, sections::{a, b}};\n\
               use super::super::renderers::json;\nlet x = super::verdict::f();\nuse super::*;\nuse std::fmt;";
    // In sections/verdict.rs `super::verdict` is its own folder; two climbs reach report.
    assert_eq!(
        imports(src, &["sections", "verdict"]),
        ["data", "decisions", "sections", "renderers"]
    );
    assert_eq!(wrong_imports(src, &["sections", "verdict"]), ["renderers"]);
    // A folder's mod.rs climbs once.
    assert_eq!(imports("use super::sections::X;", &["data"]), ["sections"]);
    assert_eq!(
        wrong_imports("use super::sections::X;", &["data"]),
        ["sections"]
    );
    assert!(wrong_imports(src, &["renderers", "files"]).is_empty());
}
