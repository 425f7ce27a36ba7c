//! The PNG backend: plotters' bitmap backend with its own text rasteriser.
//!
//! plotters' `ab_glyph` text drawing ignores each glyph's side bearing and puts the baseline
//! half a size below the anchor, so PNG text came out unevenly spaced and higher than the same
//! text in the SVG. This draws glyphs at their real positions and places the baseline the way
//! the SVG backend does (`dy` of 0.76em, 0.5ex, -0.5ex), so both images line up. Everything
//! else is passed straight to the bitmap backend.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use plotters::prelude::*;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};

/// A bitmap backend that draws text with the embedded font.
pub struct Raster<'a> {
    inner: BitMapBackend<'a>,
    font: &'static FontRef<'static>,
}

type Error<'a> = DrawingErrorKind<<BitMapBackend<'a> as DrawingBackend>::ErrorType>;

impl<'a> Raster<'a> {
    /// Draws into `rgb`, which holds `size.0 * size.1` RGB pixels.
    pub fn new(rgb: &'a mut [u8], size: (u32, u32), font: &'static FontRef<'static>) -> Self {
        Raster {
            inner: BitMapBackend::with_buffer(rgb, size),
            font,
        }
    }
}

impl<'a> DrawingBackend for Raster<'a> {
    type ErrorType = <BitMapBackend<'a> as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), Error<'a>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), Error<'a>> {
        self.inner.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), Error<'a>> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), Error<'a>> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), Error<'a>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), Error<'a>> {
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), Error<'a>> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), Error<'a>> {
        self.inner.fill_polygon(vert, style)
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), Error<'a>> {
        self.inner.blit_bitmap(pos, size, src)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), Error<'a>> {
        let color = style.color();
        if color.alpha == 0.0 || text.is_empty() {
            return Ok(());
        }
        // Same scale as plotters' text measurement, so measured layouts hold.
        let font = self.font.as_scaled(PxScale::from(style.size() as f32));
        let mut glyphs = Vec::with_capacity(text.len());
        let mut pen = 0.0;
        let mut prev = None;
        for c in text.chars() {
            let id = font.glyph_id(c);
            if let Some(p) = prev {
                pen += font.kern(p, id);
            }
            glyphs.push((id, pen));
            pen += font.h_advance(id);
            prev = Some(id);
        }
        let em = font.scale().y * self.font.units_per_em().unwrap_or(2048.0)
            / self.font.height_unscaled();
        let x_height = self
            .font
            .outline(self.font.glyph_id('x'))
            .map_or(0.55 * em, |o| {
                (o.bounds.max.y - o.bounds.min.y).abs() * font.v_scale_factor()
            });
        let anchor = style.anchor();
        let dx = match anchor.h_pos {
            HPos::Left => 0.0,
            HPos::Center => -pen / 2.0,
            HPos::Right => -pen,
        };
        let baseline = match anchor.v_pos {
            VPos::Top => 0.76 * em,
            VPos::Center => 0.5 * x_height,
            VPos::Bottom => -0.5 * x_height,
        };
        let transform = style.transform();
        let mut result = Ok(());
        for (id, x) in glyphs {
            let glyph = id.with_scale_and_position(font.scale(), point(dx + x, baseline));
            let Some(outline) = self.font.outline_glyph(glyph) else {
                continue;
            };
            let bounds = outline.px_bounds();
            let (x0, y0) = (bounds.min.x as i32, bounds.min.y as i32);
            outline.draw(|gx, gy, coverage| {
                let (tx, ty) = transform.transform(x0 + gx as i32, y0 + gy as i32);
                let c = BackendColor {
                    alpha: color.alpha * f64::from(coverage.clamp(0.0, 1.0)),
                    rgb: color.rgb,
                };
                if result.is_ok() && c.alpha > 0.0 {
                    result = self.inner.draw_pixel((pos.0 + tx, pos.1 + ty), c);
                }
            });
        }
        result
    }
}
