-- A tasks run compared with another (`bench compare`), per format and task: the fact accuracy
-- of run A (variable bench_a) and run B (bench_b) over the same facts and run indexes, and
-- Δ = B − A in percentage points. compare.sql tests the pooled difference per format, with a
-- bootstrap that resamples whole tasks; this table shows where it comes from.
WITH a AS (
    SELECT * FROM complete_answers
    WHERE benchmark_id = getvariable('bench_a') AND task IS NOT NULL
),
b AS (
    SELECT * FROM complete_answers WHERE benchmark_id = getvariable('bench_b')
)
SELECT a.format, a.primer, a.task,
       count(*) AS facts,
       count(DISTINCT a.run) AS runs,
       avg(a.passed) AS a_accuracy,
       avg(b.passed) AS b_accuracy,
       100 * (avg(b.passed) - avg(a.passed)) AS delta_pp
FROM a
JOIN b USING (format, structure, variant, records, primer, run, question_id)
GROUP BY ALL
ORDER BY a.task, a.primer, a.format;
