//! `bench tokens --data FILE`: the user's records in every selected format, one table row per
//! format that can represent them and one `skipped` line per format that cannot. The records
//! are read, rendered and counted a chunk at a time (`formats::stream`, `tokens::stream`), so
//! neither the records nor any format's text is held whole; a format whose chunks do not join
//! (its head differs between chunks) is rendered whole afterwards, and says so.

use crate::cli::{TableFormat, TokensArgs};
use crate::dataset::user::{self as userdata, Source};
use crate::dataset::{self, Structure};
use crate::formats::Format;
use crate::formats::stream::{Stop, Streams, chunk_doc, settle};
use crate::report::{self, TokenRow};
use crate::tokens::DataStats;
use crate::tokens::stream::Counter;
use anyhow::Result;
use std::path::Path;

/// Measures the file's records in every selected format and prints the table.
pub fn execute(args: &TokensArgs, path: &Path) -> Result<()> {
    let d = &args.data;
    let load = crate::cli::asked_of(d, &args.file, None).load_options(&d.records)?;
    let source = userdata::open(path, &load)?;
    eprintln!("{}", source.data.line(path, source.len()));
    for n in &source.data.notes {
        eprintln!("note: {n}");
    }
    let selected = d.formats_or(Format::ALL.to_vec());
    // The ratio columns need CSV and JSON compact even when they are not shown.
    let formats: Vec<Format> = Format::ALL
        .iter()
        .copied()
        .filter(|f| selected.contains(f) || matches!(f, Format::Csv | Format::JsonCompact))
        .collect();
    let streamed = stream(&source, &formats, args)?;
    let mut rows = Vec::new();
    let mut baselines = Vec::new();
    let mut skipped = Vec::new();
    let mut stopped = Vec::new();
    for (f, measured) in formats.iter().copied().zip(streamed.stats) {
        match measured {
            Ok(stats) => {
                let row = TokenRow {
                    format: f,
                    structure: streamed.shape,
                    variant: None,
                    stats,
                };
                if selected.contains(&f) {
                    rows.push(row);
                } else {
                    baselines.push(row);
                }
            }
            Err(stop) => stopped.push((f, stop)),
        }
    }
    let whole = refusals(&source, stopped, &selected, &mut skipped)?;
    if !whole.is_empty() {
        measure_whole(
            &source,
            &whole,
            &selected,
            args,
            &mut rows,
            &mut baselines,
            &mut skipped,
        )?;
    }
    crate::out!(
        "{}",
        report::tokens_table(&mut rows, &baselines, &d.tokenizers, args.sort, args.format)?
    )?;
    for line in &skipped {
        // Machine-readable output stays parseable: the skips go to stderr there.
        match args.format {
            TableFormat::Table | TableFormat::Markdown => crate::outln!("{line}")?,
            TableFormat::Csv | TableFormat::Json => eprintln!("{line}"),
        }
    }
    Ok(())
}

/// What one pass over the chunks measured.
struct Streamed {
    /// Per format, its figures, or where its chunks stopped joining.
    stats: Vec<Result<DataStats, Stop>>,
    /// Flat when every record is.
    shape: Structure,
}

/// Renders and counts every format a chunk at a time (a first pass for the formats that learn
/// from all records first).
fn stream(source: &Source, formats: &[Format], args: &TokensArgs) -> Result<Streamed> {
    let key = userdata::root_name(&source.data.name);
    let size = args.chunk_records.max(1);
    let mut streams = Streams::new(formats, &key, source.len());
    if streams.learns() {
        source.chunks(size, |c| {
            streams.learn(&chunk_doc(&key, c));
            Ok(())
        })?;
    }
    let mut counters: Vec<Counter> = formats
        .iter()
        .map(|_| Counter::new(&args.data.tokenizers))
        .collect();
    let (mut values, mut flat) = (0, true);
    source.chunks(size, |c| {
        let n = c.len();
        let doc = chunk_doc(&key, c);
        values += dataset::count_values(&doc);
        flat &= crate::formats::structure_of(&doc) == Structure::Flat;
        streams.push(&doc, n, &mut counters, |counter, piece| counter.push(piece));
        Ok(())
    })?;
    streams.finish(&mut counters, |counter, piece| counter.push(piece));
    let objects = source.len();
    let stats = counters
        .into_iter()
        .zip(streams.whole())
        .map(|(counter, whole)| match whole {
            Some(why) => Err(why.clone()),
            None => {
                let (tokens, chars, bytes) = counter.finish();
                Ok(DataStats {
                    chars,
                    bytes,
                    values,
                    objects,
                    tokens,
                })
            }
        })
        .collect();
    let shape = if flat {
        Structure::Flat
    } else {
        Structure::Nested
    };
    Ok(Streamed { stats, shape })
}

/// The skip lines of the formats that refused a chunk, from the records up to that chunk
/// (see `formats::stream::settle`); returns the formats to render whole, with why.
fn refusals(
    source: &Source,
    stopped: Vec<(Format, Stop)>,
    selected: &[Format],
    skipped: &mut Vec<String>,
) -> Result<Vec<(Format, String)>> {
    let upto = stopped
        .iter()
        .filter_map(|(_, s)| match s {
            Stop::Refused(n) => Some(*n),
            Stop::Whole(_) => None,
        })
        .max()
        .unwrap_or(0);
    let prefix = source.first(upto)?;
    let key = userdata::root_name(&source.data.name);
    let mut whole = Vec::new();
    for (f, stop) in stopped {
        match settle(f, &key, stop, &prefix, source.len()) {
            Err(e) if selected.contains(&f) => skipped.push(skip_line(f, &e)),
            Err(_) => {}
            Ok(why) => whole.push((f, why)),
        }
    }
    Ok(whole)
}

/// Renders whole, from all records held, the formats whose chunks did not join.
fn measure_whole(
    source: &Source,
    formats: &[(Format, String)],
    selected: &[Format],
    args: &TokensArgs,
    rows: &mut Vec<TokenRow>,
    baselines: &mut Vec<TokenRow>,
    skipped: &mut Vec<String>,
) -> Result<()> {
    let doc = chunk_doc(&userdata::root_name(&source.data.name), source.all()?);
    let shape = crate::formats::structure_of(&doc);
    let values = dataset::count_values(&doc);
    for (f, why) in formats {
        let shown = selected.contains(f);
        match f.encode(&doc) {
            Ok(text) => {
                if shown {
                    eprintln!("note: {f} rendered whole, not by chunks: {why}");
                }
                let row = TokenRow {
                    format: *f,
                    structure: shape,
                    variant: None,
                    stats: DataStats::measure(&text, values, source.len(), &args.data.tokenizers),
                };
                if shown {
                    rows.push(row);
                } else {
                    baselines.push(row);
                }
            }
            Err(e) if shown => skipped.push(skip_line(*f, &e)),
            Err(_) => {}
        }
    }
    Ok(())
}

/// The line saying why `format` has no row: a shape it has no syntax for is a skip, any other
/// failure (on data bench never generated) a failure; either way it is listed, never dropped.
fn skip_line(format: Format, e: &crate::formats::FormatError) -> String {
    if e.is_cannot_represent() {
        format!("skipped {format}: {e}")
    } else {
        format!(
            "failed {format}: {}",
            crate::error::one_line(&e.to_string())
        )
    }
}
