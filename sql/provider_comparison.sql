-- Providers/models side by side over every format, per experiment (`dataset`: the data asked
-- about, its size and question set; accuracy on different data is never averaged together),
-- warm-ups excluded; accuracy over successful runs, failed calls counted.
SELECT
    dataset,
    provider,
    model,
    sum(calls)::BIGINT AS calls,
    sum(errors)::BIGINT AS errors,
    round(100 * avg(weighted_accuracy) FILTER (WHERE NOT failed), 2) AS weighted_accuracy_pct,
    round(100 * avg(pass_rate) FILTER (WHERE NOT failed), 2) AS pass_rate_pct,
    round(avg(latency_ms)) AS avg_latency_ms,
    sum(input_tokens)::BIGINT AS input_tokens,
    sum(output_tokens)::BIGINT AS output_tokens,
    sum(reasoning_tokens)::BIGINT AS reasoning_tokens,
    sum(cache_read_tokens)::BIGINT AS cache_read_tokens,
    sum(cache_write_tokens)::BIGINT AS cache_write_tokens,
    round(sum(cost_usd), 4) AS cost_usd,
    experiment
FROM runs
GROUP BY ALL
ORDER BY dataset, experiment, weighted_accuracy_pct DESC NULLS LAST, provider, model;
