-- Analysis tasks (`bench run --suite tasks`), one row per task × format per provider/model:
-- fact accuracy (the share of expected values the answers state correctly), TeaLeaf's rubric
-- composite, prompt and reply tokens and cost, over the measured calls (failed calls counted,
-- not scored). The ranking over all tasks is sql/task_scores.sql.
SELECT
    provider,
    model,
    dataset,
    experiment,
    task,
    format,
    count(*) FILTER (WHERE error IS NULL) AS calls,
    count(*) FILTER (WHERE error IS NOT NULL) AS failed_calls,
    round(100 * avg(fact_accuracy) FILTER (WHERE error IS NULL), 1) AS fact_accuracy_pct,
    round(100 * avg(rubric_composite) FILTER (WHERE error IS NULL), 1) AS composite_pct,
    round(avg(input_tokens) FILTER (WHERE error IS NULL))::BIGINT AS avg_input_tokens,
    round(avg(output_tokens) FILTER (WHERE error IS NULL))::BIGINT AS avg_output_tokens,
    sum(cost_usd) AS cost_usd
FROM results
WHERE suite = 'tasks' AND NOT warmup
GROUP BY ALL
ORDER BY provider, model, dataset, experiment, task, fact_accuracy_pct DESC NULLS LAST, avg_input_tokens, format;
