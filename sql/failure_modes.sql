-- Why answers fail: every failed answer of a successful, non-warm-up call by its kind (docs/formats-suite.md,
-- "Wrong-answer taxonomy"), per provider/model and rendering (format, structure, variant,
-- records, primer), as a count and as a share of the rendering's answers and of its failures.
-- Beside it, per rendering, the "right value, wrong form" rate: the share of passed answers
-- that needed a normalisation (docs/formats-suite.md, "Normalisation policy"), and which ones were needed.
-- A rendering with no failed answer has one row with failure null. Logs from before the
-- taxonomy show their failures as `unclassified` and no wrong-form rate.
WITH a AS (
    SELECT provider || '/' || model AS provider, format, structure, variant, records, dataset,
           experiment, primer, passed, failure, normalization
    FROM answers
    WHERE NOT warmup AND error IS NULL
),
renderings AS (
    SELECT provider, format, structure, variant, records, dataset, experiment, primer,
           count(*) AS answers,
           count(*) FILTER (WHERE passed = 0) AS failed_answers,
           round(100 * count(*) FILTER (WHERE passed = 1 AND len(normalization) > 0)
                 / nullif(count(*) FILTER (WHERE passed = 1 AND normalization IS NOT NULL), 0),
                 2) AS wrong_form_pct
    FROM a
    GROUP BY ALL
),
norm_counts AS (
    SELECT provider, format, structure, variant, records, experiment, primer, t.name,
           count(*) AS n
    FROM a, unnest(normalization) AS t(name)
    WHERE passed = 1
    GROUP BY ALL
),
norms AS (
    SELECT provider, format, structure, variant, records, experiment, primer,
           string_agg(name || ': ' || n, ', ' ORDER BY n DESC, name) AS normalizations
    FROM norm_counts
    GROUP BY ALL
),
kinds AS (
    SELECT provider, format, structure, variant, records, experiment, primer,
           coalesce(failure, 'unclassified') AS failure, count(*) AS n
    FROM a
    WHERE passed = 0
    GROUP BY ALL
)
SELECT
    r.provider, r.format, r.structure, r.variant, r.records, r.dataset, r.experiment, r.primer,
    k.failure,
    coalesce(k.n, 0) AS failed,
    r.answers,
    round(100 * coalesce(k.n, 0) / r.answers, 2) AS pct_of_answers,
    round(100 * k.n / nullif(r.failed_answers, 0), 2) AS pct_of_failures,
    r.wrong_form_pct,
    m.normalizations
FROM renderings AS r
LEFT JOIN kinds AS k USING (provider, format, structure, variant, records, experiment, primer)
LEFT JOIN norms AS m USING (provider, format, structure, variant, records, experiment, primer)
ORDER BY r.provider, r.records, r.dataset, r.experiment, r.primer, r.structure, r.variant, r.format,
         failed DESC, k.failure;
