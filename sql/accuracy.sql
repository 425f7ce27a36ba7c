-- Accuracy of every rendering per provider/model, with its uncertainty: plain accuracy over the
-- answers of successful calls with its Wilson 95 % interval and n, and weighted accuracy over
-- runs (mean, min, max, sample stdev). Warm-ups are excluded; failed calls are counted in
-- failed_calls and left out of the averages. (The bootstrap interval of weighted accuracy is
-- computed by `bench report`, which needs resampling SQL cannot express.) Ranks (1 = best, ties
-- share a rank, null when the value is) are within each comparison family: provider/model,
-- structure, variant, experiment (the data, its size and question set, named by `dataset`)
-- and primer setting; rows of different experiments are never pooled. data_tokens (and
-- efficiency) use the model's own counts where its provider counted them (token_basis names
-- which), else o200k_base; data_tokens_o200k keeps the offline count for comparison.
WITH plain AS (
    SELECT provider, model, format, structure, variant, records, dataset, experiment, primer,
           count(*) AS n_answers,
           sum(passed)::BIGINT AS n_correct
    FROM answers
    WHERE NOT warmup AND error IS NULL
    GROUP BY ALL
),
per_run AS (
    SELECT provider, model, format, structure, variant, records, dataset, experiment, primer,
           count(*) FILTER (WHERE NOT failed) AS runs,
           sum(calls)::BIGINT AS calls,
           sum(errors)::BIGINT AS failed_calls,
           avg(weighted_accuracy) FILTER (WHERE NOT failed) AS weighted_accuracy,
           min(weighted_accuracy) FILTER (WHERE NOT failed) AS weighted_min,
           max(weighted_accuracy) FILTER (WHERE NOT failed) AS weighted_max,
           stddev_samp(weighted_accuracy) FILTER (WHERE NOT failed) AS weighted_stdev,
           avg(ranked_tokens) AS data_tokens,
           avg(data_tokens_o200k) AS data_tokens_o200k,
           min(token_basis) AS token_basis
    FROM runs
    GROUP BY ALL
),
scored AS (
SELECT
    r.provider, r.model, r.format, r.structure, r.variant, r.records, r.dataset,
    r.experiment, r.primer,
    coalesce(p.n_answers, 0) AS n_answers,
    coalesce(p.n_correct, 0) AS n_correct,
    p.n_correct / p.n_answers AS accuracy,
    wilson_low(p.n_correct, p.n_answers) AS wilson_low,
    wilson_high(p.n_correct, p.n_answers) AS wilson_high,
    r.weighted_accuracy,
    r.runs,
    r.weighted_min,
    r.weighted_max,
    r.weighted_stdev,
    r.calls,
    r.failed_calls,
    round(r.data_tokens)::BIGINT AS data_tokens,
    round(r.data_tokens_o200k)::BIGINT AS data_tokens_o200k,
    r.token_basis,
    100 * r.weighted_accuracy / (r.data_tokens / 1000) AS efficiency
FROM per_run AS r
LEFT JOIN plain AS p
    USING (provider, model, format, structure, variant, records, experiment, primer)
)
-- Ranked on values rounded to 9 places: a parallel average differs in its last bits from one
-- run to the next, which would break a true tie differently each time.
SELECT *,
    CASE WHEN weighted_accuracy IS NOT NULL THEN rank() OVER (
        PARTITION BY provider, model, structure, variant, experiment, primer
        ORDER BY round(weighted_accuracy, 9) DESC NULLS LAST) END AS rank_weighted,
    CASE WHEN accuracy IS NOT NULL THEN rank() OVER (
        PARTITION BY provider, model, structure, variant, experiment, primer
        ORDER BY round(accuracy, 9) DESC NULLS LAST) END AS rank_accuracy,
    CASE WHEN efficiency IS NOT NULL THEN rank() OVER (
        PARTITION BY provider, model, structure, variant, experiment, primer
        ORDER BY round(efficiency, 9) DESC NULLS LAST) END AS rank_efficiency
FROM scored
ORDER BY provider, model, records, dataset, experiment, primer, structure, variant,
         weighted_accuracy DESC NULLS LAST, data_tokens, format;
