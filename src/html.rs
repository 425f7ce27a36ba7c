//! HTML escaping, below every module that writes HTML: the viewer's pages and the suites'
//! panels on them (`suites/<name>/panel.rs`), which must not import the viewer or the report.

/// Escapes text for HTML (`&`, `<`, `>` and `"`), as the report's own `esc` does.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_markup_and_quotes_and_keeps_the_rest() {
        assert_eq!(
            super::esc("a<b> & \"c\" 'd'"),
            "a&lt;b&gt; &amp; &quot;c&quot; 'd'"
        );
    }
}
