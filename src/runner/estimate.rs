//! `bench run --dry-run`: the plan without any network — calls per provider, exact prompt
//! tokens per call (local o200k_base count), estimated cost and wall time under the limits;
//! refused, as a real run is, when a prompt would not fit a model's window (`fits`).

use super::model::Model;
use super::plan::{self, Plan};
use super::tokens::counter::CountCache;
use super::tokens::estimate_basis::{self as basis, Basis};
use crate::analytics::Table;
use crate::providers::{Price, Usage};
use crate::tokens::Tokenizer;
use anyhow::Result;
use serde_json::{Value, json};

/// Assumed time to first token, seconds, for the wall-time estimate.
const ASSUMED_FIRST_TOKEN_S: f64 = 1.0;
/// Assumed generation speed, tokens per second, for the wall-time estimate.
const ASSUMED_TOKENS_PER_S: f64 = 80.0;
/// Seconds a local answerer (the offline `reference`, which has no URL) takes per 1,000 prompt
/// tokens: measured on the default offline run (90 calls of about 9,400 prompt tokens, 10 ms
/// each on 2 shared cores), so a dry run of it says seconds, not a model's minutes.
const LOCAL_S_PER_KTOKEN: f64 = 0.0011;

/// The dry-run tables.
pub struct Estimate {
    /// One row per rendering: prompt tokens per call.
    pub prompts: Table,
    /// One row per provider: calls, tokens, dollars, time.
    pub providers: Table,
    /// How the estimates were made.
    pub notes: Vec<String>,
}

/// One planned call as the estimate counts it: prompt tokens, data-block tokens, the answer
/// key's tokens, and whether it is the first prompt of its rendering (a warm-up primes it).
#[derive(Clone, Copy)]
struct Call {
    prompt: u64,
    data: u64,
    out: u64,
    first: bool,
    /// Runs that ask it (fewer than `--runs` when wordings take turns).
    runs: u64,
    /// Its combination's index in the plan.
    combo: usize,
    /// Its combination's first prompt, o200k_base tokens.
    first_o200k: u64,
}

/// How an estimate counts a real model's prompt tokens.
#[derive(Debug, Clone)]
pub enum Counts {
    /// In the offline vocabulary nearest the model, labelled as an approximation.
    Offline,
    /// With the provider's own counter (`--count-with-provider`), cached in this folder.
    Provider(Option<std::path::PathBuf>),
}

/// Estimates `plan` for `models`; `warmup` as in `Options::warmup`; `batch` adds what the
/// same calls cost through the batch APIs; `counts` says how real models' prompts are counted.
pub fn estimate(
    plan: &Plan,
    models: &[Model],
    warmup: Option<bool>,
    batch: bool,
    counts: &Counts,
) -> Result<Estimate> {
    let (matrix, skipped) = super::fits::build(plan, models)?;
    let (prompt_rows, calls) = prompts(plan, &matrix);
    let bases = bases(plan, &matrix, models, counts)?;
    let mut provider_rows = Vec::new();
    let (mut live_total, mut batch_total) = (0.0, 0.0);
    for (m, basis) in models.iter().zip(&bases) {
        let calls = match basis {
            Some(b) => on_basis(&calls, b),
            None => calls.clone(),
        };
        let (row, live, batched) = provider(plan, m, &calls, warmup, batch);
        if let Some(b) = batched {
            live_total += live;
            batch_total += b;
        }
        provider_rows.push(row);
    }
    // Only the tasks suite names a task per rendering.
    let tasks = matrix.combos.iter().any(|c| c.item().is_some());
    let worded = matrix.combos.iter().any(|c| c.slot.wording.is_some());
    let (prompts, providers) = tables([tasks, worded], batch, prompt_rows, provider_rows);
    let follow_ups = matrix
        .combos
        .iter()
        .map(|c| c.scorer.max_follow_ups())
        .max();
    let mut notes = notes(models, batch, live_total, batch_total, &skipped);
    notes.extend(bases.into_iter().flatten().map(|b| b.note));
    if let Some(n) = follow_ups.filter(|n| *n > 0) {
        notes.push(format!(
            "calls and costs count first shots only: a sample whose document does not parse gets \
             up to {n} repair turns (--repairs), each resending the conversation so far"
        ));
    }
    Ok(Estimate {
        prompts,
        providers,
        notes,
    })
}

