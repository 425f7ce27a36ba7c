-- Does the verdict depend on the wording? Per model and data shape, each format's weighted
-- accuracy under each instruction wording (`--prompt-variants`: one wording per run, every
-- format of a run sharing it), averaged over that wording's complete runs; the format's spread
-- across wordings (max − min, percentage points); the most accurate formats under that wording
-- and over all wordings (a list: tied formats all count). Rows only for runs asked in more than
-- one wording. A tasks or write run is judged over all its tasks or cases (weighted accuracy:
-- the facts stated right, the documents exact): its shape is the suite ('tasks' · 'all' · 0).
-- A data shape is one experiment (`dataset` names the data): different data is never pooled.
WITH run_level AS (
    SELECT benchmark_id, run, provider || '/' || model AS provider,
           CASE WHEN suite IN ('tasks', 'write') THEN suite ELSE structure END AS structure,
           CASE WHEN suite IN ('tasks', 'write') THEN 'all' ELSE variant END AS variant,
           CASE WHEN suite IN ('tasks', 'write') THEN 0 ELSE records END AS records,
           dataset, experiment, primer, format, prompt_variant,
           avg(weighted_accuracy) AS accuracy
    FROM runs
    WHERE NOT failed AND suite <> 'corrupted'
    GROUP BY ALL
),
per AS (
    SELECT provider, structure, variant, records, dataset, experiment, primer, format,
           prompt_variant, avg(accuracy) AS accuracy, count(*) AS runs
    FROM run_level
    GROUP BY ALL
),
shapes AS (
    SELECT provider, structure, variant, records, dataset, experiment, primer
    FROM per
    GROUP BY ALL
    HAVING count(DISTINCT prompt_variant) > 1
),
scoped AS (
    SELECT * FROM per
    SEMI JOIN shapes USING (provider, structure, variant, records, dataset, experiment, primer)
),
best_per_wording AS (
    SELECT provider, structure, variant, records, dataset, experiment, primer, prompt_variant,
           list(format ORDER BY format) FILTER (WHERE accuracy >= top - 1e-9) AS best_formats
    FROM (SELECT *, max(accuracy) OVER (PARTITION BY provider, structure, variant, experiment,
                                                     primer, prompt_variant) AS top
          FROM scoped)
    GROUP BY ALL
),
overall AS (
    SELECT provider, structure, variant, records, dataset, experiment, primer, format,
           avg(accuracy) AS mean_accuracy, max(accuracy) - min(accuracy) AS spread
    FROM scoped
    GROUP BY ALL
),
best_overall AS (
    SELECT provider, structure, variant, records, dataset, experiment, primer,
           list(format ORDER BY format) FILTER (WHERE mean_accuracy >= top - 1e-9) AS best_overall
    FROM (SELECT *, max(mean_accuracy) OVER (PARTITION BY provider, structure, variant,
                                                          experiment, primer) AS top
          FROM overall)
    GROUP BY ALL
)
SELECT s.provider, s.structure, s.variant, s.records, s.dataset, s.primer, s.format,
       s.prompt_variant,
       round(100 * s.accuracy, 2) AS accuracy_pct, s.runs,
       round(100 * o.spread, 2) AS spread_pp,
       b.best_formats, bo.best_overall, s.experiment
FROM scoped AS s
JOIN overall AS o
    USING (provider, structure, variant, records, dataset, experiment, primer, format)
JOIN best_per_wording AS b
    USING (provider, structure, variant, records, dataset, experiment, primer, prompt_variant)
JOIN best_overall AS bo USING (provider, structure, variant, records, dataset, experiment, primer)
ORDER BY s.provider, s.structure, s.variant, s.records, s.dataset, s.experiment, s.primer,
         s.format, s.prompt_variant;
