-- Staging: the only file that reads the raw JSONL run logs. Every report in sql/ builds on
-- these three views. The root folder comes from the variable bench_root (default 'data'), and
-- bench_run (default '*', every run) narrows it to one run folder's name (a glob):
--   duckdb -c "SET VARIABLE bench_root = 'data'; .read sql/views.sql; .read sql/rankings.sql"
-- Corrupt or truncated lines (a crash mid-write) are skipped (ignore_errors); `bench query`
-- also names them in a warning.

-- Every run log under the root (or under the run folders bench_run names), and the run
-- folder (ts) and suite of a log's path.
CREATE OR REPLACE MACRO bench_logs() AS
    coalesce(getvariable('bench_root'), 'data') || '/benchmarks/'
        || coalesce(getvariable('bench_run'), '*') || '/*.jsonl';
CREATE OR REPLACE MACRO log_ts(path) AS regexp_extract(path, '/benchmarks/([^/]+)/[^/]+\.jsonl$', 1);
CREATE OR REPLACE MACRO log_suite(path) AS regexp_extract(path, '/benchmarks/[^/]+/([^/]+)\.jsonl$', 1);

-- Seed-003 view: one row per JSONL line, the payload kept as JSON.
CREATE OR REPLACE VIEW benchmarks AS
SELECT
    log_ts(filename) AS ts,
    log_suite(filename) AS suite,
    type,
    f[1] AS benchmark_id,
    f[2] AS benchmark_timestamp,
    f[3] AS provider,
    f[4] AS model,
    f[5] AS sample_tag,
    f[6] AS avg_score,
    f[7] AS pass_rate,
    data
FROM (
    -- One parse of the line for all seven fields: each `->>` parsed the whole line again, and held
    -- it until the chunk ended (750 MB for lines of 110 kB; 290 MB this way).
    SELECT
        filename,
        type,
        json_extract_string(data, ['$.benchmark_id', '$.timestamp', '$.provider_config.provider',
            '$.provider_config.model', '$.sample.tag', '$.summary.avg_score', '$.summary.pass_rate']) AS f,
        data
    FROM read_json(
        bench_logs(),
        format = 'newline_delimited',
        columns = {type: 'VARCHAR', data: 'JSON'},
        filename = true,
        ignore_errors = true
    )
);

-- Result lines parsed once into typed structs (the prompt text is never materialized).
CREATE OR REPLACE VIEW result_lines AS
SELECT
    log_ts(filename) AS ts,
    log_suite(filename) AS suite,
    data AS r
FROM read_json(
    bench_logs(),
    format = 'newline_delimited',
    columns = {
        type: 'VARCHAR',
        data: 'STRUCT(
            benchmark_id VARCHAR,
            provider_config STRUCT(provider VARCHAR, model VARCHAR),
            sample STRUCT(tag VARCHAR, duration_ms BIGINT, start_time_ms BIGINT),
            metrics STRUCT(metric VARCHAR, category VARCHAR, passed INTEGER, score DOUBLE,
                           reason VARCHAR, expected JSON, actual JSON, validation VARCHAR,
                           position STRUCT(label VARCHAR, "index" INTEGER),
                           failure VARCHAR, off_by DOUBLE, normalization VARCHAR[])[],
            summary STRUCT(total_metrics INTEGER, passed_metrics INTEGER, pass_rate DOUBLE,
                           weighted_accuracy DOUBLE,
                           by_category MAP(VARCHAR, STRUCT(total INTEGER, passed INTEGER, accuracy DOUBLE))),
            timing STRUCT(provider_latency_ms BIGINT, evaluation_time_ms BIGINT),
            format VARCHAR, structure VARCHAR, variant VARCHAR,
            records INTEGER, run INTEGER, warmup BOOLEAN, question VARCHAR, primer BOOLEAN,
            prompt_variant VARCHAR, order_seed UBIGINT,
            usage STRUCT(input BIGINT, output BIGINT, reasoning BIGINT, cache_read BIGINT, cache_write BIGINT),
            data_stats STRUCT(chars BIGINT, bytes BIGINT, "values" BIGINT, objects BIGINT, tokens MAP(VARCHAR, BIGINT)),
            billed_data_tokens BIGINT, token_basis VARCHAR,
            cost_usd DOUBLE, cached BOOLEAN, attempts INTEGER, status INTEGER, request_id VARCHAR,
            finish VARCHAR, finish_reason VARCHAR, batch_id VARCHAR, batch_matched_by VARCHAR,
            served_model VARCHAR, server JSON,
            task VARCHAR,
            task_scores STRUCT(fact_accuracy DOUBLE, completeness DOUBLE, relevance DOUBLE,
                               coherence DOUBLE, factual DOUBLE, actionability DOUBLE,
                               composite DOUBLE, score DOUBLE),
            write STRUCT("case" VARCHAR, kind VARCHAR, mode VARCHAR,
                         first STRUCT(parsed BOOLEAN, schema_ok BOOLEAN, exact BOOLEAN,
                                      field_accuracy DOUBLE, failure VARCHAR, detail VARCHAR,
                                      fence_removed BOOLEAN, prose_removed BOOLEAN),
                         "final" STRUCT(parsed BOOLEAN, schema_ok BOOLEAN, exact BOOLEAN,
                                        field_accuracy DOUBLE, failure VARCHAR, detail VARCHAR,
                                        fence_removed BOOLEAN, prose_removed BOOLEAN),
                         repairs INTEGER),
            turns STRUCT(input BIGINT, output BIGINT)[],
            imported STRUCT(source_passed BOOLEAN, bench_passed BOOLEAN),
            error VARCHAR
        )'
    },
    filename = true,
    ignore_errors = true
)
WHERE type = 'result';