/// Each model's counts of every rendering: None for the offline reference (o200k_base, as the
/// prompt table shows), else the provider's counts or the nearest offline vocabulary's.
fn bases(
    plan: &Plan,
    matrix: &plan::Matrix,
    models: &[Model],
    counts: &Counts,
) -> Result<Vec<Option<Basis>>> {
    let runtime = match counts {
        Counts::Provider(_) => Some(tokio::runtime::Runtime::new()?),
        Counts::Offline => None,
    };
    models
        .iter()
        .map(|m| {
            if m.provider.url().is_none() {
                return Ok(None);
            }
            Ok(Some(match (counts, &runtime) {
                (Counts::Provider(dir), Some(rt)) => {
                    let cache = dir.clone().map(CountCache::new);
                    rt.block_on(basis::counted(matrix, m, cache))?
                }
                _ => basis::offline(matrix, m, &plan.output_root),
            }))
        })
        .collect()
}

/// `calls` on a model's own counts: each prompt moved by how far its rendering's first prompt
/// is from the o200k_base count, and the data block as that basis counts it.
fn on_basis(calls: &[Call], b: &Basis) -> Vec<Call> {
    calls
        .iter()
        .map(|c| {
            let (first, data) = b.combos[c.combo];
            let prompt = (c.prompt as i64 + first as i64 - c.first_o200k as i64).max(0) as u64;
            Call { prompt, data, ..*c }
        })
        .collect()
}

/// One row per rendering (prompt tokens per call) and every planned call.
fn prompts(plan: &Plan, matrix: &plan::Matrix) -> (Vec<Vec<Value>>, Vec<Call>) {
    let mut prompt_rows = Vec::new();
    let mut calls = Vec::new();
    for (index, c) in matrix.combos.iter().enumerate() {
        let r = &c.rendering;
        let (mut lo, mut hi) = (u64::MAX, 0);
        // Every prompt of a rendering starts with the same data block.
        let first = &c.units[0];
        let data =
            Tokenizer::O200kBase.count(&first.messages[0].content[..first.cache_prefix]) as u64;
        for (i, u) in c.units.iter().enumerate() {
            let prompt = u64::from(u.tokens);
            let key = c.scorer.answer_key(u);
            let out = Tokenizer::O200kBase.count(&key) as u64;
            calls.push(Call {
                prompt,
                data,
                out,
                first: i == 0 && c.slot.asks(0),
                runs: u64::from(c.slot.runs(plan.runs)),
                combo: index,
                first_o200k: u64::from(first.tokens),
            });
            lo = lo.min(prompt);
            hi = hi.max(prompt);
        }
        let per_call = if lo == hi {
            json!(lo)
        } else {
            json!(format!("{lo}–{hi}"))
        };
        let mut row: Vec<Value> = c.item().map(|t| json!(t)).into_iter().collect();
        row.extend(c.slot.wording.map(|w| json!(w)));
        row.extend([
            json!(c.records),
            json!(c.primer),
            json!(c.scorer.mode().unwrap_or(r.format.name())),
            json!(r.structure.name()),
            json!(r.variant.name()),
            json!(c.units.len() as u64 * u64::from(c.slot.runs(plan.runs))),
            per_call,
            json!(r.stats.tokens.get("o200k_base").copied().unwrap_or(0)),
        ]);
        prompt_rows.push(row);
    }
    (prompt_rows, calls)
}

