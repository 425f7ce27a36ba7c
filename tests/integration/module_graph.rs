//! The top-level modules of `src/` import each other without a circle: each `crate::X` path
//! outside `#[cfg(test)]` code is an edge from the module it is written in to `X`, and no set
//! of modules reaches itself (Tarjan's strongly connected components).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Top-level module → the top-level modules its non-test code names.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut modules: BTreeMap<String, Vec<std::path::PathBuf>> = BTreeMap::new();
    for entry in std::fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if name == "lib" || name == "main" {
            continue;
        }
        let files = if path.is_dir() {
            walk(&path)
        } else if path.extension().is_some_and(|e| e == "rs") {
            vec![path.clone()]
        } else {
            continue;
        };
        modules.entry(name).or_default().extend(files);
    }
    let re = regex::Regex::new(r"crate::(\w+)").unwrap();
    let names: BTreeSet<String> = modules.keys().cloned().collect();
    modules
        .iter()
        .map(|(m, files)| {
            let mut to = BTreeSet::new();
            for f in files {
                let text = std::fs::read_to_string(f).unwrap();
                let code = text.split("#[cfg(test)]").next().unwrap_or_default();
                for c in re.captures_iter(code) {
                    if names.contains(&c[1]) && &c[1] != m {
                        to.insert(c[1].to_string());
                    }
                }
            }
            (m.clone(), to)
        })
        .collect()
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
    out
}

/// The strongly connected components with more than one module (import circles).
fn circles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct T<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        let i = t.index.len();
        t.index.insert(v, i);
        t.low.insert(v, i);
        t.stack.push(v);
        for w in t.g.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                t.low.entry(v).and_modify(|l| *l = (*l).min(lw));
            } else if t.stack.contains(&w) {
                let iw = t.index[w];
                t.low.entry(v).and_modify(|l| *l = (*l).min(iw));
            }
        }
        if t.low[v] == t.index[v] {
            let at = t.stack.iter().position(|&x| x == v).unwrap();
            let comp: Vec<String> = t.stack.drain(at..).map(str::to_string).collect();
            if comp.len() > 1 {
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        out: Vec::new(),
    };
    for v in g.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out
}

#[test]
fn no_import_circle_between_top_level_modules() {
    let g = graph(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(g.len() > 15, "{g:?}");
    assert!(
        g["suites"].contains("runlog"),
        "the scan finds edges: {:?}",
        g["suites"]
    );
    assert_eq!(circles(&g), Vec::<Vec<String>>::new(), "{g:#?}");
}

#[test]
fn the_circle_finder_finds_a_circle() {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (a, b) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")] {
        g.entry(a.into()).or_default().insert(b.into());
        g.entry(b.into()).or_default();
    }
    let found = circles(&g);
    assert_eq!(found.len(), 1);
    let mut c = found[0].clone();
    c.sort();
    assert_eq!(c, ["a", "b", "c"]);
}
