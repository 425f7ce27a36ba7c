-- The clusters `bench report` resamples for the bootstrap interval of Δ weighted accuracy
-- against the baseline: one row per rendering and question, how often the format and the
-- baseline answered it right in the same runs (views.sql `paired_answers`).
SELECT provider, model, structure, variant, records, experiment, primer, format, category,
       question_id,
       sum(passed)::BIGINT AS passed,
       sum(baseline_passed)::BIGINT AS baseline_passed,
       count(*) AS total
FROM paired_answers
GROUP BY ALL
-- The resampling is seeded: this order (counts, not question ids) fixes its draws.
ORDER BY provider, model, structure, variant, records, experiment, primer, format, category, passed,
         baseline_passed, total;
