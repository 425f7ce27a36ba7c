-- Imported runs (`bench import`): accuracy per format by bench's grade and by the source's, over every model of the run, as the source's own table counts it; answers, models, questions, and the mean input tokens as the source counted them.
SELECT
    dataset,
    format,
    count(*) AS answers,
    count(DISTINCT model) AS models,
    count(DISTINCT question_id) AS questions,
    round(100 * avg(bench_passed::INTEGER), 1) AS bench_pct,
    round(100 * avg(source_passed::INTEGER), 1) AS source_pct,
    count(*) FILTER (WHERE source_passed) AS source_correct,
    count(*) FILTER (WHERE bench_passed IS NOT NULL AND source_passed IS NOT NULL
                       AND bench_passed = source_passed) AS grades_agree,
    round(avg(input_tokens)) AS mean_input_tokens,
    any_value(token_basis) AS token_basis
FROM imported_answers
GROUP BY dataset, experiment, format
ORDER BY dataset, source_pct DESC NULLS LAST, format;
