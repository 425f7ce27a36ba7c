-- Every format against a baseline (json_compact, or the variable bench_baseline) on the same
-- questions. A comparison family is one provider/model, structure, variant, record count and
-- primer setting; within it, answers are paired by (run log, question, run), so two formats
-- are only compared where both answered the same question in the same run. Per format:
--   exact McNemar test (two-sided binomial on the discordant pairs), Holm-adjusted across the
--   formats of the family; Δ weighted accuracy (mean over the runs both completed) and Δ plain
--   accuracy over the pairs, in percentage points; the token ratio (o200k_base data tokens);
--   mde_pp: the smallest plain-accuracy difference these pairs detect with 80 % power at
--   α = 0.05 (unadjusted for Holm), from the observed discordance rate;
--   runs_needed: for a non-significant, non-zero difference, the runs (at this run's pairs per
--   run) that would detect a difference of the observed size with 80 % power.
-- The pairs come from the paired_answers view: complete runs only, warm-ups left out. Runs of
-- one question count as separate pairs (as the exact McNemar test on (question, run) pairs
-- does); `bench report` checks each difference against a question-clustered bootstrap too.
WITH pairs AS (
    SELECT provider, model, structure, variant, records, primer, format, baseline,
           count(*) AS n_pairs,
           count(DISTINCT (benchmark_id, run)) AS runs,
           count(*) FILTER (WHERE passed = 1 AND baseline_passed = 0) AS discordant_format_only,
           count(*) FILTER (WHERE passed = 0 AND baseline_passed = 1) AS discordant_baseline_only
    FROM paired_answers
    GROUP BY ALL
),
per_format AS (
    SELECT provider, model, format, structure, variant, records, primer,
           avg(data_tokens_o200k) AS data_tokens
    FROM runs
    GROUP BY ALL
),
-- Δ weighted accuracy as the mean over the runs both formats completed (the runs the pairs
-- come from), so the bootstrap interval of `bench report` is around this very number.
run_deltas AS (
    SELECT f.provider, f.model, f.format, f.structure, f.variant, f.records, f.primer,
           avg(f.weighted_accuracy - b.weighted_accuracy) AS delta_weighted
    FROM runs AS f
    JOIN runs AS b
        ON b.format = coalesce(getvariable('bench_baseline'), 'json_compact')
        AND f.format <> b.format
        AND (b.benchmark_id, b.provider, b.model, b.structure, b.variant, b.records, b.primer, b.run)
          = (f.benchmark_id, f.provider, f.model, f.structure, f.variant, f.records, f.primer, f.run)
    WHERE NOT f.failed AND NOT b.failed
    GROUP BY ALL
),
tested AS (
    SELECT p.*,
           (p.discordant_format_only - p.discordant_baseline_only) / p.n_pairs AS delta_accuracy,
           (p.discordant_format_only + p.discordant_baseline_only) / p.n_pairs AS discordance,
           mcnemar_exact_p(p.discordant_format_only, p.discordant_baseline_only) AS p_value,
           d.delta_weighted,
           f.data_tokens / b.data_tokens AS token_ratio
    FROM pairs AS p
    JOIN run_deltas AS d
        ON (d.provider, d.model, d.format, d.structure, d.variant, d.records, d.primer)
         = (p.provider, p.model, p.format, p.structure, p.variant, p.records, p.primer)
    JOIN per_format AS f
        ON (f.provider, f.model, f.format, f.structure, f.variant, f.records, f.primer)
         = (p.provider, p.model, p.format, p.structure, p.variant, p.records, p.primer)
    JOIN per_format AS b
        ON (b.provider, b.model, b.format, b.structure, b.variant, b.records, b.primer)
         = (p.provider, p.model, p.baseline, p.structure, p.variant, p.records, p.primer)
),
ranked AS (
    SELECT *,
           row_number() OVER family_by_p AS holm_rank,
           count(*) OVER family AS family_size
    FROM tested
    WINDOW family AS (PARTITION BY provider, model, structure, variant, records, primer),
           family_by_p AS (PARTITION BY provider, model, structure, variant, records, primer
                           ORDER BY p_value, format)
),
holm AS (
    -- Holm (1979): the k-th smallest of m p-values is multiplied by m − k + 1, then made
    -- monotone by a running maximum, capped at 1.
    SELECT *,
           max(least(1.0, (family_size - holm_rank + 1) * p_value)) OVER (
               PARTITION BY provider, model, structure, variant, records, primer
               ORDER BY holm_rank ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
           ) AS p_holm
    FROM ranked
)
SELECT
    provider, model, structure, variant, records, primer, format, baseline,
    100 * delta_weighted AS delta_weighted_pp,
    100 * delta_accuracy AS delta_accuracy_pp,
    n_pairs,
    discordant_format_only,
    discordant_baseline_only,
    p_value,
    p_holm,
    p_holm < 0.05 AS significant,
    token_ratio,
    runs,
    100 * mcnemar_mde(n_pairs, discordance) AS mde_pp,
    CASE WHEN p_holm >= 0.05 THEN
        ceil(mcnemar_pairs_needed(discordance, delta_accuracy) / (n_pairs / runs))::BIGINT
    END AS runs_needed
FROM holm
ORDER BY provider, model, records, primer, structure, variant, p_value, format;
