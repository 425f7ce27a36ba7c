-- Every format against a baseline (json_compact, or the variable bench_baseline) on the same
-- questions. A comparison family is one provider/model, structure, variant, experiment (the data
-- asked about, its size and question set, named by `dataset`) and primer setting; within it, answers are paired by (run log, question, run), so two formats
-- are only compared where both answered the same question in the same run. Per format:
--   exact McNemar test (two-sided binomial on the discordant pairs), Holm-adjusted across the
--   formats of the family; Δ weighted accuracy (mean over the runs both completed) and Δ plain
--   accuracy over the pairs, in percentage points; the token ratio (data tokens as ranked: the provider's counts, else o200k_base);
--   mde_pp: the smallest plain-accuracy difference these pairs detect with 80 % power at
--   α = 0.05 (unadjusted for Holm), from the observed discordance rate;
--   runs_needed: for a non-significant, non-zero difference, the runs (at this run's pairs per
--   run) that would detect a difference of the observed size with 80 % power;
--   non-inferiority within margin_pp (the variable bench_margin, in points; default 2):
--   ni_low_pp, the lower bound of Tango's 90 % score interval of Δ plain accuracy (one-sided
--   α = 0.05); ni_p, the one-sided p of Tango's test of Δ ≤ −margin, and ni_p_holm, Holm-adjusted
--   across the formats of the family; ni_significant = ni_p_holm < 0.05; runs_needed_ni: when
--   neither that nor a significant difference is shown, the runs that would show
--   non-inferiority with 80 % power at the observed discordance and Δ, at α = 0.05 divided by
--   the formats of the family (Holm's first step, so enough for every step; null when Δ is not
--   above −margin). `bench report` adds the second half of the rule: the bootstrap interval of
--   Δ weighted must lie above −margin too.
-- The pairs come from the paired_answers view: complete runs only, warm-ups left out. Runs of
-- one question count as separate pairs (as the exact McNemar test on (question, run) pairs
-- does); `bench report` checks each difference against a question-clustered bootstrap too.
WITH pairs AS (
    SELECT provider, model, structure, variant, records, dataset, experiment, primer, format,
           baseline,
           count(*) AS n_pairs,
           count(DISTINCT (benchmark_id, run)) AS runs,
           count(*) FILTER (WHERE passed = 1 AND baseline_passed = 0) AS discordant_format_only,
           count(*) FILTER (WHERE passed = 0 AND baseline_passed = 1) AS discordant_baseline_only
    FROM paired_answers
    GROUP BY ALL
),
per_format AS (
    SELECT provider, model, format, structure, variant, records, experiment, primer,
           avg(ranked_tokens) AS data_tokens
    FROM runs
    GROUP BY ALL
),
-- Δ weighted accuracy over the pairs: per run, each category's accuracy on the questions both
-- formats answered, weighted as `runs` weights them, then the mean over the runs both formats
-- completed; so the bootstrap interval of `bench report` is around this very number, also
-- when the formats were asked different questions (an imported source's CSV answers only its
-- flat questions) or ran different numbers of times.
run_deltas AS (
    SELECT provider, model, format, structure, variant, records, experiment, primer,
           avg(delta) AS delta_weighted
    FROM (
        SELECT c.benchmark_id, c.provider, c.model, c.format, c.structure, c.variant,
               c.records, c.experiment, c.primer, c.run,
               sum((c.accuracy - c.baseline_accuracy) * w.weight ORDER BY c.category)
                   / sum(w.weight ORDER BY c.category) AS delta
        FROM (
            SELECT benchmark_id, provider, model, format, structure, variant, records,
                   experiment, primer, run, category, avg(passed) AS accuracy,
                   avg(baseline_passed) AS baseline_accuracy
            FROM paired_answers
            GROUP BY ALL
        ) AS c
        JOIN category_weights AS w USING (benchmark_id, category)
        GROUP BY ALL
    ) AS per_run
    GROUP BY ALL
),
tested AS (
    SELECT p.*,
           coalesce(getvariable('bench_margin')::DOUBLE, 2.0) / 100 AS margin,
           (p.discordant_format_only - p.discordant_baseline_only) / p.n_pairs AS delta_accuracy,
           (p.discordant_format_only + p.discordant_baseline_only) / p.n_pairs AS discordance,
           mcnemar_exact_p(p.discordant_format_only, p.discordant_baseline_only) AS p_value,
           d.delta_weighted,
           f.data_tokens / b.data_tokens AS token_ratio
    FROM pairs AS p
    JOIN run_deltas AS d
        ON (d.provider, d.model, d.format, d.structure, d.variant, d.experiment, d.primer)
         = (p.provider, p.model, p.format, p.structure, p.variant, p.experiment, p.primer)
    JOIN per_format AS f
        ON (f.provider, f.model, f.format, f.structure, f.variant, f.experiment, f.primer)
         = (p.provider, p.model, p.format, p.structure, p.variant, p.experiment, p.primer)
    JOIN per_format AS b
        ON (b.provider, b.model, b.format, b.structure, b.variant, b.experiment, b.primer)
         = (p.provider, p.model, p.baseline, p.structure, p.variant, p.experiment, p.primer)
),
ni AS (
    SELECT *,
           noninferiority_p(discordant_format_only, discordant_baseline_only, n_pairs, margin)
               AS ni_p
    FROM tested
),
ranked AS (
    SELECT *,
           row_number() OVER family_by_p AS holm_rank,
           row_number() OVER family_by_ni_p AS ni_holm_rank,
           count(*) OVER family AS family_size
    FROM ni
    WINDOW family AS (PARTITION BY provider, model, structure, variant, experiment, primer),
           family_by_p AS (PARTITION BY provider, model, structure, variant, experiment, primer
                           ORDER BY p_value, format),
           family_by_ni_p AS (PARTITION BY provider, model, structure, variant, experiment,
                                           primer
                              ORDER BY ni_p, format)
),
holm AS (
    -- Holm (1979): the k-th smallest of m p-values is multiplied by m − k + 1, then made
    -- monotone by a running maximum, capped at 1.
    SELECT *,
           max(least(1.0, (family_size - holm_rank + 1) * p_value)) OVER (
               PARTITION BY provider, model, structure, variant, experiment, primer
               ORDER BY holm_rank ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
           ) AS p_holm,
           max(least(1.0, (family_size - ni_holm_rank + 1) * ni_p)) OVER (
               PARTITION BY provider, model, structure, variant, experiment, primer
               ORDER BY ni_holm_rank ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
           ) AS ni_p_holm
    FROM ranked
)
SELECT
    provider, model, structure, variant, records, dataset, experiment, primer, format, baseline,
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
    END AS runs_needed,
    100 * margin AS margin_pp,
    100 * tango_low(discordant_format_only, discordant_baseline_only, n_pairs,
                    1.6448536269514722) AS ni_low_pp,
    ni_p,
    ni_p_holm,
    ni_p_holm < 0.05 AS ni_significant,
    CASE WHEN ni_p_holm >= 0.05 AND NOT (p_holm < 0.05 AND delta_accuracy < 0) THEN
        ceil(noninferiority_pairs_needed(discordance, delta_accuracy, margin, 0.05 / family_size)
             / (n_pairs / runs))::BIGINT
    END AS runs_needed_ni
FROM holm
ORDER BY provider, model, records, dataset, experiment, primer, structure, variant, p_value,
         format;