-- The comparison keys of every result line. A `formats` or `--data` call keeps its rendering's
-- structure, variant and record count. A `tasks` call is one prompt over one task's data: the
-- report compares formats over the whole task set, so its keys are structure 'tasks', variant
-- 'mixed' and records = the number of tasks the format was asked in that run of the log. Formats
-- that rendered the same tasks share keys (and are compared, question by question, on the
-- same facts); a format that could not render some tasks has fewer and stands apart.
-- A `write` call (one case) is keyed like a task, with structure 'cases' and records = the
-- cases of the whole run, whatever the format: a format that cannot hold some cases (CSV and
-- nested documents) is then paired with the baseline on the cases it has, and
-- write_accuracy.sql says how many that is. Its output format is the format, or
-- 'json_schema' for the structured-output baseline (JSON constrained to the case's schema).
-- These counts come from item_sets, a narrow read of the logs of the suites whose calls each
-- ask about one item (a task, a case, a defect: `items` in src/suites/mod.rs, checked by a
-- test), joined back: a window over result_lines would hold every line of every log until the
-- last one was read (issue 28).
CREATE OR REPLACE VIEW item_sets AS
SELECT
    data.benchmark_id,
    data.provider_config.provider,
    data.provider_config.model,
    -- A write run's cases are counted over all its formats.
    CASE WHEN data.write IS NULL THEN data.format END AS format,
    data.primer,
    count(DISTINCT data.task)::INTEGER AS items
FROM read_json(
    bench_logs(),
    format = 'newline_delimited',
    columns = {
        type: 'VARCHAR',
        data: 'STRUCT(benchmark_id VARCHAR, provider_config STRUCT(provider VARCHAR, model VARCHAR),
                      format VARCHAR, primer BOOLEAN, task VARCHAR, write STRUCT(mode VARCHAR))'
    },
    filename = true,
    ignore_errors = true
)
-- A filter on the file name skips the other logs unopened.
WHERE log_suite(filename) IN ('corrupted', 'tasks', 'write')
  AND type = 'result' AND data.task IS NOT NULL
GROUP BY ALL;

