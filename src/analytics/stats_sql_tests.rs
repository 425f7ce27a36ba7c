//! The statistics macros of sql/views.sql against textbook values: Wilson intervals from
//! Newcombe (1998, Table I, method 3), exact McNemar p-values from the binomial distribution,
//! and the power formula against Connor (1987) solved the other way.

use super::{VIEWS_SQL, connect};

const MACROS_MARKER: &str = "-- Statistics macros:";

fn db() -> duckdb::Connection {
    let conn = connect().unwrap();
    let i = VIEWS_SQL
        .find(MACROS_MARKER)
        .expect("views.sql has the macros section");
    conn.execute_batch(&VIEWS_SQL[i..]).unwrap();
    conn
}

fn scalar(conn: &duckdb::Connection, sql: &str) -> Option<f64> {
    conn.query_row(&format!("SELECT ({sql})::DOUBLE"), [], |r| r.get(0))
        .unwrap()
}

#[test]
fn wilson_matches_newcombe_1998() {
    let conn = db();
    // (k, n, lower, upper) to four decimals, as published.
    for (k, n, lo, hi) in [
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        (29, 29, 0.8830, 1.0),
        (263, 263, 0.9856, 1.0),
    ] {
        let l = scalar(&conn, &format!("wilson_low({k}, {n})")).unwrap();
        let h = scalar(&conn, &format!("wilson_high({k}, {n})")).unwrap();
        assert!((l - lo).abs() < 5e-5, "{k}/{n}: low {l} vs {lo}");
        assert!((h - hi).abs() < 5e-5, "{k}/{n}: high {h} vs {hi}");
    }
    assert_eq!(
        scalar(&conn, "wilson_low(0, 0)"),
        None,
        "no answers, no interval"
    );
    // All right: the upper bound is exactly 1 (not 1 + rounding), all wrong: the lower exactly 0.
    for n in [1, 7, 248, 1000, 123_457] {
        assert_eq!(scalar(&conn, &format!("wilson_high({n}, {n})")), Some(1.0));
        assert_eq!(scalar(&conn, &format!("wilson_low(0, {n})")), Some(0.0));
    }
}

#[test]
fn exact_mcnemar_is_the_two_sided_binomial_test() {
    let conn = db();
    // b, c, p = min(1, 2·P(X ≤ min(b, c))), X ~ Bin(b + c, ½).
    for (b, c, want) in [
        (2, 8, 0.109375),
        (8, 2, 0.109375),
        (0, 10, 0.001953125),
        (5, 5, 1.0),
        (0, 0, 1.0),
        (10, 25, 0.01667384780012071),
        (3, 17, 0.0025768280029296875),
        (40, 60, 0.05688793364098079),
    ] {
        let p = scalar(&conn, &format!("mcnemar_exact_p({b}, {c})")).unwrap();
        assert!(
            (p - want).abs() < 1e-12 * want.max(1e-3),
            "({b}, {c}): {p} vs {want}"
        );
    }
}

#[test]
fn detectable_difference_solves_connors_formula() {
    let conn = db();
    for (n, pd) in [(372.0, 0.1), (124.0, 0.05), (1000.0, 0.3), (50.0, 0.5)] {
        let d = scalar(&conn, &format!("mcnemar_mde({n}, {pd})")).unwrap();
        let back = scalar(&conn, &format!("mcnemar_pairs_needed({pd}, {d})")).unwrap();
        assert!(
            (back - n).abs() < 1e-6 * n,
            "n {n}, pd {pd}: δ {d} needs {back}"
        );
    }
    // Worked value: 372 pairs at 10 % discordance detect about 4.58 points.
    let d = scalar(&conn, "mcnemar_mde(372, 0.1)").unwrap();
    assert!((d - 0.045788).abs() < 1e-5, "{d}");
    // More pairs detect smaller differences; no discordance gives nothing to work from.
    let big = scalar(&conn, "mcnemar_mde(3720, 0.1)").unwrap();
    assert!(big < d / 3.0);
    assert_eq!(scalar(&conn, "mcnemar_mde(100, 0.0)"), None);
    // Below z_α² − z_β² ≈ 3.13 pairs the formula has no root: no detectable difference, no error.
    for n in 1..=3 {
        assert_eq!(
            scalar(&conn, &format!("mcnemar_mde({n}, 0.5)")),
            None,
            "n {n}"
        );
    }
    assert!(scalar(&conn, "mcnemar_mde(4, 0.5)").is_some());
    assert_eq!(scalar(&conn, "mcnemar_pairs_needed(0.1, 0.0)"), None);
    // Textbook size: 10 % discordance, 5-point difference → about 312 pairs.
    let n = scalar(&conn, "mcnemar_pairs_needed(0.1, 0.05)").unwrap();
    assert!((n - 311.9).abs() < 1.0, "{n}");
}
