//! The dry run estimates the offline reference answerer as what it is, a local decoder: its
//! wall time in seconds, not a model's minutes.

use crate::support::bench;

#[test]
fn the_dry_run_estimates_the_local_answerer_as_local() {
    let tmp = tempfile::tempdir().unwrap();
    let out = bench(tmp.path())
        .args(["run", "--dry-run"])
        .output()
        .unwrap();
    let text = crate::support::success_stdout(&out);
    let row = text
        .lines()
        .find(|l| l.contains("reference:reference"))
        .expect("the provider row");
    // 90 calls of ~9,400 prompt tokens: well under a second, where a model's assumptions
    // (1 s to first token, 80 tokens/s) said 5m04s.
    assert!(row.contains("<1s"), "{row}");
    assert!(
        text.contains("the offline reference answerer runs here"),
        "{text}"
    );
    assert!(!text.contains("1 s to first token"), "{text}");
}
