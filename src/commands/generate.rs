//! `bench generate`: the original benchmark's file layout.

use super::{check_selection, for_each_rendering};
use crate::UsageError;
use crate::cli::GenerateArgs;
use crate::cli::QuestionsArg;
use crate::dataset;
use crate::formats::Format;
use crate::layout::Writer;
use crate::questions;
use crate::suites::user_data as userdata;
use anyhow::Result;
use serde_json::json;

/// Writes data files, questions, templates, answer keys and `metadata.json` under `--output`.
pub fn execute(args: &GenerateArgs) -> Result<()> {
    if args.file.data_file.is_some() {
        return data_layout(args);
    }
    let d = &args.data;
    let asked = crate::cli::asked_of(d, &args.file, Some(&args.synth));
    asked.product_questions()?;
    let formats = d.formats_or(Format::defaults());
    check_selection(&formats, &d.structures, &d.variants)?;
    let mut w = Writer::create(&args.output).map_err(|e| UsageError::new(format!("{e:#}")))?;
    let mut files = 0;
    let mut question_sets = 0;
    let mut largest = None;
    for &records in &asked.product_sizes() {
        let ds = dataset::generate(records, d.seed);
        let n = ds.mandatory.len();
        for &v in &d.variants {
            let records = ds.records(v);
            let qs = match &args.synth.questions {
                QuestionsArg::File(f) => questions::file::load(f, &records, |r, e, a| {
                    crate::grading::validate(r, e, a).passed
                })
                .map_err(UsageError::new)?,
                QuestionsArg::Count(_) => questions::generate(&records, d.seed),
            };
            w.questions(v, n, &qs)?;
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
        "records": asked.product_sizes(), "seed": d.seed,
        "formats": formats, "structures": d.structures, "variants": d.variants,
        "tokenizers": d.tokenizers.iter().map(|t| t.name()).collect::<Vec<_>>(),
    });
    let meta = w.metadata(&ds, params)?;
    crate::outln!(
        "wrote {files} data files, {question_sets} question sets and {}",
        meta.display()
    )?;
    Ok(())
}

/// `bench generate --data FILE`: the layout for the user's records, the formats that cannot
/// represent them listed as skipped.
fn data_layout(args: &GenerateArgs) -> Result<()> {
    let d = &args.data;
    let (dp, notes) =
        userdata::from_asked(&crate::cli::asked_of(d, &args.file, Some(&args.synth)))?;
    for n in &notes {
        eprintln!("{n}");
    }
    let formats = d.formats_or(Format::defaults());
    let mut w = Writer::create(&args.output).map_err(|e| UsageError::new(format!("{e:#}")))?;
    let mut skipped: Vec<crate::suites::Skip> = Vec::new();
    let (mut files, mut questions) = (0, 0);
    // Each size of `--records 31,62,…`, smallest first.
    for level in dp.levels() {
        let n = level.data.records.len();
        w.questions(level.variant, n, &level.synthesis.questions)?;
        questions += level.synthesis.questions.len();
        for &f in &formats {
            match userdata::render(level, f, &d.tokenizers)? {
                Ok(r) => {
                    files += 1;
                    w.data(&r, n)?;
                }
                Err(skip) if skipped.iter().any(|s| s.format == skip.format) => {}
                Err(skip) => {
                    crate::outln!("{skip}")?;
                    skipped.push(skip);
                }
            }
        }
    }
    let params = json!({
        "data": dp.meta(&skipped), "seed": d.seed, "formats": formats,
        "tokenizers": d.tokenizers.iter().map(|t| t.name()).collect::<Vec<_>>(),
    });
    let meta = w.metadata_of(dp.describe(), params)?;
    crate::outln!(
        "wrote {files} data files ({} skipped), {} questions and {}",
        skipped.len(),
        questions,
        meta.display()
    )?;
    Ok(())
}
