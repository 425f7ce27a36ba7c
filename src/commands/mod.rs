//! Command handlers: turn parsed arguments into library calls and print the results.

pub mod export;
pub mod generate;
pub mod init_config;
pub mod perf;
pub mod query;
pub mod report;
pub mod rescore;
pub mod run;
pub mod tasks;
pub mod tokens;

use crate::cli::DataArgs;
use crate::dataset::{Dataset, Structure, Variant};
use crate::formats::Format;
use crate::layout::{self, Rendering};
use anyhow::Result;

/// Renders every supported combination of the selection, one at a time, handing each to `each`
/// so large datasets never hold more than one rendering in memory.
pub fn for_each_rendering(
    ds: &Dataset,
    data: &DataArgs,
    formats: &[Format],
    mut each: impl FnMut(Rendering) -> Result<()>,
) -> Result<()> {
    for &v in &data.variants {
        for &s in &data.structures {
            let doc = ds.document(v, s);
            for &f in formats.iter().filter(|f| f.supports(s)) {
                each(layout::render(&doc, f, s, v, &data.tokenizers)?)?;
            }
        }
    }
    Ok(())
}

/// Whether the selection renders anything at all.
pub fn check_selection(
    formats: &[Format],
    structures: &[Structure],
    variants: &[Variant],
) -> Result<(), crate::UsageError> {
    let any = !variants.is_empty()
        && formats
            .iter()
            .any(|f| structures.iter().any(|&s| f.supports(s)));
    if any {
        Ok(())
    } else {
        Err(crate::UsageError::new(format!(
            "nothing to render: formats [{}] support none of the structures [{}] (csv is flat only)",
            formats
                .iter()
                .map(|f| f.name())
                .collect::<Vec<_>>()
                .join(", "),
            structures
                .iter()
                .map(|s| s.name())
                .collect::<Vec<_>>()
                .join(", "),
        )))
    }
}
