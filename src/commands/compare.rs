//! `bench compare RUN_A RUN_B`: two runs of one suite on the same data, answer by answer
//! (a model upgrade, a prompt change). The statistics are `sql/compare.sql` (McNemar, Holm,
//! Tango) and the bootstrap of `sql/compare_pairs.sql`; this command checks that the runs can
//! be paired, prints the table and, with `--fail-on`, exits 1 for CI.

use crate::analytics::Table;
use crate::cli::{CompareArgs, FailOn};
use crate::error::Stopped;
use crate::numfmt::percent as pct;
use crate::report::data::RunInfo;
pub use crate::report::decisions::compare_runs::CompareRow;
use crate::report::decisions::compare_runs::compare_runs;
use crate::report::{TableFormat, render};
use anyhow::Result;
use serde_json::{Value, json};
use std::path::Path;

/// `bench compare RUN_A RUN_B`.
pub fn execute(args: &CompareArgs) -> Result<()> {
    let a_dir = crate::ops::runs::resolve_run(&args.run_a, &args.root)?;
    let b_dir = crate::ops::runs::resolve_run(&args.run_b, &args.root)?;
    let c = compare_runs(&a_dir, &b_dir, args.margin)?;
    let sides = ((a_dir.as_path(), &c.a), (b_dir.as_path(), &c.b));
    crate::out!(
        "{}",
        output(args.format, &c.rows, &c.tasks, sides, c.margin)?
    )?;
    gate(args.fail_on, &c.rows, c.margin)
}

/// The table in `format`; json carries the runs, the margin and every row's numbers.
fn output(
    format: TableFormat,
    rows: &[CompareRow],
    tasks: &Table,
    ((a_dir, a), (b_dir, b)): ((&Path, &RunInfo), (&Path, &RunInfo)),
    margin: f64,
) -> Result<String> {
    let side = |dir: &Path, r: &RunInfo| {
        let p = &r.metadata.providers[0];
        json!({"dir": dir.display().to_string(), "benchmark_id": r.metadata.benchmark_id,
               "provider": p.provider, "model": p.model,
               "prompt_variants": wordings(&r.metadata), "shuffle": r.metadata.shuffle,
               "seed": r.metadata.seed})
    };
    if format == TableFormat::Json {
        let per_task: Vec<Value> = tasks.objects().map(Value::Object).collect();
        let doc = json!({"a": side(a_dir, a), "b": side(b_dir, b), "margin_pp": margin,
                         "suite": a.suite, "rows": rows, "tasks": per_task});
        return Ok(serde_json::to_string_pretty(&doc)? + "\n");
    }
    let label = |r: &RunInfo| {
        let p = &r.metadata.providers[0];
        format!("{}:{}", p.provider, p.model)
    };
    let head = format!(
        "A = {} ({}), B = {} ({}); non-inferiority margin {margin} pp\n",
        label(a),
        a_dir.display(),
        label(b),
        b_dir.display()
    );
    let mut out = head;
    for line in conditions(a, b).into_iter().chain(left_out(a, b)) {
        out.push_str(&line);
        out.push('\n');
    }
    let mut out = out + &render(&table(rows), format)?;
    if !tasks.rows.is_empty() {
        out.push_str("\nPer task (fact accuracy of A and B over the same facts and runs):\n");
        out.push_str(&render(tasks, format)?);
    }
    Ok(out)
}

/// The wordings a run asked, one per run in turn (`default` alone without `--prompt-variants`).
fn wordings(m: &crate::runlog::Metadata) -> Vec<String> {
    if m.prompt_variants.is_empty() {
        vec!["default".into()]
    } else {
        m.prompt_variants.clone()
    }
}

/// The wording of run `run` (1-based).
fn wording_of(m: &crate::runlog::Metadata, run: u32) -> String {
    let w = wordings(m);
    w[((run.max(1) - 1) as usize) % w.len()].clone()
}

