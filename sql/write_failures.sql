-- Why written documents were not exact (`bench run --suite write`): per provider and output,
-- how many first shots and how many final replies (after repairs) ended in each outcome
-- ('exact', or a failure kind of docs/write.md, "Failure kinds"). Failed calls are left out.
WITH outcomes AS (
    SELECT provider, model, dataset, experiment, output,
           coalesce(first_failure, 'exact') AS outcome,
           1 AS first_shot, 0 AS final
    FROM write_results WHERE error IS NULL
    UNION ALL
    SELECT provider, model, dataset, experiment, output, coalesce(failure, 'exact'), 0, 1
    FROM write_results WHERE error IS NULL
)
SELECT provider, model, dataset, experiment, output, outcome,
       sum(first_shot) AS first_shots,
       sum(final) AS final_replies
FROM outcomes
GROUP BY ALL
ORDER BY provider, model, dataset, experiment, output, first_shots DESC, outcome;
