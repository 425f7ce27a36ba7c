//! The report's modules import in one direction only: data → decisions → sections → writers.
//! An import circle regrows silently (one `use super::` at a time), so this test reads the
//! sources and checks every report module's imports against the layering.

use std::path::Path;

/// The report's modules, lowest layer first; a module may import only modules listed before it.
const ORDER: [(&str, &[&str]); 5] = [
    ("foundations", &["charts", "doc", "tables", "write_tables"]),
    ("data", &["records", "data", "gather"]),
    // `compare` (two runs side by side, for `bench compare` and `bench view`) reads the data layer only.
    ("decisions", &["decision", "compare"]),
    (
        "sections",
        &[
            "generic",
            "wording",
            "verdict",
            "sections",
            "corrupted",
            "writing",
            "wrong",
            "figures",
        ],
    ),
    ("writers", &["json", "write"]),
];

/// The position of `module` in [`ORDER`] and its layer's name.
fn rank(module: &str) -> Option<(usize, &'static str)> {
    ORDER
        .iter()
        .flat_map(|(layer, ms)| ms.iter().map(move |m| (*m, *layer)))
        .enumerate()
        .find(|(_, (m, _))| *m == module)
        .map(|(i, (_, layer))| (i, layer))
}

/// The report modules that `source` (of a file directly in src/report when `top`, else of a
/// file in a subfolder) refers to: `super::x`, `super::{x, y}`, `crate::report::x`.
fn imports(source: &str, top: bool) -> Vec<String> {
    let mut out = Vec::new();
    let prefixes: &[&str] = if top {
        &["super::", "crate::report::"]
    } else {
        &["super::super::", "crate::report::"]
    };
    for prefix in prefixes {
        let mut rest = source;
        while let Some(at) = rest.find(prefix) {
            // `super::super::x` is not `super::x` for a top-level file's `super::super`.
            let before = &rest[..at];
            rest = &rest[at + prefix.len()..];
            if top && *prefix == "super::" && before.ends_with("super::") {
                continue;
            }
            let items: Vec<&str> = match rest.strip_prefix('{') {
                Some(group) => group.split('}').next().unwrap_or("").split(',').collect(),
                None => vec![rest],
            };
            for item in items {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if rank(&name).is_some() {
                    out.push(name);
                }
            }
        }
    }
    out
}

#[test]
fn report_modules_import_in_one_direction() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/report");
    let mut checked = 0;
    let mut wrong = Vec::new();
    for entry in std::fs::read_dir(&root)
        .expect("src/report is readable")
        .flatten()
    {
        let path = entry.path();
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("")
            .to_string();
        if stem == "mod" || stem == "layers" {
            continue;
        }
        let files: Vec<(std::path::PathBuf, bool)> = if path.is_dir() {
            std::fs::read_dir(&path)
                .expect("a report subfolder is readable")
                .flatten()
                // Only a subfolder's mod.rs sees the report modules as `super::`.
                .map(|e| (e.path(), e.file_name() == "mod.rs"))
                .filter(|(p, _)| p.extension().is_some_and(|x| x == "rs"))
                .collect()
        } else if path.extension().is_some_and(|x| x == "rs") {
            vec![(path.clone(), true)]
        } else {
            continue;
        };
        let (me, layer) = rank(&stem).unwrap_or_else(|| {
            panic!("src/report/{stem} is not placed in a layer of src/report/layers.rs ORDER")
        });
        for (file, top) in files {
            let source = std::fs::read_to_string(&file).expect("a report source is readable");
            checked += 1;
            for name in imports(&source, top) {
                let (them, their_layer) = rank(&name).expect("imports() keeps ranked names");
                if them >= me && name != stem {
                    wrong.push(format!(
                        "{} ({layer}) imports {name} ({their_layer})",
                        file.strip_prefix(&root).unwrap_or(&file).display()
                    ));
                }
            }
        }
    }
    assert!(checked >= 15, "only {checked} report sources found");
    assert!(
        wrong.is_empty(),
        "imports against the layering:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_import_scan_sees_every_form() {
    let src = "use super::data::X;\nuse super::{json, verdict};\nlet x = super::write::f();\n\
               use crate::report::figures::F;\nuse super::*;\nuse std::fmt;";
    assert_eq!(
        imports(src, true),
        ["data", "json", "verdict", "write", "figures"]
    );
    assert_eq!(
        imports("use super::style;\nuse super::super::data::R;", false),
        ["data"]
    );
}
