-- Two runs of one suite on the same data, answer by answer (`bench compare A B`): run A is the
-- run log whose benchmark_id is the variable bench_a, run B bench_b; their models may differ
-- (provider and model below are A's).
-- Answers are paired by (format, structure, variant, records, primer, run index, question) over
-- complete runs (views.sql `complete_answers`). Per rendering: plain accuracy of A and B over
-- the pairs, weighted accuracy of each (mean over the run indexes both completed), Δ = B − A in
-- percentage points, the discordant pairs, the exact McNemar p with Holm across the renderings,
-- and non-inferiority of B against A within the margin (bench_margin, points; default 2):
-- the lower bound of Tango's 90 % interval, the one-sided Tango p and its Holm adjustment.
-- For a write run, also the first-shot exact rate of each over the same cases and runs (the
-- final one is the accuracy). `bench compare` adds the clustered bootstrap interval of Δ
-- weighted (compare_pairs.sql) and the second half of the non-inferiority rule.
WITH a AS (
    SELECT * FROM complete_answers WHERE benchmark_id = getvariable('bench_a')
),
b AS (
    SELECT * FROM complete_answers WHERE benchmark_id = getvariable('bench_b')
),
pairs AS (
    SELECT a.provider, a.model, a.format, a.structure, a.variant, a.records, a.primer, a.run,
           a.question_id, a.passed AS a_passed, b.passed AS b_passed
    FROM a
    JOIN b USING (format, structure, variant, records, primer, run, question_id)
),
counts AS (
    SELECT provider, model, format, structure, variant, records, primer,
           count(*) AS n_pairs,
           count(DISTINCT run) AS runs,
           avg(a_passed) AS a_accuracy,
           avg(b_passed) AS b_accuracy,
           count(*) FILTER (WHERE b_passed = 1 AND a_passed = 0) AS b_only,
           count(*) FILTER (WHERE b_passed = 0 AND a_passed = 1) AS a_only
    FROM pairs
    GROUP BY ALL
),
weighted AS (
    SELECT ra.format, ra.structure, ra.variant, ra.records, ra.primer,
           avg(ra.weighted_accuracy) AS a_weighted,
           avg(rb.weighted_accuracy) AS b_weighted
    FROM runs AS ra
    JOIN runs AS rb USING (format, structure, variant, records, primer, run)
    WHERE ra.benchmark_id = getvariable('bench_a') AND rb.benchmark_id = getvariable('bench_b')
      AND NOT ra.failed AND NOT rb.failed
    GROUP BY ALL
),
-- A write run's renderings are one per output (views.sql result_keys: structure 'cases').
first_shot AS (
    SELECT a.output AS format, 'cases' AS structure, 'mixed' AS variant, a.primer,
           avg(a.first_exact::INTEGER) AS a_first_exact,
           avg(b.first_exact::INTEGER) AS b_first_exact
    FROM write_results AS a
    JOIN write_results AS b USING (output, case_id, kind, run, primer)
    WHERE a.benchmark_id = getvariable('bench_a') AND b.benchmark_id = getvariable('bench_b')
      AND a.error IS NULL AND b.error IS NULL
    GROUP BY ALL
),
tested AS (
    SELECT c.*, w.a_weighted, w.b_weighted, f.a_first_exact, f.b_first_exact,
           coalesce(getvariable('bench_margin')::DOUBLE, 2.0) / 100 AS margin,
           mcnemar_exact_p(c.b_only, c.a_only) AS p_value,
           noninferiority_p(c.b_only, c.a_only, c.n_pairs,
                            coalesce(getvariable('bench_margin')::DOUBLE, 2.0) / 100) AS ni_p,
           count(*) OVER () AS family_size
    FROM counts AS c
    LEFT JOIN weighted AS w USING (format, structure, variant, records, primer)
    LEFT JOIN first_shot AS f USING (format, structure, variant, primer)
),
ranked AS (
    SELECT *,
           row_number() OVER (ORDER BY p_value, format, structure, variant, records, primer)
               AS holm_rank,
           row_number() OVER (ORDER BY ni_p, format, structure, variant, records, primer)
               AS ni_holm_rank
    FROM tested
),
holm AS (
    SELECT *,
           max(least(1.0, (family_size - holm_rank + 1) * p_value)) OVER (
               ORDER BY holm_rank ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS p_holm,
           max(least(1.0, (family_size - ni_holm_rank + 1) * ni_p)) OVER (
               ORDER BY ni_holm_rank ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS ni_p_holm
    FROM ranked
)
SELECT provider, model, format, structure, variant, records, primer, n_pairs, runs,
       a_accuracy, b_accuracy, a_weighted, b_weighted,
       100 * (b_weighted - a_weighted) AS delta_weighted_pp,
       100 * (b_only - a_only) / n_pairs AS delta_accuracy_pp,
       b_only, a_only, p_value, p_holm,
       p_holm < 0.05 AND b_only < a_only AS regression,
       p_holm < 0.05 AND b_only > a_only AS improvement,
       100 * margin AS margin_pp,
       100 * tango_low(b_only, a_only, n_pairs, 1.6448536269514722) AS ni_low_pp,
       ni_p, ni_p_holm,
       ni_p_holm < 0.05 AS ni_significant,
       a_first_exact, b_first_exact,
       100 * (b_first_exact - a_first_exact) AS delta_first_exact_pp
FROM holm
ORDER BY records, primer, structure, variant, format;
