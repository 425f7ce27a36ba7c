//! A grid of cells coloured on the viridis scale and annotated with their percentage, with a
//! colour bar; missing cells are grey with a dash.

use super::style::{self, HEIGHT, INK, LABEL_SIZE, MISSING, MUTED, PAD, TICK_SIZE, WIDTH};
use anyhow::Result;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// Grid of cells coloured by value (0..1, annotated as %); `None` cells are grey.
#[derive(Debug, Clone, PartialEq)]
pub struct HeatMap {
    /// Chart title.
    pub title: String,
    /// Row captions, top to bottom.
    pub rows: Vec<String>,
    /// Column captions, left to right.
    pub columns: Vec<String>,
    /// `values[row][column]`.
    pub values: Vec<Vec<Option<f64>>>,
}

/// Pixels per row: one line of text with room above and below.
const ROW: i32 = 30;
/// Narrowest cell that still holds "100.0%".
const MIN_CELL: i32 = 58;
/// Space right of the grid for the colour bar and its ticks.
const BAR_AREA: i32 = 96;
/// Row labels longer than this are cut.
const ROW_CHARS: usize = 36;
/// Column labels longer than this are cut.
const COLUMN_CHARS: usize = 24;
/// Widest cell, so a few columns do not turn into slabs.
const MAX_CELL: i32 = 150;
/// Shortest colour bar that still reads.
const BAR_MIN: i32 = 120;

/// Viridis at nine even stops: perceptually uniform, readable in grey and for colour-blind
/// readers; dark is low, yellow is high.
const VIRIDIS: [(u8, u8, u8); 9] = [
    (0x44, 0x01, 0x54),
    (0x47, 0x2d, 0x7b),
    (0x3b, 0x52, 0x8b),
    (0x2c, 0x72, 0x8e),
    (0x21, 0x91, 0x8c),
    (0x28, 0xae, 0x80),
    (0x5e, 0xc9, 0x62),
    (0xad, 0xdc, 0x30),
    (0xfd, 0xe7, 0x25),
];

/// Where everything goes, worked out from the text alone so the canvas fits the grid.
struct Layout {
    rows: Vec<String>,
    columns: Vec<String>,
    /// Left edge of the grid.
    x0: i32,
    /// Top edge of the grid, below the title and column headers.
    y0: i32,
    cell_w: i32,
    /// Column headers turned to read bottom-to-top.
    rotate: bool,
    width: i32,
    height: i32,
}

fn layout(c: &HeatMap) -> Result<Layout> {
    let nc = c.columns.len() as i32;
    let rows = c
        .rows
        .iter()
        .map(|r| style::fit(&style::truncate(r, ROW_CHARS), &row_style(), 320))
        .collect::<Result<Vec<_>>>()?;
    let columns = c
        .columns
        .iter()
        .map(|s| style::fit(&style::truncate(s, COLUMN_CHARS), &column_style(), 170))
        .collect::<Result<Vec<_>>>()?;
    let x0 = PAD + style::widest(&rows, &row_style())? + 12;
    let col_w = style::widest(&columns, &column_style())?;
    // Cells share the default width, but never shrink below MIN_CELL (the canvas widens
    // instead) nor stretch past MAX_CELL (few columns would make slabs).
    let room = WIDTH as i32 - x0 - PAD - BAR_AREA;
    let cell_w = (room / nc.max(1)).clamp(MIN_CELL, MAX_CELL);
    let rotate = col_w > cell_w - 6;
    let header = if rotate { col_w + 16 } else { 32 };
    let y0 = style::header_height(&[], WIDTH as i32) + header;
    let grid_h = (c.rows.len() as i32 * ROW).max(BAR_MIN);
    Ok(Layout {
        rows,
        columns,
        x0,
        y0,
        cell_w,
        rotate,
        width: (WIDTH as i32).max(x0 + nc * cell_w + BAR_AREA + PAD),
        height: y0 + grid_h + 2 * PAD + 8,
    })
}

fn row_style() -> TextStyle<'static> {
    style::text(LABEL_SIZE + 1.0, &INK)
}

fn column_style() -> TextStyle<'static> {
    style::text(TICK_SIZE, &INK)
}

/// Canvas that fits the grid: default width unless the columns need more, and as tall as
/// the rows (the no-data and error cases fall back to the default).
pub fn size(c: &HeatMap) -> (u32, u32) {
    match layout(c) {
        Ok(l) if !c.rows.is_empty() && !c.columns.is_empty() => {
            (l.width as u32, l.height.max(240) as u32)
        }
        _ => (WIDTH, HEIGHT),
    }
}

