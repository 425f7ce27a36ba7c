//! The document model every report is written in, below both the report and the suites (a
//! suite writes its own report sections in it, and the suites never import the report): blocks
//! (headings, paragraphs, lists, tables, charts) rendered both as Markdown (BENCHMARK_REPORT.md)
//! and as one self-contained HTML page (report.html), so the report's content is written once;
//! the charts (SVG and PNG); and a SQL result as a table. Text may use `**bold**` and
//! `` `code` ``.

pub mod charts;
pub mod table;

use std::fmt::Write;

/// A table cell: the text shown, and a number to sort by (numeric columns).
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// Text shown.
    pub text: String,
    /// Sort key of a numeric cell.
    pub sort: Option<f64>,
    /// Shown exactly as written (text from a run log, such as a model's answer): no `**bold**`
    /// or `` `code` `` markup, every character escaped.
    pub literal: bool,
}

impl Cell {
    /// A text cell.
    pub fn text(s: impl Into<String>) -> Self {
        Self {
            text: s.into(),
            sort: None,
            literal: false,
        }
    }

    /// A text cell shown exactly as written (see [`Cell::literal`](Cell#structfield.literal)).
    pub fn literal(s: impl Into<String>) -> Self {
        Self {
            text: s.into(),
            sort: None,
            literal: true,
        }
    }

    /// A numeric cell shown as `text`, sorted by `x`.
    pub fn num(text: impl Into<String>, x: Option<f64>) -> Self {
        Self {
            text: text.into(),
            sort: x.or(Some(f64::NEG_INFINITY)),
            literal: false,
        }
    }
}

/// One block of the document.
#[derive(Debug, Clone)]
pub enum Block {
    /// A heading of level 1–3.
    Heading(u8, String),
    /// A paragraph.
    Para(String),
    /// A bulleted list.
    Bullets(Vec<String>),
    /// A table with a header row.
    Table {
        /// Column names.
        columns: Vec<String>,
        /// Rows of cells.
        rows: Vec<Vec<Cell>>,
    },
    /// A chart: inline SVG in HTML, the PNG file in Markdown.
    Chart {
        /// Caption.
        title: String,
        /// Path of the PNG relative to the report.
        png: String,
        /// The SVG text.
        svg: String,
    },
}

/// Escapes text for Markdown table cells.
fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// A literal cell for Markdown: every character that Markdown or inline HTML would read as
/// markup escaped with a backslash.
fn md_literal(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '<' | '>' | '[' | ']' | '|' | '#' | '&' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Renders the document as GitHub Markdown.
pub fn markdown(blocks: &[Block]) -> String {
    let mut out = String::new();
    for b in blocks {
        match b {
            Block::Heading(level, text) => {
                let _ = writeln!(out, "{} {text}\n", "#".repeat(usize::from(*level)));
            }
            Block::Para(text) => {
                let _ = writeln!(out, "{text}\n");
            }
            Block::Bullets(items) => {
                for i in items {
                    let _ = writeln!(out, "- {i}");
                }
                out.push('\n');
            }
            Block::Table { columns, rows } => {
                let numeric: Vec<bool> = (0..columns.len())
                    .map(|i| {
                        rows.iter()
                            .any(|r| r.get(i).is_some_and(|c| c.sort.is_some()))
                    })
                    .collect();
                let _ = writeln!(
                    out,
                    "| {} |",
                    columns
                        .iter()
                        .map(|c| md_cell(c))
                        .collect::<Vec<_>>()
                        .join(" | ")
                );
                let _ = writeln!(
                    out,
                    "|{}",
                    numeric
                        .iter()
                        .map(|&n| if n { " ---: |" } else { " --- |" })
                        .collect::<String>()
                );
                for r in rows {
                    let _ = writeln!(
                        out,
                        "| {} |",
                        r.iter()
                            .map(|c| if c.literal {
                                md_literal(&c.text)
                            } else {
                                md_cell(&c.text)
                            })
                            .collect::<Vec<_>>()
                            .join(" | ")
                    );
                }
                out.push('\n');
            }
            Block::Chart { title, png, .. } => {
                let _ = writeln!(out, "![{title}]({png})\n");
            }
        }
    }
    out
}

/// Escapes text for HTML: the one escape the viewer uses too.
pub use crate::html::esc;

/// HTML of inline text: escaped, with `**bold**` and `` `code` `` turned into tags.
fn inline(s: &str) -> String {
    let mut out = String::new();
    for (i, part) in esc(s).split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{part}</code>");
        } else {
            for (j, p) in part.split("**").enumerate() {
                if j % 2 == 1 {
                    let _ = write!(out, "<strong>{p}</strong>");
                } else {
                    out.push_str(p);
                }
            }
        }
    }
    out
}

/// A slug for heading anchors.
fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.to_lowercase().chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

