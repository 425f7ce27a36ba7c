-- The clusters `bench compare` resamples for the bootstrap interval of Δ weighted accuracy
-- between run B (variable bench_b) and run A (bench_a): one row per rendering and question, how
-- often each run answered it right over the run indexes both completed (compare.sql's pairing).
WITH a AS (
    SELECT * FROM complete_answers WHERE benchmark_id = getvariable('bench_a')
),
b AS (
    SELECT * FROM complete_answers WHERE benchmark_id = getvariable('bench_b')
)
SELECT a.provider, a.model, a.format, a.structure, a.variant, a.records, a.primer, a.category, a.question_id,
       sum(b.passed)::BIGINT AS passed,
       sum(a.passed)::BIGINT AS baseline_passed,
       count(*) AS total
FROM a
JOIN b USING (format, structure, variant, records, primer, run, question_id)
GROUP BY ALL
-- The resampling is seeded: this order (counts, not question ids) fixes its draws.
ORDER BY a.provider, a.model, a.format, a.structure, a.variant, a.records, a.primer, a.category, passed,
         baseline_passed, total;
