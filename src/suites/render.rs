//! Rendering a suite's data, or the [`Skip`] that says why a format cannot: shared by every
//! suite that renders a document it did not generate (a task's data, a written case, a
//! `--data` file). A leaf of `suites/`.

use crate::formats::{self, Format};
use crate::layout::Rendering;
use anyhow::Result;

pub use crate::runlog::meta::Skip;

/// A rendering of `subject`'s data in `format`, or its [`Skip`] when the format cannot
/// represent that data; any other failure stays an error.
pub fn or_skip(
    rendered: Result<Rendering>,
    subject: &str,
    format: Format,
) -> Result<Result<Rendering, Skip>> {
    match rendered {
        Ok(r) => Ok(Ok(r)),
        Err(e) => match e.downcast_ref::<formats::FormatError>() {
            Some(fe) if fe.is_cannot_represent() => Ok(Err(Skip {
                task: subject.to_string(),
                format,
                reason: fe.to_string(),
            })),
            _ => Err(e),
        },
    }
}
