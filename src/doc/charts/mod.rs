//! Report charts rendered to SVG (for browsers) and PNG (for documents), from plain data.
//!
//! The PNG side draws text with DejaVu Sans compiled into the binary, so charts render the
//! same on a machine with no fonts installed; the SVG side names the generic `sans-serif`
//! family and lets the viewer pick the font.

mod bars;
mod heatmap;
mod intervals;
mod lines;
mod raster;
mod scatter;
mod style;
#[cfg(test)]
mod tests;

use anyhow::{Context, Result, bail};
use plotters::coord::Shift;
use plotters::prelude::*;

pub use bars::{BarSeries, GroupedBars};
pub use heatmap::HeatMap;
pub use intervals::{IntervalRow, Intervals};
pub use lines::{LineSeries, Lines};
pub use scatter::{Scatter, ScatterPoint, ScatterSeries};

/// A chart with its file stem and caption.
pub struct Figure {
    /// File stem under charts/ (no extension).
    pub name: String,
    /// Caption.
    pub title: String,
    /// The chart.
    pub chart: Chart,
}

/// Any chart this module draws.
#[derive(Debug, Clone, PartialEq)]
pub enum Chart {
    /// Accuracy vs tokens.
    Scatter(Scatter),
    /// Dot-and-whisker rows.
    Intervals(Intervals),
    /// Grouped vertical bars.
    GroupedBars(GroupedBars),
    /// Coloured grid.
    HeatMap(HeatMap),
    /// Lines over a numeric x axis.
    Lines(Lines),
}

impl Chart {
    /// The chart's title.
    pub fn title(&self) -> &str {
        match self {
            Chart::Scatter(c) => &c.title,
            Chart::Intervals(c) => &c.title,
            Chart::GroupedBars(c) => &c.title,
            Chart::HeatMap(c) => &c.title,
            Chart::Lines(c) => &c.title,
        }
    }
}

/// A chart drawn twice: SVG text and PNG bytes of the same size.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    /// Standalone SVG document.
    pub svg: String,
    /// PNG image, 8-bit RGB.
    pub png: Vec<u8>,
    /// Width in pixels of both images.
    pub width: u32,
    /// Height in pixels of both images.
    pub height: u32,
}

/// Renders `chart` as SVG and PNG; fails on inconsistent data (e.g. a heat map row of the
/// wrong length or more rows than fit one image) rather than drawing something misleading.
pub fn render(chart: &Chart) -> Result<Rendered> {
    let font = style::font()?;
    validate(chart)?;
    let (width, height) = size(chart);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        draw(&root, chart).context("drawing the SVG chart")?;
        root.present().context("finishing the SVG chart")?;
    }
    let mut rgb = vec![0u8; width as usize * height as usize * 3];
    {
        let root = raster::Raster::new(&mut rgb, (width, height), font).into_drawing_area();
        draw(&root, chart).context("drawing the PNG chart")?;
        root.present().context("finishing the PNG chart")?;
    }
    let png = encode_png(&rgb, width, height)?;
    Ok(Rendered {
        svg,
        png,
        width,
        height,
    })
}

/// Most rows one Intervals chart or HeatMap takes: about 10,000 px, already past what anyone
/// reads, and the cap keeps a runaway input from allocating a giant bitmap.
const MAX_ROWS: usize = 400;
/// Most columns or categories one chart takes, for the same reason.
const MAX_COLUMNS: usize = 80;

fn validate(chart: &Chart) -> Result<()> {
    match chart {
        Chart::Intervals(c) if c.rows.len() > MAX_ROWS => {
            bail!(
                "{} rows is more than one chart shows ({MAX_ROWS})",
                c.rows.len()
            )
        }
        Chart::HeatMap(c) => {
            if c.rows.len() > MAX_ROWS || c.columns.len() > MAX_COLUMNS {
                bail!(
                    "a {}×{} heat map is more than one chart shows ({MAX_ROWS}×{MAX_COLUMNS})",
                    c.rows.len(),
                    c.columns.len()
                );
            }
            if c.values.len() != c.rows.len() {
                bail!(
                    "heat map has {} rows but {} rows of values",
                    c.rows.len(),
                    c.values.len()
                );
            }
            if let Some((i, r)) = c
                .values
                .iter()
                .enumerate()
                .find(|(_, r)| r.len() != c.columns.len())
            {
                bail!(
                    "heat map row {i} ({:?}) has {} values for {} columns",
                    c.rows[i],
                    r.len(),
                    c.columns.len()
                );
            }
        }
        Chart::GroupedBars(c) => {
            if c.categories.len() > MAX_COLUMNS {
                bail!(
                    "{} categories is more than one chart shows ({MAX_COLUMNS})",
                    c.categories.len()
                );
            }
            if let Some(s) = c
                .series
                .iter()
                .find(|s| s.values.len() != c.categories.len())
            {
                bail!(
                    "bar series {:?} has {} values for {} categories",
                    s.name,
                    s.values.len(),
                    c.categories.len()
                );
            }
        }
        _ => {}
    }
    Ok(())
}

/// Default 960×560; row-based charts grow with their rows and wide heat maps with columns.
fn size(chart: &Chart) -> (u32, u32) {
    match chart {
        Chart::Intervals(c) => intervals::size(c),
        Chart::HeatMap(c) => heatmap::size(c),
        _ => (style::WIDTH, style::HEIGHT),
    }
}

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, chart: &Chart) -> Result<()>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    match chart {
        Chart::Scatter(c) => scatter::draw(root, c),
        Chart::Intervals(c) => intervals::draw(root, c),
        Chart::GroupedBars(c) => bars::draw(root, c),
        Chart::HeatMap(c) => heatmap::draw(root, c),
        Chart::Lines(c) => lines::draw(root, c),
    }
}

fn encode_png(rgb: &[u8], width: u32, height: u32) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    // Deflate level 1, not the default 6: level 6 spent a twentieth of a whole `bench run` on
    // four charts of flat colour, for files 15-25 % smaller; the pixels are the same.
    encoder.set_deflate_compression(png::DeflateCompression::Level(1));
    let mut writer = encoder.write_header().context("writing the PNG header")?;
    writer.write_image_data(rgb).context("encoding the PNG")?;
    writer.finish().context("finishing the PNG")?;
    Ok(out)
}
