//! The staging views over a log of every suite: the streaming forms of `sql/views.sql` (issue
//! 28) give what the forms they replaced gave, and the export writes what the views hold.

use bench::analytics::{Analytics, Table};
use serde_json::json;
use std::path::Path;

/// One offline run of each suite under `root`: formats, tasks (two runs), write, corrupted.
fn every_suite(root: &Path) {
    for args in [
        &["--runs", "1"][..],
        &["--suite", "tasks", "--runs", "2"],
        &["--suite", "write", "--runs", "1"],
        &["--suite", "corrupted", "--runs", "1"],
    ] {
        let out = crate::support::binary()
            .arg("run")
            .args(args)
            .args(["--no-report", "--output-root"])
            .arg(root)
            .output()
            .unwrap();
        crate::support::success_stdout(&out);
    }
}

fn one(db: &Analytics, sql: &str) -> serde_json::Value {
    let t: Table = db.query(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    assert_eq!(t.rows.len(), 1, "{sql}");
    serde_json::Value::Array(t.rows[0].clone())
}

#[test]
fn streaming_views_equal_the_forms_they_replaced_on_every_suite() {
    let tmp = tempfile::tempdir().unwrap();
    every_suite(tmp.path());
    let db = Analytics::open(tmp.path()).unwrap();

    // A call's records key: the old window over all result lines, against item_sets joined.
    let window = "SELECT r.benchmark_id, r.sample.tag AS sample_tag,
        CASE WHEN r.task IS NULL THEN r.records
             WHEN r.write IS NOT NULL THEN count(DISTINCT r.task) OVER (PARTITION BY
                  r.benchmark_id, r.provider_config.provider, r.provider_config.model, r.primer)
             ELSE count(DISTINCT r.task) OVER (PARTITION BY r.benchmark_id,
                  r.provider_config.provider, r.provider_config.model, r.format, r.primer)
        END::INTEGER AS records
        FROM result_lines";
    let keys = "SELECT benchmark_id, sample_tag, records FROM results";
    assert_eq!(
        one(
            &db,
            &format!(
                "SELECT (SELECT count(*) FROM ({window} EXCEPT ALL {keys})),
                        (SELECT count(*) FROM ({keys} EXCEPT ALL {window})),
                        (SELECT count(*) FROM results WHERE records IS NULL)"
            )
        ),
        json!([0, 0, 0])
    );
    // Every suite with items is keyed by its item set, more than one item each.
    assert_eq!(
        one(
            &db,
            "SELECT list(DISTINCT suite ORDER BY suite) FROM results
             WHERE task IS NOT NULL AND records > 1"
        ),
        json!([["corrupted", "tasks", "write"]])
    );

    // answers: one row per graded metric of every line, as the lateral unnest gave.
    assert_eq!(
        one(
            &db,
            "SELECT (SELECT count(*) FROM answers) = (SELECT sum(len(r.metrics)) FROM result_lines),
                    (SELECT count(*) FROM answers) > 0"
        ),
        json!([true, true])
    );

    // benchmarks: the columns of one parse equal those of one `->>` each.
    assert_eq!(
        one(
            &db,
            "SELECT count(*) FILTER (WHERE
                benchmark_id IS DISTINCT FROM (data ->> 'benchmark_id')
                OR benchmark_timestamp IS DISTINCT FROM (data ->> 'timestamp')
                OR provider IS DISTINCT FROM (data -> 'provider_config' ->> 'provider')
                OR model IS DISTINCT FROM (data -> 'provider_config' ->> 'model')
                OR sample_tag IS DISTINCT FROM (data -> 'sample' ->> 'tag')
                OR avg_score IS DISTINCT FROM (data -> 'summary' ->> 'avg_score')
                OR pass_rate IS DISTINCT FROM (data -> 'summary' ->> 'pass_rate')),
                count(provider) > 0, count(sample_tag) > 0, count(avg_score) > 0
             FROM benchmarks"
        ),
        json!([0, true, true, true])
    );

    // The export's counts are DuckDB's own counts of the rows written, equal to the views'.
    let (logs, _) = bench::analytics::scan_runs(tmp.path()).unwrap();
    let parts = bench::analytics::run_parts(&logs).unwrap();
    let counts = db
        .export_parquet(&tmp.path().join("parquet"), &parts)
        .unwrap();
    for (view, rows) in counts {
        assert_eq!(
            one(&db, &format!("SELECT count(*) FROM {view}")),
            json!([rows]),
            "{view}"
        );
    }
}
