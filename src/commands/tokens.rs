//! `bench tokens`: token counts of every rendering.

use super::{check_selection, for_each_rendering};
use crate::cli::{TableFormat, TokensArgs};
use crate::dataset::user as userdata;
use crate::dataset::{self, DEFAULT_RECORDS, Structure};
use crate::formats::Format;
use crate::layout;
use crate::report::{self, TokenRow};
use crate::tokens::DataStats;
use anyhow::Result;
use std::path::Path;

/// Renders every combination in memory and prints the token table.
pub fn execute(args: &TokensArgs) -> Result<()> {
    if let Some(path) = &args.file.data_file {
        return data_tokens(args, path);
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
                println!();
            }
            println!("{records} records:");
        }
        table(args, records, &formats)?;
    }
    Ok(())
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
    print!(
        "{}",
        report::tokens_table(&mut rows, &baselines, &d.tokenizers, args.sort, args.format)?
    );
    Ok(())
}

/// `bench tokens --data FILE`: the user's records in every selected format, one table row per
/// format that can represent them, and one `skipped` line per format that cannot.
fn data_tokens(args: &TokensArgs, path: &Path) -> Result<()> {
    let d = &args.data;
    let data = userdata::load(path, &super::load_options(&args.file, d)?)?;
    eprintln!("{}", super::data_line(path, &data));
    for n in &data.notes {
        eprintln!("note: {n}");
    }
    let doc = data.document();
    let shape = crate::formats::structure_of(&doc);
    let values = dataset::count_values(&doc);
    let formats = d.formats_or(Format::ALL.to_vec());
    let mut rows = Vec::new();
    let mut baselines = Vec::new();
    let mut skipped = Vec::new();
    for f in Format::ALL.iter().copied() {
        let selected = formats.contains(&f);
        // The ratio columns need CSV and JSON compact even when they are not shown.
        if !selected && !matches!(f, Format::Csv | Format::JsonCompact) {
            continue;
        }
        match f.encode(&doc) {
            Ok(text) => {
                let row = TokenRow {
                    format: f,
                    structure: shape,
                    variant: None,
                    stats: DataStats::measure(&text, values, data.records.len(), &d.tokenizers),
                };
                if selected {
                    rows.push(row);
                } else {
                    baselines.push(row);
                }
            }
            // A shape the format has no syntax for (CSV and nesting) is a skip, and so is a
            // failure on data bench never generated: either way it is listed, never dropped.
            Err(e) if selected => skipped.push(if e.is_cannot_represent() {
                format!("skipped {f}: {e}")
            } else {
                format!("failed {f}: {}", crate::error::one_line(&e.to_string()))
            }),
            Err(_) => {}
        }
    }
    print!(
        "{}",
        report::tokens_table(&mut rows, &baselines, &d.tokenizers, args.sort, args.format)?
    );
    for line in &skipped {
        // Machine-readable output stays parseable: the skips go to stderr there.
        match args.format {
            TableFormat::Table | TableFormat::Markdown => println!("{line}"),
            TableFormat::Csv | TableFormat::Json => eprintln!("{line}"),
        }
    }
    Ok(())
}
