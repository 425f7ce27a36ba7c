//! "Prompt wording": whether the verdict holds when the instructions are reworded
//! (`--prompt-variants`). Reads `sql/prompt_wording.sql`; shown only for runs asked in more
//! than one wording.

use crate::doc::{Block, Cell};
use crate::report::data::ReportData;
use serde_json::{Map, Value};

/// One model × data shape: its rows of `sql/prompt_wording.sql`.
struct Shape {
    label: String,
    wordings: Vec<String>,
    rows: Vec<Map<String, Value>>,
}

fn shapes(d: &ReportData) -> Vec<Shape> {
    let mut out: Vec<Shape> = Vec::new();
    for o in d.prompt_wording.objects() {
        let s = |k: &str| o[k].as_str().unwrap_or("").to_string();
        let primer = if o["primer"] == Value::Bool(true) {
            " · primer"
        } else {
            ""
        };
        // A tasks or write run is one shape: all of its tasks or cases (records 0).
        let label = if o["records"].as_u64() == Some(0) {
            format!("{}, {} suite{primer}", s("provider"), s("structure"))
        } else {
            format!(
                "{}, {} · {} · {}{primer}",
                s("provider"),
                s("structure"),
                s("variant"),
                o["records"],
            )
        };
        let at = match out.iter().position(|x| x.label == label) {
            Some(i) => i,
            None => {
                out.push(Shape {
                    label,
                    wordings: Vec::new(),
                    rows: Vec::new(),
                });
                out.len() - 1
            }
        };
        let w = s("prompt_variant");
        if !out[at].wordings.contains(&w) {
            out[at].wordings.push(w);
        }
        out[at].rows.push(o);
    }
    out
}

/// A list of format names from a row's JSON array.
fn names(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn shown(formats: &[String]) -> String {
    let quoted: Vec<String> = formats.iter().map(|f| format!("`{f}`")).collect();
    match quoted.len() {
        1 => quoted[0].clone(),
        _ => format!("{} (tied)", quoted.join(", ")),
    }
}

/// The verdict-stability sentence of one shape: the most accurate format(s) over all wordings
/// "hold under n/K wordings" when each wording's most accurate set is the same, else the
/// wordings under which it changes.
fn statement(s: &Shape) -> String {
    let overall = names(&s.rows[0]["best_overall"]);
    let mut changed = Vec::new();
    for w in &s.wordings {
        let best = s
            .rows
            .iter()
            .find(|r| r["prompt_variant"].as_str() == Some(w))
            .map(|r| names(&r["best_formats"]))
            .unwrap_or_default();
        if best != overall {
            changed.push(format!("`{w}` (most accurate there: {})", shown(&best)));
        }
    }
    let k = s.wordings.len();
    if changed.is_empty() {
        format!(
            "**{}**: the most accurate over all wordings, {}, holds under {k}/{k} wordings.",
            s.label,
            shown(&overall)
        )
    } else {
        format!(
            "**{}**: the most accurate over all wordings, {}, holds under {}/{k} wordings only; \
             the verdict changes under {}.",
            s.label,
            shown(&overall),
            k - changed.len(),
            changed.join(", ")
        )
    }
}

/// One line per model and data shape for the key findings.
pub fn findings(d: &ReportData) -> Vec<String> {
    shapes(d).iter().map(statement).collect()
}

/// The section: per shape, the statement and each format's accuracy per wording with its
/// spread.
pub fn section(d: &ReportData) -> Vec<Block> {
    let shapes = shapes(d);
    if shapes.is_empty() {
        return Vec::new();
    }
    let mut out = vec![
        Block::Heading(2, "Prompt wording".into()),
        Block::Para(
            "The same questions asked in other words and layouts (`--prompt-variants`; the \
             wordings are in benchmarks/prompts/), one wording per run, every format \
             of a run sharing it. Weighted accuracy per wording over its complete runs, and each \
             format's spread across wordings in percentage points (`sql/prompt_wording.sql`). A \
             verdict that changes with the wording is a property of the wording, not only of the \
             format."
                .into(),
        ),
    ];
    for s in &shapes {
        out.push(Block::Para(statement(s)));
        let mut columns = vec!["format".to_string()];
        columns.extend(s.wordings.iter().cloned());
        columns.push("spread (pp)".into());
        let mut formats: Vec<&str> = Vec::new();
        for r in &s.rows {
            let f = r["format"].as_str().unwrap_or("?");
            if !formats.contains(&f) {
                formats.push(f);
            }
        }
        let rows = formats
            .iter()
            .map(|f| {
                let mine: Vec<&Map<String, Value>> = s
                    .rows
                    .iter()
                    .filter(|r| r["format"].as_str() == Some(f))
                    .collect();
                let mut row = vec![Cell::text(*f)];
                for w in &s.wordings {
                    let acc = mine
                        .iter()
                        .find(|r| r["prompt_variant"].as_str() == Some(w))
                        .and_then(|r| r["accuracy_pct"].as_f64());
                    row.push(Cell::num(
                        acc.map_or("–".into(), |a| format!("{a:.1} %")),
                        acc,
                    ));
                }
                let spread = mine.first().and_then(|r| r["spread_pp"].as_f64());
                row.push(Cell::num(
                    spread.map_or("–".into(), |x| format!("{x:.1}")),
                    spread,
                ));
                row
            })
            .collect();
        out.push(Block::Table { columns, rows });
    }
    out
}
