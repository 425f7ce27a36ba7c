-- Imported runs (`bench import`): every answer whose source grade and bench grade differ, with both grades, the expected value and the answer as published, and bench's reason.
SELECT
    dataset,
    model,
    format,
    run,
    question_id,
    CAST(expected AS VARCHAR) AS expected,
    CAST(actual AS VARCHAR) AS actual,
    source_passed,
    bench_passed,
    validation,
    coalesce(reason, 'bench accepts it: ' || array_to_string(normalization, ', ')) AS bench_says
FROM imported_answers
WHERE bench_passed IS DISTINCT FROM source_passed
  AND bench_passed IS NOT NULL AND source_passed IS NOT NULL
ORDER BY dataset, model, format, run, question_id;
