-- The accuracy-vs-data-tokens Pareto frontier per provider/model, structure, variant,
-- experiment (the data, its size and question set: `dataset`) and primer setting: a format is on the frontier when no other format of the same group
-- has at least its weighted accuracy with at most its data tokens (ranked_tokens: the provider's counts, else o200k_base) and is strictly
-- better in one of the two. dominated_by names the formats that beat it on both.
WITH per_format AS (
    SELECT provider, model, structure, variant, records, dataset, experiment, primer, format,
           avg(weighted_accuracy) FILTER (WHERE NOT failed) AS weighted_accuracy,
           avg(ranked_tokens) AS data_tokens
    FROM runs
    GROUP BY ALL
),
dominance AS (
    SELECT f.provider, f.model, f.structure, f.variant, f.records, f.dataset, f.experiment,
           f.primer, f.format,
           any_value(f.weighted_accuracy) AS weighted_accuracy,
           any_value(f.data_tokens) AS data_tokens,
           count(g.format) = 0 AS on_frontier,
           string_agg(g.format, ', ' ORDER BY g.data_tokens, g.format) AS dominated_by
    FROM per_format AS f
    LEFT JOIN per_format AS g
        ON (g.provider, g.model, g.structure, g.variant, g.experiment, g.primer)
         = (f.provider, f.model, f.structure, f.variant, f.experiment, f.primer)
        AND g.format <> f.format
        AND g.data_tokens <= f.data_tokens
        AND g.weighted_accuracy >= f.weighted_accuracy
        AND (g.data_tokens < f.data_tokens OR g.weighted_accuracy > f.weighted_accuracy)
    WHERE f.weighted_accuracy IS NOT NULL
    GROUP BY f.provider, f.model, f.structure, f.variant, f.records, f.dataset, f.experiment,
             f.primer, f.format
)
SELECT provider, model, structure, variant, records, dataset, experiment, primer, format,
       weighted_accuracy,
       round(data_tokens)::BIGINT AS data_tokens, on_frontier, dominated_by
FROM dominance
ORDER BY provider, model, records, dataset, experiment, primer, structure, variant, data_tokens, format;