/// What each run asked under (`--prompt-variants`, `--shuffle`) and whether a pair, run index r
/// of A with run index r of B, shares its wording and record order or compares two.
fn conditions(a: &RunInfo, b: &RunInfo) -> Vec<String> {
    let (ma, mb) = (&a.metadata, &b.metadata);
    let asked = |m: &crate::runlog::Metadata| {
        let order = if m.shuffle {
            format!("records shuffled per run (seed {})", m.seed)
        } else {
            "records in the data's order".to_string()
        };
        match wordings(m).as_slice() {
            [one] => format!("wording {one} · {order}"),
            many => format!(
                "wordings {} (one per run in turn) · {order}",
                many.join(", ")
            ),
        }
    };
    let (sa, sb) = (asked(ma), asked(mb));
    if sa == sb && (!ma.shuffle || ma.seed == mb.seed) {
        if wordings(ma).len() == 1 && !ma.shuffle {
            return Vec::new();
        }
        return vec![format!(
            "Both asked in {sa}: each pair shares its wording and record order."
        )];
    }
    let runs = ma.runs.min(mb.runs);
    let worded: Vec<String> = (1..=runs)
        .filter(|&r| wording_of(ma, r) != wording_of(mb, r))
        .map(|r| format!("run {r}: {} → {}", wording_of(ma, r), wording_of(mb, r)))
        .collect();
    let mut out = vec![format!("A asked in {sa}; B in {sb}.")];
    if !worded.is_empty() {
        out.push(format!(
            "Pairs of these runs compare two wordings (A → B), so Δ includes the prompt change: {}.",
            worded.join(", ")
        ));
    }
    if ma.shuffle != mb.shuffle || (ma.shuffle && ma.seed != mb.seed) {
        out.push(
            "The record orders differ: each pair asks one question about the same records in two \
             orders (each side graded against its own order), so Δ includes the order change."
                .into(),
        );
    }
    out
}

/// What only one of the runs asked, and so the table leaves out (formats, structures,
/// variants, sizes, primer settings, run indexes), or `None` when both asked the same plan.
fn left_out(a: &RunInfo, b: &RunInfo) -> Option<String> {
    let (ma, mb) = (&a.metadata, &b.metadata);
    fn strs<T>(v: &[T], f: impl Fn(&T) -> String) -> Vec<String> {
        v.iter().map(f).collect()
    }
    let on = |p: &bool| if *p { "on" } else { "off" }.to_string();
    let dims = [
        (
            "formats",
            strs(&ma.formats, |f| f.name().into()),
            strs(&mb.formats, |f| f.name().into()),
        ),
        (
            "structures",
            strs(&ma.structures, |s| s.name().into()),
            strs(&mb.structures, |s| s.name().into()),
        ),
        (
            "variants",
            strs(&ma.variants, |v| v.name().into()),
            strs(&mb.variants, |v| v.name().into()),
        ),
        (
            "records",
            strs(&ma.records, ToString::to_string),
            strs(&mb.records, ToString::to_string),
        ),
        ("primer", strs(&ma.primers, on), strs(&mb.primers, on)),
    ];
    let mut parts = Vec::new();
    for (what, xa, xb) in &dims {
        for (side, mine, other) in [("A", xa, xb), ("B", xb, xa)] {
            let only: Vec<&str> = mine
                .iter()
                .filter(|x| !other.contains(x))
                .map(String::as_str)
                .collect();
            if !only.is_empty() {
                parts.push(format!("{what} {} only in {side}", only.join(", ")));
            }
        }
    }
    if ma.runs != mb.runs {
        let (side, more, fewer) = if ma.runs > mb.runs {
            ("A", ma.runs, mb.runs)
        } else {
            ("B", mb.runs, ma.runs)
        };
        let runs = if more == fewer + 1 {
            format!("run {more}")
        } else {
            format!("runs {}–{more}", fewer + 1)
        };
        parts.push(format!("{runs} only in {side} (the other has {fewer})"));
    }
    (!parts.is_empty()).then(|| {
        format!(
            "Left out, asked in one run only: {}. Only what both asked is compared.",
            parts.join("; ")
        )
    })
}