const STYLE: &str = r#"
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1f2328;background:#f6f8fa}
main{max-width:1180px;margin:0 auto;padding:24px 32px 64px;background:#fff}
nav{position:sticky;top:0;background:#fff;border-bottom:1px solid #d0d7de;padding:8px 32px;font-size:14px;z-index:1}
nav a{margin-right:14px;color:#0969da;text-decoration:none}
h1{font-size:28px;margin:8px 0 4px}h2{font-size:21px;margin-top:36px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
h3{font-size:17px;margin-top:24px}
p,li{line-height:1.5}code{background:#eff1f3;padding:1px 4px;border-radius:4px;font-size:90%}
.tbl{overflow-x:auto;margin:12px 0}
table{border-collapse:collapse;font-size:13px;min-width:50%}
th,td{border:1px solid #d0d7de;padding:4px 8px;vertical-align:top}
td{max-width:420px}td.n{white-space:nowrap}
td.lit{font-family:ui-monospace,monospace;font-size:12px;white-space:pre-wrap;overflow-wrap:anywhere}
th{background:#f6f8fa;cursor:pointer;user-select:none;position:sticky;top:0}
th.asc::after{content:" ▲"}th.desc::after{content:" ▼"}
td.n{text-align:right;font-variant-numeric:tabular-nums}
tr:nth-child(even) td{background:#fafbfc}
figure{margin:16px 0}figure svg{max-width:100%;height:auto;border:1px solid #eaeef2}
figcaption{font-size:13px;color:#57606a}
"#;

/// Click a header to sort by it; numeric cells sort by their data-v value.
const SCRIPT: &str = r#"
document.querySelectorAll('table').forEach(function(t){
  t.querySelectorAll('th').forEach(function(th,i){
    th.addEventListener('click',function(){
      var asc=!th.classList.contains('asc');
      t.querySelectorAll('th').forEach(function(h){h.classList.remove('asc','desc')});
      th.classList.add(asc?'asc':'desc');
      var body=t.tBodies[0],rows=Array.prototype.slice.call(body.rows);
      rows.sort(function(a,b){
        var x=a.cells[i],y=b.cells[i],c;
        if(x.dataset.v!==undefined&&y.dataset.v!==undefined){c=parseFloat(x.dataset.v)-parseFloat(y.dataset.v)}
        else{c=x.textContent.localeCompare(y.textContent)}
        return asc?c:-c});
      rows.forEach(function(r){body.appendChild(r)});
    });
  });
});
"#;

/// Renders the document as one self-contained HTML page: inline CSS, inline SVG charts, and a
/// few lines of inline script for sortable tables; nothing is loaded from the network.
pub fn html(title: &str, blocks: &[Block]) -> String {
    let mut nav = String::new();
    let mut body = String::new();
    for b in blocks {
        match b {
            Block::Heading(level, text) => {
                let id = slug(text);
                if *level == 2 {
                    let _ = write!(nav, "<a href=\"#{id}\">{}</a>", esc(&text.replace('`', "")));
                }
                let _ = writeln!(body, "<h{level} id=\"{id}\">{}</h{level}>", inline(text));
            }
            Block::Para(text) => {
                let _ = writeln!(body, "<p>{}</p>", inline(text));
            }
            Block::Bullets(items) => {
                body.push_str("<ul>\n");
                for i in items {
                    let _ = writeln!(body, "<li>{}</li>", inline(i));
                }
                body.push_str("</ul>\n");
            }
            Block::Table { columns, rows } => {
                body.push_str("<div class=\"tbl\"><table><thead><tr>");
                for c in columns {
                    let _ = write!(body, "<th>{}</th>", esc(c));
                }
                body.push_str("</tr></thead><tbody>\n");
                for r in rows {
                    body.push_str("<tr>");
                    for c in r {
                        match c.sort {
                            Some(v) => {
                                let v = if v.is_finite() { v } else { -1e308 };
                                let _ = write!(
                                    body,
                                    "<td class=\"n\" data-v=\"{v}\">{}</td>",
                                    inline(&c.text)
                                );
                            }
                            None if c.literal => {
                                let _ = write!(body, "<td class=\"lit\">{}</td>", esc(&c.text));
                            }
                            None => {
                                let _ = write!(body, "<td>{}</td>", inline(&c.text));
                            }
                        }
                    }
                    body.push_str("</tr>\n");
                }
                body.push_str("</tbody></table></div>\n");
            }
            Block::Chart { title, svg, .. } => {
                // The SVG's own XML declaration is not allowed inside HTML.
                let svg = svg.trim_start();
                let svg = match svg.strip_prefix("<?xml") {
                    Some(rest) => rest.split_once("?>").map_or(svg, |(_, s)| s.trim_start()),
                    None => svg,
                };
                let _ = writeln!(
                    body,
                    "<figure>{svg}<figcaption>{}</figcaption></figure>",
                    esc(title)
                );
            }
        }
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{}</title><style>{STYLE}</style></head>\n<body><nav>{nav}</nav><main>\n{body}</main>\
         <script>{SCRIPT}</script></body></html>\n",
        esc(title)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc() -> Vec<Block> {
        vec![
            Block::Heading(1, "Report".into()),
            Block::Heading(2, "Verdict & more".into()),
            Block::Para("**csv** uses `0.68×` <tokens>".into()),
            Block::Bullets(vec!["a | b".into()]),
            Block::Table {
                columns: vec!["format".into(), "acc".into()],
                rows: vec![vec![Cell::text("x|y"), Cell::num("98.0%", Some(0.98))]],
            },
            Block::Chart {
                title: "c".into(),
                png: "charts/c.png".into(),
                svg: "<?xml version=\"1.0\"?>\n<svg></svg>".into(),
            },
        ]
    }

    #[test]
    fn markdown_escapes_cells_and_right_aligns_numbers() {
        let md = markdown(&doc());
        assert!(md.contains("| x\\|y | 98.0% |"), "{md}");
        assert!(md.contains("| --- | ---: |"));
        assert!(md.contains("![c](charts/c.png)"));
        assert!(md.contains("## Verdict & more"));
    }

    #[test]
    fn html_is_self_contained_and_escaped() {
        let h = html("t", &doc());
        assert!(h.contains("<strong>csv</strong> uses <code>0.68×</code> &lt;tokens&gt;"));
        assert!(h.contains("<td class=\"n\" data-v=\"0.98\">98.0%</td>"));
        assert!(h.contains("<figure><svg></svg>"), "xml declaration dropped");
        assert!(h.contains("href=\"#verdict-more\""));
        assert!(
            !h.contains("http://") && !h.contains("https://"),
            "no network"
        );
        assert!(!h.contains("<script src"));
    }
}