-- What each run log asked about, from its metadata line: the data (the product records of a
-- seed, the user's file with its sha256, a task file, write cases), its hashes, and the
-- question set of each size (`question_sets`: the hashes of its variants' questions; logs from
-- before it fall back to what made the questions: seed, `--questions N`, a question file's
-- sha256). result_keys turns it into each call's experiment key and data label. One row per
-- log: a log copied into another run folder is another run.
CREATE OR REPLACE VIEW run_data AS
WITH m AS (
    SELECT
        log_ts(filename) AS ts,
        log_suite(filename) AS suite,
        data.benchmark_id,
        any_value(data) AS m
    FROM read_json(
        bench_logs(),
        format = 'newline_delimited',
        columns = {
            type: 'VARCHAR',
            data: 'STRUCT(benchmark_id VARCHAR, seed UBIGINT, records JSON, dataset_hash VARCHAR,
                          questions_file VARCHAR, questions_sha256 VARCHAR, question_sets JSON,
                          data STRUCT(file VARCHAR, sha256 VARCHAR, root_key VARCHAR,
                                      sample VARCHAR, questions_asked BIGINT,
                                      questions_file VARCHAR, questions_sha256 VARCHAR),
                          tasks STRUCT(file VARCHAR, ids VARCHAR[]), write JSON,
                          imported STRUCT(name VARCHAR, url VARCHAR))'
        },
        filename = true,
        ignore_errors = true
    )
    WHERE type = 'metadata'
    GROUP BY ALL
),
kinds AS (
    SELECT *,
           CASE WHEN m.write IS NOT NULL THEN 'write'
                WHEN m.tasks IS NOT NULL THEN 'tasks'
                WHEN suite = 'corrupted' THEN 'corrupted'
                WHEN m.data IS NOT NULL THEN 'data'
                ELSE 'formats' END AS kind,
           regexp_extract(coalesce(m.data.questions_file, m.questions_file), '[^/\\]+$')
               AS questions_name,
           CASE WHEN json_type(m.records) = 'ARRAY' THEN CAST(m.records AS INTEGER[])
                ELSE [CAST(m.records AS INTEGER)] END AS sizes
    FROM m
),
-- The question set of each size: the hashes of the variants asked, so that the variants of
-- one size are ranked together, as one experiment.
questions AS (
    SELECT ts, suite, benchmark_id,
           map(list(records ORDER BY records), list(hashes ORDER BY records)) AS question_sets
    FROM (
        SELECT x.ts, x.suite, x.benchmark_id, split_part(k, '/', 1)::INTEGER AS records,
               string_agg(x.m.question_sets ->> k, ',' ORDER BY k) AS hashes
        FROM m AS x, unnest(json_keys(x.m.question_sets)) AS t(k)
        GROUP BY ALL
    )
    GROUP BY ALL
)
SELECT
    ts,
    suite,
    benchmark_id,
    kind,
    m.seed,
    -- The data in words: the file's name, or the product records of a seed; an imported
    -- run (`bench import`) says whose answers these are.
    CASE WHEN m.imported IS NOT NULL
             THEN 'answers imported from ' || m.imported.name || ', not produced by bench'
         WHEN m.data IS NOT NULL THEN regexp_extract(m.data.file, '[^/\\]+$')
         WHEN kind = 'tasks' THEN regexp_extract(m.tasks.file, '[^/\\]+$')
         WHEN kind = 'write' THEN 'write'
         ELSE 'products seed ' || m.seed END AS data_name,
    -- The size of a suite whose calls each ask about one item: its whole item set (the
    -- records key of result_keys counts the items of one format, which may have skipped some).
    CASE kind WHEN 'tasks' THEN len(m.tasks.ids) || ' tasks'
              WHEN 'write' THEN json_array_length(m.write -> 'cases') || ' cases'
              WHEN 'corrupted' THEN sizes[1] || ' records' END AS items,
    concat(CASE WHEN m.data.sample = 'random' THEN ', random sample seed ' || m.seed END,
           CASE WHEN questions_name <> '' THEN ' · ' || questions_name END) AS note,
    -- The data's identity for the whole log; a product log has one hash per size (hashes).
    concat_ws('/', m.data.sha256, m.data.root_key, m.data.sample, m.dataset_hash) AS identity,
    CASE WHEN kind = 'formats' THEN string_split(m.dataset_hash, ',') END AS hashes,
    sizes,
    q.question_sets,
    concat_ws('/', coalesce(m.data.questions_sha256, m.questions_sha256),
              m.data.questions_asked) AS questions
FROM kinds
LEFT JOIN questions AS q USING (ts, suite, benchmark_id);

