//! `bench rescore`'s work: a run folder's log read back, each stored response re-graded with
//! the current grader into a new run folder (no API call). `bench merge` reads runs with it too.

use crate::UsageError;
use crate::grading::summarize;
use crate::providers::Finish;
use crate::runlog::{JsonlWriter, Line, Metadata, RescoredFrom, ResultRecord, SummaryRecord};
use crate::runner::plan::{Combo, Matrix, Unit, build_all};
use crate::runner::{Plan, SampleKey, create_run_dir, run_identity};
use anyhow::{Context, Result};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A run log read back.
/// A run folder's log read back.
pub struct Source {
    /// The log file.
    pub jsonl: PathBuf,
    /// Its metadata line.
    pub metadata: Metadata,
    /// Its result lines.
    pub results: Vec<ResultRecord>,
    /// Its summary line, if the run wrote one.
    pub summary: Option<SummaryRecord>,
}

fn not_a_run(dir: &Path, why: &str) -> anyhow::Error {
    UsageError::new(format!(
        "'{}' is not a run folder ({why}); pass data/benchmarks/<timestamp>",
        dir.display()
    ))
    .into()
}

/// Reads the one `<suite>.jsonl` of a run folder: metadata first, results, summary.
pub fn read_run(dir: &Path) -> Result<Source> {
    let logs = crate::runlog::run_logs(dir).map_err(|e| not_a_run(dir, &e.to_string()))?;
    let jsonl = match logs.as_slice() {
        [one] => one.clone(),
        [] => return Err(not_a_run(dir, "no .jsonl run log in it")),
        _ => return Err(not_a_run(dir, "several .jsonl files in it")),
    };
    if let Some(e) = crate::runlog::holds_no_lines(&jsonl) {
        return Err(e.into());
    }
    let text = std::fs::read_to_string(&jsonl)
        .with_context(|| format!("cannot read '{}'", jsonl.display()))?;
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let metadata = match lines.next().map(|(_, l)| serde_json::from_str::<Line>(l)) {
        Some(Ok(Line::Metadata(m))) => *m,
        _ => {
            return Err(not_a_run(
                dir,
                "its log does not start with a metadata line",
            ));
        }
    };
    let (mut results, mut summary) = (Vec::new(), None);
    for (i, raw) in lines {
        match serde_json::from_str::<Line>(raw) {
            Ok(Line::Result(r)) => results.push(*r),
            Ok(Line::Summary(s)) => summary = Some(*s),
            Ok(Line::Metadata(_)) => eprintln!(
                "warning: {}:{}: second metadata line skipped",
                jsonl.display(),
                i + 1
            ),
            // A line cut by a crash mid-write: its call has no response to re-grade.
            Err(e) => eprintln!(
                "warning: {}:{}: unreadable line skipped ({e})",
                jsonl.display(),
                i + 1
            ),
        }
    }
    Ok(Source {
        jsonl,
        metadata,
        results,
        summary,
    })
}

/// The run's prompts regenerated from its metadata by its suite, each with its scorer. The
/// data is checked against the recorded hashes, so a changed generator, data file or task file
/// cannot silently grade other data.
struct Regenerated {
    matrix: Matrix,
    /// Where each prompt sits: its key (`SampleKey::prompt`) and run slot → (combination,
    /// unit). Runs in turn ask different prompts of one key under `--prompt-variants` or
    /// `--shuffle`; the slot says which.
    at: HashMap<(SampleKey, u32), (usize, usize)>,
    /// How many slots the runs take turns over (1: every run asks the same prompts).
    slots: u32,
}

fn regenerate(meta: &Metadata, dir: &Path) -> Result<Regenerated> {
    let mut plan = Plan::from_metadata(meta)?;
    // Re-grading needs the prompts, not the data's token counts in every vocabulary.
    plan.tokenizers = vec![crate::tokens::Tokenizer::O200kBase];
    let (matrix, _) = build_all(&plan)?;
    let hashes = plan.suite.data_hashes(&matrix).join(",");
    if hashes != meta.dataset_hash {
        return Err(UsageError::new(format!(
            "cannot rescore '{}': the {} suite's data regenerated from the metadata differs from \
             the data the run asked about (sha256 {hashes} now, {} then; changed file, or \
             another bench version?)",
            dir.display(),
            plan.suite.name(),
            meta.dataset_hash
        ))
        .into());
    }
    let mut at = HashMap::new();
    for (i, c) in matrix.combos.iter().enumerate() {
        for (j, u) in c.units.iter().enumerate() {
            at.insert((SampleKey::of_prompt(c, u), c.slot.index), (i, j));
        }
    }
    let slots = matrix
        .combos
        .iter()
        .map(|c| c.slot.of)
        .max()
        .unwrap_or(1)
        .max(1);
    Ok(Regenerated { matrix, at, slots })
}

/// What differs between a result's prompt and the one regenerated from the metadata: the
/// data, a question, or else the words around them.
fn prompt_difference(r: &ResultRecord, combo: &Combo, unit: &Unit) -> String {
    let prompt: String = r.sample.input.iter().map(|m| m.content.as_str()).collect();
    let data = combo.rendering.text.trim_end();
    let shows_data = unit.messages.iter().any(|m| m.content.contains(data));
    // A large rendering is in the log as the line naming its hash.
    let logged = crate::runlog::as_logged(&combo.rendering.text);
    let data = match &logged {
        std::borrow::Cow::Owned(mark) => mark.as_str(),
        std::borrow::Cow::Borrowed(_) => data,
    };
    if shows_data && !prompt.contains(data) {
        return format!(
            "does not hold the {} rendering regenerated from the metadata",
            r.format
        );
    }
    if let Some(q) = unit.questions.iter().find(|q| !prompt.contains(&q.text)) {
        return format!(
            "lacks question {} ({:?}): the questions regenerated from the metadata differ from \
             those asked",
            q.id, q.text
        );
    }
    "differs from the prompt regenerated from the metadata in its wording or layout".into()
}

