-- Tokens and accuracy against record count, per format: the tokens-per-record slope, its
-- intercept and fit (r²) over the sizes of a sweep (`bench run --records 31,100,300,1000`), so
-- "scales linearly" is a measured claim. With a single size the fit columns are null. The
-- sizes of one data source are fitted together (`data`: the file, or the product seed), never
-- those of different data.
WITH per_size AS (
    SELECT
        provider || '/' || model AS provider, format, structure, variant, primer, records,
        -- The data without its size (`orders.csv`, `products seed 42`): a sweep's sizes
        -- are fitted together, different data never.
        suite, split_part(dataset, ' · ', 1) AS data,
        avg(ranked_tokens) AS data_tokens,
        avg(weighted_accuracy) FILTER (WHERE NOT failed) AS weighted_accuracy,
        count(*) FILTER (WHERE NOT failed) AS runs
    FROM runs
    GROUP BY ALL
)
SELECT
    provider, data, format, structure, variant, primer, records,
    round(data_tokens)::BIGINT AS data_tokens,
    round(data_tokens / records, 2) AS tokens_per_record,
    round(100 * weighted_accuracy, 2) AS weighted_accuracy_pct,
    round(regr_slope(data_tokens, records) OVER w, 3) AS slope_tokens_per_record,
    round(regr_intercept(data_tokens, records) OVER w, 1) AS intercept_tokens,
    round(regr_r2(data_tokens, records) OVER w, 6) AS r2,
    round(100000 * regr_slope(weighted_accuracy, records) OVER w, 3) AS accuracy_pp_per_1000_records,
    runs
FROM per_size
WINDOW w AS (PARTITION BY provider, suite, data, format, structure, variant, primer)
ORDER BY provider, data, structure, variant, primer, format, records;