-- With the keys, the columns every call-level view starts with (results, answers), and r.
CREATE OR REPLACE VIEW result_keys AS
WITH k AS (
    SELECT
        l.ts,
        l.suite,
        r.benchmark_id,
        r.provider_config.provider AS provider,
        r.provider_config.model AS model,
        CASE WHEN r.write.mode = 'json_schema' THEN 'json_schema' ELSE r.format END AS format,
        CASE WHEN r.task IS NULL THEN r.structure
             WHEN r.write IS NOT NULL THEN 'cases' ELSE 'tasks' END AS structure,
        CASE WHEN r.task IS NULL THEN r.variant ELSE 'mixed' END AS variant,
        CASE WHEN r.task IS NULL THEN r.records ELSE s.items END AS records,
        r.run,
        r.warmup,
        coalesce(r.primer, false) AS primer,
        l.r
    FROM result_lines AS l
    LEFT JOIN item_sets AS s
        ON r.task IS NOT NULL
        AND s.benchmark_id IS NOT DISTINCT FROM r.benchmark_id
        AND s.provider IS NOT DISTINCT FROM r.provider_config.provider
        AND s.model IS NOT DISTINCT FROM r.provider_config.model
        AND s.format IS NOT DISTINCT FROM (CASE WHEN r.write IS NULL THEN r.format END)
        AND s.primer IS NOT DISTINCT FROM r.primer
)
SELECT
    k.ts, k.suite, k.benchmark_id, k.provider, k.model, k.format, k.structure, k.variant,
    k.records,
    -- The data asked about, in words: `orders.csv · 60 records`, `products seed 42 · 31
    -- records` (a question file's name follows it).
    coalesce(d.data_name || ' · ' || coalesce(d.items, k.records || ' records') || d.note,
             'no metadata · ' || k.records) AS dataset,
    -- One experiment: suite, data and its hash (or the product seed), size and question set
    -- (the item set's, in a suite of items). Reports rank and compare within it, never across
    -- (runs of the same plan share it).
    left(md5(concat_ws('|', k.suite, d.seed, CASE WHEN d.items IS NULL THEN k.records END,
        coalesce(d.hashes[list_position(d.sizes, k.records)], d.identity),
        coalesce(d.question_sets[k.records], d.questions))), 12)
        AS experiment,
    k.run,
    k.warmup,
    k.primer,
    k.r
FROM k
LEFT JOIN run_data AS d
    ON (d.ts, d.suite, d.benchmark_id) = (k.ts, k.suite, k.benchmark_id);

-- One typed row per provider call.
CREATE OR REPLACE VIEW results AS
SELECT
    * EXCLUDE (r),
    r.question,
    -- The instruction wording of the call (`--prompt-variants`); 'default' when only one.
    coalesce(r.prompt_variant, 'default') AS prompt_variant,
    -- The seed of the run's record order (`--shuffle`); null: the data's own order.
    r.order_seed,
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
    -- The rendering's data tokens as the provider counts them (its first prompt minus the same
    -- prompt without the data; null when it has no counter, and for the offline reference).
    r.billed_data_tokens,
    -- The data tokens every ranking, efficiency and decision uses: the provider's own count
    -- where it made one, else o200k_base; and that basis in words.
    coalesce(r.billed_data_tokens, r.data_stats.tokens['o200k_base']) AS ranked_tokens,
    CASE WHEN r.billed_data_tokens IS NULL THEN 'o200k_base' ELSE r.token_basis END
        AS token_basis,
    r.data_stats.chars AS data_chars,
    r.data_stats."values" AS data_values,
    r.data_stats.objects AS data_objects,
    r.timing.provider_latency_ms AS latency_ms,
    r.cost_usd,
    coalesce(r.cached, false) AS cached,
    r.attempts,
    r.status AS http_status,
    r.request_id,
    -- Why the model stopped (stop, length, content_filter, tool_use, error, other; null in
    -- logs from before it was recorded), and the reason as the API gave it.
    r.finish,
    r.finish_reason,
    -- The model the server says answered (a dated snapshot, a GGUF path; null when it named
    -- none) and its own timings as given (llama.cpp `timings`, Ollama durations).
    r.served_model,
    r.server,
    -- The provider's batch the call ran in (`bench run --batch`, at the batch price); null
    -- for live calls.
    r.batch_id,
    -- 'order' when a batch answer came back without its custom id and was matched by its
    -- position in the batch (the other answers confirming the order); null otherwise.
    r.batch_matched_by,
    -- The `tasks` suite: task id, the share of its expected values stated correctly, and
    -- TeaLeaf's rubric (docs/tasks.md); null in the `formats` suite.
    r.task,
    -- The task's own data shape (`structure`, `variant` and `records` above describe the
    -- format's whole task set; see result_keys).
    r.structure AS task_structure,
    r.records AS task_records,
    r.task_scores.fact_accuracy,
    r.task_scores.composite AS rubric_composite,
    r.task_scores.completeness AS rubric_completeness,
    r.task_scores.relevance AS rubric_relevance,
    r.task_scores.coherence AS rubric_coherence,
    r.task_scores.factual AS rubric_factual,
    r.task_scores.actionability AS rubric_actionability,
    r.task_scores.score AS task_score
FROM result_keys;

-- One row per imported answer (`bench import`, one question per line): the verdict's grade
-- (`passed`: bench's, or the source's under --grade source) and both grades beside it, with
-- the tokens as the source counted them.
CREATE OR REPLACE VIEW imported_answers AS
SELECT ts, benchmark_id, provider, model, format, structure, variant, records, dataset,
       experiment, run,
       r.metrics[1].metric AS question_id,
       r.metrics[1].expected AS expected,
       r.metrics[1].actual AS actual,
       r.metrics[1].validation AS validation,
       r.metrics[1].reason AS reason,
       r.metrics[1].normalization AS normalization,
       r.metrics[1].passed AS passed,
       r.imported.source_passed,
       r.imported.bench_passed,
       r.usage.input AS input_tokens,
       -- The tokens as the source counted them (null where it published none, as the seed).
       r.billed_data_tokens AS source_tokens,
       -- bench's o200k_base count of the data file, where the source publishes it (the seed).
       r.data_stats.tokens['o200k_base'] AS data_tokens_o200k,
       r.token_basis
FROM result_keys
WHERE r.imported IS NOT NULL;

-- One row per `write` call: the written document's grades, first shot and final (after
-- repairs), with the tokens of every turn summed (docs/write.md).
CREATE OR REPLACE VIEW write_results AS
SELECT
    ts,
    suite,
    benchmark_id,
    provider,
    model,
    -- The cases asked (`write · 12 cases`) and their experiment key, as in results.
    dataset,
    experiment,
    -- The output asked for: a format, or 'json_schema' (JSON under structured output).
    format AS output,
    r.write."case" AS case_id,
    r.write.kind,
    r.write.mode,
    r.structure AS case_structure,
    r.records AS case_records,
    run,
    primer,
    r.error,
    r.finish,
    r.write.first.parsed AS first_parsed,
    r.write.first.exact AS first_exact,
    r.write.first.failure AS first_failure,
    r.write."final".parsed AS parsed,
    r.write."final".schema_ok AS schema_ok,
    r.write."final".exact AS exact,
    r.write."final".field_accuracy AS field_accuracy,
    r.write."final".failure AS failure,
    r.write."final".detail AS detail,
    r.write."final".fence_removed AS fence_removed,
    r.write."final".prose_removed AS prose_removed,
    r.write.repairs,
    r.usage.input AS input_tokens,
    r.usage.output AS output_tokens,
    r.cost_usd,
    -- Tokens of the gold in this format (o200k_base): what a perfect reply would spend.
    r.data_stats.tokens['o200k_base'] AS gold_tokens
