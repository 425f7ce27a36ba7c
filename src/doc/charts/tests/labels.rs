//! Point labels of the accuracy-vs-tokens chart never overlap: read back from the SVG, each
//! label's box estimated from its position, font size and length.

use super::super::*;

/// One `<text>` of an SVG: x, y (its vertical centre with plotters' `dy="0.5ex"`), font size
/// and content.
fn texts(svg: &str) -> Vec<(f64, f64, f64, String)> {
    let attr = |tag: &str, name: &str| -> Option<f64> {
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        tag[at..].split('"').next()?.parse().ok()
    };
    svg.split("<text ")
        .skip(1)
        .filter_map(|t| {
            let (tag, rest) = t.split_once('>')?;
            let tag = format!(" {tag}");
            let tag = tag.as_str();
            let body = rest.split("</text>").next()?.trim().to_string();
            Some((
                attr(tag, "x")?,
                attr(tag, "y")?,
                attr(tag, "font-size")?,
                body,
            ))
        })
        .collect()
}

/// Boxes of the point labels (the smallest text; ticks, legend and titles are larger),
/// estimated independently of the drawing code: 0.6 em per character, 1.2 em high.
fn label_boxes(svg: &str) -> Vec<(f64, f64, f64, f64, String)> {
    let all = texts(svg);
    let smallest = all.iter().map(|t| t.2).fold(f64::MAX, f64::min);
    all.into_iter()
        .filter(|t| (t.2 - smallest).abs() < 0.01 && !t.3.contains("left out"))
        .map(|(x, y, size, s)| {
            let w = 0.6 * size * s.chars().count() as f64;
            let h = 1.2 * size;
            (x, y - h / 2.0, x + w, y + h / 2.0, s)
        })
        .collect()
}

fn overlapping_pairs(svg: &str) -> Vec<String> {
    let b = label_boxes(svg);
    let mut out = Vec::new();
    for i in 0..b.len() {
        for j in i + 1..b.len() {
            let (p, q) = (&b[i], &b[j]);
            if p.2.min(q.2) > p.0.max(q.0) && p.3.min(q.3) > p.1.max(q.1) {
                out.push(format!("{} / {}", p.4, q.4));
            }
        }
    }
    out
}

fn series(name: &str, points: &[(&str, f64)]) -> ScatterSeries {
    ScatterSeries {
        name: name.into(),
        points: points
            .iter()
            .map(|&(f, t)| ScatterPoint {
                x: t,
                y: 1.0,
                y_low: Some(1.0),
                y_high: Some(1.0),
                label: f.into(),
            })
            .collect(),
        frontier: vec![(points[0].1, 1.0)],
    }
}

/// The default offline run: four data shapes, 30 renderings, every one at 100 % (the
/// reference answerer), data tokens as measured.
fn default_run() -> Scatter {
    let flat = |v: &str, t: [f64; 8]| {
        let names = [
            "csv",
            "toon_default",
            "toon_keyfold",
            "json_compact",
            "yaml",
            "xml_compact",
            "json_pretty",
            "xml_pretty",
        ];
        let pts: Vec<(&str, f64)> = names.iter().copied().zip(t).collect();
        series(&format!("flat · {v}"), &pts)
    };
    let nested = |v: &str, t: [f64; 7]| {
        let names = [
            "json_compact",
            "toon_keyfold",
            "yaml",
            "toon_default",
            "xml_compact",
            "json_pretty",
            "xml_pretty",
        ];
        let pts: Vec<(&str, f64)> = names.iter().copied().zip(t).collect();
        series(&format!("nested · {v}"), &pts)
    };
    Scatter {
        title: "Accuracy vs data tokens — reference/reference".into(),
        x_label: "data tokens (o200k_base)".into(),
        y_label: "weighted accuracy".into(),
        series: vec![
            flat(
                "mandatory",
                [3324., 3328., 3328., 5338., 6279., 7424., 7481., 8914.],
            ),
            flat(
                "optional",
                [3278., 3298., 3298., 5338., 6254., 7251., 7451., 8741.],
            ),
            nested(
                "mandatory",
                [5772., 6719., 6868., 6905., 8044., 9186., 10650.],
            ),
            nested(
                "optional",
                [5772., 6694., 6843., 6880., 7913., 9156., 10519.],
            ),
        ],
    }
}

/// A `--data` run of a small table (penguins-like): one shape, eight formats.
fn eight_points() -> Scatter {
    let pts = [
        ("csv", 3013.),
        ("toon_default", 3177.),
        ("toon_keyfold", 3177.),
        ("json_compact", 4666.),
        ("yaml", 5572.),
        ("xml_compact", 6419.),
        ("json_pretty", 7228.),
        ("xml_pretty", 8373.),
    ];
    Scatter {
        title: "Accuracy vs data tokens — reference/reference".into(),
        x_label: "data tokens (o200k_base)".into(),
        y_label: "weighted accuracy".into(),
        series: vec![series("", &pts)],
    }
}

#[test]
fn point_labels_never_overlap() {
    for (what, chart, points) in [
        ("default run", default_run(), 30),
        ("eight points", eight_points(), 8),
        ("sample", super::samples::scatter(), 20),
    ] {
        let svg = render(&Chart::Scatter(chart)).expect("renders").svg;
        let shown = label_boxes(&svg);
        assert_eq!(shown.len(), points, "{what}: every point keeps its label");
        let pairs = overlapping_pairs(&svg);
        assert!(
            pairs.is_empty(),
            "{what}: {} overlapping labels: {pairs:?}",
            pairs.len()
        );
    }
}

#[test]
fn the_overlap_check_sees_an_overlap() {
    let svg = "<text x=\"10\" y=\"20\" dy=\"0.5ex\" font-size=\"11\">csv</text>\
               <text x=\"15\" y=\"22\" dy=\"0.5ex\" font-size=\"11\">yaml</text>\
               <text x=\"90\" y=\"22\" dy=\"0.5ex\" font-size=\"11\">xml</text>";
    assert_eq!(overlapping_pairs(svg), ["csv / yaml"]);
}
