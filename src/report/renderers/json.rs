//! metrics.json and analytics_results.json: the report's numbers for other tools. Arrays of
//! flat objects; fractions in 0..1, deltas in percentage points. The keys are documented in the
//! docs/report.md.

use crate::report::data::rows::family_of;
use crate::report::data::{Family, ReportData, TokenEfficiencyRow};
use crate::report::decisions::family::VerdictRow;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

fn to_object<T: serde::Serialize>(x: &T) -> Map<String, Value> {
    match serde_json::to_value(x) {
        Ok(Value::Object(o)) => o,
        _ => Map::new(),
    }
}

/// metrics.json: one object per rendering and model with its accuracy and intervals, data
/// tokens per tokenizer, usage, cost, latency and accuracy by category.
pub fn metrics(d: &ReportData) -> Value {
    let usage: BTreeMap<(Family, String), Map<String, Value>> = d
        .usage
        .rows
        .iter()
        .zip(d.usage.objects())
        .filter_map(|(r, o)| Some((family_of(&d.usage.columns, r)?, o)))
        .collect();
    let mut tokens: BTreeMap<(String, String, String, i64), Vec<&TokenEfficiencyRow>> =
        BTreeMap::new();
    for t in &d.tokens {
        tokens
            .entry((
                t.format.clone(),
                t.structure.clone(),
                t.variant.clone(),
                t.records,
            ))
            .or_default()
            .push(t);
    }
    let renderings: Vec<Value> = d
        .accuracy
        .iter()
        .map(|r| {
            let mut o = to_object(r);
            // Ranks belong to analytics_results.json, where the compared rows are.
            o.retain(|k, _| !k.starts_with("rank_"));
            let ts = tokens
                .get(&(
                    r.format.clone(),
                    r.family.structure.clone(),
                    r.family.variant.clone(),
                    r.family.records,
                ))
                .cloned()
                .unwrap_or_default();
            let per = |f: fn(&TokenEfficiencyRow) -> Value| -> Value {
                Value::Object(ts.iter().map(|t| (t.tokenizer.clone(), f(t))).collect())
            };
            o.insert("tokens".into(), per(|t| json!(t.tokens)));
            o.insert("chars_per_token".into(), per(|t| json!(t.chars_per_token)));
            o.insert(
                "tokens_per_value".into(),
                per(|t| json!(t.tokens_per_value)),
            );
            o.insert(
                "tokens_per_object".into(),
                per(|t| json!(t.tokens_per_object)),
            );
            let categories: Map<String, Value> = d
                .categories
                .iter()
                .filter(|c| c.family == r.family && c.format == r.format)
                .map(|c| {
                    (
                        c.category.clone(),
                        json!({"n_answers": c.n_answers, "accuracy": c.accuracy,
                               "wilson_low": c.wilson_low, "wilson_high": c.wilson_high}),
                    )
                })
                .collect();
            o.insert("categories".into(), Value::Object(categories));
            if let Some(u) = usage.get(&(r.family.clone(), r.format.clone())) {
                for (k, v) in u {
                    o.entry(k.clone()).or_insert(v.clone());
                }
            }
            Value::Object(o)
        })
        .collect();
    json!({
        "benchmark_id": d.run.metadata.benchmark_id,
        "suite": d.run.suite,
        "renderings": renderings,
    })
}

/// analytics_results.json: accuracy (with rankings and efficiency), comparisons against the
/// baseline and against the most accurate format, token-efficiency rankings, the Pareto
/// frontier, the verdict, failure modes and the key findings.
pub fn analytics_results(d: &ReportData, verdicts: &[VerdictRow], findings: &[String]) -> Value {
    // Ranks come with the rows from sql/accuracy.sql and sql/token_efficiency.sql.
    let accuracy: Vec<Value> = d
        .accuracy
        .iter()
        .map(|r| Value::Object(to_object(r)))
        .collect();
    let token_efficiency: Vec<Value> = d
        .tokens
        .iter()
        .map(|t| Value::Object(to_object(t)))
        .collect();
    let mut out = json!({
        "benchmark_id": d.run.metadata.benchmark_id,
        "suite": d.run.suite,
        "baseline": d.baseline,
        "accuracy": accuracy,
        "comparisons": d.comparisons,
        "versus_most_accurate": d.versus_best,
        "token_efficiency": token_efficiency,
        "pareto": d.pareto,
        "verdict": verdicts,
        "failure_modes": d.failure_modes.objects().collect::<Vec<_>>(),
        "key_check": d.key_check.objects().collect::<Vec<_>>(),
        "prompt_wording": d.prompt_wording.objects().collect::<Vec<_>>(),
    });
    let map = out.as_object_mut().expect("a JSON object");
    for (key, rows) in crate::report::data::suite::json_tables(&d.run, &d.own) {
        map.insert(key.into(), rows);
    }
    map.insert("insights".into(), json!(findings));
    out
}
