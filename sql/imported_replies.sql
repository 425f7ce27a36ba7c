-- Imported runs whose questions are the expected elements of analysis tasks (`bench import --from tealeaf`): per model and format, the replies, the mean of bench's copy of TeaLeaf's rubric over them (composite and its four scored parts, each reply once (a pooled run's models are its runs), as TeaLeaf's own table averages them), the share of expected elements detected, and the input and output tokens summed as the source counted them (each reply once).
WITH replies AS (
    SELECT dataset, experiment, model, format, run, split_part(question, '/', 1) AS task,
           any_value(rubric_composite) AS composite,
           any_value(rubric_completeness) AS completeness,
           any_value(rubric_relevance) AS relevance,
           any_value(rubric_coherence) AS coherence,
           any_value(rubric_factual) AS factual,
           avg(pass_rate) AS detected,
           any_value(input_tokens) AS input_tokens,
           any_value(output_tokens) AS output_tokens
    FROM results
    WHERE provider = 'imported' AND rubric_composite IS NOT NULL
    GROUP BY ALL
)
SELECT
    dataset,
    model,
    format,
    count(*) AS replies,
    round(avg(composite), 3) AS composite,
    round(avg(completeness), 3) AS completeness,
    round(avg(relevance), 3) AS relevance,
    round(avg(coherence), 3) AS coherence,
    round(avg(factual), 3) AS factual,
    round(100 * avg(detected), 1) AS detected_pct,
    sum(input_tokens) AS input_tokens,
    sum(output_tokens) AS output_tokens
FROM replies
GROUP BY dataset, experiment, model, format
ORDER BY dataset, model, composite DESC, format;
