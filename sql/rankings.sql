-- One ranked table: each format × structure × variant per provider/model, averaged over its
-- runs (warm-ups and failed calls excluded; failures counted); ranked within each experiment
-- (the data asked about, its size and question set: `dataset` names it, `experiment` keys it)
-- and primer setting, since different data would otherwise be pooled and a size sweep would
-- rank the smallest data first. Runs of the same plan share an experiment and pool.
-- efficiency = weighted accuracy % per 1,000 data tokens: the model's own counts where its
-- provider counted them, else o200k_base (`ranked_tokens` and `token_basis` in views.sql). Runs of the `tasks` suite
-- the `write` suite and the `corrupted` track are left out: sql/task_scores.sql,
-- sql/write_accuracy.sql and sql/corrupted.sql rank them.
-- category_accuracy_pct = each category's accuracy averaged over the same runs. `bench run`
-- prints this table and its summary line stores these rows (`rankings`).
WITH per_combo AS (
    SELECT
        provider || '/' || model AS provider,
        format,
        structure,
        variant,
        records,
        dataset,
        experiment,
        primer,
        count(*) FILTER (WHERE NOT failed) AS runs,
        sum(errors)::BIGINT AS errors,
        avg(weighted_accuracy) FILTER (WHERE NOT failed) AS weighted_accuracy,
        avg(ranked_tokens) AS data_tokens,
        avg(ranked_tokens / data_values) AS tokens_per_value,
        avg(data_chars / ranked_tokens) AS chars_per_token,
        min(token_basis) AS token_basis
    FROM runs
    WHERE suite NOT IN ('tasks', 'write', 'corrupted')
    GROUP BY ALL
),
category_means AS (
    SELECT c.provider || '/' || c.model AS provider, c.format, c.structure, c.variant,
           c.experiment, c.primer, c.category, avg(c.accuracy) AS accuracy
    FROM run_categories AS c
    JOIN runs AS r
        USING (benchmark_id, provider, model, format, structure, variant, records, primer, run)
    WHERE NOT r.failed AND r.suite NOT IN ('tasks', 'write', 'corrupted')
    GROUP BY ALL
),
categories AS (
    SELECT provider, format, structure, variant, experiment, primer,
           map(list(category ORDER BY category),
               list(round(100 * accuracy, 2) ORDER BY category)) AS category_accuracy_pct
    FROM category_means
    GROUP BY ALL
)
SELECT
    -- On values rounded to 9 places: a parallel average differs in its last bits from one run
    -- to the next, which would break a true tie differently each time.
    rank() OVER (
        PARTITION BY experiment, primer
        ORDER BY round(weighted_accuracy, 9) DESC NULLS LAST, round(data_tokens, 9)
    ) AS rank,
    format,
    structure,
    variant,
    provider,
    dataset,
    records,
    primer,
    round(100 * weighted_accuracy, 2) AS weighted_accuracy_pct,
    round(data_tokens)::BIGINT AS data_tokens,
    round(tokens_per_value, 2) AS tokens_per_value,
    round(chars_per_token, 2) AS chars_per_token,
    round(100 * weighted_accuracy / (data_tokens / 1000), 2) AS efficiency,
    runs,
    errors,
    category_accuracy_pct,
    experiment,
    token_basis
FROM per_combo
LEFT JOIN categories USING (provider, format, structure, variant, experiment, primer)
ORDER BY records, dataset, experiment, primer, rank, format, structure, variant, provider;
