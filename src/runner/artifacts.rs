//! What a finished call writes: its result line (appended to the log at once), its response
//! artifact, and its combination's validation artifact; a slim copy is kept for the summary.

use super::full_disk::{disk_full, stop_writing};
use super::plan::Combo;
use super::record::{mode_suffix, primer_suffix};
use super::state::{ProviderRun, Shared};
use crate::layout::Writer;
use crate::runlog::{Line, ResultRecord};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

/// Writes the result line and its response artifact, keeps a slim copy for the summary;
/// false when the line could not be written (the run stops).
pub(super) fn finish(
    shared: &Shared,
    p: &ProviderRun,
    c: &Combo,
    record: ResultRecord,
    cached: bool,
) -> bool {
    let r = &c.rendering;
    if shared.write_failed.load(Ordering::SeqCst) {
        return false;
    }
    let mut log = shared.log.lock().expect("log lock");
    if let Err(e) = log.append(&Line::Result(Box::new(record.clone()))) {
        drop(log);
        // Said once: calls in flight fail to write too.
        stop_writing(shared, &e);
        return false;
    }
    drop(log);
    let run = if record.warmup {
        "warmup".to_string()
    } else {
        record.run.to_string()
    };
    let q = record
        .question
        .as_ref()
        .or(record.task.as_ref())
        .map(|q| format!("_{q}"))
        .unwrap_or_default();
    let name = format!(
        "answers_for_{}_{}_{}_records{}_{run}{q}.json",
        r.structure,
        r.variant,
        c.records,
        primer_suffix(c.primer)
    );
    let raw = json!({"tag": record.sample.tag, "output": record.sample.output.content, "error": record.error});
    let path = provider_dir(shared, p, "responses")
        .join(format!("{}{}", r.format.name(), mode_suffix(c)))
        .join(name);
    write_artifact(
        shared,
        &shared.artifacts.lock().expect("artifacts lock"),
        &path,
        &raw,
    );
    shared.observer.finished(p.idx, &record, cached);
    let max_tokens = c.scorer.call_settings().max_tokens.unwrap_or(p.max_tokens);
    shared.signals.observe(&record, max_tokens);
    let mut slim = record;
    slim.sample.input.clear();
    slim.sample.output.content.clear();
    shared.results.lock().expect("results lock").push(slim);
    true
}

/// Writes the validation artifact of one combination for one provider: every run's summary,
/// by run and question. The combinations of one rendering (`--shuffle`, `--prompt-variants`)
/// share the file: each writes every run done so far, under the artifacts lock, so the last
/// one written holds them all.
pub(super) fn validation(shared: &Shared, p: &ProviderRun, c: &Combo) {
    let r = &c.rendering;
    let artifacts = shared.artifacts.lock().expect("artifacts lock");
    let results = shared.results.lock().expect("results lock");
    let mut runs: Vec<_> = results
        .iter()
        .filter(|x| {
            !x.warmup
                && x.format == r.format
                && x.structure == r.structure
                && x.variant == r.variant
                && x.records == c.records
                && x.primer == c.primer
                && x.task.as_deref() == c.item()
                && crate::suites::result_mode(x).as_deref() == c.scorer.mode()
                && x.provider_config.provider == p.provider.name()
                && x.provider_config.model == p.provider.model()
        })
        .map(|x| json!({"run": x.run, "question": x.question, "summary": x.summary, "error": x.error, "metrics": x.metrics}))
        .collect();
    drop(results);
    runs.sort_by(|a, b| {
        (a["run"].as_u64(), a["question"].as_str())
            .cmp(&(b["run"].as_u64(), b["question"].as_str()))
    });
    let validation = json!({
        "format": r.format, "structure": r.structure, "variant": r.variant, "records": c.records,
        "primer": c.primer,
        "provider": p.provider.name(), "model": p.provider.model(), "runs": runs,
    });
    let task = c.item().map(|t| format!("{t}_")).unwrap_or_default();
    let name = format!(
        "{task}{}{}_{}_{}_{}{}_validation.json",
        r.format,
        mode_suffix(c),
        r.structure,
        r.variant,
        c.records,
        primer_suffix(c.primer)
    );
    let path = provider_dir(shared, p, "results").join(name);
    write_artifact(shared, &artifacts, &path, &validation);
}

/// Writes one artifact of the run with `artifacts` (its lock held). A write that fails for a
/// full disk stops the run ([`stop_writing`]); after that nothing more is written or said.
pub(super) fn write_artifact(
    shared: &Shared,
    artifacts: &Writer,
    path: &Path,
    value: &serde_json::Value,
) {
    if shared.write_failed.load(Ordering::SeqCst) {
        return;
    }
    if let Err(e) = artifacts.artifact(path, value) {
        if disk_full(&e) {
            stop_writing(shared, &e);
        } else {
            shared.observer.notice(&format!("warning: {e:#}"));
        }
    }
}

fn provider_dir(shared: &Shared, p: &ProviderRun, sub: &str) -> PathBuf {
    if shared.multi_provider {
        let safe = |s: &str| {
            s.replace(
                |c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '.',
                "_",
            )
        };
        PathBuf::from(sub).join(format!(
            "{}_{}",
            safe(p.provider.name()),
            safe(p.provider.model())
        ))
    } else {
        PathBuf::from(sub)
    }
}
