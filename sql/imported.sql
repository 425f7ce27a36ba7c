-- Imported runs (`bench import`): accuracy per format by bench's grade and by the source's, over every model of the run, as the source's own table counts it; answers, models, questions, the mean input tokens as the source counted them (– where it published none), and bench's o200k_base count of the data file where the source publishes that file (the seed's data files; – otherwise).
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
    round(avg(source_tokens)) AS mean_input_tokens,
    round(avg(data_tokens_o200k)) AS data_tokens_o200k,
    any_value(token_basis) AS token_basis
FROM imported_answers
GROUP BY dataset, experiment, format
ORDER BY dataset, source_pct DESC NULLS LAST, format;
