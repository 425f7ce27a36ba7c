//! What every chart shares: the embedded font, palette, text helpers, title and legend.

use ab_glyph::FontRef;
use anyhow::{Result, anyhow};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::sync::OnceLock;

/// Default canvas width: wide enough for a report column.
pub const WIDTH: u32 = 960;
/// Default canvas height: short enough to sit beside text.
pub const HEIGHT: u32 = 560;

// Font sizes are plotters' (the glyph box height, about 1.2 em), chosen to stay readable
// when a 960 px chart is shown at half size in a document.
/// Chart title.
pub const TITLE_SIZE: f64 = 24.0;
/// Axis captions.
pub const AXIS_SIZE: f64 = 17.0;
/// Tick labels and category names.
pub const TICK_SIZE: f64 = 15.0;
/// Point labels, row labels, legend entries and cell values.
pub const LABEL_SIZE: f64 = 14.0;

/// Space around the whole chart.
pub const PAD: i32 = 16;

/// Main text: near-black, softer than pure black on white.
pub const INK: RGBColor = RGBColor(0x22, 0x22, 0x22);
/// Secondary text (ticks, values) that should not compete with the data.
pub const MUTED: RGBColor = RGBColor(0x66, 0x66, 0x66);
/// Grid lines, faint enough to sit behind the data.
pub const GRID: RGBColor = RGBColor(0xe3, 0xe3, 0xe3);
/// Axis lines.
pub const AXIS: RGBColor = RGBColor(0x88, 0x88, 0x88);
/// Alternate-row shading.
pub const BAND: RGBColor = RGBColor(0xf5, 0xf5, 0xf5);
/// Missing heat map cells: neutral grey, outside the colour scale.
pub const MISSING: RGBColor = RGBColor(0xd9, 0xd9, 0xd9);

/// Tableau 10: ten hues that stay apart for common colour-vision deficiencies and in print.
const PALETTE: [RGBColor; 10] = [
    RGBColor(0x4e, 0x79, 0xa7),
    RGBColor(0xf2, 0x8e, 0x2b),
    RGBColor(0xe1, 0x57, 0x59),
    RGBColor(0x76, 0xb7, 0xb2),
    RGBColor(0x59, 0xa1, 0x4f),
    RGBColor(0xed, 0xc9, 0x48),
    RGBColor(0xb0, 0x7a, 0xa1),
    RGBColor(0xff, 0x9d, 0xa7),
    RGBColor(0x9c, 0x75, 0x5f),
    RGBColor(0xba, 0xb0, 0xac),
];

/// The colour of the `i`th series; repeats after ten, which legends still disambiguate.
pub fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// Legend entries for series named `names`, coloured in series order.
pub fn legend<'a>(names: impl Iterator<Item = &'a str>) -> Vec<(String, RGBColor)> {
    names
        .enumerate()
        .map(|(i, n)| (n.to_string(), color(i)))
        .collect()
}

static FONT: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");

/// The embedded font, parsed once and registered with plotters under the generic family
/// name, so plotters measures text with it and the SVG still asks the browser for plain
/// `sans-serif`.
pub fn font() -> Result<&'static FontRef<'static>> {
    static PARSED: OnceLock<Option<FontRef<'static>>> = OnceLock::new();
    PARSED
        .get_or_init(|| {
            let registered =
                plotters::style::register_font("sans-serif", FontStyle::Normal, FONT).is_ok();
            FontRef::try_from_slice(FONT).ok().filter(|_| registered)
        })
        .as_ref()
        .ok_or_else(|| anyhow!("the embedded chart font could not be loaded"))
}

/// Text in the chart font at `size`, anchored by its top-left corner.
pub fn text(size: f64, color: &RGBColor) -> TextStyle<'static> {
    ("sans-serif", size).into_font().color(color)
}

