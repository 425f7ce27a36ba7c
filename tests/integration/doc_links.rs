//! Every relative link in the README and the guides points at a file or folder that exists, so
//! moving a document cannot leave a dead link behind.

use std::path::{Path, PathBuf};

/// The Markdown files a user reads: the README, `docs/`, and the tools' README.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.join("README.md"), root.join("tools/README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    out.extend(docs);
    out
}

/// The targets of `[text](target)` links that are neither web addresses nor in-page anchors,
/// without their `#fragment`, outside code blocks.
fn relative_links(text: &str) -> Vec<String> {
    let re = regex::Regex::new(r"\]\(([^)\s]+)(?:\s+[^)]*)?\)").unwrap();
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for c in re.captures_iter(line) {
            let target = &c[1];
            let external = ["http://", "https://", "mailto:", "#"]
                .iter()
                .any(|p| target.starts_with(p));
            if !external {
                out.push(target.split('#').next().unwrap_or_default().to_string());
            }
        }
    }
    out
}

#[test]
fn every_relative_link_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    let mut dead = Vec::new();
    for doc in documents(root) {
        let text = std::fs::read_to_string(&doc).unwrap();
        for target in relative_links(&text) {
            checked += 1;
            if !doc.parent().unwrap().join(&target).exists() {
                dead.push(format!(
                    "{}: {target}",
                    doc.strip_prefix(root).unwrap().display()
                ));
            }
        }
    }
    assert!(dead.is_empty(), "dead links:\n{}", dead.join("\n"));
    assert!(checked > 0, "no relative link found: the pattern is wrong");
}

#[test]
fn the_link_pattern_finds_relative_links_only() {
    let text = "see [a](docs/a.md#x) and [b](https://x.org) [c](#top)\n```\n[d](no.md)\n```\n";
    assert_eq!(relative_links(text), vec!["docs/a.md"]);
}
