//! The identifier of a `--data` run (issue 41, item 5): key-like fields (text, codes, dates,
//! years) are preferred to the measurements questions aggregate, and a key that still takes a
//! category's questions away is said on screen and in the run log, naming `--id-field`.

use crate::support::run_in;
use bench::suites::lookup::DataMeta;
use std::path::Path;

/// Runs the reference over `csv` (as `name`) in two formats; returns stdout and stderr, and the
/// data's metadata.
fn run(dir: &Path, name: &str, csv: &str) -> (String, DataMeta) {
    let file = dir.join(name);
    std::fs::write(&file, csv).unwrap();
    let plan = ["run", "--formats", "csv,yaml", "--runs", "1", "--no-report"];
    let ran = run_in(dir, &plan)
        .args(["--data", file.to_str().unwrap()])
        .ok();
    let meta = ran.metadata("formats.jsonl");
    (
        ran.stdout + &ran.stderr,
        DataMeta::of(&meta).unwrap().expect("data metadata"),
    )
}

#[test]
fn flights_are_keyed_by_date_and_airports_not_by_delay_and_distance() {
    // As vega's flights-20k.json: no field or pair is unique; `date` + `delay` + `distance`
    // comes first in file order, `date` + `origin` + `destination` is unique too.
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from("date,delay,distance,origin,destination\n");
    for i in 0..280_usize {
        let (d, k) = (i / 4, i % 4);
        let airport = |n: usize| format!("A{:02}", n);
        csv += &format!(
            "2001/{:02}/{:02} {:02}:00,{},{},{},{}\n",
            1 + d / 28,
            1 + d % 28,
            d % 24,
            (d % 5) * 10 + (k % 2) * 5,
            300 + (d % 7) * 100 + (k / 2) * 50,
            airport((d % 35) * 2 + k / 2),
            airport((d % 35) * 2 + k % 2)
        );
    }
    let (screen, meta) = run(dir.path(), "flights.csv", &csv);
    assert_eq!(meta.id_field, "date,origin,destination");
    assert!(
        screen.contains("records identified by `date` + `origin` + `destination`"),
        "{screen}"
    );
    assert!(
        !meta
            .notices
            .iter()
            .any(|n| n.starts_with("filtering: only 0")),
        "{:?}",
        meta.notices
    );
}

#[test]
fn a_key_that_takes_questions_away_says_so_and_names_the_flag() {
    // Only measurements: the unique `reading` is the key, and the questions lose it.
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from("reading,level\n");
    for i in 0..30 {
        csv += &format!("{},{}\n", 1000 + i * 7, i % 4);
    }
    let (screen, meta) = run(dir.path(), "meter.csv", &csv);
    assert_eq!(meta.id_field, "reading");
    let note = meta
        .notices
        .iter()
        .find(|n| n.starts_with("aggregation: only"))
        .unwrap_or_else(|| panic!("{:?}", meta.notices));
    assert!(
        note.contains("the identifier `reading` is never asked about")
            && note.contains("name another key with --id-field"),
        "{note}"
    );
    assert!(screen.contains(&format!("questions: {note}")), "{screen}");
}