/// `style` anchored at (`h`, `v`) instead of its top-left corner.
pub fn anchored(style: TextStyle<'static>, h: HPos, v: VPos) -> TextStyle<'static> {
    style.pos(Pos::new(h, v))
}

/// `s` cut to at most `max` characters, ending in "…" when cut; control characters become
/// spaces since they are not valid in SVG text and have no glyph.
pub fn truncate(s: &str, max: usize) -> String {
    let clean = |c: char| if c.is_control() { ' ' } else { c };
    if s.chars().count() <= max {
        return s.chars().map(clean).collect();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).map(clean).collect();
    out.push('…');
    out
}

/// Pixel size of `s` in `style`, (0, 0) for empty text; both backends measure with the
/// embedded font, so this needs no drawing area and layouts match between SVG and PNG.
pub fn measure(s: &str, style: &TextStyle) -> Result<(i32, i32)> {
    if s.is_empty() {
        return Ok((0, 0));
    }
    let (w, h) = style
        .font
        .box_size(s)
        .map_err(|e| anyhow!("measuring chart text: {e}"))?;
    Ok((w as i32, h as i32))
}

/// `s` shortened with "…" until it is at most `max_px` wide in `style`.
pub fn fit(s: &str, style: &TextStyle, max_px: i32) -> Result<String> {
    let mut n = s.chars().count();
    let mut out = truncate(s, n);
    while n > 1 && measure(&out, style)?.0 > max_px {
        n -= 1;
        out = truncate(s, n);
    }
    Ok(out)
}

/// The widest of `texts` in `style`, in pixels.
pub fn widest(texts: &[String], style: &TextStyle) -> Result<i32> {
    let mut w = 0;
    for t in texts {
        w = w.max(measure(t, style)?.0);
    }
    Ok(w)
}

pub use crate::numfmt::compact;

/// A whole number with thousands separators (12,345), or two decimals below 100.
pub fn grouped(v: f64) -> String {
    if v.abs() < 100.0 && v.fract() != 0.0 {
        return format!("{v:.2}");
    }
    let digits = format!("{:.0}", v.abs());
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    if v < 0.0 && digits != "0" {
        out.insert(0, '-');
    }
    out
}

/// Finite (min, max) of `values`, or None when there is none.
pub fn extent(values: impl IntoIterator<Item = f64>) -> Option<(f64, f64)> {
    values
        .into_iter()
        .filter(|v| v.is_finite())
        .fold(None, |acc, v| match acc {
            None => Some((v, v)),
            Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
        })
}

/// `(lo, hi)` widened by `frac` of its span on each side, and to a non-empty range when the
/// values are all equal (plotters cannot map a zero-width range).
pub fn pad(lo: f64, hi: f64, frac: f64) -> (f64, f64) {
    let span = hi - lo;
    if span > f64::EPSILON * hi.abs().max(1.0) {
        (lo - span * frac, hi + span * frac)
    } else {
        let d = (lo.abs() * 0.1).max(0.05);
        (lo - d, hi + d)
    }
}

/// A padded 0..1 range for percentages, clamped so the axis never shows below 0% or above 100%.
pub fn unit_range(lo: f64, hi: f64) -> (f64, f64) {
    let (a, b) = pad(lo, hi, 0.08);
    let (a, b) = (a.max(0.0), b.min(1.0));
    if b - a < 0.02 {
        ((a - 0.01).max(0.0), (b + 0.01).min(1.0))
    } else {
        (a, b)
    }
}

/// How a legend entry draws its key.
#[derive(Clone, Copy)]
pub enum Key {
    /// A filled dot (scatter points, interval groups).
    Dot,
    /// A short line with a dot (line series).
    Line,
    /// A filled square (bars).
    Square,
}

/// Draws the title and a legend that wraps into rows beneath it, and returns the area below
/// them, so legends never sit on top of data.
pub fn frame<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    legend: &[(String, RGBColor)],
    key: Key,
) -> Result<DrawingArea<DB, Shift>>
where
    DB::ErrorType: 'static,
{
    let (w, _) = root.dim_in_pixel();
    let w = w as i32;
    let title_style = text(TITLE_SIZE, &INK);
    let title = fit(title, &title_style, w - 2 * PAD)?;
    root.draw_text(&title, &title_style, (PAD, PAD))?;
    let y = PAD + TITLE_SIZE as i32 + 10;
    if !legend.is_empty() {
        let style = legend_style();
        let centred = anchored(style.clone(), HPos::Left, VPos::Center);
        let placed = legend_layout(legend, &style, w)?;
        for (name, c, x, _, row) in &placed {
            let ey = y + row * LEGEND_ROW + 8;
            draw_key(root, (*x, ey), c, key)?;
            root.draw_text(name, &centred, (x + 26, ey))?;
        }
        let hidden = legend.len() - placed.len();
        if let Some(last) = placed.last().filter(|_| hidden > 0) {
            let note = anchored(text(LABEL_SIZE + 1.0, &MUTED), HPos::Right, VPos::Center);
            let ey = y + last.4 * LEGEND_ROW + 8;
            root.draw_text(&format!("+{hidden} more"), &note, (w - PAD, ey))?;
        }
    }
    Ok(root.margin(header_height(legend, w), 0, 0, 0))
}

