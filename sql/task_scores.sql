-- Analysis tasks (`bench run --suite tasks`): formats ranked per provider and task set
-- (`dataset`: the task file and how many tasks; different task sets never pool) by fact accuracy
-- (the share of expected values the answers state correctly, checked against the data), then
-- TeaLeaf's rubric composite, then data tokens (as every suite ranks them: the provider's own
-- count where it counted, else o200k_base; `token_basis` says which), then input tokens. A format that could not represent some tasks
-- (each skip is in the run's metadata with its reason) is scored on fewer, often easier, tasks,
-- so formats that rendered every task rank first (`all_tasks`); failed calls are counted, not
-- scored.
WITH per_format AS (
    SELECT
        provider,
        model,
        dataset,
        experiment,
        format,
        count(DISTINCT task) AS tasks,
        count(*) FILTER (WHERE error IS NULL) AS calls,
        avg(fact_accuracy) FILTER (WHERE error IS NULL) AS fact_accuracy,
        avg(rubric_composite) FILTER (WHERE error IS NULL) AS composite,
        avg(rubric_completeness) FILTER (WHERE error IS NULL) AS completeness,
        avg(rubric_relevance) FILTER (WHERE error IS NULL) AS relevance,
        avg(rubric_coherence) FILTER (WHERE error IS NULL) AS coherence,
        avg(rubric_factual) FILTER (WHERE error IS NULL) AS factual,
        avg(rubric_actionability) FILTER (WHERE error IS NULL) AS actionability,
        avg(input_tokens) FILTER (WHERE error IS NULL) AS input_tokens,
        avg(ranked_tokens) AS data_tokens,
        min(token_basis) AS token_basis,
        count(*) FILTER (WHERE error IS NOT NULL) AS failed_calls
    FROM results
    WHERE suite = 'tasks' AND NOT warmup
    GROUP BY provider, model, dataset, experiment, format
),
covered AS (
    SELECT *, tasks = max(tasks) OVER (PARTITION BY provider, model, experiment) AS all_tasks
    FROM per_format
)
SELECT
    provider,
    model,
    dataset,
    format,
    -- Averages rounded to 9 places: a parallel average differs in its last bits from one run
    -- to the next, which would break a true tie differently each time.
    rank() OVER (
        PARTITION BY provider, model, experiment
        ORDER BY all_tasks DESC, round(fact_accuracy, 9) DESC NULLS LAST,
                 round(composite, 9) DESC NULLS LAST, round(data_tokens, 9),
                 round(input_tokens, 9)
    ) AS "rank",
    tasks,
    all_tasks,
    calls,
    round(100 * fact_accuracy, 1) AS fact_accuracy_pct,
    round(100 * composite, 1) AS composite_pct,
    round(100 * completeness, 1) AS completeness_pct,
    round(100 * relevance, 1) AS relevance_pct,
    round(100 * coherence, 1) AS coherence_pct,
    round(100 * factual, 1) AS factual_pct,
    round(100 * actionability, 1) AS actionability_pct,
    round(data_tokens)::BIGINT AS data_tokens,
    token_basis,
    round(input_tokens)::BIGINT AS avg_input_tokens,
    failed_calls,
    experiment
FROM covered
ORDER BY provider, model, dataset, experiment, "rank", format;
