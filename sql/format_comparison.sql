-- Each format against the json_compact baseline of the same provider, structure, variant and
-- experiment (the data, its size and question set: `dataset`): Δ weighted accuracy in percentage points and the data token ratio.
WITH per_format AS (
    SELECT provider, model, format, structure, variant, records, dataset, experiment, primer,
           avg(weighted_accuracy) FILTER (WHERE NOT failed) AS weighted_accuracy,
           avg(ranked_tokens) AS data_tokens
    FROM runs
    GROUP BY ALL
)
SELECT
    f.provider, f.model, f.format, f.structure, f.variant, f.records, f.dataset, f.primer,
    round(100 * f.weighted_accuracy, 2) AS weighted_accuracy_pct,
    round(100 * (f.weighted_accuracy - b.weighted_accuracy), 2) AS delta_accuracy_pp,
    round(f.data_tokens)::BIGINT AS data_tokens,
    round(f.data_tokens / b.data_tokens, 3) AS token_ratio_vs_json_compact
FROM per_format AS f
JOIN per_format AS b
    ON b.format = 'json_compact'
    AND (b.provider, b.model, b.structure, b.variant, b.experiment, b.primer)
        = (f.provider, f.model, f.structure, f.variant, f.experiment, f.primer)
ORDER BY f.provider, f.model, f.records, f.dataset, f.experiment, f.structure, f.variant, token_ratio_vs_json_compact,
    f.format;