FROM result_keys
WHERE r.write IS NOT NULL AND NOT r.warmup;

-- One row per question per provider call.
CREATE OR REPLACE VIEW answers AS
SELECT
    * EXCLUDE (m, task),
    -- A task's facts are numbered per task: the task id makes them one question each.
    CASE WHEN task IS NULL THEN m.metric ELSE task || '/' || m.metric END AS question_id,
    -- The question's id within its call (a task's fact id without the task): with the call's
    -- run, provider, model and sample_tag it names one answer (the viewer links by it).
    m.metric,
    m.category,
    m.validation,
    m.position.label AS position,
    m.position."index" AS position_index,
    m.passed,
    m.score,
    m.expected,
    m.actual,
    m.reason,
    -- Wrong-answer kind (docs/formats-suite.md, "Wrong-answer taxonomy"; null when passed), the answer minus
    -- the expected value for off_by_n, and the normalisations a passed answer needed (null in
    -- logs from before they were recorded, so "none needed" is the empty list).
    m.failure,
    m.off_by,
    m.normalization,
    task
FROM (
    -- unnest in the select list streams; `FROM result_keys, unnest(r.metrics)` is planned as
    -- a dependent join that holds every line (1.16 GB for a log of 2M answers, issue 28).
    SELECT
        * EXCLUDE (r),
        r.error,
        r.sample.tag AS sample_tag,
        coalesce(r.prompt_variant, 'default') AS prompt_variant,
        r.task,
        unnest(r.metrics) AS m
    FROM result_keys
);

-- Derived views: built only on the three views above, so they also run on a Parquet export.

-- Accuracy per question category in each run of a rendering, over its successful calls (the
-- per-question calls of one run pooled). `runs` weights these into weighted accuracy; the
-- ranking (rankings.sql) averages them over runs.
CREATE OR REPLACE VIEW run_categories AS
SELECT benchmark_id, provider, model, format, structure, variant, records, experiment, primer,
       run, c.key AS category, sum(c.value.passed) / sum(c.value.total) AS accuracy
FROM results, unnest(map_entries(by_category)) AS t(c)
WHERE NOT warmup AND error IS NULL
GROUP BY ALL;

-- The weight of each question category in a run, from the run's own metadata line: `runs`
-- weights its categories' accuracy with them, paired_comparison.sql its paired Δ.
CREATE OR REPLACE VIEW category_weights AS
-- DISTINCT: the shards of one plan, exported as one run, each bring its metadata line.
SELECT DISTINCT benchmark_id, k AS category,
       json_extract_string(data, '$.weights.' || k)::DOUBLE AS weight
FROM benchmarks, unnest(json_keys(data, '$.weights')) AS t(k)
WHERE type = 'metadata';

