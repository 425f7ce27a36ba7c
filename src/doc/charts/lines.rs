//! Lines over a numeric x axis, linear or logarithmic, with a dot on every point.

use super::style::{self, AXIS, AXIS_SIZE, GRID, INK, Key, MUTED, PAD, TICK_SIZE};
use anyhow::Result;
use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, Ranged, ValueFormatter};
use plotters::prelude::*;

/// Line chart, one line per series, optionally with a logarithmic x axis.
#[derive(Debug, Clone, PartialEq)]
pub struct Lines {
    /// Chart title.
    pub title: String,
    /// Caption of the horizontal axis.
    pub x_label: String,
    /// Caption of the vertical axis; values all within 0..1 are shown as %.
    pub y_label: String,
    /// Logarithmic x axis (ignored when some x is not positive).
    pub log_x: bool,
    /// One colour per series.
    pub series: Vec<LineSeries>,
}

/// One line of a [`Lines`] chart.
#[derive(Debug, Clone, PartialEq)]
pub struct LineSeries {
    /// Legend entry.
    pub name: String,
    /// (x, y) points, joined in x order.
    pub points: Vec<(f64, f64)>,
}

/// Draws the lines, on a log x axis when asked and possible.
pub fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, c: &Lines) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let legend = style::legend(c.series.iter().map(|s| s.name.as_str()));
    let body = style::frame(root, &c.title, &legend, Key::Line)?;

    let all = || {
        c.series
            .iter()
            .flat_map(|s| s.points.iter().copied())
            .filter(|(x, y)| x.is_finite() && y.is_finite())
    };
    // A log axis cannot place zero or negative x; rather than hide those points, fall back to
    // a linear axis.
    let log = c.log_x && all().all(|(x, _)| x > 0.0);
    let (Some((x_lo, x_hi)), Some((y_lo, y_hi))) = (
        style::extent(all().map(|p| p.0)),
        style::extent(all().map(|p| p.1)),
    ) else {
        return style::no_data(&body);
    };
    let percent = y_lo >= 0.0 && y_hi <= 1.0;
    let y = if percent {
        style::unit_range(y_lo, y_hi)
    } else {
        style::pad(y_lo, y_hi, 0.08)
    };
    if log {
        // Multiplicative padding keeps the margins equal on a log axis.
        let (a, b) = if x_hi / x_lo > 1.0 + 1e-9 {
            let f = (x_hi / x_lo).powf(0.05);
            (x_lo / f, x_hi * f)
        } else {
            (x_lo / 2.0, x_hi * 2.0)
        };
        plot(&body, c, (a..b).log_scale(), y, percent)
    } else {
        let (a, b) = style::pad(x_lo, x_hi, 0.05);
        plot(&body, c, a..b, y, percent)
    }
}

fn plot<DB, X>(
    body: &DrawingArea<DB, Shift>,
    c: &Lines,
    x: X,
    (y0, y1): (f64, f64),
    percent: bool,
) -> Result<()>
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let mut chart = ChartBuilder::on(body)
        .margin_left(PAD)
        .margin_right(PAD + 8)
        .margin_bottom(PAD)
        .margin_top(6)
        .x_label_area_size(56)
        .y_label_area_size(78)
        .build_cartesian_2d(x, y0..y1)?;
    let y_fmt = |v: &f64| {
        if percent {
            crate::numfmt::axis_percent(*v, y1 - y0)
        } else {
            style::compact(*v)
        }
    };
    let x_fmt = |v: &f64| style::compact(*v);
    chart
        .configure_mesh()
        .bold_line_style(GRID)
        .light_line_style(TRANSPARENT)
        .axis_style(AXIS)
        .label_style(style::text(TICK_SIZE, &MUTED))
        .axis_desc_style(style::text(AXIS_SIZE, &INK))
        .x_labels(10)
        .y_labels(8)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .x_desc(c.x_label.as_str())
        .y_desc(c.y_label.as_str())
        .draw()?;

    let x_range = chart.x_range();
    for (i, s) in c.series.iter().enumerate() {
        let color = style::color(i);
        let mut points: Vec<_> = s
            .points
            .iter()
            .copied()
            .filter(|&(x, y)| {
                x.is_finite() && y.is_finite() && x >= x_range.start && x <= x_range.end
            })
            .collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        chart.draw_series(std::iter::once(PathElement::new(
            points.clone(),
            color.stroke_width(3),
        )))?;
        chart.draw_series(
            points
                .iter()
                .map(|&p| Circle::new(p, 5, color.filled().stroke_width(1))),
        )?;
        chart.draw_series(
            points
                .iter()
                .map(|&p| Circle::new(p, 5, WHITE.stroke_width(1))),
        )?;
    }
    Ok(())
}
