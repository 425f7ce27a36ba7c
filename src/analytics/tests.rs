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

#[test]
fn normal_tail_matches_textbook_quantiles() {
    let conn = db();
    // (x, P(Z > x)) from the standard normal table.
    for (x, want) in [
        (0.0, 0.5),
        (1.6448536269514722, 0.05),
        (1.959963984540054, 0.025),
        (2.5758293035489004, 0.005),
        (-1.6448536269514722, 0.95),
        (3.090232306167813, 0.001),
    ] {
        let p = scalar(&conn, &format!("normal_sf({x})")).unwrap();
        assert!((p - want).abs() < 1e-7, "{x}: {p} vs {want}");
    }
}

#[test]
fn normal_tail_evaluates_its_argument_once() {
    // A macro copies its argument wherever the body names it; normal_sf's argument is Tango's
    // statistic, so every copy was planned again (a third of a report's time). A sequence
    // shows how often the argument runs: once, and the value is that of its first number.
    let conn = db();
    conn.execute_batch("CREATE SEQUENCE s;").unwrap();
    let p = scalar(&conn, "normal_sf(nextval('s'))").unwrap();
    assert_eq!(scalar(&conn, "currval('s')"), Some(1.0));
    assert_eq!(Some(p), scalar(&conn, "normal_sf(1)"));
    assert!((p - 0.15865525393145707).abs() < 1e-7, "{p}");
    assert_eq!(scalar(&conn, "normal_sf(NULL)"), None);
}

/// Tables (n11, n12, n21, n22), α and Tango's interval as computed by an independent
/// implementation: `Tango_asymptotic_score_CI_paired_2x2` of the R package contingencytables
/// 3.0.0 (Fagerland, Lydersen and Laake), run here under R 4.2.2 (uniroot, tol 1e-7). The first
/// is the book's worked example (Cavo et al. 2012; published: −0.0621, 95 % CI −0.1240 to
/// −0.0054), the second Bentur et al. 2009; the others cover all-concordant, one-cell and
/// positive tables.
const TANGO_R: [(i64, i64, i64, i64, f64, f64, f64); 22] = [
    (59, 6, 16, 80, 0.05, -0.1240234325, -0.0054333957),
    (59, 6, 16, 80, 0.10, -0.1131260531, -0.0150583459),
    (1, 1, 7, 12, 0.05, -0.5172322764, -0.0260030317),
    (1, 1, 7, 12, 0.10, -0.4816224916, -0.0746307592),
    (0, 3, 0, 0, 0.05, -0.1229940635, 1.0),
    (0, 3, 0, 0, 0.10, 0.0516088482, 1.0),
    (0, 0, 3, 0, 0.05, -1.0, 0.1229940635),
    (0, 0, 3, 0, 0.10, -1.0, -0.0516088482),
    (40, 10, 5, 45, 0.05, -0.0286195563, 0.1334712932),
    (40, 10, 5, 45, 0.10, -0.0147559707, 0.1185961140),
    (90, 2, 4, 4, 0.05, -0.0816224961, 0.0358995707),
    (90, 2, 4, 4, 0.10, -0.0692505515, 0.0245012591),
    (100, 0, 0, 0, 0.05, -0.0369935028, 0.0369935028),
    (100, 0, 0, 0, 0.10, -0.0263427231, 0.0263427231),
    (50, 7, 7, 36, 0.05, -0.0797246261, 0.0797246261),
    (50, 7, 7, 36, 0.10, -0.0654581423, 0.0654581423),
    (120, 3, 9, 0, 0.05, -0.1055239138, 0.0069468466),
    (120, 3, 9, 0, 0.10, -0.0943409219, -0.0025544324),
    (30, 0, 5, 1, 0.05, -0.2865953039, -0.0290787841),
    (30, 0, 5, 1, 0.10, -0.2589843054, -0.0592797914),
    (200, 12, 4, 30, 0.05, 0.0007338389, 0.0693644065),
    (200, 12, 4, 30, 0.10, 0.0062970228, 0.0625622876),
];

