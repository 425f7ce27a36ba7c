//! The page frame, escaping and links: every byte that comes from a log, a folder name or a
//! reply goes through [`esc`] (`crate::html`'s, which the suites' panels use too), and every
//! link through [`href`].

pub use crate::html::esc;

/// The stylesheet and script, compiled in (no network, no CDN).
const CSS: &str = include_str!("assets/view.css");
const JS: &str = include_str!("assets/view.js");

/// A whole page: the header with the top-level links, then `body` (already HTML).
pub fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><style>{CSS}</style></head><body>\
         <header><a href=\"/\">Runs</a><a href=\"/answers\">Answers</a>\
         <a href=\"/compare\">Compare two runs</a></header><main>{body}</main>\
         <script>{JS}</script></body></html>\n",
        title = esc(title)
    )
}

/// A link target: `path` with `pairs` as its query string, percent-encoded (empty values left
/// out), ready to put in an attribute.
pub fn href(path: &str, pairs: &[(&str, &str)]) -> String {
    let mut url = reqwest::Url::parse("http://view.invalid/").expect("a valid base URL");
    url.set_path(path);
    {
        let mut q = url.query_pairs_mut();
        for (k, v) in pairs.iter().filter(|(_, v)| !v.is_empty()) {
            q.append_pair(k, v);
        }
    }
    let mut out = url.path().to_string();
    if let Some(q) = url.query().filter(|q| !q.is_empty()) {
        out.push('?');
        out.push_str(q);
    }
    esc(&out)
}

/// `path` followed by `segments`, each percent-encoded as one path segment.
pub fn path_of(segments: &[&str]) -> String {
    let mut url = reqwest::Url::parse("http://view.invalid/").expect("a valid base URL");
    url.path_segments_mut()
        .expect("an http URL has path segments")
        .extend(segments);
    url.path().to_string()
}

/// `<a href=…>text</a>`, both escaped.
pub fn link(href: &str, text: &str) -> String {
    format!("<a href=\"{href}\">{}</a>", esc(text))
}

/// A JSON value as a short text: strings bare, the rest as JSON, null as `–`.
pub fn value_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Null => "–".into(),
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_encoded_and_escaped() {
        assert_eq!(
            href(
                "/answers",
                &[("run", "a b&<x>"), ("format", ""), ("q", "\"")]
            ),
            "/answers?run=a+b%26%3Cx%3E&amp;q=%22"
        );
        assert_eq!(
            path_of(&["report", "<b> x/..", ""]),
            "/report/%3Cb%3E%20x%2F../"
        );
    }
}
