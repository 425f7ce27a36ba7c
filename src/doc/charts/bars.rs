//! Vertical bars grouped by category, one colour per series, values written over the bars
//! when they fit.

use super::style::{self, AXIS, AXIS_SIZE, GRID, INK, Key, LABEL_SIZE, MUTED, PAD, TICK_SIZE};
use anyhow::Result;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// Vertical bars grouped by category, one bar per series in each group.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupedBars {
    /// Chart title.
    pub title: String,
    /// Caption of the vertical axis.
    pub y_label: String,
    /// Groups along the horizontal axis.
    pub categories: Vec<String>,
    /// One colour per series; each has one value per category.
    pub series: Vec<BarSeries>,
}

/// One coloured series of a [`GroupedBars`] chart.
#[derive(Debug, Clone, PartialEq)]
pub struct BarSeries {
    /// Legend entry.
    pub name: String,
    /// One value per category; `None` leaves a gap.
    pub values: Vec<Option<f64>>,
}

/// Category labels longer than this are cut before measuring.
const LABEL_CHARS: usize = 24;
/// Width of the y tick-label area.
const Y_AREA: i32 = 78;
/// Share of a category's slot the bars fill; the rest separates groups.
const GROUP: f64 = 0.8;

/// Draws the grouped bars with category labels under the axis.
pub fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, c: &GroupedBars) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let legend = style::legend(c.series.iter().map(|s| s.name.as_str()));
    let body = style::frame(root, &c.title, &legend, Key::Square)?;
    let values = c
        .series
        .iter()
        .flat_map(|s| s.values.iter().flatten().copied());
    let (n, m) = (c.categories.len(), c.series.len());
    let Some((lo, hi)) = style::extent(values).filter(|_| n > 0 && m > 0) else {
        return style::no_data(&body);
    };
    // Bars grow from zero, so zero is always on the axis.
    let (lo, hi) = (lo.min(0.0), hi.max(0.0));
    let (y0, y1) = if hi - lo > 0.0 {
        let span = hi - lo;
        (
            if lo < 0.0 { lo - span * 0.08 } else { 0.0 },
            if hi > 0.0 { hi + span * 0.08 } else { 0.0 },
        )
    } else {
        (0.0, 1.0)
    };

    // Category labels go horizontal when the widest fits its slot, else they are turned to
    // read bottom-to-top so many categories still get whole names.
    let (w, _) = root.dim_in_pixel();
    let slot = (w as i32 - 2 * PAD - 8 - Y_AREA) as f64 / n as f64;
    let label_style = style::text(TICK_SIZE, &INK);
    let labels = c
        .categories
        .iter()
        .map(|l| style::fit(&style::truncate(l, LABEL_CHARS), &label_style, 170))
        .collect::<Result<Vec<_>>>()?;
    let mut widest = 0;
    for l in &labels {
        widest = widest.max(style::measure(l, &label_style)?.0);
    }
    let rotate = f64::from(widest) > slot - 8.0;
    let x_area = if rotate { widest + 18 } else { 34 };

    let mut chart = ChartBuilder::on(&body)
        .margin_left(PAD)
        .margin_right(PAD + 8)
        .margin_bottom(PAD)
        .margin_top(6)
        .x_label_area_size(x_area)
        .y_label_area_size(Y_AREA)
        .build_cartesian_2d(0.0..n as f64, y0..y1)?;
    let y_fmt = |v: &f64| style::compact(*v);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .bold_line_style(GRID)
        .light_line_style(TRANSPARENT)
        .axis_style(AXIS)
        .label_style(style::text(TICK_SIZE, &MUTED))
        .axis_desc_style(style::text(AXIS_SIZE, &INK))
        .y_labels(8)
        .y_label_formatter(&y_fmt)
        .y_desc(c.y_label.as_str())
        .draw()?;

    let (_, yr) = chart.plotting_area().get_pixel_range();
    let tick = if rotate {
        style::anchored(label_style.clone(), HPos::Right, VPos::Center)
            .transform(FontTransform::Rotate270)
    } else {
        style::anchored(label_style.clone(), HPos::Center, VPos::Top)
    };
    for (i, label) in labels.iter().enumerate() {
        let (cx, _) = chart.backend_coord(&(i as f64 + 0.5, y0));
        root.draw_text(label, &tick, (cx, yr.end + 8))?;
    }

    let bw = GROUP / m as f64;
    let value_style = style::text(LABEL_SIZE - 1.0, &MUTED);
    let above = style::anchored(value_style.clone(), HPos::Center, VPos::Bottom);
    let below = style::anchored(value_style.clone(), HPos::Center, VPos::Top);
    let mut annotations = Vec::new();
    for (k, s) in c.series.iter().enumerate() {
        let color = style::color(k);
        for (i, v) in s.values.iter().enumerate() {
            let Some(v) = v.filter(|v| v.is_finite()) else {
                continue;
            };
            let a = i as f64 + (1.0 - GROUP) / 2.0 + k as f64 * bw;
            let (pa, p0) = chart.backend_coord(&(a, 0.0));
            let (pb, pv) = chart.backend_coord(&(a + bw, v));
            // A pixel of white between neighbours keeps thin bars apart.
            let (pa, pb) = (pa + 1, (pb - 1).max(pa + 2));
            root.draw(&Rectangle::new([(pa, p0), (pb, pv)], color.filled()))?;
            annotations.push(((pa + pb) / 2, pv, pb - pa, v));
        }
    }
    // Exact values when every one fits over its bar, else short ones, else none: a partial
    // set would read as missing data.
    let widths: Vec<i32> = annotations.iter().map(|a| a.2 + 4).collect();
    let fits = |texts: &[String]| -> Result<bool> {
        for (t, w) in texts.iter().zip(&widths) {
            if style::measure(t, &value_style)?.0 > *w {
                return Ok(false);
            }
        }
        Ok(true)
    };
    let exact: Vec<_> = annotations.iter().map(|a| style::grouped(a.3)).collect();
    let short: Vec<_> = annotations.iter().map(|a| style::compact(a.3)).collect();
    let texts = if fits(&exact)? {
        exact
    } else if fits(&short)? {
        short
    } else {
        Vec::new()
    };
    for ((x, y, _, v), t) in annotations.iter().zip(&texts) {
        if *v >= 0.0 {
            root.draw_text(t, &above, (*x, y - 3))?;
        } else {
            root.draw_text(t, &below, (*x, y + 3))?;
        }
    }
    Ok(())
}
