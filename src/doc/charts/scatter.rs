//! Accuracy against tokens: labelled dots with interval bars and a dashed Pareto frontier.

use super::style::{self, AXIS, AXIS_SIZE, GRID, INK, Key, LABEL_SIZE, MUTED, PAD, TICK_SIZE};
use anyhow::Result;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// Accuracy against data tokens: one dot per format with its interval and a Pareto frontier.
#[derive(Debug, Clone, PartialEq)]
pub struct Scatter {
    /// Chart title.
    pub title: String,
    /// Caption of the horizontal axis (data tokens).
    pub x_label: String,
    /// Caption of the vertical axis (accuracy, 0..1 shown as %).
    pub y_label: String,
    /// One colour per series.
    pub series: Vec<ScatterSeries>,
}

/// One coloured group of points in a [`Scatter`].
#[derive(Debug, Clone, PartialEq)]
pub struct ScatterSeries {
    /// Legend entry.
    pub name: String,
    /// The dots.
    pub points: Vec<ScatterPoint>,
    /// Pareto frontier as (x, y) corners, drawn as a dashed polyline in x order.
    pub frontier: Vec<(f64, f64)>,
}

/// One dot of a [`Scatter`] with an optional vertical interval.
#[derive(Debug, Clone, PartialEq)]
pub struct ScatterPoint {
    /// Horizontal position (tokens).
    pub x: f64,
    /// Vertical position (0..1).
    pub y: f64,
    /// Lower end of the interval bar.
    pub y_low: Option<f64>,
    /// Upper end of the interval bar.
    pub y_high: Option<f64>,
    /// Short text drawn beside the dot (format name).
    pub label: String,
}

/// Dot radius in pixels.
const R: i32 = 6;

