//! `bench tokens`: token counts of every rendering.

use super::{check_selection, for_each_rendering};
use crate::cli::TokensArgs;
use crate::dataset;
use crate::report::{self, TokenRow};
use anyhow::Result;

/// Renders every combination in memory and prints the token table.
pub fn execute(args: &TokensArgs) -> Result<()> {
    let d = &args.data;
    check_selection(&d.formats, &d.structures, &d.variants)?;
    let ds = dataset::generate(d.records, d.seed);
    let mut rows = Vec::new();
    for_each_rendering(&ds, d, |r| {
        rows.push(TokenRow { format: r.format, structure: r.structure, variant: r.variant, stats: r.stats });
        Ok(())
    })?;
    print!("{}", report::tokens_table(&mut rows, &d.tokenizers, args.sort, args.format)?);
    Ok(())
}