/// Height of what `frame` draws (title and legend) on a canvas `w` pixels wide.
pub fn header_height(legend: &[(String, RGBColor)], w: i32) -> i32 {
    let title = PAD + TITLE_SIZE as i32 + 10;
    if legend.is_empty() {
        return title;
    }
    // Measuring only fails if the font is missing, and then nothing is drawn anyway.
    let rows = legend_layout(legend, &legend_style(), w)
        .ok()
        .and_then(|p| p.last().map(|p| p.4 + 1))
        .unwrap_or(1);
    title + rows * LEGEND_ROW + 6
}

fn legend_style() -> TextStyle<'static> {
    text(LABEL_SIZE + 1.0, &INK)
}

/// Height of one legend row.
const LEGEND_ROW: i32 = 24;
/// Legend rows kept at most, so a legend of many series leaves the plot its room.
const LEGEND_ROWS: i32 = 4;
/// Room kept at the end of the last row for the "+N more" note.
const MORE_NOTE: i32 = 90;

/// A legend entry placed: its text, colour, left x, right x and row.
type Placed = (String, RGBColor, i32, i32, i32);

/// Legend entries flowing left to right in rows; when they need more than LEGEND_ROWS rows
/// the rest are left out (the caller notes how many), with room kept for that note.
fn legend_layout(legend: &[(String, RGBColor)], style: &TextStyle, w: i32) -> Result<Vec<Placed>> {
    let mut out: Vec<Placed> = Vec::new();
    let (mut x, mut row) = (PAD, 0);
    for (name, c) in legend {
        let name = fit(&truncate(name, 40), style, w / 2)?;
        let entry = 26 + measure(&name, style)?.0 + 22;
        if x > PAD && x + entry > w - PAD {
            x = PAD;
            row += 1;
        }
        if row == LEGEND_ROWS {
            while out.last().is_some_and(|p| p.3 > w - PAD - MORE_NOTE) {
                out.pop();
            }
            break;
        }
        out.push((name, *c, x, x + entry, row));
        x += entry;
    }
    Ok(out)
}

fn draw_key<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    c: &RGBColor,
    key: Key,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    match key {
        Key::Dot => root.draw(&Circle::new((x + 10, y), 6, c.filled()))?,
        Key::Line => {
            root.draw(&PathElement::new(
                vec![(x, y), (x + 20, y)],
                c.stroke_width(3),
            ))?;
            root.draw(&Circle::new((x + 10, y), 4, c.filled()))?;
        }
        Key::Square => root.draw(&Rectangle::new(
            [(x + 3, y - 7), (x + 17, y + 7)],
            c.filled(),
        ))?,
    }
    Ok(())
}

/// A grey "No data" note in the middle of `area`, for charts with nothing finite to plot.
pub fn no_data<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let (w, h) = area.dim_in_pixel();
    let style = anchored(text(AXIS_SIZE + 3.0, &MUTED), HPos::Center, VPos::Center);
    area.draw_text("No data", &style, (w as i32 / 2, h as i32 / 2))?;
    Ok(())
}

/// A pixel rectangle (x0, y0, x1, y1), for keeping point labels apart.
pub type Box2 = (i32, i32, i32, i32);

fn overlap(a: Box2, b: Box2) -> i64 {
    let w = (a.2.min(b.2) - a.0.max(b.0)).max(0) as i64;
    let h = (a.3.min(b.3) - a.1.max(b.1)).max(0) as i64;
    w * h
}

/// Space kept around a label's measured box, so labels stay apart even where a viewer's
/// font runs a little wider than the embedded one.
const LABEL_PAD: i32 = 3;

