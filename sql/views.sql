-- Staging: the only file that reads the raw JSONL run logs. Every report in sql/ builds on
-- these three views. The root folder comes from the variable bench_root (default 'data'):
--   duckdb -c "SET VARIABLE bench_root = 'data'; .read sql/views.sql; .read sql/rankings.sql"
-- Corrupt or truncated lines (a crash mid-write) are skipped (ignore_errors); `bench query`
-- also names them in a warning.

-- Seed-003 view: one row per JSONL line, the payload kept as JSON.
CREATE OR REPLACE VIEW benchmarks AS
SELECT
    regexp_extract(filename, '/benchmarks/([^/]+)/[^/]+\.jsonl$', 1) AS ts,
    regexp_extract(filename, '/benchmarks/[^/]+/([^/]+)\.jsonl$', 1) AS suite,
    type,
    data ->> 'benchmark_id' AS benchmark_id,
    data ->> 'timestamp' AS benchmark_timestamp,
    data -> 'provider_config' ->> 'provider' AS provider,
    data -> 'provider_config' ->> 'model' AS model,
    data -> 'sample' ->> 'tag' AS sample_tag,
    data -> 'summary' ->> 'avg_score' AS avg_score,
    data -> 'summary' ->> 'pass_rate' AS pass_rate,
    data
FROM read_json(
    coalesce(getvariable('bench_root'), 'data') || '/benchmarks/*/*.jsonl',
    format = 'newline_delimited',
    columns = {type: 'VARCHAR', data: 'JSON'},
    filename = true,
    ignore_errors = true
);

-- Result lines parsed once into typed structs (the prompt text is never materialized).
CREATE OR REPLACE VIEW result_lines AS
SELECT
    regexp_extract(filename, '/benchmarks/([^/]+)/[^/]+\.jsonl$', 1) AS ts,
    regexp_extract(filename, '/benchmarks/[^/]+/([^/]+)\.jsonl$', 1) AS suite,
    data AS r
FROM read_json(
    coalesce(getvariable('bench_root'), 'data') || '/benchmarks/*/*.jsonl',
    format = 'newline_delimited',
    columns = {
        type: 'VARCHAR',
        data: 'STRUCT(
            benchmark_id VARCHAR,
            provider_config STRUCT(provider VARCHAR, model VARCHAR),
            sample STRUCT(tag VARCHAR, duration_ms BIGINT, start_time_ms BIGINT),
            metrics STRUCT(metric VARCHAR, category VARCHAR, passed INTEGER, score DOUBLE,
                           reason VARCHAR, expected JSON, actual JSON, validation VARCHAR,
                           position STRUCT(label VARCHAR, "index" INTEGER))[],
            summary STRUCT(total_metrics INTEGER, passed_metrics INTEGER, pass_rate DOUBLE,
                           weighted_accuracy DOUBLE,
                           by_category MAP(VARCHAR, STRUCT(total INTEGER, passed INTEGER, accuracy DOUBLE))),
            timing STRUCT(provider_latency_ms BIGINT, evaluation_time_ms BIGINT),
            format VARCHAR, structure VARCHAR, variant VARCHAR,
            records INTEGER, run INTEGER, warmup BOOLEAN, question VARCHAR, primer BOOLEAN,
            usage STRUCT(input BIGINT, output BIGINT, reasoning BIGINT, cache_read BIGINT, cache_write BIGINT),
            data_stats STRUCT(chars BIGINT, bytes BIGINT, "values" BIGINT, objects BIGINT, tokens MAP(VARCHAR, BIGINT)),
            cost_usd DOUBLE, cached BOOLEAN, attempts INTEGER, status INTEGER, request_id VARCHAR,
            error VARCHAR
        )'
    },
    filename = true,
    ignore_errors = true
)
WHERE type = 'result';

