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

/// The lines of a Markdown text outside fenced code blocks (the fence lines left out too).
fn prose(text: &str) -> impl Iterator<Item = &str> {
    let mut fenced = false;
    text.lines().filter(move |line| {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            return false;
        }
        !fenced
    })
}

/// The targets of `[text](target)` links that are neither web addresses nor in-page anchors,
/// without their `#fragment`, outside code blocks.
fn relative_links(text: &str) -> Vec<String> {
    let re = regex::Regex::new(r"\]\(([^)\s]+)(?:\s+[^)]*)?\)").unwrap();
    let mut out = Vec::new();
    for line in prose(text) {
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

/// GitHub's anchor of a heading: lower case, backticks and punctuation dropped, spaces as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim_start_matches('#')
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings (outside code blocks).
fn anchors(text: &str) -> Vec<String> {
    prose(text)
        .filter(|line| line.starts_with('#'))
        .map(slug)
        .collect()
}

/// Every `#fragment` of a link, in the page itself or in another Markdown file, names a heading
/// there: moving a section cannot leave a link pointing at nothing.
#[test]
fn every_anchor_names_a_heading() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let re = regex::Regex::new(r"\]\(([^)\s]*#[^)\s]+)\)").unwrap();
    let (mut checked, mut dead) = (0, Vec::new());
    for doc in documents(root) {
        let text = std::fs::read_to_string(&doc).unwrap();
        for line in prose(&text) {
            for c in re.captures_iter(line) {
                let (file, anchor) = c[1].split_once('#').unwrap();
                if file.starts_with("http") || !(file.is_empty() || file.ends_with(".md")) {
                    continue;
                }
                let target = if file.is_empty() {
                    doc.clone()
                } else {
                    doc.parent().unwrap().join(file)
                };
                let Ok(there) = std::fs::read_to_string(&target) else {
                    continue; // a missing file is every_relative_link_resolves' failure
                };
                checked += 1;
                if !anchors(&there).iter().any(|a| a == anchor) {
                    dead.push(format!(
                        "{}: {}",
                        doc.strip_prefix(root).unwrap().display(),
                        &c[1]
                    ));
                }
            }
        }
    }
    assert!(
        dead.is_empty(),
        "anchors with no heading:\n{}",
        dead.join("\n")
    );
    assert!(checked > 0, "no anchor link found: the pattern is wrong");
}

#[test]
fn slugs_follow_github() {
    assert_eq!(
        slug("## The `tasks` suite: analysis tasks"),
        "the-tasks-suite-analysis-tasks"
    );
    assert_eq!(
        slug("# Your own data (`--data FILE`)"),
        "your-own-data---data-file"
    );
}