/// The rows as text cells.
fn table(src: &[CompareRow]) -> Table {
    let columns = [
        "rendering",
        "A",
        "B",
        "Δ pp",
        "Δ weighted pp [95 % CI]",
        "B only / A only",
        "McNemar p (Holm)",
        "90 % low",
        "Tango p (Holm)",
        "verdict",
    ];
    let s = |t: String| Value::String(t);
    let p = |x: f64| crate::numfmt::p_value(x);
    let rows = src
        .iter()
        .map(|r| {
            vec![
                s(r.rendering()),
                s(pct(Some(r.a_accuracy))),
                s(pct(Some(r.b_accuracy))),
                s(format!("{:+.1}", r.delta_accuracy_pp)),
                s(
                    match (r.delta_weighted_pp, r.delta_low_pp, r.delta_high_pp) {
                        (Some(d), Some(l), Some(h)) => format!("{d:+.1} [{l:+.1}, {h:+.1}]"),
                        (Some(d), _, _) => format!("{d:+.1}"),
                        _ => "–".into(),
                    },
                ),
                s(format!("{} / {}", r.b_only, r.a_only)),
                s(format!("{} ({})", p(r.p_value), p(r.p_holm))),
                s(r.ni_low_pp.map_or("–".into(), |l| format!("{l:+.1}"))),
                s(match (r.ni_p, r.ni_p_holm) {
                    (Some(x), Some(h)) => format!("{} ({})", p(x), p(h)),
                    _ => "–".into(),
                }),
                s(r.verdict().into()),
            ]
        })
        .collect();
    let mut t = Table {
        columns: columns.map(String::from).to_vec(),
        rows,
    };
    // A write run: the first shot beside the final outcome (the accuracy columns).
    if src.iter().any(|r| r.a_first_exact.is_some()) {
        t.columns.insert(3, "first shot A → B".into());
        for (row, r) in t.rows.iter_mut().zip(src) {
            row.insert(
                3,
                s(format!(
                    "{} → {}",
                    pct(r.a_first_exact),
                    pct(r.b_first_exact)
                )),
            );
        }
    }
    t
}

/// `--fail-on`: exit 1 naming the renderings that fail the gate.
fn gate(fail_on: Option<FailOn>, rows: &[CompareRow], margin: f64) -> Result<()> {
    let (failed, what): (Vec<&CompareRow>, String) = match fail_on {
        None => return Ok(()),
        Some(FailOn::Regression) => (
            rows.iter().filter(|r| r.regression).collect(),
            "significantly worse than A (Holm-adjusted exact McNemar, α = 0.05)".into(),
        ),
        Some(FailOn::NotNoninferior) => (
            rows.iter().filter(|r| !r.noninferior).collect(),
            format!("not shown non-inferior to A within {margin} pp"),
        ),
    };
    if failed.is_empty() {
        return Ok(());
    }
    let mut names: Vec<String> = failed
        .iter()
        .take(5)
        .map(|r| format!("{} (Δ {:+.1} pp)", r.rendering(), r.delta_accuracy_pp))
        .collect();
    if failed.len() > 5 {
        names.push(format!("{} more", failed.len() - 5));
    }
    let why = match fail_on {
        Some(FailOn::NotNoninferior) => why_not_noninferior(&failed, rows.len(), margin),
        _ => String::new(),
    };
    Err(Stopped {
        code: 1,
        message: format!(
            "--fail-on: B is {what} on {} of {} renderings: {}{why}",
            failed.len(),
            rows.len(),
            names.join(", ")
        ),
    }
    .into())
}

/// Why the non-inferiority gate failed, for the renderings in `failed` of `renderings`: the
/// test's p before and after Holm, and, when no answer differs (identical runs fail it too),
/// how many runs of agreeing answers would pass it; then the gate that asks "did anything get
/// worse". Empty for no rendering.
fn why_not_noninferior(failed: &[&CompareRow], renderings: usize, margin: f64) -> String {
    let Some(first) = failed.first() else {
        return String::new();
    };
    let p = crate::numfmt::p_value;
    let mut out = match (first.ni_p, first.ni_p_holm) {
        (Some(x), Some(h)) => format!(
            ". Why: a loss of {margin} pp is not ruled out by Tango's test at α = 0.05 after Holm \
             over {renderings} renderings (first named: p {}, {} after Holm, over {} pairs)",
            p(x),
            p(h),
            first.n_pairs
        ),
        _ => format!(". Why: a loss of {margin} pp is not ruled out"),
    };
    let agreeing = failed.iter().all(|r| r.a_only == 0 && r.b_only == 0);
    let per_run = first.n_pairs as f64 / first.runs.max(1) as f64;
    if agreeing
        && let Some(runs) =
            crate::stats::runs_to_show_noninferior(per_run, margin, renderings, 0.05)
    {
        out.push_str(&format!(
            "; no answer differs, so this is too few answers, not a loss: runs that keep agreeing \
             pass it at about {runs} runs each (`bench run --runs {runs}`), or fewer renderings \
             or a wider --margin"
        ));
    }
    out.push_str(
        ". To fail only when a rendering got significantly worse, use `--fail-on regression` \
         (docs/statistics.md, \"Which gate\")",
    );
    out
}
