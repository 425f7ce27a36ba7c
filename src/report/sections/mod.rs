//! The report's sections after the verdict: setup, ranking with intervals, paired comparisons,
//! token efficiency, categories, failure modes, cost, scaling, position and methodology.


pub mod figures;
pub mod prompt_wording;
pub mod sql_table;
pub mod verdict;
pub mod wrong_answers;

use crate::report::data::{Family, ReportData};
use crate::report::decisions::family::{has_reference, varies};
use crate::report::foundations::doc::{Block, Cell};
use self::sql_table::generic_table;
use self::verdict::REFERENCE_NOTE;
use crate::numfmt::{interval, p_value as p, percent as pct, points as pp, thousands as int};
use crate::runlog::meta::DataMeta;
use std::collections::BTreeMap;

fn cols(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

/// Items joined with ", " as their `Display` shows them.
fn list<T: std::fmt::Display>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// What each model's data tokens rest on, by one rule for every suite (`runner::basis`): its
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
    if let Some(data) = &m.data {
        items.splice(2..3, user_data(data));
    }
    if let Some(t) = &m.tasks {
        items[2] = format!(
            "Tasks: {} from `{}` ({}), one prompt per task and format; formats that rendered the \
             same tasks are compared on the same facts (data `N tasks`)",
            t.ids.len(),
            t.file.display(),
            t.ids.join(", ")
        );
    }
    out.push(Block::Bullets(items));
    let skipped: Vec<String> = m
        .data
        .iter()
        .flat_map(|d| &d.skipped)
        .map(|s| format!("`{}`: {}", s.format, s.reason))
        .chain(
            m.tasks
                .iter()
                .flat_map(|t| &t.skipped)
                .map(|s| format!("{} in `{}`: {}", s.task, s.format, s.reason)),
        )
        .collect();
    if !skipped.is_empty() {
        out.push(Block::Para(
            if m.tasks.is_some() {
                "Renderings not made, because the format cannot represent the task's data (such a \
                 format is compared only with formats that rendered the same tasks):"
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

/// A tasks run: each task × format, so a format's pooled score can be traced to its tasks.
pub fn tasks(d: &ReportData) -> Vec<Block> {
    let Some(t) = &d.tasks else {
        return Vec::new();
    };
    vec![
        Block::Heading(2, "Each task (sql/task_formats.sql)".into()),
        Block::Para(
            "Fact accuracy is the share of a task's expected values the answer states \
             correctly, computed from the data; the composite is TeaLeaf's heuristic rubric \
             (length, keywords, structure), kept for comparison with TeaLeaf's tables and not a \
             check of correctness."
                .into(),
        ),
        generic_table(t),
    ]
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

/// The ranking with intervals, one table per model.
pub fn ranking(d: &ReportData) -> Vec<Block> {
    let (sizes, primers) = varies(&d.accuracy);
    let frontier: BTreeMap<(&Family, &str), bool> = d
        .pareto
        .iter()
        .map(|r| ((&r.family, r.format.as_str()), r.on_frontier))
        .collect();
    let mut out = vec![
        Block::Heading(2, "Ranking".into()),
        Block::Para(
            "Weighted accuracy is the mean over runs with its 95 % cluster-bootstrap interval (questions \
             resampled within category, 2,000 resamples); plain accuracy is over every answer with its Wilson \
             95 % interval and n; the run-to-run spread is min–max and standard deviation of weighted accuracy. \
             Efficiency = weighted accuracy % per 1,000 data tokens (o200k_base). Frontier ✓: no other format of \
             the same model and data is at least as accurate with at most as many tokens and better in one of \
             the two. Weighted accuracy, its spread and its interval use complete runs (a run with a failed call \
             is left out); plain accuracy uses every answered question."
                .into(),
        ),
    ];
    let mut models: Vec<String> = d.accuracy.iter().map(|r| r.family.model_label()).collect();
    models.dedup();
    for m in models {
        let mut rows: Vec<_> = d
            .accuracy
            .iter()
            .filter(|r| r.family.model_label() == m)
            .collect();
        // Ranked within each data shape: accuracy first, then fewer tokens.
        rows.sort_by(|a, b| {
            a.family
                .cmp(&b.family)
                .then(
                    b.weighted_accuracy
                        .unwrap_or(-1.0)
                        .total_cmp(&a.weighted_accuracy.unwrap_or(-1.0)),
                )
                .then(a.data_tokens.cmp(&b.data_tokens))
        });
        let mut rank = 0;
        let body = rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                rank = if i > 0 && rows[i - 1].family == r.family {
                    rank + 1
                } else {
                    1
                };
                let i = rank - 1;
                let spread = match (r.weighted_min, r.weighted_max) {
                    (Some(lo), Some(hi)) => format!(
                        "{:.1}–{:.1} (sd {})",
                        100.0 * lo,
                        100.0 * hi,
                        r.weighted_stdev
                            .map_or("–".into(), |s| format!("{:.1}", 100.0 * s))
                    ),
                    _ => "–".into(),
                };
                vec![
                    Cell::num((i + 1).to_string(), Some((i + 1) as f64)),
                    Cell::text(format!("`{}`", r.format)),
                    Cell::text(r.family.data_label(sizes, primers)),
                    Cell::num(pct(r.weighted_accuracy), r.weighted_accuracy),
                    Cell::text(interval(r.weighted_low, r.weighted_high)),
                    Cell::num(pct(r.accuracy), r.accuracy),
                    Cell::text(interval(r.wilson_low, r.wilson_high)),
                    Cell::num(int(r.n_answers), Some(r.n_answers as f64)),
                    Cell::num(
                        if r.failed_calls > 0 {
                            format!("{} ({} calls failed)", r.runs, r.failed_calls)
                        } else {
                            r.runs.to_string()
                        },
                        Some(r.runs as f64),
                    ),
                    Cell::text(spread),
                    Cell::num(
                        r.data_tokens.map_or("–".into(), int),
                        r.data_tokens.map(|t| t as f64),
                    ),
                    Cell::num(
                        r.efficiency.map_or("–".into(), |e| format!("{e:.2}")),
                        r.efficiency,
                    ),
                    Cell::text(
                        if frontier
                            .get(&(&r.family, r.format.as_str()))
                            .copied()
                            .unwrap_or(false)
                        {
                            "✓"
                        } else {
                            ""
                        },
                    ),
                ]
            })
            .collect();
        out.push(Block::Heading(3, format!("`{m}`")));
        out.push(Block::Table {
            columns: cols(&[
                "#",
                "format",
                "data",
                "weighted",
                "95 % CI",
                "accuracy",
                "Wilson 95 %",
                "n",
                "runs",
                "run spread (pp)",
                "data tokens",
                "efficiency",
                "frontier",
            ]),
            rows: body,
        });
    }
    out
}

/// The paired comparisons against the baseline.
pub fn comparisons(d: &ReportData) -> Vec<Block> {
    let (sizes, primers) = varies(&d.accuracy);
    let mut out = vec![
        Block::Heading(2, format!("Paired comparisons against `{}`", d.baseline)),
        Block::Para(format!(
            "Each format against `{}` on the same questions of the same runs (same model, structure, variant, \
             record count and primer). Δ weighted with its 95 % paired cluster-bootstrap interval; Δ accuracy over \
             the paired answers; discordant pairs +/− = (question, run) pairs only the format / only the baseline got right; \
             exact McNemar p (two-sided binomial on the discordant pairs) and Holm-adjusted p across the formats \
             of each model and data shape; significant when Holm p < 0.05. MDE = the smallest accuracy difference \
             these pairs detect with 80 % power at α = 0.05, from the observed discordance rate; runs needed = runs \
             that would detect the observed difference (not significant ones only).",
            d.baseline
        )),
    ];
    let rows = d
        .comparisons
        .iter()
        .map(|c| {
            vec![
                Cell::text(c.family.model_label()),
                Cell::text(c.family.data_label(sizes, primers)),
                Cell::text(format!("`{}`", c.format)),
                Cell::num(pp(c.delta_weighted_pp), c.delta_weighted_pp),
                Cell::text(match (c.delta_low_pp, c.delta_high_pp) {
                    (Some(l), Some(h)) => format!("[{l:+.1}, {h:+.1}]"),
                    _ => "–".into(),
                }),
                Cell::num(pp(c.delta_accuracy_pp), c.delta_accuracy_pp),
                Cell::num(int(c.n_pairs), Some(c.n_pairs as f64)),
                Cell::text(format!(
                    "+{} / −{}",
                    c.discordant_format_only, c.discordant_baseline_only
                )),
                Cell::num(p(c.p_value), Some(c.p_value)),
                Cell::num(p(c.p_holm), Some(c.p_holm)),
                Cell::text(if c.significant { "**yes**" } else { "no" }),
                Cell::num(
                    c.token_ratio.map_or("–".into(), |r| format!("{r:.2}×")),
                    c.token_ratio,
                ),
                Cell::num(
                    c.mde_pp.map_or("–".into(), |m| format!("{m:.1} pp")),
                    c.mde_pp,
                ),
                Cell::num(
                    c.runs_needed.map_or("–".into(), int),
                    c.runs_needed.map(|n| n as f64),
                ),
            ]
        })
        .collect();
    let compared: std::collections::BTreeSet<&Family> =
        d.comparisons.iter().map(|c| &c.family).collect();
    let mut missing: Vec<String> = d
        .accuracy
        .iter()
        .map(|r| &r.family)
        .filter(|f| !compared.contains(f))
        .filter(|f| d.accuracy.iter().filter(|r| &r.family == *f).count() > 1)
        .map(|f| format!("{}, {}", f.model_label(), f.data_label(sizes, primers)))
        .collect();
    missing.dedup();
    if !missing.is_empty() {
        out.push(Block::Para(format!(
            "No comparisons for {}: `{}` has no complete run there (a flat-only format in nested data, or every call \
             failed); `bench report --baseline FMT` picks another baseline.",
            missing.join("; "),
            d.baseline
        )));
    }
    out.push(Block::Table {
        columns: cols(&[
            "model",
            "data",
            "format",
            "Δ weighted",
            "95 % CI (pp)",
            "Δ accuracy",
            "pairs",
            "discordant +/−",
            "p",
            "Holm p",
            "significant",
            "token ratio",
            "MDE",
            "runs needed",
        ]),
        rows,
    });
    out
}

/// Token efficiency per tokenizer.
pub fn tokens(d: &ReportData) -> Vec<Block> {
    let sizes = d
        .tokens
        .iter()
        .any(|t| t.records != d.tokens.first().map_or(0, |f| f.records));
    let rows = d
        .tokens
        .iter()
        .map(|t| {
            let data = crate::report::data::shape_label(&t.structure, &t.variant, t.records, sizes);
            vec![
                Cell::text(format!("`{}`", t.format)),
                Cell::text(data),
                Cell::text(t.tokenizer.clone()),
                Cell::num(int(t.tokens), Some(t.tokens as f64)),
                Cell::num(format!("{:.2}", t.chars_per_token), Some(t.chars_per_token)),
                Cell::num(
                    format!("{:.3}", t.tokens_per_value),
                    Some(t.tokens_per_value),
                ),
                Cell::num(
                    t.tokens_per_object
                        .map_or("–".into(), |x| format!("{x:.1}")),
                    t.tokens_per_object,
                ),
            ]
        })
        .collect();
    vec![
        Block::Heading(2, "Token efficiency".into()),
        Block::Para(
            "Data tokens of each rendering counted with each tokenizer of the run (exact counts of the data \
             block, not the whole prompt): characters per token, tokens per non-null value and tokens per \
             object (records and nested objects)."
                .into(),
        ),
        Block::Table {
            columns: cols(&[
                "format",
                "data",
                "tokenizer",
                "tokens",
                "chars/token",
                "tokens/value",
                "tokens/object",
            ]),
            rows,
        },
    ]
}

/// Accuracy per category with Wilson intervals.
pub fn categories(d: &ReportData) -> Vec<Block> {
    let (sizes, primers) = varies(&d.accuracy);
    let mut names: Vec<String> = d.categories.iter().map(|c| c.category.clone()).collect();
    names.sort_by_key(|n| crate::questions::Category::rank(n));
    names.dedup();
    let mut grouped: BTreeMap<(String, String, String), BTreeMap<String, String>> = BTreeMap::new();
    for c in &d.categories {
        grouped
            .entry((
                c.family.model_label(),
                c.family.data_label(sizes, primers),
                c.format.clone(),
            ))
            .or_default()
            .insert(
                c.category.clone(),
                format!(
                    "{} {} n={}",
                    pct(Some(c.accuracy)),
                    interval(Some(c.wilson_low), Some(c.wilson_high)),
                    c.n_answers
                ),
            );
    }
    let rows = grouped
        .into_iter()
        .map(|((m, data, f), cats)| {
            let mut row = vec![
                Cell::text(m),
                Cell::text(data),
                Cell::text(format!("`{f}`")),
            ];
            row.extend(
                names
                    .iter()
                    .map(|n| Cell::text(cats.get(n).cloned().unwrap_or("–".into()))),
            );
            row
        })
        .collect();
    let mut columns = cols(&["model", "data", "format"]);
    columns.extend(names.iter().map(|n| n.replace('_', " ")));
    vec![
        Block::Heading(2, "Category breakdown".into()),
        Block::Para(
            "Plain accuracy per question category with its Wilson 95 % interval and n.".into(),
        ),
        Block::Table { columns, rows },
    ]
}

/// Failure modes, cost, scaling and position: SQL results shown as they come.
pub fn tables(d: &ReportData) -> Vec<Block> {
    let mut out = vec![
        Block::Heading(2, "Failure modes".into()),
        Block::Para(
            "Every wrong answer classified (`sql/failure_modes.sql`; the kinds are defined in docs/formats-suite.md, \
             wrong-answer taxonomy), and the share of right answers that needed a normalisation (right value, \
             other form)."
                .into(),
        ),
    ];
    if d.failure_modes.rows.is_empty() {
        out.push(Block::Para(
            "No wrong answers and no normalised ones.".into(),
        ));
    } else {
        out.push(generic_table(&d.failure_modes));
    }
    out.extend(key_check(d));
    out.push(Block::Heading(2, "Cost and latency".into()));
    out.push(Block::Para(
        "Usage as the APIs reported it, dollars from the price table (null when the model's price is unknown), \
         latency of measured calls; warm-ups counted separately."
            .into(),
    ));
    out.push(generic_table(&d.usage));
    if let Some(s) = &d.scaling {
        out.push(Block::Heading(2, "Scaling with record count".into()));
        out.push(Block::Para(
            "Tokens and accuracy against record count (`sql/scaling.sql`): least-squares tokens-per-record slope, \
             intercept and r², and the change of weighted accuracy per 1,000 records."
                .into(),
        ));
        out.push(generic_table(s));
    }
    if let Some(s) = &d.position {
        out.push(Block::Heading(2, "Position of the target record".into()));
        let shuffled = if d.run.metadata.shuffle {
            " The records were shuffled per run (`--shuffle`): each question's target sat at another \
             position in each run, the same in every format of a run, so a position effect here is \
             not a property of the questions, and a format difference is not one of position."
        } else {
            " The records kept one order in every run, so each question's target always sat at one \
             position: `--shuffle` separates the position from the question."
        };
        out.push(Block::Para(format!(
            "Field-retrieval accuracy by where the target record sits in the data \
             (`sql/position_effect.sql`).{shuffled}"
        )));
        out.push(generic_table(s));
    }
    out
}

/// Methodology: formulas, tests and what `reference` means.
pub fn methodology(d: &ReportData) -> Vec<Block> {
    let weights: Vec<String> = d
        .run
        .weights()
        .iter()
        .map(|(k, w)| format!("{w} · {k}"))
        .collect();
    let mut items = vec![
        format!(
            "Weighted accuracy = Σ weight · (right / asked) over the question categories, divided by the sum of \
             the weights: {}.",
            weights.join(" + ")
        ),
        "Plain accuracy: right answers / answers, over every answer of every successful, non-warm-up call. \
         Wilson score interval, 95 % (z = 1.96)."
            .into(),
        "Weighted-accuracy interval: cluster bootstrap over questions — question ids resampled with replacement \
         within each category, every run of a drawn question kept, 2,000 resamples, percentile interval; seeded from \
         the rendering's identity, so the same run gives the same interval."
            .into(),
        "Paired comparison: answers matched by (question, run); exact McNemar test = two-sided binomial test of the \
         discordant pairs at p = ½; Holm's step-down correction across the formats compared within one model and data \
         shape; Δ weighted with a paired cluster bootstrap (both formats resampled with the same question ids)."
            .into(),
        "The exact McNemar test counts every (question, run) pair as independent; when a model answers the same \
         question the same way in every run (temperature 0), repeated runs add pairs but no evidence. The key \
         findings therefore call a difference confirmed only when the question-clustered bootstrap interval of Δ \
         weighted accuracy excludes zero as well."
            .into(),
        "Power: the smallest detectable difference solves Connor's (1987) sample-size formula for paired proportions, \
         n = (z₀.₉₇₅·√p_d + z₀.₈·√(p_d − δ²))² / δ², at the observed discordance rate p_d; runs needed applies the same \
         formula to the observed difference. Both use α = 0.05 unadjusted for Holm, so they are optimistic when many \
         formats are compared."
            .into(),
        "Warm-up calls (cache priming) are excluded everywhere. Failed calls are counted; plain accuracy uses \
         every answered question, while weighted accuracy, the paired comparisons and the bootstrap use complete \
         runs only (in per-question mode one failed call leaves its run out). Answers are graded by the validators and normalisation policy of docs/formats-suite.md; \
         every wrong answer gets a failure kind."
            .into(),
        "Every number here comes from the SQL files in `sql/` over the run log (run them with `bench query`), except \
         the bootstrap intervals, which `bench report` computes."
            .into(),
    ];
    if has_reference(d) {
        items.push(REFERENCE_NOTE.into());
    }
    vec![
        Block::Heading(2, "Methodology".into()),
        Block::Bullets(items),
    ]
}

/// "Check the key": questions whose expected answer every answer contradicts in agreement.
/// Shown only when there are some: a key given in a question file may be wrong.
fn key_check(d: &ReportData) -> Vec<Block> {
    // Every answer wrong: the top of the report says so once, not once per question here.
    if d.key_check.rows.is_empty() || crate::report::decisions::family::all_wrong(d) {
        return Vec::new();
    }
    let mut out = vec![
        Block::Heading(2, "Check the key".into()),
        Block::Para(
            "Every answer to these questions (all models, formats and runs; the reference answerer left out) \
             states the same value, and the key says another (`sql/key_check.sql`). When all agree, the key \
             is the first suspect: a key given in a question file is not computed from the data."
                .into(),
        ),
    ];
    let lines: Vec<String> = d
        .key_check
        .objects()
        .map(|o| {
            format!(
                "check the key of {}: all {} answers say {}, the key says {}",
                o["question"].as_str().unwrap_or("?"),
                o["answers"],
                o["all_say"].as_str().unwrap_or("?"),
                o["key_says"].as_str().unwrap_or("?")
            )
        })
        .collect();
    out.push(Block::Bullets(lines));
    out
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
