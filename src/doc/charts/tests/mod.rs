mod labels;
mod samples;

use super::*;
use samples::*;

/// Decoded PNG: (width, height, RGB bytes).
fn decode(png_bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    let mut reader = decoder.read_info().expect("PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("buffer size")];
    let info = reader.next_frame(&mut buf).expect("PNG data");
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// Width and height from the IHDR chunk, which must follow the 8-byte signature.
fn ihdr(png_bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&png_bytes[..8], b"\x89PNG\r\n\x1a\n", "PNG signature");
    assert_eq!(&png_bytes[12..16], b"IHDR");
    let be = |i: usize| u32::from_be_bytes(png_bytes[i..i + 4].try_into().unwrap());
    (be(16), be(20))
}

/// Renders `chart` and checks both outputs are well-formed and the same size.
fn check(chart: &Chart) -> Rendered {
    let r = render(chart).unwrap_or_else(|e| panic!("{:?}: {e:#}", chart.title()));
    assert!(r.svg.starts_with("<svg"), "SVG starts with <svg");
    assert!(r.svg.trim_end().ends_with("</svg>"), "SVG is closed");
    assert!(r.svg.contains(&format!("width=\"{}\"", r.width)));
    assert!(r.svg.contains(&format!("height=\"{}\"", r.height)));
    if !chart.title().is_empty() && chart.title().len() < 60 {
        let escaped = chart
            .title()
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        assert!(r.svg.contains(&escaped), "SVG holds the title");
    }
    assert_eq!(ihdr(&r.png), (r.width, r.height));
    let (w, h, rgb) = decode(&r.png);
    assert_eq!((w, h), (r.width, r.height));
    assert_eq!(rgb.len(), w as usize * h as usize * 3);
    r
}

/// Count of dark pixels in the rectangle [x0, x1) × [y0, y1) of a decoded image.
fn dark_pixels((w, _, rgb): &(u32, u32, Vec<u8>), (x0, y0, x1, y1): (u32, u32, u32, u32)) -> usize {
    (y0..y1)
        .flat_map(|y| (x0..x1).map(move |x| (y * w + x) as usize * 3))
        .filter(|&i| rgb[i..i + 3].iter().map(|&c| u32::from(c)).sum::<u32>() < 3 * 100)
        .count()
}

#[test]
fn every_kind_renders_svg_and_png() {
    for (name, chart) in samples() {
        let r = check(&chart);
        assert!(r.svg.len() > 2_000, "{name}: SVG has content");
        assert_eq!(r.width, 960, "{name}: default width");
    }
}

#[test]
fn default_size_is_960_by_560() {
    let r = check(&Chart::Scatter(scatter()));
    assert_eq!((r.width, r.height), (960, 560));
}

#[test]
fn png_title_is_drawn_with_the_embedded_font() {
    // The title strip is the only ink in the top 46 px, so dark pixels there are glyphs.
    let strip = (PNG_TITLE_X0, 12, 400, 46);
    let titled = decode(&check(&Chart::Lines(lines())).png);
    assert!(dark_pixels(&titled, strip) > 300, "title glyphs are drawn");
    let untitled = Chart::Lines(Lines {
        title: String::new(),
        ..lines()
    });
    let blank = decode(&check(&untitled).png);
    assert_eq!(dark_pixels(&blank, strip), 0, "no title, no ink");
}

const PNG_TITLE_X0: u32 = 10;

#[test]
fn svg_names_a_generic_font_family() {
    let r = check(&Chart::HeatMap(heatmap()));
    assert!(r.svg.contains("font-family=\"sans-serif\""));
    assert!(
        !r.svg.contains("DejaVu"),
        "the SVG leaves the font to the viewer"
    );
}

#[test]
fn svg_escapes_markup_in_text() {
    let r = check(&Chart::Intervals(Intervals {
        title: "a < b & c".into(),
        ..intervals()
    }));
    assert!(r.svg.contains("a &lt; b &amp; c"));
}

#[test]
fn taller_charts_for_many_rows() {
    let rows = |n: usize| Intervals {
        rows: intervals().rows.into_iter().cycle().take(n).collect(),
        ..intervals()
    };
    let short = check(&Chart::Intervals(rows(3)));
    let tall = check(&Chart::Intervals(rows(40)));
    assert_eq!(short.height, 560);
    assert!(tall.height > 1_000, "40 rows get room: {}", tall.height);

    let mut many = heatmap();
    many.rows = (0..40).map(|i| format!("format number {i}")).collect();
    many.values = (0..40).map(|i| many.values[i % 10].clone()).collect();
    assert!(check(&Chart::HeatMap(many)).height > 1_200);
}

#[test]
fn empty_charts_say_no_data() {
    let charts = [
        Chart::Scatter(Scatter {
            series: vec![],
            ..scatter()
        }),
        Chart::Scatter(Scatter {
            series: vec![ScatterSeries {
                name: "empty".into(),
                points: vec![],
                frontier: vec![],
            }],
            ..scatter()
        }),
        Chart::Intervals(Intervals {
            rows: vec![],
            ..intervals()
        }),
        Chart::GroupedBars(GroupedBars {
            categories: vec![],
            series: vec![],
            ..bars()
        }),
        Chart::HeatMap(HeatMap {
            rows: vec![],
            columns: vec![],
            values: vec![],
            ..heatmap()
        }),
        Chart::HeatMap(HeatMap {
            rows: vec!["a".into()],
            columns: vec![],
            values: vec![vec![]],
            ..heatmap()
        }),
        Chart::Lines(Lines {
            series: vec![],
            ..lines()
        }),
    ];
    for c in &charts {
        assert!(check(c).svg.contains("No data"), "{:?}", c.title());
    }
}

#[test]
fn single_points_and_equal_values() {
    let point = ScatterPoint {
        x: 100.0,
        y: 0.5,
        y_low: None,
        y_high: None,
        label: "csv".into(),
    };
    check(&Chart::Scatter(Scatter {
        series: vec![ScatterSeries {
            name: String::new(),
            points: vec![point.clone()],
            frontier: vec![(100.0, 0.5)],
        }],
        ..scatter()
    }));
    check(&Chart::Scatter(Scatter {
        series: vec![ScatterSeries {
            name: "all at 100%".into(),
            points: vec![
                ScatterPoint {
                    y: 1.0,
                    ..point.clone()
                };
                3
            ],
            frontier: vec![],
        }],
        ..scatter()
    }));
    let row = IntervalRow {
        label: "csv".into(),
        group: String::new(),
        value: 1.0,
        low: 1.0,
        high: 1.0,
    };
    check(&Chart::Intervals(Intervals {
        rows: vec![row.clone(); 2],
        ..intervals()
    }));
    check(&Chart::Intervals(Intervals {
        rows: vec![IntervalRow {
            value: 0.0,
            low: 0.0,
            high: 0.0,
            ..row
        }],
        ..intervals()
    }));
    for v in [0.0, 7.0, -3.0] {
        check(&Chart::GroupedBars(GroupedBars {
            categories: vec!["csv".into()],
            series: vec![BarSeries {
                name: "o200k".into(),
                values: vec![Some(v)],
            }],
            ..bars()
        }));
    }
    for v in [0.0, 0.5, 1.0] {
        check(&Chart::HeatMap(HeatMap {
            rows: vec!["csv".into()],
            columns: vec!["lookup".into()],
            values: vec![vec![Some(v)]],
            ..heatmap()
        }));
    }
    for log_x in [false, true] {
        check(&Chart::Lines(Lines {
            log_x,
            series: vec![LineSeries {
                name: "csv".into(),
                points: vec![(10.0, 0.8)],
            }],
            ..lines()
        }));
    }
}

#[test]
fn nan_and_none_are_skipped() {
    let mut s = scatter();
    s.series[0].points[0].x = f64::NAN;
    s.series[0].points[1].y = f64::INFINITY;
    s.series[0].points[2].y_low = Some(f64::NAN);
    s.series[1].frontier.push((f64::NAN, 0.5));
    check(&Chart::Scatter(s));

    let mut iv = intervals();
    iv.rows[0].value = f64::NAN;
    iv.rows[1].low = f64::NAN;
    iv.rows[2].high = f64::NEG_INFINITY;
    let r = check(&Chart::Intervals(iv));
    assert!(r.svg.contains('–'), "a NaN value shows a dash");

    let mut b = bars();
    b.series[0].values = vec![None; b.categories.len()];
    b.series[1].values[2] = Some(f64::NAN);
    check(&Chart::GroupedBars(b));
    let mut b = bars();
    for s in &mut b.series {
        s.values = vec![None; s.values.len()];
    }
    assert!(check(&Chart::GroupedBars(b)).svg.contains("No data"));

    let mut h = heatmap();
    h.values[0] = vec![None; h.columns.len()];
    h.values[1][1] = Some(f64::NAN);
    check(&Chart::HeatMap(h));

    let mut l = lines();
    l.series[0].points.push((f64::NAN, 0.5));
    l.series[1].points.push((100.0, f64::NAN));
    check(&Chart::Lines(l));
    let mut l = lines();
    for s in &mut l.series {
        s.points = vec![(f64::NAN, f64::NAN)];
    }
    assert!(check(&Chart::Lines(l)).svg.contains("No data"));
}

#[test]
fn log_axis_with_non_positive_x_falls_back_to_linear() {
    let mut l = lines();
    l.series[0].points.push((0.0, 0.7));
    l.series[1].points.push((-5.0, 0.6));
    check(&Chart::Lines(l));
}

#[test]
fn lines_outside_unit_range_are_not_percentages() {
    let l = Lines {
        series: vec![LineSeries {
            name: "latency".into(),
            points: vec![(1.0, 120.0), (2.0, 340.0), (3.0, 90.0)],
        }],
        y_label: "ms".into(),
        log_x: false,
        ..lines()
    };
    let r = check(&Chart::Lines(l));
    assert!(!r.svg.contains("%\n</text>"), "no percentage ticks");
    assert!(
        check(&Chart::Lines(lines())).svg.contains("%\n</text>"),
        "control"
    );
}

#[test]
fn long_labels_are_cut_with_an_ellipsis() {
    let long =
        "a very long label that goes on and on · nested · mandatory · primer on · 100k records";
    let mut s = scatter();
    s.title = long.repeat(3);
    s.series[0].name = long.into();
    s.series[0].points[0].label = long.into();
    let r = check(&Chart::Scatter(s));
    assert!(!r.svg.contains(&long.repeat(2)), "the title is cut");
    assert!(r.svg.contains('…'));

    let mut iv = intervals();
    iv.rows[0].label = long.into();
    iv.rows[1].group = long.into();
    assert!(!check(&Chart::Intervals(iv)).svg.contains(long));

    let mut b = bars();
    b.categories[0] = long.into();
    assert!(!check(&Chart::GroupedBars(b)).svg.contains(long));

    let mut h = heatmap();
    h.rows[0] = long.into();
    h.columns[0] = long.into();
    assert!(!check(&Chart::HeatMap(h)).svg.contains(long));
}

#[test]
fn many_categories_and_series() {
    let n = 40;
    let b = GroupedBars {
        categories: (0..n).map(|i| format!("category {i}")).collect(),
        series: (0..12)
            .map(|k| BarSeries {
                name: format!("tokenizer {k}"),
                values: (0..n).map(|i| Some((i * 100 + k * 7) as f64)).collect(),
            })
            .collect(),
        ..bars()
    };
    check(&Chart::GroupedBars(b));

    let h = HeatMap {
        title: "wide".into(),
        rows: (0..40).map(|i| format!("row {i}")).collect(),
        columns: (0..30).map(|j| format!("column number {j}")).collect(),
        values: (0..40)
            .map(|i| {
                (0..30)
                    .map(|j| Some(((i * j) % 101) as f64 / 100.0))
                    .collect()
            })
            .collect(),
    };
    let r = check(&Chart::HeatMap(h));
    assert!(r.width > 960, "30 columns widen the canvas: {}", r.width);

    let l = Lines {
        series: (0..14)
            .map(|k| LineSeries {
                name: format!("format {k}"),
                points: (0..5)
                    .map(|i| (10f64.powi(i), 0.5 + 0.03 * k as f64))
                    .collect(),
            })
            .collect(),
        ..lines()
    };
    check(&Chart::Lines(l));
}

#[test]
fn long_legends_are_capped_to_leave_the_plot_room() {
    let l = Lines {
        series: (0..300)
            .map(|k| LineSeries {
                name: format!("a fairly long series name {k}"),
                points: vec![(1.0, 0.5), (2.0, 0.6)],
            })
            .collect(),
        ..lines()
    };
    let r = check(&Chart::Lines(l));
    assert!(r.svg.contains("more\n</text>"), "a +N more note");
    assert!(!r.svg.contains("series name 299"));
}

#[test]
fn inconsistent_data_is_an_error_not_a_panic() {
    let mut h = heatmap();
    h.values.pop();
    let e = render(&Chart::HeatMap(h)).unwrap_err().to_string();
    assert!(e.contains("rows of values"), "{e}");

    let mut h = heatmap();
    h.values[3].push(Some(0.5));
    let e = render(&Chart::HeatMap(h)).unwrap_err().to_string();
    assert!(e.contains("row 3"), "{e}");

    let mut b = bars();
    b.series[1].values.pop();
    let e = render(&Chart::GroupedBars(b)).unwrap_err().to_string();
    assert!(e.contains("cl100k"), "{e}");

    let iv = Intervals {
        rows: intervals()
            .rows
            .into_iter()
            .cycle()
            .take(MAX_ROWS + 1)
            .collect(),
        ..intervals()
    };
    assert!(render(&Chart::Intervals(iv)).is_err());
}

/// Writes the sample charts and some edge cases to $CHARTS_DEMO_DIR (default
/// /tmp/charts_demo) for a person to look at: `cargo test --lib charts -- --ignored`.
#[test]
#[ignore = "writes files for manual inspection"]
fn write_demo_charts() {
    let dir = std::env::var_os("CHARTS_DEMO_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("charts_demo"));
    std::fs::create_dir_all(&dir).unwrap();
    let mut charts = samples();
    charts.extend(edge_samples());
    for (name, chart) in charts {
        let r = check(&chart);
        std::fs::write(dir.join(format!("{name}.png")), &r.png).unwrap();
        std::fs::write(dir.join(format!("{name}.svg")), &r.svg).unwrap();
    }
}