-- One row per run of a rendering: the call itself in one-prompt mode, its per-question calls merged
-- in per-question mode. Weighted accuracy is recomputed from the per-category counts of the
-- run's successful calls, with the category weights of the run's own metadata line (so it
-- needs no scan of the answers; weighted_accuracy.sql checks it against them); a run with any
-- failed call is `failed`, and reports leave it out of their averages.
CREATE OR REPLACE VIEW runs AS
WITH accuracy AS (
    SELECT benchmark_id, provider, model, format, structure, variant, records, experiment,
           primer, run,
           -- Summed in category order, so two runs with the same answers get the same bits
           -- whatever order the categories arrive in.
           sum(accuracy * weight ORDER BY category) / sum(weight ORDER BY category)
               AS weighted_accuracy
    FROM run_categories
    JOIN category_weights USING (benchmark_id, category)
    GROUP BY ALL
),
calls AS (
    SELECT ts, suite, benchmark_id, provider, model, format, structure, variant, records,
           dataset, experiment, primer, run, prompt_variant, count(*) AS calls,
           count(*) FILTER (WHERE error IS NOT NULL) AS errors,
           avg(pass_rate) FILTER (WHERE error IS NULL) AS pass_rate,
           -- The data of one run: every call of a rendering carries the same data, except
           -- in a tasks run, where each task's call carries its own (so the run's is the sum).
           avg(data_tokens_o200k) * count(DISTINCT coalesce(task, '')) AS data_tokens_o200k,
           avg(ranked_tokens) * count(DISTINCT coalesce(task, '')) AS ranked_tokens,
           -- One basis per model: its provider's counts, or o200k_base (results above).
           min(token_basis) AS token_basis,
           avg(data_chars) * count(DISTINCT coalesce(task, '')) AS data_chars,
           avg(data_values) * count(DISTINCT coalesce(task, '')) AS data_values,
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
    USING (benchmark_id, provider, model, format, structure, variant, records, experiment,
           primer, run);

-- The answers of complete runs (no failed call, as in `runs`), warm-ups left out: exactly the
-- runs weighted accuracy averages. The pairing below and the bootstrap's clusters
-- (bootstrap_clusters.sql, bootstrap_pairs.sql) read it, so the rule exists once.
CREATE OR REPLACE VIEW complete_answers AS
SELECT x.*
FROM answers AS x
SEMI JOIN runs AS r
    ON (r.benchmark_id, r.provider, r.model, r.format, r.structure, r.variant, r.records,
        r.primer, r.run)
     = (x.benchmark_id, x.provider, x.model, x.format, x.structure, x.variant, x.records,
        x.primer, x.run)
    AND NOT r.failed
WHERE NOT x.warmup;

-- Every answer paired with the baseline format's answer to the same question in the same run of
-- the same run log, provider/model, structure, variant, record count (so experiment) and
-- primer setting. The
-- baseline is json_compact, or the variable bench_baseline. Only complete runs (no failed call,
-- as in `runs`) take part, so the pairs cover exactly the runs that weighted accuracy averages;
-- warm-ups are left out. paired_comparison.sql and the bootstrap of `bench report` both read
-- this view, so the pairing rule exists once.
CREATE OR REPLACE VIEW paired_answers AS
WITH a AS (
    SELECT benchmark_id, provider, model, format, structure, variant, records, dataset,
           experiment, primer, run, question_id, category, passed
    FROM complete_answers
)
SELECT f.benchmark_id, f.provider, f.model, f.structure, f.variant, f.records, f.dataset,
       f.experiment, f.primer, f.format, b.format AS baseline, f.run, f.question_id, f.category,
       f.passed, b.passed AS baseline_passed
FROM a AS f
JOIN a AS b
    ON b.format = coalesce(getvariable('bench_baseline'), 'json_compact')
    AND f.format <> b.format
    AND (b.benchmark_id, b.provider, b.model, b.structure, b.variant, b.records, b.primer,
         b.run, b.question_id)
      = (f.benchmark_id, f.provider, f.model, f.structure, f.variant, f.records, f.primer,
         f.run, f.question_id);

-- Statistics macros: textbook formulas, each defined once here (tests check them against
-- published values). 95 % two-sided (z = 1.959963984540054, z² = 3.841458820694124); power
-- 80 % (z = 0.8416212335729143).

-- Wilson score interval for k successes in n trials (Wilson 1927; Newcombe 1998, method 3).
-- At k = 0 the lower bound is exactly 0 and at k = n the upper bound exactly 1, which the
-- floating-point formula misses by an ulp either way; both are clamped to [0, 1].
CREATE OR REPLACE MACRO wilson_low(k, n) AS
    CASE WHEN n > 0 AND k = 0 THEN 0.0 WHEN n > 0 THEN greatest(0.0,
        (k::DOUBLE / n::DOUBLE + 3.841458820694124 / (2 * n::DOUBLE)
         - 1.959963984540054 * sqrt(k::DOUBLE / n::DOUBLE * (1 - k::DOUBLE / n::DOUBLE) / n::DOUBLE
                                    + 3.841458820694124 / (4 * n::DOUBLE * n)))
        / (1 + 3.841458820694124 / n::DOUBLE))
    END;
