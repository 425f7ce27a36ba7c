//! Dot-and-whisker rows: one labelled row per estimate, coloured by group, values as %.

use super::style::{
    self, AXIS, AXIS_SIZE, BAND, GRID, HEIGHT, INK, Key, LABEL_SIZE, MUTED, PAD, TICK_SIZE, WIDTH,
};
use anyhow::Result;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// Horizontal dot-and-whisker chart: one row per label, values 0..1 shown as %.
#[derive(Debug, Clone, PartialEq)]
pub struct Intervals {
    /// Chart title.
    pub title: String,
    /// Caption of the horizontal axis.
    pub x_label: String,
    /// Rows, drawn top to bottom in this order.
    pub rows: Vec<IntervalRow>,
}

/// One row of an [`Intervals`] chart.
#[derive(Debug, Clone, PartialEq)]
pub struct IntervalRow {
    /// Row caption, e.g. "csv · flat · mandatory".
    pub label: String,
    /// Rows of one group share a colour and a legend entry.
    pub group: String,
    /// The dot.
    pub value: f64,
    /// Left end of the whisker.
    pub low: f64,
    /// Right end of the whisker.
    pub high: f64,
}

/// Pixels per row: room for one line of label text and a little air.
const ROW: u32 = 26;
/// Row labels longer than this are cut, so the plot keeps most of the width.
const LABEL_CHARS: usize = 48;

/// Default size, taller when the rows need it.
pub fn size(c: &Intervals) -> (u32, u32) {
    let (_, legend) = groups(c);
    // Below the title and legend: the rows, then the x axis (label area, margins).
    let fixed = style::header_height(&legend, WIDTH as i32) + 4 + 56 + PAD;
    (WIDTH, HEIGHT.max(fixed as u32 + ROW * c.rows.len() as u32))
}

/// The distinct groups in first-seen order, and the legend for them (none for a single
/// unnamed group).
fn groups(c: &Intervals) -> (Vec<&str>, Vec<(String, RGBColor)>) {
    let mut groups: Vec<&str> = Vec::new();
    for r in &c.rows {
        if !groups.contains(&r.group.as_str()) {
            groups.push(&r.group);
        }
    }
    let legend = if groups.len() > 1 || groups.iter().any(|g| !g.is_empty()) {
        style::legend(groups.iter().copied())
    } else {
        Vec::new()
    };
    (groups, legend)
}

/// Draws one dot-and-whisker row per estimate, with its value at the right.
pub fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, c: &Intervals) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let (groups, legend) = groups(c);
    let body = style::frame(root, &c.title, &legend, Key::Dot)?;

    let values = c.rows.iter().flat_map(|r| [r.value, r.low, r.high]);
    let Some((lo, hi)) = style::extent(values) else {
        return style::no_data(&body);
    };
    let (x0, x1) = style::unit_range(lo, hi);
    let n = c.rows.len();

    let label_style = style::text(LABEL_SIZE, &INK);
    let (w, _) = root.dim_in_pixel();
    let max_label = (w as i32) * 2 / 5;
    let labels = c
        .rows
        .iter()
        .map(|r| {
            style::fit(
                &style::truncate(&r.label, LABEL_CHARS),
                &label_style,
                max_label,
            )
        })
        .collect::<Result<Vec<_>>>()?;
    let mut label_w = 0;
    for l in &labels {
        label_w = label_w.max(style::measure(l, &label_style)?.0);
    }

    // Row i sits at y = n - 1 - i so the first row is on top.
    let mut chart = ChartBuilder::on(&body)
        .margin_left(PAD)
        .margin_right(PAD)
        .margin_bottom(PAD)
        .margin_top(4)
        .x_label_area_size(56)
        .y_label_area_size(label_w + 14)
        .right_y_label_area_size(64)
        .build_cartesian_2d(x0..x1, -0.5..(n as f64 - 0.5))?;
    let row_y = |i: usize| (n - 1 - i) as f64;
    // Light bands on every other row guide the eye from label to dot; drawn before the
    // grid so the grid lines stay visible across them.
    chart.draw_series((0..n).step_by(2).map(|i| {
        let y = row_y(i);
        Rectangle::new([(x0, y - 0.5), (x1, y + 0.5)], BAND.filled())
    }))?;

    let x_fmt = |v: &f64| crate::numfmt::axis_percent(*v, x1 - x0);
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(0)
        .bold_line_style(GRID)
        .light_line_style(TRANSPARENT)
        .axis_style(AXIS)
        .label_style(style::text(TICK_SIZE, &MUTED))
        .axis_desc_style(style::text(AXIS_SIZE, &INK))
        .x_labels(10)
        .x_label_formatter(&x_fmt)
        .x_desc(c.x_label.as_str())
        .draw()?;

    let (xr, _) = chart.plotting_area().get_pixel_range();
    let left = style::anchored(label_style.clone(), HPos::Right, VPos::Center);
    let right = style::anchored(style::text(LABEL_SIZE, &MUTED), HPos::Left, VPos::Center);
    for (i, (r, label)) in c.rows.iter().zip(&labels).enumerate() {
        let (_, py) = chart.backend_coord(&(x0, row_y(i)));
        root.draw_text(label, &left, (xr.start - 10, py))?;
        if !r.value.is_finite() {
            root.draw_text("–", &right, (xr.end + 10, py))?;
            continue;
        }
        let g = groups.iter().position(|g| *g == r.group).unwrap_or(0);
        let color = style::color(g);
        let px = |v: f64| chart.backend_coord(&(v.clamp(x0, x1), row_y(i))).0;
        let (a, b) = (r.low, r.high);
        if a.is_finite() && b.is_finite() {
            let (a, b) = (px(a.min(b)), px(a.max(b)));
            let whisker = color.stroke_width(2);
            root.draw(&PathElement::new(vec![(a, py), (b, py)], whisker))?;
            for x in [a, b] {
                root.draw(&PathElement::new(vec![(x, py - 5), (x, py + 5)], whisker))?;
            }
        }
        let cx = px(r.value);
        root.draw(&Circle::new((cx, py), 6, color.filled()))?;
        root.draw(&Circle::new((cx, py), 6, WHITE.stroke_width(1)))?;
        root.draw_text(
            &crate::numfmt::axis_percent(r.value, 0.05),
            &right,
            (xr.end + 10, py),
        )?;
    }
    Ok(())
}
