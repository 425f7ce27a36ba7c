//! `bench rescore RUN_DIR`: re-grades the stored responses of a finished run with the current
//! grader and taxonomy, without any API call (no provider is built), into a new run folder
//! beside it whose metadata names the source (`rescored_from`).

use crate::UsageError;
use crate::cli::RescoreArgs;
use crate::dataset::{self, Dataset, Variant};
use crate::grading::{DataIndex, grade, summarize};
use crate::layout::dataset_hash;
use crate::prompt::{extract_answers, extract_cut_answers};
use crate::providers::Finish;
use crate::questions::{self, Question};
use crate::records::{JsonlWriter, Line, Metadata, RescoredFrom, ResultRecord, SummaryRecord};
use crate::runner::{Plan, create_run_dir, run_identity};
use anyhow::{Context, Result};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Re-grades, prints the new folder, then writes its report (unless `--no-report`).
pub fn execute(args: &RescoreArgs) -> Result<()> {
    let out = rescore(&args.run_dir)?;
    println!("rescored run: {}", out.display());
    if !args.no_report {
        super::report::write_for_run(&out, args.baseline)?;
    }
    Ok(())
}

/// A run log read back.
struct Source {
    jsonl: PathBuf,
    metadata: Metadata,
    results: Vec<ResultRecord>,
    summary: Option<SummaryRecord>,
}

fn not_a_run(dir: &Path, why: &str) -> anyhow::Error {
    UsageError::new(format!(
        "'{}' is not a run folder ({why}); pass data/benchmarks/<timestamp>",
        dir.display()
    ))
    .into()
}

/// Reads the one `<suite>.jsonl` of a run folder: metadata first, results, summary.
fn read_run(dir: &Path) -> Result<Source> {
    let logs = crate::records::run_logs(dir).map_err(|e| not_a_run(dir, &e.to_string()))?;
    let jsonl = match logs.as_slice() {
        [one] => one.clone(),
        [] => return Err(not_a_run(dir, "no .jsonl run log in it")),
        _ => return Err(not_a_run(dir, "several .jsonl files in it")),
    };
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

/// Questions and records of one dataset size and variant.
struct Asked {
    questions: Vec<Question>,
    data: DataIndex,
}

/// Regenerates the datasets and questions the metadata describes, checking each dataset
/// against the recorded hash so a changed generator cannot silently grade other data.
fn regenerate(meta: &Metadata, dir: &Path) -> Result<HashMap<(usize, Variant), Asked>> {
    if meta.tasks.is_some() {
        return Err(UsageError::new(format!(
            "'{}' is a tasks run; rescore re-grades the formats suite's questions only (tasks \
             runs cannot be rescored yet)",
            dir.display()
        ))
        .into());
    }
    // A `--data` run: the file is loaded again (and must be unchanged) and its questions
    // synthesised again from the recorded options.
    let plan = Plan::from_metadata(meta)?;
    let mut out = HashMap::new();
    if let Some(d) = &plan.data {
        let records = d.data.records.clone();
        out.insert(
            (records.len(), d.variant),
            Asked {
                questions: d.synthesis.questions.clone(),
                data: DataIndex::with_id(records, &d.synthesis.id.field_list()),
            },
        );
        return Ok(out);
    }
    let hashes: Vec<&str> = meta.dataset_hash.split(',').collect();
    for (i, &n) in plan.records.iter().enumerate() {
        let ds: Arc<Dataset> = Arc::new(dataset::generate(n, plan.seed));
        if hashes.get(i).is_some_and(|h| *h != dataset_hash(&ds)) {
            return Err(UsageError::new(format!(
                "cannot rescore '{}': the {n}-record dataset regenerated from seed {} differs \
                 from the one the run used (made by another bench version?)",
                dir.display(),
                plan.seed
            ))
            .into());
        }
        for &v in &plan.variants {
            let asked = Asked {
                questions: questions::generate(&ds.records(v), plan.seed),
                data: DataIndex::of_dataset(ds.clone(), v),
            };
            out.insert((n as usize, v), asked);
        }
    }
    Ok(out)
}

/// Re-grades one result in place: the questions it asked, its stored output, its finish.
fn regrade(r: &mut ResultRecord, asked: &HashMap<(usize, Variant), Asked>) -> Result<()> {
    let a = asked.get(&(r.records, r.variant)).ok_or_else(|| {
        anyhow::anyhow!(
            "result {}: {} records, {} variant is not in the run's metadata",
            r.sample.tag,
            r.records,
            r.variant
        )
    })?;
    let qs: Vec<Question> = match &r.question {
        Some(id) => a
            .questions
            .iter()
            .filter(|q| &q.id == id)
            .cloned()
            .collect(),
        None => a.questions.clone(),
    };
    // The regenerated questions must be the ones the prompt asked, or the grades mean nothing.
    let prompt: String = r.sample.input.iter().map(|m| m.content.as_str()).collect();
    // Only the part after the data block, so a large rendering is not searched 124 times.
    let prompt = prompt
        .rfind("\nQuestions:\n")
        .map_or(prompt.as_str(), |at| &prompt[at..]);
    if let Some(q) = qs.iter().find(|q| !prompt.contains(&q.text)) {
        anyhow::bail!(
            "result {}: question {} ({:?}) is not in its prompt; the questions regenerated from \
             the metadata differ from those asked (made by another bench version?)",
            r.sample.tag,
            q.id,
            q.text
        );
    }
    if qs.is_empty() {
        anyhow::bail!("result {}: asks no question this bench knows", r.sample.tag);
    }
    r.metrics = match &r.error {
        // A failed call stays a failed call, graded as the runner grades one.
        Some(_) => grade(&qs, None, &a.data, false),
        None => {
            let cut = r.finish == Some(Finish::Length);
            let parse = if cut {
                extract_cut_answers
            } else {
                extract_answers
            };
            grade(&qs, parse(&r.sample.output.content).as_ref(), &a.data, cut)
        }
    };
    r.summary = summarize(&r.metrics);
    Ok(())
}

/// Re-grades the run in `dir` into a new run folder in the same `benchmarks/` folder; returns
/// the new folder.
pub fn rescore(dir: &Path) -> Result<PathBuf> {
    let src = read_run(dir)?;
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
    let asked = regenerate(&src.metadata, dir)?;

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
        regrade(&mut r, &asked)?;
        r.benchmark_id = id.clone();
        log.append(&Line::Result(Box::new(r.clone())))?;
        // The summary needs no prompt or output text; drop them as the runner does.
        r.sample.input.clear();
        r.sample.output.content.clear();
        kept.push(r);
    }
    let interrupted = src.summary.as_ref().is_none_or(|s| s.interrupted);
    let mut summary = crate::records::build_summary(&id, &ts, &meta.suite_name, &kept, interrupted);
    summary.stop_reason = match &src.summary {
        Some(s) => s.stop_reason.clone(),
        None => Some("the source run has no summary line (interrupted mid-run)".into()),
    };
    log.append(&Line::Summary(Box::new(summary)))?;
    log.finish()?;
    Ok(out)
}
