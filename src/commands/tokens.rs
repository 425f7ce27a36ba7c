//! `bench tokens`: token counts of every rendering.

use super::{check_selection, for_each_rendering};
use crate::cli::TokensArgs;
use crate::dataset::{self, DEFAULT_RECORDS, Structure};
use crate::formats::Format;
use crate::layout;
use crate::report::{self, TokenRow};
use anyhow::Result;

/// Renders every combination in memory and prints the token table.
pub fn execute(args: &TokensArgs) -> Result<()> {
    if !args.count.providers.is_empty() {
        return super::tokens_billed::execute(args);
    }
    if args.count.suite.is_some_and(|s| !s.is_default()) || suite_flags_given(args) {
        return Err(crate::UsageError::new(
            "--suite (or a suite's own flag, such as --tasks) counts a suite's prompts with a \
             provider's counter: add --provider NAME:MODEL \
             (offline, `bench tokens` counts the renderings of the formats suite or --data)",
        )
        .into());
    }
    if let Some(path) = &args.file.data_file {
        return super::tokens_data::execute(args, path);
    }
    let d = &args.data;
    let formats = d.formats_or(Format::ALL.to_vec());
    check_selection(&formats, &d.structures, &d.variants)?;
    // `--records` has no clap default for `tokens` (see TokensArgs): the dataset's applies here.
    let sizes = if d.records.is_empty() {
        vec![DEFAULT_RECORDS]
    } else {
        d.records.clone()
    };
    for (i, &records) in sizes.iter().enumerate() {
        if sizes.len() > 1 {
            if i > 0 {
                crate::outln!()?;
            }
            crate::outln!("{records} records:")?;
        }
        table(args, records, &formats)?;
    }
    Ok(())
}

/// Whether a flag of a suite other than formats (`--tasks`, `--cases`, …) was given: offline,
/// `bench tokens` counts the formats suite, so such a flag needs `--provider` too.
fn suite_flags_given(args: &TokensArgs) -> bool {
    let mut run = crate::suites::asked::defaults::<crate::cli::RunArgs>();
    run.own = args.count.own.clone();
    !crate::suites::own_flags_given(&run.asked()).is_empty()
}

/// The token table of one dataset size.
fn table(args: &TokensArgs, records: u32, formats: &[Format]) -> Result<()> {
    let d = &args.data;
    let ds = dataset::generate(records, d.seed);
    let mut rows = Vec::new();
    for_each_rendering(&ds, d, formats, |r| {
        rows.push(TokenRow {
            format: r.format,
            structure: r.structure,
            variant: Some(r.variant),
            stats: r.stats,
        });
        Ok(())
    })?;
    // The ratio columns need CSV (flat) and JSON compact of each variant even when not selected.
    let mut baselines = Vec::new();
    for &v in &d.variants {
        for (f, s) in [
            (Format::Csv, Structure::Flat),
            (Format::JsonCompact, Structure::Flat),
            (Format::JsonCompact, Structure::Nested),
        ] {
            let selected = rows
                .iter()
                .any(|r| r.format == f && r.structure == s && r.variant == Some(v));
            let needed = s == Structure::Flat && f == Format::Csv || d.structures.contains(&s);
            if needed && !selected {
                let r = layout::render(&ds.document(v, s), f, s, v, &d.tokenizers)?;
                baselines.push(TokenRow {
                    format: f,
                    structure: s,
                    variant: Some(v),
                    stats: r.stats,
                });
            }
        }
    }
    crate::out!(
        "{}",
        report::tokens_table(&mut rows, &baselines, &d.tokenizers, args.sort, args.format)?
    )?;
    Ok(())
}
