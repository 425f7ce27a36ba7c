//! "Setup": what was run (models, formats, data, the token basis, imported answers, the
//! user's own file).

use crate::doc::Block;
use crate::report::data::ReportData;
use crate::report::data::suite;
use crate::suites::lookup::DataMeta;

/// Items joined with ", " as their `Display` shows them.
fn list<T: std::fmt::Display>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// What each model's data tokens rest on, by one rule for every suite (`runner::tokens::ranking_basis`): its
/// provider's own count where the provider counted, else o200k_base (with why, when its
/// counter failed).
fn token_bases(m: &crate::runlog::Metadata) -> String {
    m.providers
        .iter()
        .map(|p| {
            let b = p.token_basis.as_ref();
            let basis = match (
                b.and_then(|b| b["basis"].as_str()),
                b.and_then(|b| b["reason"].as_str()),
            ) {
                (Some(counted), _) => format!("as its provider counts them ({counted})"),
                (None, Some(why)) => format!("o200k_base (its provider's count failed: {why})"),
                (None, None) => "o200k_base".to_string(),
            };
            format!("`{}/{}` {basis}", p.provider, p.model)
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Setup: what was run.
pub fn setup(d: &ReportData) -> Vec<Block> {
    let r = &d.run;
    let m = &r.metadata;
    let providers = m
        .providers
        .iter()
        .map(|p| format!("`{}/{}`", p.provider, p.model))
        .collect::<Vec<_>>()
        .join(", ");
    let mut items = vec![
        format!("Models: {providers}"),
        format!("Formats: {}", list(&m.formats)),
        format!(
            "Data: {} records per dataset; structures {}; variants {}; seed {}; dataset sha256 `{}`",
            list(&m.records),
            list(&m.structures),
            list(&m.variants),
            m.seed,
            m.dataset_hash.chars().take(16).collect::<String>()
        ),
        format!(
            "Runs: {} per rendering; question mode {}; format primer {}",
            m.runs,
            m.question_mode.name(),
            match m.primers.as_slice() {
                [true] => "on",
                [_, _] => "off and on (ablation)",
                _ => "off",
            }
        ),
        format!(
            "Tokenizers: {}; data tokens in rankings and efficiency: {}",
            list(&m.tokenizers),
            token_bases(m)
        ),
        format!(
            "Run: `{}` ({}), bench {}, run log `{}/{}.jsonl`",
            m.benchmark_id,
            m.timestamp,
            m.bench_version,
            r.dir.display(),
            r.suite
        ),
        format!("Baseline of the paired comparisons: `{}`", d.baseline),
    ];
    if let Some(i) = &m.imported {
        items.insert(0, imported_item(i));
    }
    if let Some(from) = &m.rescored_from {
        items.push(format!(
            "Rescored from run `{}` (`{}`): the same responses, graded again with this bench's grader",
            from.run, from.benchmark_id
        ));
    }
    let mut out = vec![Block::Heading(2, "Setup".into())];
    // `run_info` refused a metadata line whose suite fields do not read.
    let data = DataMeta::of(m).ok().flatten();
    // A suite's own words for its data (a tasks run's task file).
    let own = suite::sections(&d.run)
        .and_then(|s| s.setup)
        .and_then(|setup| setup(m));
    if let Some(data) = &data {
        items.splice(2..3, user_data(data));
    }
    if let Some(o) = &own {
        items[2] = o.data.clone();
    }
    out.push(Block::Bullets(items));
    let skipped: Vec<String> = data
        .iter()
        .flat_map(|d| &d.skipped)
        .map(|s| format!("`{}`: {}", s.format, s.reason))
        .chain(own.iter().flat_map(|o| o.skipped.iter().cloned()))
        .collect();
    if !skipped.is_empty() {
        out.push(Block::Para(
            if let Some(o) = &own {
                o.skipped_intro
            } else {
                "Formats not run, because they cannot represent these records (they are absent \
                 from every table below):"
            }
            .into(),
        ));
        out.push(Block::Bullets(skipped));
    }
    out
}

/// The setup lines of a run over the user's own file (`bench run --data`).
fn user_data(data: &DataMeta) -> Vec<String> {
    let mut lines = vec![
        format!(
            "Data: your file `{}` (sha256 `{}`), {} of its {} records{}; records identified by {}",
            data.file.display(),
            data.sha256.chars().take(16).collect::<String>(),
            data.records,
            data.total_records,
            match &data.root_key {
                Some(k) => format!(" under `{k}`"),
                None => String::new(),
            },
            match data.id_by.as_str() {
                "position" => "their position (no unique key)".to_string(),
                _ => data
                    .id_field
                    .split(',')
                    .map(|f| format!("`{f}`"))
                    .collect::<Vec<_>>()
                    .join(" + "),
            }
        ),
        format!(
            "Questions: {} synthesised from the records, expected answers computed by SQL in DuckDB",
            data.questions
        ),
    ];
    for n in &data.notices {
        lines.push(format!("Questions note: {n}"));
    }
    lines
}

/// The Setup item of an imported run: whose answers these are, from where, graded by whom.
fn imported_item(i: &crate::runlog::meta::Imported) -> String {
    let files: Vec<String> = i
        .files
        .iter()
        .map(|f| format!("`{}` (sha256 `{}`…)", f.path.display(), &f.sha256[..16]))
        .collect();
    format!(
        "**Answers imported from {}, not produced by bench**: {}{}, licence {}; files {}; \
         tokens as the source counted them: {}; verdicts use {}'s grade (both are kept){}",
        i.name,
        i.url,
        i.commit
            .as_deref()
            .map(|c| format!(" at commit `{c}`"))
            .unwrap_or_default(),
        i.licence,
        files.join(", "),
        i.token_counter,
        i.grade,
        i.skipped
            .iter()
            .map(|s| format!("; skipped: {s}"))
            .chain(i.notes.iter().map(|n| format!("; {n}")))
            .collect::<String>()
    )
}
