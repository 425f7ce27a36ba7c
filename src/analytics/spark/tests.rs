//! The DuckDB-to-Spark translation of `spark.rs`, statement by statement.

use super::*;

fn one(sql: &str) -> String {
    translate(sql).unwrap().statements.join(";\n")
}

#[test]
fn lists_lambdas_and_subscripts_take_spark_forms() {
    assert_eq!(
        one("SELECT list_transform([x, 2], lambda v: v + 1)[1]"),
        "SELECT transform(array(x, 2), v -> v + 1)[0]"
    );
    assert_eq!(
        one("SELECT list_reduce(range(3), lambda acc, x: acc + x, 0)"),
        "SELECT aggregate(filter(sequence(CAST(0 AS BIGINT), CAST(3 AS BIGINT)), i__ -> i__ < CAST(3 AS BIGINT)), 0, (acc, x) -> acc + x)"
    );
    assert_eq!(
        one("SELECT m['a'], CASE WHEN a THEN [1] END"),
        "SELECT m['a'], CASE WHEN a THEN array(1) END"
    );
    assert!(
        translate("SELECT l[i]").is_err(),
        "a computed index is refused"
    );
}

#[test]
fn order_by_gets_duckdbs_nulls_last_and_ordered_aggregates_sort() {
    assert_eq!(
        one(
            "SELECT rank() OVER (PARTITION BY a ORDER BY b DESC NULLS LAST, c) FROM t ORDER BY a, b DESC"
        ),
        "SELECT rank() OVER (PARTITION BY a ORDER BY b DESC NULLS LAST, c NULLS LAST) FROM t ORDER BY a NULLS LAST, b DESC NULLS LAST"
    );
    assert_eq!(
        one("SELECT string_agg(f, ', ' ORDER BY t, f) FROM x"),
        "SELECT string_agg(f, ', ') WITHIN GROUP (ORDER BY t NULLS LAST, f NULLS LAST) FROM x"
    );
    assert!(one("SELECT map(list(k ORDER BY k), list(v ORDER BY k))").starts_with(
        "SELECT map_from_arrays(transform(array_sort(collect_list(named_struct('k0', k, 'v', k))), e__ -> e__.v)"
    ));
    assert!(translate("SELECT list(k ORDER BY k DESC)").is_err());
}

#[test]
fn macros_views_variables_and_unnest() {
    let s = translate(
        "CREATE OR REPLACE MACRO f(a, b) AS a * b; -- note\nCREATE OR REPLACE VIEW v AS SELECT f(x + 1, 2), coalesce(getvariable('bench_x'), 'y') FROM t, unnest(map_entries(m)) AS u(c)",
    )
    .unwrap();
    assert_eq!(
        s.statements,
        [
            "CREATE OR REPLACE TEMPORARY VIEW v AS SELECT ( (x + 1) * ( 2)), coalesce(bench_x, 'y') FROM t, LATERAL explode(map_entries(m)) AS u(c)"
        ]
    );
    assert_eq!(s.variables.iter().collect::<Vec<_>>(), ["bench_x"]);
}