-- One typed row per provider call.
CREATE OR REPLACE VIEW results AS
SELECT
    ts,
    suite,
    r.benchmark_id,
    r.provider_config.provider AS provider,
    r.provider_config.model AS model,
    r.format,
    r.structure,
    r.variant,
    r.records,
    r.run,
    r.warmup,
    coalesce(r.primer, false) AS primer,
    r.question,
    r.error,
    r.sample.tag AS sample_tag,
    r.summary.weighted_accuracy,
    r.summary.pass_rate,
    r.summary.by_category,
    r.summary.by_category['field_retrieval'].accuracy AS acc_field_retrieval,
    r.summary.by_category['structure_awareness'].accuracy AS acc_structure_awareness,
    r.summary.by_category['filtering'].accuracy AS acc_filtering,
    r.summary.by_category['aggregation'].accuracy AS acc_aggregation,
    r.usage.input AS input_tokens,
    r.usage.output AS output_tokens,
    r.usage.reasoning AS reasoning_tokens,
    r.usage.cache_read AS cache_read_tokens,
    r.usage.cache_write AS cache_write_tokens,
    r.data_stats.tokens AS data_tokens,
    r.data_stats.tokens['o200k_base'] AS data_tokens_o200k,
    r.data_stats.tokens['cl100k_base'] AS data_tokens_cl100k,
    r.data_stats.chars AS data_chars,
    r.data_stats."values" AS data_values,
    r.data_stats.objects AS data_objects,
    r.timing.provider_latency_ms AS latency_ms,
    r.cost_usd,
    coalesce(r.cached, false) AS cached,
    r.attempts,
    r.status AS http_status,
    r.request_id
FROM result_lines;

-- One row per question per provider call.
CREATE OR REPLACE VIEW answers AS
SELECT
    ts,
    suite,
    r.benchmark_id,
    r.provider_config.provider AS provider,
    r.provider_config.model AS model,
    r.format,
    r.structure,
    r.variant,
    r.records,
    r.run,
    r.warmup,
    coalesce(r.primer, false) AS primer,
    r.error,
    m.metric AS question_id,
    m.category,
    m.validation,
    m.position.label AS position,
    m.position."index" AS position_index,
    m.passed,
    m.score,
    m.expected,
    m.actual,
    m.reason
FROM result_lines, unnest(r.metrics) AS t(m);

-- Derived views: built only on the three views above, so they also run on a Parquet export.

-- One row per run of a rendering: the call itself in batch mode, its per-question calls merged
-- in per-question mode. Weighted accuracy is recomputed from the per-category counts of the
-- run's successful calls, with the category weights of the run's own metadata line (so it
-- needs no scan of the answers; weighted_accuracy.sql checks it against them); a run with any
-- failed call is `failed`, and reports leave it out of their averages.
CREATE OR REPLACE VIEW runs AS
WITH weights AS (
    SELECT benchmark_id, k AS category, (data -> 'weights' ->> k)::DOUBLE AS weight
    FROM benchmarks, unnest(json_keys(data -> 'weights')) AS t(k)
    WHERE type = 'metadata'
),
per_category AS (
    SELECT benchmark_id, provider, model, format, structure, variant, records, primer, run,
           c.key AS category, sum(c.value.passed) / sum(c.value.total) AS accuracy
    FROM results, unnest(map_entries(by_category)) AS t(c)
    WHERE NOT warmup AND error IS NULL
    GROUP BY ALL
),
accuracy AS (
    SELECT benchmark_id, provider, model, format, structure, variant, records, primer, run,
           sum(accuracy * weight) / sum(weight) AS weighted_accuracy
    FROM per_category
    JOIN weights USING (benchmark_id, category)
    GROUP BY ALL
),
calls AS (
    SELECT ts, suite, benchmark_id, provider, model, format, structure, variant, records, primer,
           run, count(*) AS calls,
           count(*) FILTER (WHERE error IS NOT NULL) AS errors,
           avg(pass_rate) FILTER (WHERE error IS NULL) AS pass_rate,
           any_value(data_tokens_o200k) AS data_tokens_o200k,
           any_value(data_chars) AS data_chars,
           any_value(data_values) AS data_values,
           sum(latency_ms) AS latency_ms,
           sum(input_tokens) AS input_tokens,
           sum(output_tokens) AS output_tokens,
           sum(reasoning_tokens) AS reasoning_tokens,
           sum(cache_read_tokens) AS cache_read_tokens,
           sum(cache_write_tokens) AS cache_write_tokens,
           sum(cost_usd) AS cost_usd
    FROM results
    WHERE NOT warmup
    GROUP BY ALL
)
SELECT c.*, a.weighted_accuracy, c.errors > 0 AS failed
FROM calls AS c
LEFT JOIN accuracy AS a
    USING (benchmark_id, provider, model, format, structure, variant, records, primer, run);
