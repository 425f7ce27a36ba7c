//! `bench tokens`: token counts of every rendering.

use super::{check_selection, for_each_rendering};
use crate::cli::{TableFormat, TokenSort, TokensArgs};
use crate::dataset::{self, DEFAULT_RECORDS, Structure};
use crate::formats::Format;
use crate::layout;
use crate::report::{self, TokenRow};
use crate::tokens::DataStats;
use crate::userdata::{self, LoadOptions};
use anyhow::{Result, bail};
use serde_json::{Map, Value, json};
use std::path::Path;

/// Renders every combination in memory and prints the token table.
pub fn execute(args: &TokensArgs) -> Result<()> {
    if let Some(path) = &args.data_file {
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
            variant: r.variant,
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
                .any(|r| r.format == f && r.structure == s && r.variant == v);
            let needed = s == Structure::Flat && f == Format::Csv || d.structures.contains(&s);
            if needed && !selected {
                let r = layout::render(&ds.document(v, s), f, s, v, &d.tokenizers)?;
                baselines.push(TokenRow {
                    format: f,
                    structure: s,
                    variant: v,
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
    let records = match d.records.as_slice() {
        [] => None,
        [n] => Some(*n as usize),
        _ => bail!(crate::UsageError::new(
            "--data takes one --records value, not a list"
        )),
    };
    let opts = LoadOptions {
        root_key: args.root_key.clone(),
        records,
        sample: args.sample.unwrap_or_default(),
        seed: d.seed,
    };
    let data = userdata::load(path, &opts)?;
    eprintln!(
        "data: {} — {} records (of {}), sha256 {}, {} columns",
        path.display(),
        data.records.len(),
        data.total,
        data.sha256,
        data.schema.len()
    );
    let doc = data.document();
    let shape = if crate::formats::flat_records("flat", &doc).is_ok() {
        Structure::Flat
    } else {
        Structure::Nested
    };
    let values = dataset::count_values(&doc);
    let formats = d.formats_or(Format::ALL.to_vec());
    let mut rows: Vec<(Format, DataStats)> = Vec::new();
    let mut baselines: Vec<(Format, DataStats)> = Vec::new();
    let mut skipped = Vec::new();
    for f in Format::ALL.iter().copied() {
        let selected = formats.contains(&f);
        // The ratio columns need CSV and JSON compact even when they are not shown.
        if !selected && !matches!(f, Format::Csv | Format::JsonCompact) {
            continue;
        }
        match f.encode(&doc) {
            Ok(text) => {
                let stats = DataStats::measure(&text, values, data.records.len(), &d.tokenizers);
                if selected {
                    rows.push((f, stats));
                } else {
                    baselines.push((f, stats));
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
    let text = data_table(&mut rows, &baselines, shape, args)?;
    print!("{text}");
    for line in &skipped {
        // Machine-readable output stays parseable: the skips go to stderr there.
        match args.format {
            TableFormat::Table | TableFormat::Markdown => println!("{line}"),
            TableFormat::Csv | TableFormat::Json => eprintln!("{line}"),
        }
    }
    Ok(())
}

/// The token table of the user's data, with the columns of the product table: structure is
/// the data's shape and variant `-` (the dataset's mandatory/optional split does not apply).
fn data_table(
    rows: &mut [(Format, DataStats)],
    baselines: &[(Format, DataStats)],
    shape: Structure,
    args: &TokensArgs,
) -> Result<String> {
    let tokenizers = &args.data.tokenizers;
    let main = tokenizers[0];
    match args.sort {
        TokenSort::Tokens => rows.sort_by_key(|(f, s)| (s.tokens_of(main), *f)),
        TokenSort::Format => rows.sort_by_key(|(f, _)| *f),
        TokenSort::CharsPerToken => rows.sort_by(|a, b| {
            b.1.chars_per_token(main)
                .total_cmp(&a.1.chars_per_token(main))
        }),
    }
    let base = |format: Format| {
        rows.iter()
            .chain(baselines)
            .find(|(f, _)| *f == format)
            .map(|(_, s)| s.tokens_of(main))
            .filter(|&t| t > 0)
    };
    let round = |x: f64, places: i32| {
        let p = 10f64.powi(places);
        (x * p).round() / p
    };
    let mut columns = Vec::new();
    let mut table_rows = Vec::new();
    for (f, s) in rows.iter() {
        let mut o = Map::new();
        o.insert("format".into(), json!(f));
        o.insert("structure".into(), json!(shape));
        o.insert("variant".into(), json!("-"));
        o.insert("chars".into(), json!(s.chars));
        o.insert("bytes".into(), json!(s.bytes));
        o.insert("values".into(), json!(s.values));
        for t in tokenizers.iter() {
            o.insert(t.name().into(), json!(s.tokens_of(*t)));
        }
        o.insert(
            "chars_per_token".into(),
            json!(round(s.chars_per_token(main), 3)),
        );
        o.insert(
            "tokens_per_value".into(),
            json!(round(s.tokens_per_value(main), 3)),
        );
        o.insert(
            "tokens_per_object".into(),
            json!(round(s.tokens_per_object(main), 2)),
        );
        for (key, baseline, label) in [
            ("vs_csv", Format::Csv, "CSV"),
            ("vs_json_compact", Format::JsonCompact, "JSON"),
        ] {
            let ratio = base(baseline).map(|b| s.tokens_of(main) as f64 / b as f64);
            o.insert(
                key.into(),
                match (ratio, args.format) {
                    (Some(x), TableFormat::Table | TableFormat::Markdown) => {
                        json!(format!("{x:.2}× {label}"))
                    }
                    (Some(x), _) => json!(round(x, 3)),
                    (None, _) => Value::Null,
                },
            );
        }
        columns = o.keys().cloned().collect();
        table_rows.push(o.into_iter().map(|(_, v)| v).collect());
    }
    let mut text = report::render(
        &crate::analytics::Table {
            columns,
            rows: table_rows,
        },
        args.format,
    )?;
    if args.format == TableFormat::Table {
        text.push_str(&format!(
            "vs_csv / vs_json_compact and per-value figures use {main}\n"
        ));
    }
    Ok(text)
}
