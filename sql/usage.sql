-- What each rendering cost per provider/model: calls, failures, token usage as the API
-- reported it, dollars and latency (mean, median, 95th percentile). Measured calls only; the
-- warm-up calls that primed prompt caches are counted and priced separately.
SELECT
    provider, model, format, structure, variant, records, dataset, experiment, primer,
    count(*) FILTER (WHERE NOT warmup) AS calls,
    count(*) FILTER (WHERE NOT warmup AND error IS NOT NULL) AS failed_calls,
    count(*) FILTER (WHERE NOT warmup AND cached) AS cached_calls,
    sum(input_tokens) FILTER (WHERE NOT warmup) AS input_tokens,
    sum(output_tokens) FILTER (WHERE NOT warmup) AS output_tokens,
    sum(reasoning_tokens) FILTER (WHERE NOT warmup) AS reasoning_tokens,
    sum(cache_read_tokens) FILTER (WHERE NOT warmup) AS cache_read_tokens,
    sum(cache_write_tokens) FILTER (WHERE NOT warmup) AS cache_write_tokens,
    sum(cost_usd) FILTER (WHERE NOT warmup) AS cost_usd,
    count(*) FILTER (WHERE warmup) AS warmup_calls,
    coalesce(sum(cost_usd) FILTER (WHERE warmup), 0) AS warmup_cost_usd,
    avg(latency_ms) FILTER (WHERE NOT warmup) AS latency_mean_ms,
    quantile_cont(latency_ms, 0.5) FILTER (WHERE NOT warmup) AS latency_p50_ms,
    quantile_cont(latency_ms, 0.95) FILTER (WHERE NOT warmup) AS latency_p95_ms
FROM results
GROUP BY ALL
ORDER BY provider, model, records, dataset, experiment, primer, structure, variant, format;
