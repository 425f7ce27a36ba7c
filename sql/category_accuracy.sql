-- Plain accuracy per question category of every rendering, with n and its Wilson 95 %
-- interval (answers of successful, non-warm-up calls).
SELECT
    provider, model, format, structure, variant, records, dataset, experiment, primer, category,
    count(*) AS n_answers,
    sum(passed)::BIGINT AS n_correct,
    avg(passed) AS accuracy,
    wilson_low(sum(passed), count(*)) AS wilson_low,
    wilson_high(sum(passed), count(*)) AS wilson_high
FROM answers
WHERE NOT warmup AND error IS NULL
GROUP BY ALL
ORDER BY provider, model, records, dataset, experiment, primer, structure, variant, format, category;