/// Draws the dots, interval bars, frontiers and point labels.
pub fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, c: &Scatter) -> Result<()>
where
    DB::ErrorType: 'static,
{
    // A single unnamed series needs no legend.
    let named = c.series.len() > 1 || c.series.iter().any(|s| !s.name.is_empty());
    let legend = if named {
        style::legend(c.series.iter().map(|s| s.name.as_str()))
    } else {
        Vec::new()
    };
    let body = style::frame(root, &c.title, &legend, Key::Dot)?;

    let finite = |x: f64, y: f64| x.is_finite() && y.is_finite();
    let points = c
        .series
        .iter()
        .flat_map(|s| s.points.iter())
        .filter(|p| finite(p.x, p.y));
    let xs = points.clone().map(|p| p.x);
    let ys = points.flat_map(|p| [Some(p.y), p.y_low, p.y_high].into_iter().flatten());
    let frontier = c
        .series
        .iter()
        .flat_map(|s| s.frontier.iter())
        .filter(|(x, y)| finite(*x, *y));
    let (Some((x_lo, x_hi)), Some((y_lo, y_hi))) = (
        style::extent(xs.chain(frontier.clone().map(|p| p.0))),
        style::extent(ys.chain(frontier.map(|p| p.1))),
    ) else {
        return style::no_data(&body);
    };
    let (x0, x1) = style::pad(x_lo, x_hi, 0.08);
    let (y0, y1) = style::unit_range(y_lo, y_hi);

    let mut chart = ChartBuilder::on(&body)
        .margin_left(PAD)
        .margin_right(PAD + 8)
        .margin_bottom(PAD)
        .margin_top(6)
        .x_label_area_size(56)
        .y_label_area_size(78)
        .build_cartesian_2d(x0..x1, y0..y1)?;
    let y_fmt = |v: &f64| crate::numfmt::axis_percent(*v, y1 - y0);
    let x_fmt = |v: &f64| style::compact(*v);
    chart
        .configure_mesh()
        .bold_line_style(GRID)
        .light_line_style(TRANSPARENT)
        .axis_style(AXIS)
        .label_style(style::text(TICK_SIZE, &MUTED))
        .axis_desc_style(style::text(AXIS_SIZE, &INK))
        .x_labels(8)
        .y_labels(8)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .x_desc(c.x_label.as_str())
        .y_desc(c.y_label.as_str())
        .draw()?;

    let px = |x: f64, y: f64| chart.backend_coord(&(x, y.clamp(y0, y1)));

    // Every dot, bar and frontier is an obstacle the labels steer around.
    let mut taken = Vec::new();
    // Frontiers first, so dots and bars sit on top of them.
    for (i, s) in c.series.iter().enumerate() {
        let mut f: Vec<_> = s
            .frontier
            .iter()
            .copied()
            .filter(|(x, y)| finite(*x, *y))
            .collect();
        f.sort_by(|a, b| a.0.total_cmp(&b.0));
        if f.len() >= 2 {
            let line: Vec<_> = f.iter().map(|&(x, y)| px(x, y)).collect();
            let stroke = style::color(i).mix(0.75).stroke_width(2);
            for w in line.windows(2) {
                taken.extend(segment_boxes(w[0], w[1]));
            }
            root.draw(&DashedPathElement::new(line, 7, 5, stroke))?;
        }
    }

    let mut drawn = Vec::new();
    for (i, s) in c.series.iter().enumerate() {
        let color = style::color(i);
        for p in s.points.iter().filter(|p| finite(p.x, p.y)) {
            let (cx, cy) = px(p.x, p.y);
            let lo = p.y_low.filter(|v| v.is_finite()).unwrap_or(p.y);
            let hi = p.y_high.filter(|v| v.is_finite()).unwrap_or(p.y);
            let (lo, hi) = (lo.min(hi), lo.max(hi));
            let (_, top) = px(p.x, hi);
            let (_, bottom) = px(p.x, lo);
            if bottom - top > 1 {
                let bar = color.mix(0.8).stroke_width(2);
                root.draw(&PathElement::new(vec![(cx, top), (cx, bottom)], bar))?;
                for y in [top, bottom] {
                    root.draw(&PathElement::new(vec![(cx - 5, y), (cx + 5, y)], bar))?;
                }
                taken.push((cx - 5, top, cx + 5, bottom));
            }
            taken.push((cx - R, cy - R, cx + R, cy + R));
            drawn.push(((cx, cy), color, p.label.as_str()));
        }
    }
    for &((cx, cy), color, _) in &drawn {
        root.draw(&Circle::new((cx, cy), R, color.filled()))?;
        root.draw(&Circle::new((cx, cy), R, WHITE.stroke_width(1)))?;
    }

    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let mut labels = style::Labels::new((xr.start, yr.start, xr.end, yr.end));
    labels.obstacles = taken;
    let label_style = style::text(LABEL_SIZE, &INK);
    // Centre-anchored text sits where it is measured to sit in both backends.
    let centred = style::anchored(label_style.clone(), HPos::Left, VPos::Center);
    let leader = MUTED.mix(0.6).stroke_width(1);
    let mut left_out = 0;
    for &((cx, cy), _, label) in &drawn {
        let label = style::truncate(label, 18);
        let size = style::measure(&label, &label_style)?;
        if size.0 == 0 {
            continue;
        }
        let Some(spot) = labels.place((cx, cy), size) else {
            left_out += 1;
            continue;
        };
        let (x, y) = spot.at;
        if spot.away {
            // A leader from the dot's edge to the nearest point of the label's box.
            let to = (cx.clamp(x, x + size.0), cy.clamp(y, y + size.1));
            root.draw(&PathElement::new(vec![(cx, cy), to], leader))?;
        }
        root.draw_text(&label, &centred, (x, y + size.1 / 2))?;
    }
    if left_out > 0 {
        // Said on the chart, not dropped silently: the report's tables name every point.
        let note = style::anchored(style::text(LABEL_SIZE, &MUTED), HPos::Right, VPos::Bottom);
        let text = format!("{left_out} labels left out: no room (the tables name every point)");
        root.draw_text(&text, &note, (xr.end - 4, yr.end - 4))?;
    }
    Ok(())
}

/// Small boxes along a line segment, so labels avoid lines as well as dots.
fn segment_boxes(a: (i32, i32), b: (i32, i32)) -> Vec<style::Box2> {
    let len = f64::from((b.0 - a.0).abs().max((b.1 - a.1).abs()));
    let steps = (len / 4.0).ceil().max(1.0) as i32;
    (0..=steps)
        .map(|k| {
            let x = a.0 + (b.0 - a.0) * k / steps;
            let y = a.1 + (b.1 - a.1) * k / steps;
            (x - 2, y - 2, x + 2, y + 2)
        })
        .collect()
}
