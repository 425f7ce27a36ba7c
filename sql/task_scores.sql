-- Analysis tasks (`bench run --suite tasks`): formats ranked per provider by fact accuracy
-- (the share of expected values the answers state correctly, checked against the data), then
-- TeaLeaf's rubric composite, then input tokens. `tasks` is how many tasks the format could
-- represent (a skipped task is in the run's metadata with its reason); failed calls are
-- counted, not scored.
SELECT
    provider,
    model,
    format,
    rank() OVER (
        PARTITION BY provider, model
        ORDER BY avg(fact_accuracy) FILTER (WHERE error IS NULL) DESC NULLS LAST,
                 avg(rubric_composite) FILTER (WHERE error IS NULL) DESC NULLS LAST,
                 avg(input_tokens) FILTER (WHERE error IS NULL)
    ) AS "rank",
    count(DISTINCT task) AS tasks,
    count(*) FILTER (WHERE error IS NULL) AS calls,
    round(100 * avg(fact_accuracy) FILTER (WHERE error IS NULL), 1) AS fact_accuracy_pct,
    round(100 * avg(rubric_composite) FILTER (WHERE error IS NULL), 1) AS composite_pct,
    round(100 * avg(rubric_completeness) FILTER (WHERE error IS NULL), 1) AS completeness_pct,
    round(100 * avg(rubric_relevance) FILTER (WHERE error IS NULL), 1) AS relevance_pct,
    round(100 * avg(rubric_coherence) FILTER (WHERE error IS NULL), 1) AS coherence_pct,
    round(100 * avg(rubric_factual) FILTER (WHERE error IS NULL), 1) AS factual_pct,
    round(100 * avg(rubric_actionability) FILTER (WHERE error IS NULL), 1) AS actionability_pct,
    round(avg(input_tokens) FILTER (WHERE error IS NULL)) AS avg_input_tokens,
    count(*) FILTER (WHERE error IS NOT NULL) AS failed_calls
FROM results
WHERE suite = 'tasks' AND NOT warmup
GROUP BY provider, model, format
ORDER BY provider, model, "rank", format;