#[test]
fn tango_interval_matches_the_published_example_and_an_independent_implementation() {
    let conn = db();
    for (n11, b, c, n22, alpha, lo, hi) in TANGO_R {
        let n = n11 + b + c + n22;
        let z = if alpha == 0.05 {
            1.959963984540054
        } else {
            1.6448536269514722
        };
        let l = scalar(&conn, &format!("tango_low({b}, {c}, {n}, {z})")).unwrap();
        let h = scalar(&conn, &format!("tango_high({b}, {c}, {n}, {z})")).unwrap();
        // R's uniroot stops within 1e-7.
        assert!(
            (l - lo).abs() < 2e-7,
            "{b},{c},{n} α {alpha}: low {l} vs {lo}"
        );
        assert!(
            (h - hi).abs() < 2e-7,
            "{b},{c},{n} α {alpha}: high {h} vs {hi}"
        );
    }
    // The book's rounding of the worked example.
    let l = scalar(&conn, "round(tango_low(6, 16, 161, 1.959963984540054), 4)").unwrap();
    let h = scalar(&conn, "round(tango_high(6, 16, 161, 1.959963984540054), 4)").unwrap();
    assert_eq!((l, h), (-0.124, -0.0054));
}

#[test]
fn normal_quantile_inverts_the_tail() {
    let conn = db();
    for (p, z) in [
        (0.5, 0.0),
        (0.05, 1.6448536269514722),
        (0.025, 1.959963984540054),
        (0.005, 2.5758293035489004),
        (0.001, 3.090232306167813),
        (0.2, 0.8416212335729143),
        (0.95, -1.6448536269514722),
        (1e-6, 4.753424308817089),
    ] {
        let got = scalar(&conn, &format!("normal_tail_quantile({p})")).unwrap();
        assert!(
            (got - z).abs() < 1e-8 * z.abs().max(1.0),
            "{p}: {got} vs {z}"
        );
    }
}

#[test]
fn noninferiority_is_the_one_sided_tango_test_and_its_boundary_is_not_noninferior() {
    let conn = db();
    // The 90 % lower bound above −m ⇔ p < 0.05: both sides of a bound from the table above.
    // (40, 10, 5, 45): 90 % lower bound −0.01476.
    let p = |m: f64| scalar(&conn, &format!("noninferiority_p(10, 5, 100, {m})")).unwrap();
    assert!(
        p(0.0148) < 0.05 && p(0.0147) > 0.05,
        "{} {}",
        p(0.0148),
        p(0.0147)
    );
    assert!(
        (p(0.014755970700) - 0.05).abs() < 1e-6,
        "{}",
        p(0.0147559707)
    );
    // Δ̂ = −m exactly: z = 0, p = ½, not non-inferior at any α below ½.
    let at = scalar(&conn, "noninferiority_p(3, 5, 100, 0.02)").unwrap();
    assert!((at - 0.5).abs() < 1e-7, "{at}");
    // Equal answers on 200 pairs: shown within 2 points (no discordance at all).
    let same = scalar(&conn, "noninferiority_p(0, 0, 200, 0.02)").unwrap();
    assert!(same < 0.05, "{same}");
    assert!(scalar(&conn, "noninferiority_p(0, 0, 100, 0.02)").unwrap() > 0.05);
}

#[test]
fn noninferiority_sample_size_is_met_by_the_test_it_plans() {
    let conn = db();
    // With no discordance, the planned pairs make z_α exactly: 2.706·(1 − m)/m pairs.
    let n = scalar(&conn, "noninferiority_pairs_needed(0.0, 0.0, 0.02, 0.05)").unwrap();
    assert!(
        (n - 1.6448536269514722f64.powi(2) * 0.98 / 0.02).abs() < 1e-6,
        "{n}"
    );
    let p = |pairs: f64| scalar(&conn, &format!("noninferiority_p(0, 0, {pairs}, 0.02)")).unwrap();
    assert!(p(n.ceil()) < 0.05 && p(n.floor() - 1.0) > 0.05);
    // A stricter level (Bonferroni over 7 formats) needs more pairs.
    let strict = scalar(
        &conn,
        "noninferiority_pairs_needed(0.0, 0.0, 0.02, 0.05 / 7)",
    )
    .unwrap();
    assert!(
        (strict - 2.449997660602729f64.powi(2) * 0.98 / 0.02).abs() < 0.01,
        "{strict}"
    );
    // A true difference at or below −m can never be shown non-inferior.
    assert_eq!(
        scalar(&conn, "noninferiority_pairs_needed(0.1, -0.02, 0.02, 0.05)"),
        None
    );
    // More discordance, more pairs; a better format, fewer.
    let base = scalar(&conn, "noninferiority_pairs_needed(0.1, 0.0, 0.02, 0.05)").unwrap();
    assert!(base > n);
    assert!(scalar(&conn, "noninferiority_pairs_needed(0.1, 0.02, 0.02, 0.05)").unwrap() < base);
}
