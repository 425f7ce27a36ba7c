//! Sample charts shared by the tests and the demo writer.

use super::super::*;

const FORMATS: [(&str, f64, f64); 10] = [
    ("csv", 4_120.0, 0.842),
    ("tsv", 4_010.0, 0.851),
    ("json", 9_870.0, 0.912),
    ("jsonl", 8_450.0, 0.905),
    ("yaml", 7_300.0, 0.897),
    ("toml", 7_950.0, 0.873),
    ("xml", 13_400.0, 0.889),
    ("markdown", 5_200.0, 0.866),
    ("html", 15_800.0, 0.881),
    ("toon", 3_900.0, 0.803),
];

pub fn scatter() -> Scatter {
    let series = ["gpt-4.1-mini", "llama-3.1-8b"]
        .iter()
        .enumerate()
        .map(|(k, name)| {
            let drop = 0.12 * k as f64;
            let points: Vec<ScatterPoint> = FORMATS
                .iter()
                .map(|&(f, t, a)| ScatterPoint {
                    x: t,
                    y: a - drop,
                    y_low: Some(a - drop - 0.03),
                    y_high: Some((a - drop + 0.025).min(1.0)),
                    label: f.to_string(),
                })
                .collect();
            let mut sorted: Vec<_> = points.iter().map(|p| (p.x, p.y)).collect();
            sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut best = f64::MIN;
            let frontier = sorted
                .into_iter()
                .filter(|p| {
                    let keep = p.1 > best;
                    best = best.max(p.1);
                    keep
                })
                .collect();
            ScatterSeries {
                name: name.to_string(),
                points,
                frontier,
            }
        })
        .collect();
    Scatter {
        title: "Accuracy vs data tokens (95% intervals)".into(),
        x_label: "data tokens".into(),
        y_label: "accuracy".into(),
        series,
    }
}

pub fn intervals() -> Intervals {
    let mut rows = Vec::new();
    for (i, &(f, _, a)) in FORMATS.iter().enumerate() {
        for (j, structure) in ["flat", "nested"].iter().enumerate() {
            let v = a - 0.04 * j as f64 - 0.002 * i as f64;
            rows.push(IntervalRow {
                label: format!("{f} · {structure} · mandatory"),
                group: structure.to_string(),
                value: v,
                low: v - 0.035,
                high: (v + 0.03).min(1.0),
            });
        }
    }
    rows.sort_by(|a, b| b.value.total_cmp(&a.value));
    Intervals {
        title: "Weighted accuracy by format and structure".into(),
        x_label: "weighted accuracy (95% interval)".into(),
        rows,
    }
}

pub fn bars() -> GroupedBars {
    let tokenizers = ["o200k", "cl100k", "llama3", "qwen2"];
    GroupedBars {
        title: "Data tokens per format and tokenizer".into(),
        y_label: "tokens".into(),
        categories: FORMATS.iter().map(|f| f.0.to_string()).collect(),
        series: tokenizers
            .iter()
            .enumerate()
            .map(|(k, t)| BarSeries {
                name: t.to_string(),
                values: FORMATS
                    .iter()
                    .map(|f| Some(f.1 * (1.0 + 0.07 * k as f64)))
                    .collect(),
            })
            .collect(),
    }
}

pub fn heatmap() -> HeatMap {
    let columns = [
        "lookup",
        "filter",
        "aggregation",
        "count",
        "join",
        "nested path",
    ];
    HeatMap {
        title: "Accuracy by format and question category".into(),
        rows: FORMATS.iter().map(|f| f.0.to_string()).collect(),
        columns: columns.iter().map(|c| c.to_string()).collect(),
        values: FORMATS
            .iter()
            .enumerate()
            .map(|(i, f)| {
                (0..columns.len())
                    .map(|j| {
                        if (i + j) % 13 == 5 {
                            None
                        } else {
                            Some((f.2 - 0.09 * j as f64 + 0.01 * i as f64).clamp(0.0, 1.0))
                        }
                    })
                    .collect()
            })
            .collect(),
    }
}

pub fn lines() -> Lines {
    let sizes = [10.0, 30.0, 100.0, 300.0, 1_000.0, 3_000.0];
    Lines {
        title: "Accuracy vs record count".into(),
        x_label: "records in the prompt".into(),
        y_label: "accuracy".into(),
        log_x: true,
        series: FORMATS
            .iter()
            .take(6)
            .map(|&(f, _, a)| LineSeries {
                name: f.to_string(),
                points: sizes
                    .iter()
                    .enumerate()
                    .map(|(k, &n)| {
                        (
                            n,
                            (a + 0.08 - 0.05 * k as f64 * (1.0 - a) * 6.0).clamp(0.0, 1.0),
                        )
                    })
                    .collect(),
            })
            .collect(),
    }
}

pub fn samples() -> Vec<(&'static str, Chart)> {
    vec![
        ("scatter", Chart::Scatter(scatter())),
        ("intervals", Chart::Intervals(intervals())),
        ("bars", Chart::GroupedBars(bars())),
        ("heatmap", Chart::HeatMap(heatmap())),
        ("lines", Chart::Lines(lines())),
    ]
}

/// Edge cases worth looking at: many rows, rotated labels, wide grids, long text, no data.
pub fn edge_samples() -> Vec<(&'static str, Chart)> {
    let long = "a very long label that goes on and on · nested · mandatory · primer on";
    let mut iv = intervals();
    iv.rows = iv.rows.into_iter().cycle().take(40).collect();
    iv.rows[0].label = long.into();
    iv.rows[3].value = f64::NAN;
    let b = GroupedBars {
        categories: (0..24)
            .map(|i| format!("{} variant {i}", FORMATS[i % 10].0))
            .collect(),
        series: bars()
            .series
            .into_iter()
            .take(3)
            .map(|s| BarSeries {
                values: (0..24).map(|i| s.values[i % 10]).collect(),
                ..s
            })
            .collect(),
        ..bars()
    };
    let mut h = heatmap();
    h.columns = (0..14).map(|j| format!("category {j}")).collect();
    h.values = h
        .values
        .iter()
        .map(|r| (0..14).map(|j| r[j % 6]).collect())
        .collect();
    let b5: Vec<String> = FORMATS[..5].iter().map(|f| f.0.to_string()).collect();
    let mut s = scatter();
    s.series.truncate(1);
    s.series[0].name = String::new();
    s.title = long.repeat(2);
    let mut fallback = lines();
    fallback.series[0].points.push((0.0, 0.95));
    vec![
        ("edge_intervals_40", Chart::Intervals(iv)),
        ("edge_bars_rotated", Chart::GroupedBars(b)),
        ("edge_heatmap_wide", Chart::HeatMap(h)),
        ("edge_scatter_long", Chart::Scatter(s)),
        (
            "edge_bars_annotated",
            Chart::GroupedBars(GroupedBars {
                categories: b5,
                series: bars()
                    .series
                    .into_iter()
                    .take(2)
                    .map(|s| BarSeries {
                        values: s.values[..5].to_vec(),
                        ..s
                    })
                    .collect(),
                ..bars()
            }),
        ),
        ("edge_lines_linear_fallback", Chart::Lines(fallback)),
        (
            "edge_lines_empty",
            Chart::Lines(Lines {
                series: vec![],
                ..lines()
            }),
        ),
    ]
}