/// Re-grades one result in place with the scorer of the prompt it was asked.
fn regrade(r: &mut ResultRecord, g: &Regenerated) -> Result<()> {
    let slot = match r.run {
        0 => 0,
        run => (run - 1) % g.slots,
    };
    let (c, u) = g.at.get(&(SampleKey::of(r).prompt(), slot)).ok_or_else(|| {
        anyhow::anyhow!(
            "result {}: its rendering ({} {} {} {} records) is not in the plan regenerated from \
             the run's metadata",
            r.sample.tag,
            r.format,
            r.structure,
            r.variant,
            r.records
        )
    })?;
    let combo = &g.matrix.combos[*c];
    let unit = &combo.units[*u];
    // The regenerated prompt must be the one asked, or the grades mean nothing; it is
    // compared as the log holds it (a large rendering named by its hash).
    let asked = r.sample.input.iter().map(|m| m.content.as_str());
    let regenerated = crate::runlog::logged_input(unit.messages.clone(), &combo.rendering.text);
    if !regenerated
        .iter()
        .map(|m| m.content.as_str())
        .eq(asked.take(unit.messages.len()))
    {
        anyhow::bail!(
            "result {}: its prompt {} (made by another bench version?)",
            r.sample.tag,
            prompt_difference(r, combo, unit)
        );
    }
    // A failed call stays a failed call, graded as the runner grades one.
    let reply = r
        .error
        .is_none()
        .then_some(r.sample.output.content.as_str());
    let cut = r.error.is_none() && r.finish == Some(Finish::Length);
    // A conversation (a first reply and its repairs) logs its earlier replies in its input,
    // after the prompt's own messages: every reply is graded again, first shot to final, as
    // the runner grades them.
    let mut replies: Vec<&str> = r.sample.input[unit.messages.len().min(r.sample.input.len())..]
        .iter()
        .filter(|m| m.role == "assistant")
        .map(|m| m.content.as_str())
        .collect();
    replies.extend(reply);
    let scored = combo
        .scorer
        .score_turns(unit, &replies, reply.is_none(), cut);
    r.metrics = scored.metrics;
    r.payload = scored.payload;
    r.summary = summarize(&r.metrics);
    Ok(())
}

/// Re-grades the run in `dir` into a new run folder in the same `benchmarks/` folder; returns
/// the new folder.
pub fn rescore(dir: &Path) -> Result<PathBuf> {
    let src = read_run(dir)?;
    src.metadata.refuse_imported("rescore", &src.jsonl)?;
    let abs = dir.canonicalize()?;
    // The root as the user wrote it when the path names it ("data/benchmarks/<ts>"), so the
    // printed folder looks like theirs; else from the absolute path ("." inside the folder).
    let root_of = |d: &Path| {
        d.parent()
            .filter(|p| p.file_name().is_some_and(|n| n == "benchmarks"))
            .and_then(Path::parent)
            .map(Path::to_path_buf)
    };
    let root = root_of(dir)
        .or_else(|| root_of(&abs))
        .ok_or_else(|| not_a_run(dir, "it is not inside a benchmarks/ folder"))?;
    let source_name = abs
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let regenerated = regenerate(&src.metadata, dir)?;

    let now = chrono::Utc::now();
    let (id, ts) = run_identity(now);
    let mut meta = src.metadata.clone();
    meta.rescored_from = Some(RescoredFrom {
        run: source_name,
        benchmark_id: src.metadata.benchmark_id.clone(),
        timestamp: src.metadata.timestamp.clone(),
    });
    meta.benchmark_id = id.clone();
    meta.timestamp = ts.clone();
    meta.bench_version = env!("CARGO_PKG_VERSION").into();

    let out = create_run_dir(&root, &now.format("%Y-%m-%d_%H-%M-%S").to_string())?;
    let file = src.jsonl.file_name().expect("a log has a file name");
    let mut log = JsonlWriter::create(&out.join(file))?;
    log.append(&Line::Metadata(Box::new(meta.clone())))?;
    let mut kept = Vec::with_capacity(src.results.len());
    for mut r in src.results {
        if let Err(e) = regrade(&mut r, &regenerated) {
            // A half-written run folder would be read as a run by every viewer under the root.
            drop(log);
            let _ = std::fs::remove_dir_all(&out);
            return Err(e);
        }
        r.benchmark_id = id.clone();
        log.append(&Line::Result(Box::new(r.clone())))?;
        // The summary needs no prompt or output text; drop them as the runner does.
        r.sample.input.clear();
        r.sample.output.content.clear();
        kept.push(r);
    }
    let interrupted = src.summary.as_ref().is_none_or(|s| s.interrupted);
    // The ranking is sql/rankings.sql over the lines just written.
    let figures = crate::runlog::rankings::of_run(&out)?;
    let mut summary =
        crate::runlog::build_summary(&id, &ts, &meta.suite_name, &kept, figures, interrupted);
    summary.stop_reason = match &src.summary {
        Some(s) => s.stop_reason.clone(),
        None => Some("the source run has no summary line (interrupted mid-run)".into()),
    };
    log.append(&Line::Summary(Box::new(summary)))?;
    log.finish()?;
    Ok(out)
}
