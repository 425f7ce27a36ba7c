//! The `write` suite's plan from the command line: which cases, from where.

use crate::UsageError;
use crate::cli::{DataArgs, DataFileArgs, WriteArgs};
use crate::suites::write::WritePlan;
use crate::write::cases::{self, Case};
use anyhow::Result;

/// The product slices of the write suite when `--records` names none: 3, 10 and 31 records.
pub const PRODUCT_SIZES: [u32; 3] = [3, 10, 31];

/// The cases of `bench run --suite write`: the case file (`--cases`), else the bundled cases
/// and slices of the product records; with `--data`, slices of the user's records instead of
/// the product's. Only the kinds of `--kinds` are kept.
pub fn plan(w: &WriteArgs, file: &DataFileArgs, d: &DataArgs) -> Result<WritePlan> {
    let mut all: Vec<Case> = Vec::new();
    let mut sources = Vec::new();
    if let Some(path) = &w.cases {
        let c = cases::load(path, &format!("cases:{}", path.display()))?;
        sources.push(format!("{}: {} cases", path.display(), c.len()));
        all.extend(c);
    } else if let Some(path) = &file.data_file {
        let data = crate::dataset::user::load(path, &super::load_options(file, d)?)?;
        let root = crate::dataset::user::root_name(&data.name);
        let c = cases::from_records(&root, &root, &data.records, path);
        sources.push(format!(
            "{}: {} cases over its first records",
            path.display(),
            c.len()
        ));
        all.extend(c);
    } else {
        let bundled = std::path::Path::new(cases::BUNDLED);
        let c = cases::load(bundled, "bundled")?;
        sources.push(format!("{}: {} cases", cases::BUNDLED, c.len()));
        all.extend(c);
        let sizes = if d.records.is_empty() {
            PRODUCT_SIZES.to_vec()
        } else {
            d.records.clone()
        };
        let c = cases::product(&sizes, &d.structures, &d.variants, d.seed);
        sources.push(format!(
            "product records: {} cases ({} records × {} × {})",
            c.len(),
            sizes
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            d.structures
                .iter()
                .map(|s| s.name())
                .collect::<Vec<_>>()
                .join(", "),
            d.variants
                .iter()
                .map(|v| v.name())
                .collect::<Vec<_>>()
                .join(", "),
        ));
        all.extend(c);
    }
    all.retain(|c| w.kinds.contains(&c.kind));
    cases::check_unique(&all)?;
    if all.is_empty() {
        return Err(UsageError::new("--kinds left no write case to ask").into());
    }
    for s in &sources {
        eprintln!("write cases: {s}");
    }
    Ok(WritePlan {
        cases: all,
        from: w.write_from,
        repairs: w.repairs,
        json_schema: !w.no_json_schema,
        sources,
    })
}
