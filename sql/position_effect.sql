-- Field-retrieval accuracy by where the target record sits in the data (start, middle or end
-- third of the records), per format: does the answer depend on position? From the answers of
-- successful, non-warm-up calls.
SELECT
    provider || '/' || model AS provider, format, structure, variant, primer, records, dataset,
    experiment,
    round(100 * avg(passed) FILTER (WHERE position = 'start'), 2) AS start_pct,
    round(100 * avg(passed) FILTER (WHERE position = 'middle'), 2) AS middle_pct,
    round(100 * avg(passed) FILTER (WHERE position = 'end'), 2) AS end_pct,
    round(100 * (avg(passed) FILTER (WHERE position = 'end')
               - avg(passed) FILTER (WHERE position = 'start')), 2) AS end_minus_start_pp,
    count(*) AS answers
FROM answers
WHERE NOT warmup AND error IS NULL AND position IS NOT NULL
GROUP BY ALL
ORDER BY provider, records, dataset, experiment, structure, variant, primer, format;