/// One provider's row: calls, tokens, live cost (expected and at max_tokens), batch cost,
/// limits and wall time; with the live and batch totals for the notes.
fn provider(
    plan: &Plan,
    m: &Model,
    calls: &[Call],
    warmup: Option<bool>,
    batch: bool,
) -> (Vec<Value>, f64, Option<f64>) {
    let p = &m.provider;
    let warm = plan.warmup(warmup, p.caches_prompts());
    let price = m.config.price();
    let max_out = u64::from(m.config.max_tokens());
    let Live {
        n,
        input,
        output,
        cost,
        cost_max,
    } = live(calls, warm, price, max_out);
    let batch_calls: u64 = calls.iter().map(|c| c.runs).sum();
    let batch_cost = price.map(|price| batch_cost(calls, price));
    let avg_in = input as f64 / n.max(1) as f64;
    let avg_out = output as f64 / n.max(1) as f64;
    // The reference answerer decodes the rendering on this machine: no model, no network.
    let latency = if p.url().is_none() {
        LOCAL_S_PER_KTOKEN * avg_in / 1000.0
    } else {
        ASSUMED_FIRST_TOKEN_S + avg_out / ASSUMED_TOKENS_PER_S
    };
    let mut per_s = m.config.concurrency() as f64 / latency;
    if let Some(rpm) = m.config.rpm {
        per_s = per_s.min(f64::from(rpm) / 60.0);
    }
    if let Some(tpm) = m.config.tpm {
        per_s = per_s.min(f64::from(tpm) / 60.0 / (avg_in + max_out as f64));
    }
    let limits = format!(
        "c={} rpm={} tpm={}",
        m.config.concurrency(),
        m.config.rpm.map_or("-".into(), |x| x.to_string()),
        m.config.tpm.map_or("-".into(), |x| x.to_string())
    );
    let mut row = vec![
        json!(format!("{}:{}", p.name(), p.model())),
        json!(n),
        json!(input),
        json!(output),
        price.map_or(Value::Null, |_| json!(format!("{cost:.4}"))),
        price.map_or(Value::Null, |_| json!(format!("{cost_max:.4}"))),
    ];
    if batch {
        let has = p.batch().is_some();
        row.push(if has { json!(batch_calls) } else { Value::Null });
        row.push(match batch_cost.filter(|_| has) {
            Some(b) => json!(format!("{b:.4}")),
            None => Value::Null,
        });
        row.push(match batch_cost.filter(|_| has && cost > 0.0) {
            Some(b) => json!(format!("{:.1}%", 100.0 * (1.0 - b / cost))),
            None => Value::Null,
        });
    }
    row.push(json!(limits));
    let wall = n as f64 / per_s;
    row.push(json!(if wall < 1.0 {
        "<1s".to_string()
    } else {
        human_duration(wall)
    }));
    (row, cost, batch_cost)
}

/// What `calls` cost through a batch API: a batch has no warm-ups and, to be safe, no cache
/// hits, so every prompt token is priced as uncached, at the batch discount.
fn batch_cost(calls: &[Call], price: Price) -> f64 {
    calls
        .iter()
        .map(
            |&Call {
                 prompt, out, runs, ..
             }| {
                runs as f64
                    * price.batch_cost(&Usage {
                        input: prompt,
                        output: out,
                        ..Usage::default()
                    })
            },
        )
        .sum()
}

/// The live run of one provider: calls (warm-ups included), tokens, and cost as expected and
/// with every reply at max_tokens.
struct Live {
    n: u64,
    input: u64,
    output: u64,
    cost: f64,
    cost_max: f64,
}

fn live(calls: &[Call], warm: bool, price: Option<Price>, max_out: u64) -> Live {
    let (mut n, mut input, mut output, mut cost, mut cost_max) = (0u64, 0u64, 0u64, 0.0, 0.0);
    for &Call {
        prompt,
        data,
        out,
        first,
        runs,
        ..
    } in calls
    {
        // A warm-up per rendering writes the data block to the cache; runs read it.
        let warm_calls = u64::from(warm && first);
        n += runs + warm_calls;
        input += prompt * (runs + warm_calls);
        output += out * (runs + warm_calls);
        if let Some(price) = price {
            let (read, write) = if warm { (data, data) } else { (0, 0) };
            let run_usage = |o| Usage {
                input: prompt,
                output: o,
                cache_read: read,
                ..Usage::default()
            };
            let warm_usage = |o| Usage {
                input: prompt,
                output: o,
                cache_write: write,
                ..Usage::default()
            };
            cost += runs as f64 * price.cost(&run_usage(out))
                + warm_calls as f64 * price.cost(&warm_usage(out));
            cost_max += runs as f64 * price.cost(&run_usage(max_out))
                + warm_calls as f64 * price.cost(&warm_usage(max_out));
        }
    }
    Live {
        n,
        input,
        output,
        cost,
        cost_max,
    }
}

/// The two tables with their columns.
fn tables(
    [tasks, worded]: [bool; 2],
    batch: bool,
    prompt_rows: Vec<Vec<Value>>,
    provider_rows: Vec<Vec<Value>>,
) -> (Table, Table) {
    let cols = |c: &[&str]| c.iter().map(|s| s.to_string()).collect();
    let task_col: &[&str] = if tasks { &["task"] } else { &[] };
    let wording_col: &[&str] = if worded { &["wording"] } else { &[] };
    (
        Table {
            columns: cols(
                &[
                    task_col,
                    wording_col,
                    &[
                        "records",
                        "primer",
                        "format",
                        "structure",
                        "variant",
                        "calls_per_provider",
                        "prompt_tokens_per_call",
                        "data_tokens",
                    ],
                ]
                .concat(),
            ),
            rows: prompt_rows,
        },
        Table {
            columns: cols(
                &[
                    &[
                        "provider",
                        "calls",
                        "input_tokens",
                        "est_output_tokens",
                        "est_usd",
                        "max_usd",
                    ][..],
                    if batch {
                        &["batch_calls", "batch_usd", "batch_saving"][..]
                    } else {
                        &[]
                    },
                    &["limits", "est_wall_time"],
                ]
                .concat(),
            ),
            rows: provider_rows,
        },
    )
}

