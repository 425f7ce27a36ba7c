-- The corrupted-data track (`bench run --suite corrupted`): per model and format, the share of
-- damaged data sets whose defect was named (the defect's own question answered right: the
-- count for a missing record, the id for a duplicate, "cut off" for a truncated text, the id
-- for a missing field or a value of the wrong type), each defect's detection, and the
-- undamaged control's false alarms (a defect claimed where there is none). Warm-ups and failed
-- calls left out; the runs of one data set pooled (`dataset` names it), different data apart.
WITH a AS (
    SELECT provider || '/' || model AS provider, dataset, experiment, format, task AS defect,
           split_part(question_id, '/', 2) AS question, passed
    FROM answers
    WHERE suite = 'corrupted' AND NOT warmup AND error IS NULL
),
tells(defect, question) AS (
    VALUES ('missing_record', 'count'), ('duplicate', 'duplicate'), ('truncated', 'complete'),
           ('missing_field', 'lacking'), ('wrong_type', 'wrong_type')
),
detected AS (
    SELECT provider, dataset, experiment, format, defect, avg(passed) AS rate
    FROM a JOIN tells USING (defect, question)
    GROUP BY ALL
),
control AS (
    SELECT provider, experiment, format, 1 - avg(passed) AS false_alarm
    FROM a
    WHERE defect = 'control'
    GROUP BY ALL
)
SELECT
    d.provider,
    d.dataset,
    d.format,
    round(100 * avg(d.rate), 1) AS detected_pct,
    round(100 * max(d.rate) FILTER (WHERE d.defect = 'missing_record'), 1) AS missing_record,
    round(100 * max(d.rate) FILTER (WHERE d.defect = 'duplicate'), 1) AS duplicate,
    round(100 * max(d.rate) FILTER (WHERE d.defect = 'truncated'), 1) AS truncated,
    round(100 * max(d.rate) FILTER (WHERE d.defect = 'missing_field'), 1) AS missing_field,
    round(100 * max(d.rate) FILTER (WHERE d.defect = 'wrong_type'), 1) AS wrong_type,
    round(100 * any_value(c.false_alarm), 1) AS control_false_alarm_pct,
    d.experiment
FROM detected AS d
LEFT JOIN control AS c USING (provider, experiment, format)
GROUP BY d.provider, d.dataset, d.experiment, d.format
ORDER BY d.provider, d.dataset, d.experiment, detected_pct DESC, control_false_alarm_pct,
         d.format;
