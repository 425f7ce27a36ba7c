//! The report's charts, built from the report data: accuracy vs data tokens with intervals and
//! the Pareto frontier, weighted accuracy per format with intervals, tokens per format per
//! tokenizer, a category × format heat map, and accuracy vs record count for size sweeps.

use crate::doc::charts::{
    BarSeries, Chart, Figure, GroupedBars, HeatMap, IntervalRow, Intervals, LineSeries, Lines,
    Scatter, ScatterPoint, ScatterSeries,
};
use crate::report::data::suite;
use crate::report::data::{Family, ReportData};
use crate::report::decisions::family::varies;
use std::collections::{BTreeMap, BTreeSet};

/// A file-name-safe slug.
fn slug(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The models of the run in first-seen order.
fn models(d: &ReportData) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in &d.accuracy {
        let m = r.family.model_label();
        if !out.contains(&m) {
            out.push(m);
        }
    }
    out
}

/// The charts of the run's suite's own sections ([`crate::suites::sections::Sections::figures`]),
/// drawn before the report's own.
pub fn own_figures(d: &ReportData) -> Vec<Figure> {
    suite::sections(&d.run)
        .and_then(|s| s.figures)
        .map(|figures| figures(&d.facts()))
        .unwrap_or_default()
}

/// The figures of every suite: accuracy against data tokens, weighted accuracy, tokens,
/// categories, scaling.
pub fn figures(d: &ReportData) -> Vec<Figure> {
    let ms = models(d);
    // A suite whose data is a set of items names each accuracy chart by their count.
    let items = suite::sections(&d.run).and_then(|s| s.counted.as_ref());
    let suffix = |m: &str| {
        if ms.len() > 1 {
            format!("_{}", slug(m))
        } else {
            String::new()
        }
    };
    let (sizes, primers) = varies(&d.accuracy);
    let mut out = Vec::new();
    for m in &ms {
        let rows: Vec<_> = d
            .accuracy
            .iter()
            .filter(|r| &r.family.model_label() == m)
            .collect();
        // Accuracy vs tokens: one series per data shape, with its frontier; one chart per
        // record count when the run swept sizes (their token scales differ by orders).
        let sizes_of: BTreeSet<i64> = rows.iter().map(|r| r.family.records).collect();
        for &size in &sizes_of {
            let mut series: BTreeMap<&Family, ScatterSeries> = BTreeMap::new();
            for r in rows.iter().filter(|r| r.family.records == size) {
                let (Some(y), Some(x)) = (r.weighted_accuracy, r.data_tokens) else {
                    continue;
                };
                series
                    .entry(&r.family)
                    .or_insert_with(|| ScatterSeries {
                        name: r.family.data_label(false, primers),
                        points: Vec::new(),
                        frontier: Vec::new(),
                    })
                    .points
                    .push(ScatterPoint {
                        x: x as f64,
                        y,
                        y_low: r.weighted_low,
                        y_high: r.weighted_high,
                        label: r.format.clone(),
                    });
            }
            for p in d.pareto.iter().filter(|p| p.on_frontier) {
                if let (Some(s), Some(t)) = (series.get_mut(&p.family), p.data_tokens) {
                    s.frontier.push((t as f64, p.weighted_accuracy));
                }
            }
            for s in series.values_mut() {
                s.frontier.sort_by(|a, b| a.0.total_cmp(&b.0));
            }
            let (stem, of) = if let (true, Some(c)) = (sizes, items) {
                (
                    format!("_{size}_{}", c.many),
                    format!(", {size} {}", c.many),
                )
            } else if sizes {
                (format!("_{size}_records"), format!(", {size} records"))
            } else {
                (String::new(), String::new())
            };
            out.push(Figure {
                name: format!("accuracy_vs_tokens{}{stem}", suffix(m)),
                title: format!(
                    "{m}{of}: weighted accuracy (95 % bootstrap CI) vs data tokens, with the Pareto frontier"
                ),
                chart: Chart::Scatter(Scatter {
                    title: format!("Accuracy vs data tokens — {m}{of}"),
                    x_label: "data tokens (o200k_base)".into(),
                    y_label: "weighted accuracy".into(),
                    series: series.into_values().collect(),
                }),
            });
        }
        let mut sorted = rows.clone();
        sorted.sort_by(|a, b| {
            b.weighted_accuracy
                .unwrap_or(-1.0)
                .total_cmp(&a.weighted_accuracy.unwrap_or(-1.0))
        });
        out.push(Figure {
            name: format!("weighted_accuracy{}", suffix(m)),
            title: format!("{m}: weighted accuracy per rendering with its 95 % bootstrap interval"),
            chart: Chart::Intervals(Intervals {
                title: format!("Weighted accuracy — {m}"),
                x_label: "weighted accuracy".into(),
                rows: sorted
                    .iter()
                    .filter_map(|r| {
                        let v = r.weighted_accuracy?;
                        Some(IntervalRow {
                            label: format!(
                                "{} · {}",
                                r.format,
                                r.family.data_label(sizes, primers)
                            ),
                            group: r.family.data_label(sizes, primers),
                            value: v,
                            low: r.weighted_low.unwrap_or(v),
                            high: r.weighted_high.unwrap_or(v),
                        })
                    })
                    .collect(),
            }),
        });
        // Category × rendering heat map.
        let mut cats: Vec<String> = Vec::new();
        let mut cells: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
        for c in d.categories.iter().filter(|c| &c.family.model_label() == m) {
            if !cats.contains(&c.category) {
                cats.push(c.category.clone());
            }
            cells
                .entry(format!(
                    "{} · {}",
                    c.format,
                    c.family.data_label(sizes, primers)
                ))
                .or_default()
                .insert(c.category.clone(), c.accuracy);
        }
        cats.sort_by_key(|c| crate::questions::Category::rank(c));
        out.push(Figure {
            name: format!("category_heatmap{}", suffix(m)),
            title: format!("{m}: plain accuracy per question category and rendering"),
            chart: Chart::HeatMap(HeatMap {
                title: format!("Accuracy by category — {m}"),
                columns: cats.iter().map(|c| c.replace('_', " ")).collect(),
                values: cells
                    .values()
                    .map(|row| cats.iter().map(|c| row.get(c).copied()).collect())
                    .collect(),
                rows: cells.keys().cloned().collect(),
            }),
        });
        if sizes {
            let mut lines: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
            for r in &rows {
                if let Some(y) = r.weighted_accuracy {
                    lines
                        .entry(format!(
                            "{} · {} · {}",
                            r.format, r.family.structure, r.family.variant
                        ))
                        .or_default()
                        .push((r.family.records as f64, y));
                }
            }
            let xs: BTreeSet<i64> = rows.iter().map(|r| r.family.records).collect();
            let span = xs.last().copied().unwrap_or(1) as f64
                / xs.first().copied().unwrap_or(1).max(1) as f64;
            out.push(Figure {
                name: format!("accuracy_vs_records{}", suffix(m)),
                title: format!("{m}: weighted accuracy against record count"),
                chart: Chart::Lines(Lines {
                    title: format!("Accuracy vs record count — {m}"),
                    x_label: "records".into(),
                    y_label: "weighted accuracy".into(),
                    log_x: span >= 10.0,
                    series: lines
                        .into_iter()
                        .map(|(name, mut points)| {
                            points.sort_by(|a, b| a.0.total_cmp(&b.0));
                            LineSeries { name, points }
                        })
                        .collect(),
                }),
            });
        }
    }
    // Tokens per format per tokenizer, for the first variant at the smallest size.
    if let Some(first) = d
        .tokens
        .iter()
        .min_by_key(|t| (t.records, t.variant.clone()))
    {
        let picked: Vec<_> = d
            .tokens
            .iter()
            .filter(|t| t.records == first.records && t.variant == first.variant)
            .collect();
        let mut categories: Vec<String> = Vec::new();
        let mut tokenizers: Vec<String> = Vec::new();
        for t in &picked {
            let c = format!("{} · {}", t.format, t.structure);
            if !categories.contains(&c) {
                categories.push(c);
            }
            if !tokenizers.contains(&t.tokenizer) {
                tokenizers.push(t.tokenizer.clone());
            }
        }
        out.push(Figure {
            name: "tokens_per_format".into(),
            title: if let Some(items) = crate::suites::counted(&first.structure) {
                format!(
                    "Data tokens per format and tokenizer ({} {})",
                    first.records, items.many
                )
            } else {
                format!(
                    "Data tokens per format and tokenizer ({} variant, {} records)",
                    first.variant, first.records
                )
            },
            chart: Chart::GroupedBars(GroupedBars {
                title: "Data tokens per format and tokenizer".into(),
                y_label: "tokens".into(),
                series: tokenizers
                    .iter()
                    .map(|tk| BarSeries {
                        name: tk.clone(),
                        values: categories
                            .iter()
                            .map(|c| {
                                picked
                                    .iter()
                                    .find(|t| {
                                        &t.tokenizer == tk
                                            && &format!("{} · {}", t.format, t.structure) == c
                                    })
                                    .map(|t| t.tokens as f64)
                            })
                            .collect(),
                    })
                    .collect(),
                categories,
            }),
        });
    }
    out
}
