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
    crate::support::bench(&tmp.path().join("cache"))
        .args(["run", "--runs", "1", "--output-root"])
        .arg(&root)
        .assert()
        .success();
    let run = crate::support::run_dir(&root);
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

/// `bench view` in the browser: the runs, a filter that narrows the answers, one answer with its
/// record highlighted, and the two-run page with the planted regression first; no console
/// error on any page.
#[test]
fn the_viewer_lists_filters_opens_an_answer_and_diffs_two_runs() {
    let Some(path) = chromium() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    // Two runs of a test double; in B, csv answers q001–q015 wrongly.
    let a = rt.block_on(crate::support::doubles::run_double(
        tmp.path(),
        "old",
        &[],
        31,
    ));
    let b = rt.block_on(crate::support::doubles::run_double(
        tmp.path(),
        "new",
        &[("csv", 15)],
        31,
    ));
    let name = |p: &std::path::Path| p.file_name().unwrap().to_string_lossy().into_owned();
    let (an, bn) = (name(&a), name(&b));
    let bound = rt
        .block_on(bench::view::bind(
            tmp.path(),
            std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
        ))
        .unwrap();
    let base = format!("http://{}", bound.addr);
    rt.spawn(bound.serve());

    let mut br = Browser::launch(&path);
    br.goto(&format!("{base}/"));
    br.screenshot("view-runs");
    assert_eq!(
        br.eval("document.querySelectorAll('tr[data-run]').length"),
        json!(2)
    );

    // A filter chosen in the form narrows the list to B's 15 wrong answers.
    br.goto(&format!("{base}/answers"));
    let total = "+document.querySelector('#count').dataset.total";
    assert_eq!(br.eval(total), json!(2 * 4 * 124));
    br.eval("document.querySelector('select[name=passed]').value = 'false'");
    br.eval("document.querySelector('form.filters').requestSubmit(); true");
    br.wait_load();
    br.screenshot("view-answers-failed");
    assert_eq!(br.eval(total), json!(15));
    assert!(br.url().contains("passed=false"), "{}", br.url());
    assert_eq!(
        br.eval("[...document.querySelectorAll('tr[data-answer-id]')].every(r => r.classList.contains('failed'))"),
        json!(true)
    );

    // One answer, opened from the list: its record is highlighted in the rendering.
    br.click("tr[data-answer-id] a");
    br.screenshot("view-answer");
    let marked = br.eval("(document.querySelector('mark.hl') || {}).textContent || ''");
    let marked = marked.as_str().unwrap();
    assert!(
        marked.contains("PROD-"),
        "the highlighted record: {marked:?}"
    );
    assert_eq!(
        br.eval("document.querySelector('mark.hl').getBoundingClientRect().height > 0"),
        json!(true),
        "the highlight is drawn"
    );

    // Two runs picked in the form: the regressions come first.
    br.goto(&format!("{base}/compare"));
    br.eval(&format!(
        "document.querySelector('select[name=a]').value = {}; document.querySelector('select[name=b]').value = {}; true",
        json!(an),
        json!(bn)
    ));
    br.eval("document.querySelector('form.pick').requestSubmit(); true");
    br.wait_load();
    br.screenshot("view-compare");
    let kinds =
        br.eval("[...document.querySelectorAll('#diff tr[data-kind]')].map(r => r.dataset.kind)");
    let kinds = kinds.as_array().unwrap();
    assert_eq!(kinds.len(), 15, "{kinds:?}");
    assert_eq!(kinds[0], json!("regression"));

    // The run's report, read live.
    br.goto(&format!("{base}/report/{bn}/"));
    br.screenshot("view-report");
    assert_eq!(
        br.eval("document.body.textContent.includes('bench report')"),
        json!(true)
    );
    assert_eq!(br.errors, Vec::<String>::new(), "console errors");
}
