-- The clusters `bench report` resamples for the bootstrap interval of weighted accuracy: one
-- row per rendering and question, with its category and how often it was answered right over
-- the complete runs (views.sql `complete_answers`). Resampling questions, not answers, keeps
-- the runs of one question together, since they are not independent.
SELECT provider, model, structure, variant, records, experiment, primer, format, category,
       question_id,
       sum(passed)::BIGINT AS passed,
       count(*) AS total
FROM complete_answers
GROUP BY ALL
-- The resampling is seeded: this order (counts, not question ids) fixes its draws.
ORDER BY provider, model, structure, variant, records, experiment, primer, format, category, passed, total;