/// Viridis colour at `t` in 0..1.
fn viridis(t: f64) -> RGBColor {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let pos = t * (VIRIDIS.len() - 1) as f64;
    let i = (pos.floor() as usize).min(VIRIDIS.len() - 2);
    let f = pos - i as f64;
    let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
    let mix = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// White text on dark cells, dark text on light ones.
fn ink_on(c: &RGBColor) -> RGBColor {
    let lum = 0.2126 * f64::from(c.0) + 0.7152 * f64::from(c.1) + 0.0722 * f64::from(c.2);
    if lum < 140.0 { WHITE } else { INK }
}

/// The colour scale's domain: the data's range widened to whole tenths, so small differences
/// still show but the bar's ends are round numbers.
fn domain(lo: f64, hi: f64) -> (f64, f64) {
    let a = (lo * 10.0).floor() / 10.0;
    let b = (hi * 10.0).ceil() / 10.0;
    if b - a >= 0.1 {
        (a, b)
    } else if a >= 0.1 {
        (b - 0.1, b)
    } else {
        (a, a + 0.1)
    }
}

/// Draws the heat map with row and column captions and a colour bar.
pub fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, c: &HeatMap) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let body = style::frame(root, &c.title, &[], style::Key::Square)?;
    let values = c.values.iter().flatten().flatten().copied();
    let Some((lo, hi)) = style::extent(values).filter(|_| !c.rows.is_empty()) else {
        return style::no_data(&body);
    };
    let (d0, d1) = domain(lo, hi);
    let Layout {
        rows,
        columns,
        x0,
        y0,
        cell_w,
        rotate,
        ..
    } = layout(c)?;
    let (nr, nc) = (rows.len() as i32, columns.len() as i32);

    let head_style = if rotate {
        style::anchored(column_style(), HPos::Left, VPos::Center)
            .transform(FontTransform::Rotate270)
    } else {
        style::anchored(column_style(), HPos::Center, VPos::Bottom)
    };
    for (j, s) in columns.iter().enumerate() {
        let cx = x0 + j as i32 * cell_w + cell_w / 2;
        root.draw_text(s, &head_style, (cx, y0 - 8))?;
    }

    let row_label = style::anchored(row_style(), HPos::Right, VPos::Center);
    let cell_text =
        |fg: &RGBColor| style::anchored(style::text(LABEL_SIZE, fg), HPos::Center, VPos::Center);
    for (i, (label, values)) in rows.iter().zip(&c.values).enumerate() {
        let ya = y0 + i as i32 * ROW;
        let cy = ya + ROW / 2;
        root.draw_text(label, &row_label, (x0 - 10, cy))?;
        for (j, v) in values.iter().enumerate() {
            let xa = x0 + j as i32 * cell_w;
            let cell = [(xa + 1, ya + 1), (xa + cell_w - 1, ya + ROW - 1)];
            let center = (xa + cell_w / 2, cy);
            let (fill, text) = match v.filter(|v| v.is_finite()) {
                Some(v) => (
                    viridis((v - d0) / (d1 - d0)),
                    crate::numfmt::axis_percent(v, 0.05),
                ),
                None => (MISSING, "–".to_string()),
            };
            root.draw(&Rectangle::new(cell, fill.filled()))?;
            let fg = if v.is_some_and(f64::is_finite) {
                ink_on(&fill)
            } else {
                MUTED
            };
            let st = cell_text(&fg);
            // Narrow cells drop the decimals rather than spill into their neighbours.
            let text = if style::measure(&text, &st)?.0 > cell_w - 4 {
                v.map_or(text, |v| format!("{:.0}", v * 100.0))
            } else {
                text
            };
            if style::measure(&text, &st)?.0 <= cell_w - 2 {
                root.draw_text(&text, &st, center)?;
            }
        }
    }

    colour_bar(root, (x0 + nc * cell_w + 24, y0), nr * ROW, (d0, d1))
}

/// A vertical colour bar with percentage ticks at its ends and middle.
fn colour_bar<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    height: i32,
    (d0, d1): (f64, f64),
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    // A short grid still gets a bar tall enough to read.
    let h = height.max(BAR_MIN);
    let bar_w = 16;
    // Two-pixel bands look continuous and keep the SVG to a few hundred elements.
    for k in (0..h).step_by(2) {
        let t = 1.0 - f64::from(k) / f64::from(h - 1);
        root.draw(&Rectangle::new(
            [(x, y + k), (x + bar_w, (y + k + 2).min(y + h))],
            viridis(t).filled(),
        ))?;
    }
    root.draw(&Rectangle::new(
        [(x, y), (x + bar_w, y + h)],
        MUTED.stroke_width(1),
    ))?;
    let tick = style::anchored(
        style::text(TICK_SIZE - 1.0, &MUTED),
        HPos::Left,
        VPos::Center,
    );
    for t in [0.0, 0.5, 1.0] {
        let ty = y + ((1.0 - t) * f64::from(h - 1)).round() as i32;
        root.draw(&PathElement::new(
            vec![(x + bar_w, ty), (x + bar_w + 4, ty)],
            MUTED.stroke_width(1),
        ))?;
        root.draw_text(
            &crate::numfmt::axis_percent(d0 + t * (d1 - d0), 0.1),
            &tick,
            (x + bar_w + 7, ty),
        )?;
    }
    Ok(())
}