/// How the estimates were made, and the renderings skipped.
fn notes(
    models: &[Model],
    batch: bool,
    live_total: f64,
    batch_total: f64,
    skipped: &[crate::suites::Skip],
) -> Vec<String> {
    vec![
            "prompt tokens (the prompt table): exact local o200k_base counts; each model's row counts on the basis its note names".into(),
            "est output: the answer key's size in tokens (for tasks, their facts; analysis answers run longer); max_usd assumes every call uses max_tokens".into(),
        ]
        .into_iter()
        .chain(models.iter().any(|m| m.provider.url().is_some()).then(|| format!(
            "wall time assumes {ASSUMED_FIRST_TOKEN_S} s to first token and {ASSUMED_TOKENS_PER_S} tokens/s, under each provider's concurrency, rpm and tpm"
        )))
        .chain(models.iter().any(|m| m.provider.url().is_none()).then(|| {
            format!(
                "the offline reference answerer runs here: its wall time assumes {} ms per \
                 1,000 prompt tokens (measured on the default run)",
                LOCAL_S_PER_KTOKEN * 1000.0
            )
        }))
        .chain(models.iter().filter(|m| m.config.unpriced()).map(|m| {
            let why = crate::providers::prices::unpriced_reason(&m.config.model)
                .unwrap_or("not in bench's price table");
            format!(
                "{}: no price known (null; {why}): set `price` in the config (see `bench init-config`)",
                m.config.spec()
            )
        }))
        .chain(batch.then(|| {
            format!(
                "--batch: batch_usd prices the same calls at the batch discount, without warm-ups and \
                 assuming no prompt-cache hits (a hit inside a batch only lowers it); est_usd is the \
                 live run with its warm-ups and cache reads; in all: batch ${batch_total:.4} against live \
                 ${live_total:.4}, {}; a batch answers within 24 h (most within an hour), so \
                 est_wall_time is the live run's",
                if live_total > 0.0 {
                    format!("saving ${:.4} ({:.1}%)", live_total - batch_total, 100.0 * (1.0 - batch_total / live_total))
                } else {
                    "no priced model".to_string()
                }
            )
        }))
        .chain(skipped.iter().map(ToString::to_string))
        .collect()
}

use crate::numfmt::duration as human_duration;

/// `--show-requests`: the exact body each model would receive for the first prompt of the
/// plan, with texts over 160 characters shortened so the data block does not fill the screen,
/// unless `full` (`--full`).
pub fn requests(plan: &Plan, models: &[Model], full: bool) -> Result<String> {
    let (matrix, _) = plan::build_all(plan)?;
    let Some((c, u)) = matrix
        .combos
        .iter()
        .find_map(|c| Some((c, c.units.first()?)))
    else {
        return Ok("no request to show: the plan has no calls\n".into());
    };
    let req = c.request(u);
    let mut out = String::new();
    for m in models {
        let p = &m.provider;
        let Some(mut body) = p.preview(&req) else {
            out.push_str(&format!("{}: sends nothing (offline)\n\n", m.config.spec()));
            continue;
        };
        if !full {
            shorten(&mut body);
        }
        out.push_str(&format!(
            "{} — POST {} (the key travels in a header, not shown)\n{}\n\n",
            m.config.spec(),
            p.url().unwrap_or_default(),
            serde_json::to_string_pretty(&body)?
        ));
    }
    Ok(out)
}

/// Shortens every string over 160 characters to its start and a count of what was cut.
fn shorten(v: &mut Value) {
    match v {
        Value::String(s) if s.chars().count() > 160 => {
            let head: String = s.chars().take(100).collect();
            let rest = s.chars().count() - 100;
            *s = format!("{head}… [{rest} more characters]");
        }
        Value::Array(a) => a.iter_mut().for_each(shorten),
        Value::Object(o) => o.values_mut().for_each(shorten),
        _ => {}
    }
}
