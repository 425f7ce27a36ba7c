//! bench at the sizes it accepts: the reference decodes every format it rendered of 10,000
//! rows (past serde-saphyr's default YAML budget of 250,000 nodes, which nfl.csv's 9,999 rows
//! breached), every line of the run log stays readable by the DuckDB views (a rendering over
//! 4 MiB is named by its hash, not repeated in each line), and `bench rescore` reproduces the
//! run from such a log.

use crate::support::{bench, parse, results, run_dir};
use bench::formats::Format;
use bench::runlog::{INLINE_DATA_MAX, Line};

/// 10,000 rows of 26 columns (as nfl.csv or birdstrikes.csv): a unique `play_id`, then text
/// categories, codes, integers, decimals and booleans; 260,000 values, 530,000 YAML nodes.
fn big_csv(rows: usize) -> String {
    let mut out = String::from("play_id");
    for c in 0..25 {
        out += &format!(",c{c:02}");
    }
    out.push('\n');
    for i in 0..rows {
        out += &format!("P{i:05}");
        for c in 0..25_usize {
            let k = i * 7 + c * 13;
            match c % 5 {
                0 => out += &format!(",{}", ["run", "pass", "punt", "kick"][k % 4]),
                1 => out += &format!(",T{:02}", k % 32),
                2 => out += &format!(",{}", (k % 97) as i64 - 20),
                3 => out += &format!(",{}.{:02}", k % 50, k % 100),
                _ => out += if k % 3 == 0 { ",true" } else { ",false" },
            }
        }
        out.push('\n');
    }
    out
}

#[test]
fn ten_thousand_rows_score_100_in_every_format_and_the_log_stays_readable() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("plays.csv");
    std::fs::write(&file, big_csv(10_000)).unwrap();
    let root = tmp.path().join("data");
    let out = bench(&tmp.path().join("cache"))
        .args(["run", "--formats", "all", "--runs", "1", "--no-report"])
        .arg("--data")
        .arg(&file)
        .arg("--output-root")
        .arg(&root)
        .output()
        .unwrap();
    let screen = crate::support::success_stdout(&out);
    let run = run_dir(&root);
    let log = run.join("formats.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    // DuckDB reads a line of up to 16 MiB; a rendering is at most 4 MiB of it.
    let longest = text.lines().map(str::len).max().unwrap();
    assert!(longest < 8 << 20, "a line of {longest} bytes");
    let lines = parse(&log);
    let rs = results(&lines);
    assert_eq!(rs.len(), Format::ALL.len(), "one call per format");
    for r in &rs {
        assert_eq!(r.error, None, "{}", r.format);
        assert!(r.metrics.len() >= 100, "{}: {}", r.format, r.metrics.len());
        for m in &r.metrics {
            assert_eq!(
                m.passed,
                1,
                "{} {}: {}",
                r.format,
                m.metric,
                m.reason.as_deref().unwrap_or("")
            );
        }
    }
    // The large renderings are named by their hash, the saved file's in metadata.json.
    let named: Vec<&Format> = rs
        .iter()
        .filter(|r| r.data_stats.bytes > INLINE_DATA_MAX)
        .map(|r| &r.format)
        .collect();
    assert!(named.contains(&&Format::XmlPretty), "{named:?}");
    let files = std::fs::read_to_string(run.join("formats").join("metadata.json")).unwrap();
    for r in rs.iter().filter(|r| r.data_stats.bytes > INLINE_DATA_MAX) {
        let prompt: String = r.sample.input.iter().map(|m| m.content.as_str()).collect();
        let hash = prompt
            .split("sha256 ")
            .nth(1)
            .and_then(|s| s.get(..64))
            .unwrap_or_else(|| panic!("{}: no hash in {prompt:.300}", r.format));
        assert!(
            files.contains(hash),
            "{}: {hash} not in metadata.json",
            r.format
        );
    }
    // The views read the log: the ranking has every format at 100 %.
    for f in Format::ALL {
        let row = screen
            .lines()
            .find(|l| l.split_whitespace().any(|w| w == f.name()))
            .unwrap_or_else(|| panic!("{f} not ranked:\n{screen}"));
        assert!(row.contains("100.0%"), "{row}");
    }
    // Rescoring regenerates the prompts and compares them as the log holds them.
    let out = bench(&tmp.path().join("cache"))
        .args(["rescore", "--no-report"])
        .arg(&run)
        .output()
        .unwrap();
    crate::support::success_stdout(&out);
    let rescored = run_dir(&root);
    assert_ne!(rescored, run);
    let again = parse(&rescored.join("formats.jsonl"));
    let again = results(&again);
    assert_eq!(again.len(), rs.len());
    for (a, b) in rs.iter().zip(&again) {
        assert_eq!(a.metrics, b.metrics, "{}", a.sample.tag);
    }
    assert!(lines.iter().any(|l| matches!(l, Line::Summary(_))));
}
