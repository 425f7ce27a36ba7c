-- The clusters `bench compare` resamples for the bootstrap interval of Δ weighted accuracy
-- between run B (variable bench_b) and run A (bench_a): one row per rendering and cluster, how
-- often each run answered right over the run indexes both completed (compare.sql's pairing). A
-- cluster is a question, or in a tasks or write run a task or case (its facts or document are
-- not independent of each other), so the interval is a paired bootstrap over tasks there.
WITH a AS (
    SELECT * FROM complete_answers WHERE benchmark_id = getvariable('bench_a')
),
b AS (
    SELECT * FROM complete_answers WHERE benchmark_id = getvariable('bench_b')
)
SELECT a.provider, a.model, a.format, a.structure, a.variant, a.records, a.primer, a.category,
       coalesce(a.task, a.question_id) AS cluster,
       sum(b.passed)::BIGINT AS passed,
       sum(a.passed)::BIGINT AS baseline_passed,
       count(*) AS total
FROM a
JOIN b USING (format, structure, variant, records, primer, run, question_id)
GROUP BY ALL
-- The resampling is seeded: this order (counts, not cluster ids) fixes its draws.
ORDER BY a.provider, a.model, a.format, a.structure, a.variant, a.records, a.primer, a.category,
         passed, baseline_passed, total;
