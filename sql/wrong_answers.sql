-- Every wrong answer of a successful, non-warm-up call, per provider/model and rendering
-- (format, structure, variant, records, primer): the question, its category, the run, the
-- expected and the given answer, the wrong-answer kind (docs/formats-suite.md, "Wrong-answer
-- taxonomy"; `unclassified` in logs from before it) and the grader's reason. `nth` numbers a
-- rendering's wrong answers by question then run and `wrong` counts them, so a report can show
-- the first few and say how many more there are.
SELECT
    provider || '/' || model AS provider, format, structure, variant, records, primer, dataset,
    experiment, question_id AS question, category, run,
    -- Strings unquoted, numbers, lists and objects as JSON text.
    json_extract_string(expected, '$') AS expected, json_extract_string(actual, '$') AS actual,
    coalesce(failure, 'unclassified') AS failure, reason,
    row_number() OVER (
        PARTITION BY provider, model, format, structure, variant, records, primer, experiment
        ORDER BY question_id, run
    ) AS nth,
    count(*) OVER (
        PARTITION BY provider, model, format, structure, variant, records, primer, experiment
    ) AS wrong
FROM answers
WHERE NOT warmup AND error IS NULL AND passed = 0
ORDER BY provider, format, structure, variant, records, primer, experiment, nth;
