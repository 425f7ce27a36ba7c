-- Data tokens per non-null value, one column per tokenizer counted, per rendering.
PIVOT (
    SELECT format, structure, variant, records, dataset, experiment, e.key AS tokenizer,
           round(avg(e.value / data_values), 3) AS tokens_per_value
    FROM results, unnest(map_entries(data_tokens)) AS t(e)
    WHERE NOT warmup
    GROUP BY ALL
)
ON tokenizer
USING first(tokens_per_value)
ORDER BY records, dataset, experiment, structure, variant, format;
