-- Accuracy per question category for each format, structure and variant (from the answers of
-- successful, non-warm-up calls).
SELECT
    provider || '/' || model AS provider,
    format,
    structure,
    variant,
    primer,
    records,
    dataset,
    experiment,
    round(100 * avg(passed) FILTER (WHERE category = 'field_retrieval'), 2) AS field_retrieval_pct,
    round(100 * avg(passed) FILTER (WHERE category = 'structure_awareness'), 2) AS structure_awareness_pct,
    round(100 * avg(passed) FILTER (WHERE category = 'filtering'), 2) AS filtering_pct,
    round(100 * avg(passed) FILTER (WHERE category = 'aggregation'), 2) AS aggregation_pct,
    count(*) AS answers
FROM answers
WHERE NOT warmup AND error IS NULL
GROUP BY ALL
ORDER BY provider, records, dataset, experiment, structure, variant, format;