CREATE OR REPLACE MACRO wilson_high(k, n) AS
    CASE WHEN n > 0 AND k = n THEN 1.0 WHEN n > 0 THEN least(1.0,
        (k::DOUBLE / n::DOUBLE + 3.841458820694124 / (2 * n::DOUBLE)
         + 1.959963984540054 * sqrt(k::DOUBLE / n::DOUBLE * (1 - k::DOUBLE / n::DOUBLE) / n::DOUBLE
                                    + 3.841458820694124 / (4 * n::DOUBLE * n)))
        / (1 + 3.841458820694124 / n::DOUBLE))
    END;

-- Exact McNemar test: two-sided binomial test of b against b + c discordant pairs at p = ½
-- (twice the smaller tail, capped at 1); 1 when there are no discordant pairs.
CREATE OR REPLACE MACRO mcnemar_exact_p(b, c) AS
    CASE WHEN b + c = 0 THEN 1.0 ELSE
        least(1.0, 2 * list_sum(list_transform(
            range(0, least(b, c) + 1),
            lambda i: exp(lgamma(b + c + 1) - lgamma(i + 1) - lgamma(b + c - i + 1) - (b + c) * ln(2))
        )))
    END;

-- Smallest difference of paired proportions that n pairs with discordance rate pd detect with
-- 80 % power at α = 0.05 (two-sided): the δ that solves Connor's (1987) sample-size formula
-- n = (z_α·√pd + z_β·√(pd − δ²))² / δ² (closed form). Null without discordant pairs.
-- The closed form has a real root only from n > z_α² − z_β² ≈ 3.13 pairs: fewer detect nothing.
CREATE OR REPLACE MACRO mcnemar_mde(n, pd) AS
    CASE WHEN n >= 4 AND pd > 0 THEN
        sqrt(greatest(0.0, pd - power(
            sqrt(pd) * (-1.959963984540054 * 0.8416212335729143
                        + sqrt(3.841458820694124 * 0.708326300800794
                               - (n::DOUBLE + 0.708326300800794) * (3.841458820694124 - n)))
            / (n::DOUBLE + 0.708326300800794), 2)))
    END;

-- Pairs needed to detect a difference δ at discordance rate pd (Connor 1987; 80 % power,
-- α = 0.05). Null when δ is 0 (no difference to detect) or not below pd.
CREATE OR REPLACE MACRO mcnemar_pairs_needed(pd, delta) AS
    CASE WHEN delta <> 0 AND pd > 0 AND delta * delta <= pd THEN
        power(1.959963984540054 * sqrt(pd) + 0.8416212335729143 * sqrt(pd - delta * delta), 2)
        / (delta * delta)
    END;

-- Standard normal upper tail P(Z > x) (Abramowitz & Stegun 1964, 26.2.17; absolute error below
-- 7.5e-8): DuckDB has no erf.
CREATE OR REPLACE MACRO normal_tail_poly(t) AS
    t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
