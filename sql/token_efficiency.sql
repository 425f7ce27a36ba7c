-- Token efficiency of every rendering per tokenizer counted: data tokens, characters per token,
-- tokens per non-null value and tokens per object (record or nested object).
SELECT
    format, structure, variant, records, e.key AS tokenizer,
    round(avg(e.value))::BIGINT AS tokens,
    avg(data_chars / e.value) AS chars_per_token,
    avg(e.value / data_values) AS tokens_per_value,
    avg(e.value / data_objects) AS tokens_per_object
FROM results, unnest(map_entries(data_tokens)) AS t(e)
WHERE NOT warmup
GROUP BY ALL
ORDER BY records, structure, variant, tokenizer, tokens, format;
