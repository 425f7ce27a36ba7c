//! The report and `bench view` in a real browser: headless Chromium driven over the DevTools
//! protocol (`cdp.rs`). Chromium comes from the system's package manager
//! (`apt-get install chromium`, docs/development.md); `.ci/run` installs it and sets
//! `BENCH_CHROMIUM` to its path. Set and missing fails the test; unset skips it with a notice.
//! `BENCH_SCREENSHOTS=DIR` keeps a PNG of every page the test looked at.

use super::cdp::{Browser, chromium};
use serde_json::json;

#[test]
fn report_html_loads_without_errors_and_shows_its_charts() {
    let Some(path) = chromium() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("data");
    super::run_cli::bench(&tmp.path().join("cache"))
        .args(["run", "--runs", "1", "--output-root"])
        .arg(&root)
        .assert()
        .success();
    let run = super::run_cli::run_dir(&root);
    let html = std::fs::read_dir(&run)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_dir())
        .map(|d| d.join("report.html"))
        .expect("the run's artifact folder");
    assert!(html.is_file(), "{} was not written", html.display());

    let mut b = Browser::launch(&path);
    b.goto(&format!("file://{}", html.display()));
    b.screenshot("report");

    let title = b.eval("document.querySelector('h1').textContent");
    assert!(
        title.as_str().unwrap_or("").contains("bench report"),
        "the report's heading: {title}"
    );
    // Every chart is on the page and drawn: inline SVGs with content, images decoded.
    let charts = b.eval("document.querySelectorAll('svg').length");
    assert!(charts.as_u64().unwrap_or(0) >= 1, "no chart in the report");
    let broken = b.eval(
        "Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)",
    );
    assert_eq!(broken, json!([]), "images that did not load");
    // Self-contained: nothing on the page comes from another host.
    let remote = b.eval(
        "performance.getEntriesByType('resource').map(e => e.name).filter(n => !n.startsWith('file:') && !n.startsWith('data:'))",
    );
    assert_eq!(remote, json!([]), "resources fetched from elsewhere");
    assert_eq!(b.errors, Vec::<String>::new(), "console errors");
}

/// The console check itself: a page that throws and logs an error is caught, so a clean page
/// above means clean.
#[test]
fn the_console_check_sees_errors_and_exceptions() {
    let Some(path) = chromium() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let page = tmp.path().join("bad.html");
    std::fs::write(
        &page,
        "<html><body><a id=next href=bad.html#2>next</a><script>console.error('planted error'); \
         setTimeout(() => { throw new Error('planted exception') }, 0);</script></body></html>",
    )
    .unwrap();
    let mut b = Browser::launch(&path);
    b.goto(&format!("file://{}", page.display()));
    b.eval("new Promise(r => setTimeout(r, 50))");
    let errors = b.errors.join("\n");
    assert!(errors.contains("planted error"), "{errors}");
    assert!(errors.contains("planted exception"), "{errors}");
}
