-- Weighted accuracy of every run, recomputed from its individual answers (not copied from the
-- result summaries): Σ weight · passed/total per category over the categories present, divided
-- by their weights. Weights come from each run's metadata line (the `category_weights` view). `reported` is what bench wrote
-- on the result line (one-prompt mode; in per-question mode a result holds one question, so null).
WITH per_category AS (
    SELECT benchmark_id, provider, model, format, structure, variant, records, primer, run,
           category, avg(passed) AS accuracy
    FROM answers
    WHERE NOT warmup
    GROUP BY ALL
),
recomputed AS (
    SELECT benchmark_id, provider, model, format, structure, variant, records, primer, run,
           sum(accuracy * weight) / sum(weight) AS weighted_accuracy
    FROM per_category
    JOIN category_weights USING (benchmark_id, category)
    GROUP BY ALL
),
one_prompt AS (
    SELECT * FROM results WHERE NOT warmup AND question IS NULL
)
SELECT
    c.benchmark_id, c.provider, c.model, c.format, c.structure, c.variant, c.records, c.primer,
    c.run, c.weighted_accuracy,
    r.weighted_accuracy AS reported,
    abs(c.weighted_accuracy - r.weighted_accuracy) < 1e-9 AS matches
FROM recomputed AS c
LEFT JOIN one_prompt AS r
    USING (benchmark_id, provider, model, format, structure, variant, records, primer, run)
ORDER BY c.benchmark_id, c.provider, c.model, c.format, c.structure, c.variant, c.records,
         c.primer, c.run;