/// Where the labels of a chart's points go: beside their dot when there is room, farther
/// off (with a leader line) when there is not; never on top of another label.
pub struct Labels {
    /// Dots, bars and lines the labels steer around (a soft rule).
    pub obstacles: Vec<Box2>,
    /// Labels placed so far, padded (a hard rule: no two overlap).
    placed: Vec<Box2>,
    /// The plot area labels must stay inside.
    bounds: Box2,
}

/// A label's spot: its box's top-left corner, and whether it sits away from its dot (so a
/// leader line should join them).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spot {
    /// Top-left corner of the label's box.
    pub at: (i32, i32),
    /// True when the label is not next to its dot.
    pub away: bool,
}

impl Labels {
    /// No label placed yet, inside `bounds`.
    pub fn new(bounds: Box2) -> Self {
        Self {
            obstacles: Vec::new(),
            placed: Vec::new(),
            bounds,
        }
    }

    /// Places a `w`×`h` label for the dot at `p`: the nearest spot that overlaps no other
    /// label and stays inside the plot, preferring spots clear of dots and lines; None when
    /// the plot has no free spot left (the caller says how many labels it left out).
    pub fn place(&mut self, p: (i32, i32), (w, h): (i32, i32)) -> Option<Spot> {
        let gap = 8;
        // Wider text runs wider in other fonts: pad the sides in proportion.
        let side = LABEL_PAD + w / 12;
        let (pw, ph) = (w + 2 * side, h + 2 * LABEL_PAD);
        // Beside the dot first (right, left, above, below, corners), then rings farther out,
        // then anywhere in the plot, nearest first.
        let mut near = Vec::new();
        for ring in 0..4 {
            let d = gap + ring * (h + 2 * LABEL_PAD);
            near.extend([
                (p.0 + d, p.1 - h / 2),
                (p.0 - d - w, p.1 - h / 2),
                (p.0 - w / 2, p.1 - d - h),
                (p.0 - w / 2, p.1 + d),
                (p.0 + d, p.1 - d - h),
                (p.0 + d, p.1 + d),
                (p.0 - d - w, p.1 - d - h),
                (p.0 - d - w, p.1 + d),
            ]);
        }
        let padded =
            |(x, y): (i32, i32)| (x - side, y - LABEL_PAD, x - side + pw, y - LABEL_PAD + ph);
        let fits = |b: Box2, placed: &[Box2]| {
            b.0 >= self.bounds.0
                && b.1 >= self.bounds.1
                && b.2 <= self.bounds.2
                && b.3 <= self.bounds.3
                && placed.iter().all(|t| overlap(b, *t) == 0)
        };
        let crowd = |b: Box2| -> i64 { self.obstacles.iter().map(|t| overlap(b, *t)).sum() };
        let distance = |(x, y): (i32, i32)| {
            let dx = (x - p.0).max(0).max(p.0 - (x + w));
            let dy = (y - p.1).max(0).max(p.1 - (y + h));
            i64::from(dx.max(dy))
        };
        // The best free spot of `candidates` (least covered, then nearest), stopping at the
        // first that covers nothing; `best` carries over from the candidates tried before.
        let pick = |candidates: &[(i32, i32)], mut best: Option<((i32, i32), i64)>| {
            for &c in candidates {
                let b = padded(c);
                if !fits(b, &self.placed) {
                    continue;
                }
                let crowded = crowd(b);
                let score = crowded * 100 + distance(c);
                if best.is_none_or(|(_, s)| score < s) {
                    best = Some((c, score));
                }
                if crowded == 0 {
                    break;
                }
            }
            best
        };
        let mut best = pick(&near, None);
        if best.is_none_or(|(_, s)| s >= 100) {
            // Nothing clear nearby: scan the plot, nearest first.
            let (x0, y0, x1, y1) = self.bounds;
            let mut grid = Vec::new();
            for y in (y0 + LABEL_PAD..=y1 - ph + LABEL_PAD).step_by(4) {
                for x in (x0 + side..=x1 - pw + side).step_by(6) {
                    grid.push((x, y));
                }
            }
            grid.sort_by_key(|&c| distance(c));
            best = pick(&grid, best);
        }
        let (at, _) = best?;
        self.placed.push(padded(at));
        self.obstacles.push((at.0, at.1, at.0 + w, at.1 + h));
        Some(Spot {
            at,
            away: distance(at) > i64::from(gap + LABEL_PAD),
        })
    }
}
