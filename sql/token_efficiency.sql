-- Token efficiency of every rendering per tokenizer counted: data tokens, characters per token,
-- tokens per non-null value and tokens per object (record or nested object), each ranked among
-- the formats of one data shape and tokenizer (1 = best: most characters per token, fewest
-- tokens per value or object; ties share a rank). A data shape is one experiment (`dataset`
-- names the data and its size): different data is never pooled.
WITH per_rendering AS (
    SELECT
        format, structure, variant, records, dataset, experiment, e.key AS tokenizer,
        -- A tasks run's rendering is its whole task set: one call per task, so the sum.
        round(avg(e.value) * count(DISTINCT coalesce(task, '')))::BIGINT AS tokens,
        avg(data_chars / e.value) AS chars_per_token,
        avg(e.value / data_values) AS tokens_per_value,
        -- Null when the data has no records (objects) to count, as some task data has not.
        avg(e.value / nullif(data_objects, 0)) AS tokens_per_object
    FROM results, unnest(map_entries(data_tokens)) AS t(e)
    -- A rendering whose values were not counted (an imported data file bench's decoder
    -- refuses, as the seed's yaml) has no per-value figures to rank.
    WHERE NOT warmup AND data_values > 0
    GROUP BY ALL
)
-- Ranked on values rounded to 9 places: a parallel average differs in its last bits from one
-- run to the next, which would break a true tie differently each time.
SELECT *,
    rank() OVER (PARTITION BY structure, variant, experiment, tokenizer
                 ORDER BY round(chars_per_token, 9) DESC) AS rank_chars_per_token,
    rank() OVER (PARTITION BY structure, variant, experiment, tokenizer
                 ORDER BY round(tokens_per_value, 9)) AS rank_tokens_per_value,
    CASE WHEN tokens_per_object IS NOT NULL THEN rank() OVER (
        PARTITION BY structure, variant, experiment, tokenizer
        ORDER BY round(tokens_per_object, 9)) END AS rank_tokens_per_object
FROM per_rendering
ORDER BY records, dataset, experiment, structure, variant, tokenizer, tokens, format;
