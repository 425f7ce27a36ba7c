//! What a `write` call adds to its answer's page in `bench view`: which case it wrote, and
//! the gold against the document written, line by line.

use super::WriteMeta;
use crate::html::esc;
use crate::runlog::{Metadata, ResultRecord};
use crate::suites::panel::Panel;
use serde_json::Value;

/// The write suite's panel.
pub struct WritePanel;

impl Panel for WritePanel {
    fn runs_line(&self, m: &Metadata) -> Option<String> {
        // `run_info` refused a metadata line whose suite fields do not read.
        let w = WriteMeta::of(m).ok().flatten()?;
        Some(format!("write · {} cases", w.cases.len()))
    }

    fn asked_about(&self, case: &str, _metric: &str) -> Option<String> {
        Some(format!(
            "Write the document of case {case} (the prompt is below)."
        ))
    }

    fn after_reply(&self, meta: &Metadata, call: &ResultRecord) -> String {
        write_diff(meta, call)
    }
}

/// A `write` call's document against its gold: both as pretty JSON when the reply decodes,
/// else the gold rendered in the format against the text written; a line diff either way.
fn write_diff(meta: &Metadata, d: &ResultRecord) -> String {
    let Some(item) = d.task.as_deref() else {
        return String::new();
    };
    // `run_info` refused a metadata line whose write field does not read.
    let write = super::meta::WriteMeta::of(meta).ok().flatten();
    let Some(case) = write
        .as_ref()
        .and_then(|w| w.cases.iter().find(|c| c.item() == item))
    else {
        return format!(
            "<p class=\"note\">No case '{}' in the run's metadata.</p>",
            esc(item)
        );
    };
    let format = d.format;
    let (written, _, _) = super::grade::extract(&d.sample.output.content, format.spec().fence);
    let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default();
    let (gold, doc, how) = match format.decode(written) {
        Ok(v) => (pretty(&case.gold), pretty(&v), "both decoded, as JSON"),
        Err(_) => (
            format
                .encode(&case.gold)
                .unwrap_or_else(|_| pretty(&case.gold)),
            written.to_string(),
            "the reply does not decode: the gold rendered in the format against the text written",
        ),
    };
    let lines = diff(&gold, &doc);
    let changed = lines.iter().filter(|(k, _)| *k != ' ').count();
    let mut out = format!(
        "<section id=\"write\"><h2>Gold against the document written</h2><p class=\"note\">{} ({} lines differ; − gold only, + written only).</p><pre id=\"write-diff\">",
        esc(how),
        changed
    );
    for (kind, line) in lines {
        let class = match kind {
            '-' => "del",
            '+' => "ins",
            _ => "same",
        };
        out.push_str(&format!(
            "<span class=\"{class}\" data-diff=\"{class}\">{kind} {}</span>",
            esc(line)
        ));
    }
    out.push_str("</pre></section>");
    out
}

/// A line diff (longest common subsequence): each line with ' ', '-' (only in `a`) or '+'
/// (only in `b`). Past 4,000 lines a side, the rest is listed as removed and added.
pub fn diff<'a>(a: &'a str, b: &'a str) -> Vec<(char, &'a str)> {
    const MAX: usize = 4000;
    let (a, b): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let (n, m) = (a.len().min(MAX), b.len().min(MAX));
    // lcs[i][j]: the common lines of a[i..n] and b[j..m].
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < n && j < m {
        if a[i] == b[j] {
            out.push((' ', a[i]));
            i += 1;
            j += 1;
        } else if lcs[i + 1][j] >= lcs[i][j + 1] {
            out.push(('-', a[i]));
            i += 1;
        } else {
            out.push(('+', b[j]));
            j += 1;
        }
    }
    out.extend(a[i..].iter().map(|l| ('-', *l)));
    out.extend(b[j..].iter().map(|l| ('+', *l)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_keeps_common_lines_and_marks_the_rest() {
        let got = diff("a\nb\nc\n", "a\nx\nc\nd\n");
        assert_eq!(
            got,
            vec![(' ', "a"), ('-', "b"), ('+', "x"), (' ', "c"), ('+', "d")]
        );
    }
}
