-- Answer keys to check: every question where all graded answers (every model, format and run
-- other than the reference answerer; at least 2, each stating a value) agree on one value, and
-- that value fails the key. A key given in a question file, not computed, can be wrong (the
-- original benchmark's keys count a missing value as 0); when every model says the same other
-- thing, the key is the first suspect. Values are compared as text, trimmed and lower-cased, with
-- JSON string quotes dropped, so "1.2" and 1.2 agree.
WITH graded AS (
    SELECT
        benchmark_id,
        question_id,
        expected,
        actual,
        passed,
        lower(trim(CASE WHEN json_type(actual) = 'VARCHAR' THEN actual ->> '$' ELSE actual::VARCHAR END))
            AS said
    FROM answers
    WHERE provider <> 'reference' AND NOT warmup AND error IS NULL AND task IS NULL
      AND actual IS NOT NULL AND json_type(actual) <> 'NULL'
)
SELECT
    question_id AS question,
    count(*) AS answers,
    any_value(actual)::VARCHAR AS all_say,
    any_value(expected)::VARCHAR AS key_says
FROM graded
GROUP BY benchmark_id, question_id
HAVING count(*) >= 2 AND count(DISTINCT said) = 1 AND max(passed) = 0
ORDER BY question_id;