-- x is bound once, as the lambda's v: a macro copies its argument into every place that names
-- it, and x is usually tango_z, itself a large expression (15 copies made planning
-- paired_comparison.sql take a third of a report's time).
CREATE OR REPLACE MACRO normal_sf(x) AS
    list_transform([x], lambda v: CASE WHEN v >= 0
        THEN exp(-v * v / 2) / 2.5066282746310002 * normal_tail_poly(1 / (1 + 0.2316419 * v))
        ELSE 1 - exp(-v * v / 2) / 2.5066282746310002 * normal_tail_poly(1 / (1 - 0.2316419 * v))
    END)[1];

-- The standard normal quantile z with P(Z > z) = p, for 0 < p < 1 (Acklam's rational
-- approximation, relative error below 1.2e-9): the z of a one-sided test at level p.
CREATE OR REPLACE MACRO normal_tail_quantile_low(q) AS
    -(((((-7.784894002430293e-03 * q - 3.223964580411365e-01) * q - 2.400758277161838e+00) * q
        - 2.549732539343734e+00) * q + 4.374664141464968e+00) * q + 2.938163982698783e+00)
    / ((((7.784695709041462e-03 * q + 3.224671290700398e-01) * q + 2.445134137142996e+00) * q
        + 3.754408661907416e+00) * q + 1);
CREATE OR REPLACE MACRO normal_tail_quantile_mid(q, r) AS
    -(((((-3.969683028665376e+01 * r + 2.209460984245205e+02) * r - 2.759285104469687e+02) * r
        + 1.383577518672690e+02) * r - 3.066479806614716e+01) * r + 2.506628277459239e+00) * q
    / (((((-5.447609879822406e+01 * r + 1.615858368580409e+02) * r - 1.556989798598866e+02) * r
        + 6.680131188771972e+01) * r - 1.328068155288572e+01) * r + 1);
CREATE OR REPLACE MACRO normal_tail_quantile(p) AS
    CASE WHEN p < 0.02425 THEN normal_tail_quantile_low(sqrt(-2 * ln(p)))
         WHEN p > 1 - 0.02425 THEN -normal_tail_quantile_low(sqrt(-2 * ln(1 - p)))
         ELSE normal_tail_quantile_mid(p - 0.5, (p - 0.5) * (p - 0.5)) END;

-- Tango's (1998) score test for the difference Δ of paired proportions, with n pairs of which b
-- only the first member got right and c only the second (Δ̂ = (b − c)/n). tango_p21 is the
-- restricted maximum-likelihood estimate of the second-only cell under Δ = d, tango_z the score
-- statistic at Δ = d: (b − c − n·d) / √(n·(2·p̃21 + d·(1 − d))), decreasing in d.
CREATE OR REPLACE MACRO tango_p21(b, c, n, d) AS
    (sqrt(power(-b - c + (2 * n - b + c) * d, 2) + 8 * n * c * d * (1 - d))
     - (-b - c + (2 * n - b + c) * d)) / (4 * n);
CREATE OR REPLACE MACRO tango_z(b, c, n, d) AS
    (b - c - n * d) / sqrt(n * (2 * tango_p21(b, c, n, d) + d * (1 - d)));

-- The d in [lo, hi] where tango_z crosses `target`, by 60 bisections (to 2⁻⁶⁰ of the bracket).
CREATE OR REPLACE MACRO tango_root(b, c, n, target, lo, hi) AS
    list_avg(list_reduce(
        range(60),
        lambda acc, x: CASE WHEN tango_z(b, c, n, (acc[1] + acc[2]) / 2) > target
                            THEN [(acc[1] + acc[2]) / 2, acc[2]]
                            ELSE [acc[1], (acc[1] + acc[2]) / 2] END,
        [lo::DOUBLE, hi::DOUBLE]));

-- Tango's score interval for Δ at two-sided level 1 − 2·(1 − Φ(z)): z = 1.959963984540054
-- for 95 %, 1.6448536269514722 for 90 % (the one-sided α = 0.05 bound). Bounds at ±1 when Δ̂ is.
CREATE OR REPLACE MACRO tango_low(b, c, n, z) AS
    CASE WHEN n > 0 AND b - c = -n THEN -1.0
         WHEN n > 0 THEN tango_root(b, c, n, z, -1, (b - c) / n::DOUBLE) END;
CREATE OR REPLACE MACRO tango_high(b, c, n, z) AS
    CASE WHEN n > 0 AND b - c = n THEN 1.0
         WHEN n > 0 THEN tango_root(b, c, n, -z, (b - c) / n::DOUBLE, 1) END;

-- Non-inferiority within margin m (a proportion): the one-sided p of Tango's test of
-- Δ ≤ −m against Δ > −m. Δ̂ = −m exactly gives p = ½.
CREATE OR REPLACE MACRO noninferiority_p(b, c, n, m) AS
    CASE WHEN n > 0 THEN normal_sf(tango_z(b, c, n, -m)) END;

-- Pairs that show non-inferiority within m with 80 % power at one-sided level alpha when the
-- true difference is delta and the discordance rate pd (the sample size of Tango's score test,
-- as in Nam 1997 and Liu et al. 2002): (z_α·σ₀ + z_β·σ₁)² / (delta + m)², σ₀² the variance
-- under Δ = −m at the restricted estimate, σ₁² = pd − delta². Null when delta is not above −m.
CREATE OR REPLACE MACRO noninferiority_pairs_needed(pd, delta, m, alpha) AS
    CASE WHEN delta > -m AND pd >= abs(delta) THEN
        power(normal_tail_quantile(alpha)
                  * sqrt(2 * tango_p21((pd + delta) / 2, (pd - delta) / 2, 1, -m) + (-m) * (1 + m))
              + 0.8416212335729143 * sqrt(greatest(0.0, pd - delta * delta)), 2)
        / power(delta + m, 2)
    END;
