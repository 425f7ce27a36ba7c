//! `bench generate`: the original benchmark's file layout.

use super::{check_selection, for_each_rendering};
use crate::UsageError;
use crate::cli::GenerateArgs;
use crate::dataset;
use crate::formats::Format;
use crate::layout::Writer;
use crate::questions;
use anyhow::Result;
use serde_json::json;

/// Writes data files, questions, templates, answer keys and `metadata.json` under `--output`.
pub fn execute(args: &GenerateArgs) -> Result<()> {
    let d = &args.data;
    let formats = d.formats_or(Format::defaults());
    check_selection(&formats, &d.structures, &d.variants)?;
    let mut w = Writer::create(&args.output).map_err(|e| UsageError::new(format!("{e:#}")))?;
    let mut files = 0;
    let mut question_sets = 0;
    let mut largest = None;
    for &records in &d.records {
        let ds = dataset::generate(records, d.seed);
        let n = ds.mandatory.len();
        for &v in &d.variants {
            w.questions(v, n, &questions::generate(&ds.records(v), d.seed))?;
            question_sets += 1;
        }
        for_each_rendering(&ds, d, &formats, |r| {
            files += 1;
            w.data(&r, n)
        })?;
        largest = Some(ds);
    }
    let ds = largest.expect("at least one size");
    let params = json!({
        "records": d.records, "seed": d.seed,
        "formats": formats, "structures": d.structures, "variants": d.variants,
        "tokenizers": d.tokenizers.iter().map(|t| t.name()).collect::<Vec<_>>(),
    });
    let meta = w.metadata(&ds, params)?;
    println!(
        "wrote {files} data files, {question_sets} question sets and {}",
        meta.display()
    );
    Ok(())
}
