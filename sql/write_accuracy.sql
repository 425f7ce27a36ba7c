-- Which format can a model write (`bench run --suite write`): per provider, case set
-- (`dataset`; different case sets never pool), output and case kind ('all' = every kind), the share of documents exact at the first shot and after repairs
-- with their Wilson 95 % intervals, the share that parsed, mean field accuracy, repairs used,
-- and what one exact document costs in output tokens, in all tokens (every turn's input and
-- output) and in USD. Calls that failed are left out; `cases` tells a format that could not
-- hold some cases (CSV and nested documents) apart.
SELECT provider, model, dataset, experiment, output,
       coalesce(kind, 'all') AS kind,
       count(DISTINCT case_id || kind) AS cases,
       count(*) AS samples,
       round(100 * avg(first_exact::INTEGER), 1) AS first_exact_pct,
       round(100 * wilson_low(sum(first_exact::INTEGER), count(*)), 1) AS first_low,
       round(100 * wilson_high(sum(first_exact::INTEGER), count(*)), 1) AS first_high,
       round(100 * avg(exact::INTEGER), 1) AS final_exact_pct,
       round(100 * wilson_low(sum(exact::INTEGER), count(*)), 1) AS final_low,
       round(100 * wilson_high(sum(exact::INTEGER), count(*)), 1) AS final_high,
       round(100 * avg(parsed::INTEGER), 1) AS parsed_pct,
       round(100 * avg(field_accuracy), 1) AS field_accuracy_pct,
       round(avg(repairs), 2) AS mean_repairs,
       round(sum(output_tokens) / nullif(sum(exact::INTEGER), 0), 1) AS output_tokens_per_exact,
       round(sum(input_tokens + output_tokens) / nullif(sum(exact::INTEGER), 0), 1)
           AS tokens_per_exact,
       sum(cost_usd) / nullif(sum(exact::INTEGER), 0) AS cost_per_exact
FROM write_results
WHERE error IS NULL
GROUP BY GROUPING SETS ((provider, model, dataset, experiment, output, kind),
                        (provider, model, dataset, experiment, output))
ORDER BY provider, model, dataset, experiment, kind NULLS FIRST, final_exact_pct DESC, output_tokens_per_exact, output;
