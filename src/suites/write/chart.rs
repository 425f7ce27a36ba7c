//! The chart of a `write` run's report: exact documents (first shot and after repairs) against
//! the output tokens each exact document cost, one chart per model, placed in its verdict.

use super::report_rows::{num, overall, text};
use crate::doc::charts::{Chart, Figure, Scatter, ScatterPoint, ScatterSeries};
use crate::suites::sections::Facts;
use serde_json::{Map, Value};

/// Exact rates (first shot and final, Wilson 95 %) against output tokens per exact document,
/// one chart per model.
pub fn figures(f: &Facts) -> Vec<Figure> {
    let Some(accuracy) = f.tables.first() else {
        return Vec::new();
    };
    let rows = overall(accuracy);
    let mut models: Vec<String> = rows
        .iter()
        .map(|o| format!("{}/{}", text(o, "provider"), text(o, "model")))
        .collect();
    models.dedup();
    models
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let mine: Vec<&Map<String, Value>> = rows
                .iter()
                .filter(|o| format!("{}/{}", text(o, "provider"), text(o, "model")) == *m)
                .collect();
            let series = |name: &str, key: &str, low: &str, high: &str| ScatterSeries {
                name: name.into(),
                points: mine
                    .iter()
                    .filter_map(|o| {
                        Some(ScatterPoint {
                            x: num(o, "output_tokens_per_exact")?,
                            y: num(o, key)? / 100.0,
                            y_low: num(o, low).map(|v| v / 100.0),
                            y_high: num(o, high).map(|v| v / 100.0),
                            label: text(o, "output").into(),
                        })
                    })
                    .collect(),
                frontier: Vec::new(),
            };
            Figure {
                name: format!("write_exact_vs_tokens{}", if i == 0 { String::new() } else { format!("_{i}") }),
                title: format!(
                    "{m}: exact documents, first shot and after repairs (Wilson 95 %), vs output tokens per exact document"
                ),
                chart: Chart::Scatter(Scatter {
                    title: format!("Exact documents vs output tokens — {m}"),
                    x_label: "output tokens per exact document (repairs counted)".into(),
                    y_label: "exact documents".into(),
                    series: vec![
                        series("first shot", "first_exact_pct", "first_low", "first_high"),
                        series("after repairs", "final_exact_pct", "final_low", "final_high"),
                    ],
                }),
            }
        })
        .collect()
}
