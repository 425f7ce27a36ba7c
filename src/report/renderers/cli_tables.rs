//! Tables printed by the CLI: the run ranking, the token table, and SQL results as text.

use crate::analytics::Table as AnalyticsTable;
use crate::dataset::{Structure, Variant};
use crate::formats::Format;
use crate::questions::Category;
use crate::runlog::RankingRow;
use crate::tokens::{DataStats, Tokenizer};
use anyhow::Result;
use clap::ValueEnum;
use comfy_table::{CellAlignment, Table, presets::UTF8_FULL_CONDENSED};
use serde_json::{Map, Value, json};

/// How `bench query`, `bench tokens` and the run print a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TableFormat {
    /// Aligned text table.
    Table,
    /// Comma-separated values.
    Csv,
    /// JSON array of rows.
    Json,
    /// Markdown (GitHub) table.
    Markdown,
}

/// Sort order of `bench tokens`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TokenSort {
    /// Fewest tokens first (first tokenizer).
    Tokens,
    /// Format, structure, variant.
    Format,
    /// Most characters per token first.
    CharsPerToken,
}

/// A table whose columns for which `numeric(i)` holds are right-aligned.
fn table(header: Vec<String>, rows: Vec<Vec<String>>, numeric: impl Fn(usize) -> bool) -> Table {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED).set_header(header);
    for r in rows {
        t.add_row(r);
    }
    for (i, col) in t.column_iter_mut().enumerate() {
        if numeric(i) {
            col.set_cell_alignment(CellAlignment::Right);
        }
    }
    t
}

use crate::numfmt::percent_tight;

/// The data of a ranking in words, once above the table (`data: orders.csv · 60 records`,
/// or `data: products seed 42` above a `records` column when the run asked several sizes), or
/// none when its rows name different data, which then get a `data` column.
fn ranking_caption(rows: &[RankingRow]) -> Option<String> {
    let first = rows.first()?;
    if rows.iter().all(|r| r.dataset == first.dataset) {
        return (!first.dataset.is_empty()).then(|| format!("data: {}", first.dataset));
    }
    let name = |r: &RankingRow| r.dataset.split(" · ").next().unwrap_or("").to_string();
    let stem = name(first);
    rows.iter()
        .all(|r| name(r) == stem)
        .then(|| format!("data: {stem}"))
}

/// The line that says what the data tokens of a model rest on, when any model's provider
/// counted them (a ranking by o200k_base alone says nothing, as before).
fn tokens_caption(rows: &[RankingRow]) -> Option<String> {
    let mut bases: Vec<String> = rows
        .iter()
        .filter(|r| !r.token_basis.is_empty())
        .map(|r| format!("{}: {}", r.provider, r.token_basis))
        .collect();
    bases.sort();
    bases.dedup();
    rows.iter()
        .any(|r| !r.token_basis.is_empty() && r.token_basis != "o200k_base")
        .then(|| format!("data tokens as counted by: {}", bases.join("; ")))
}

/// The ranking table `bench run` prints, under the line that names its data, every column.
pub fn ranking_table(rows: &[RankingRow]) -> String {
    ranking_table_within(rows, None)
}

/// The ranking table fitted to `width` columns of text (`None`: every column, as `--wide`):
/// the least needed columns are left out first (tokens/value, then the categories from the
/// last), named in a line under the table; what still does not fit wraps inside its cells.
pub fn ranking_table_within(rows: &[RankingRow], width: Option<usize>) -> String {
    let caption = ranking_caption(rows);
    let (mut header, mut body, mut numeric) = ranking_columns(rows, caption.is_none());
    // The columns left out, least needed first.
    let mut order: Vec<String> = vec!["tokens/value".into()];
    order.extend(
        Category::ALL
            .iter()
            .rev()
            .map(|c| c.name().replace('_', " ")),
    );
    let mut left_out = Vec::new();
    let mut drops = order.iter();
    let text = loop {
        let t = table(header.clone(), body.clone(), |i| numeric[i]);
        let fits = width.is_none_or(|w| rendered_width(&t) <= w);
        let next = (!fits).then(|| drops.next()).flatten();
        let Some(name) = next else {
            break match width {
                Some(w) if !fits => wrapped(t, w),
                _ => t.to_string(),
            };
        };
        if let Some(i) = header.iter().position(|h| h == name) {
            header.remove(i);
            numeric.remove(i);
            body.iter_mut().for_each(|r| {
                r.remove(i);
            });
            left_out.push(name.clone());
        }
    };
    let note = (!left_out.is_empty()).then(|| format!("\n--wide adds: {}", left_out.join(", ")));
    format!(
        "{}{}{text}{}",
        caption.map(|c| c + "\n").unwrap_or_default(),
        tokens_caption(rows).map(|c| c + "\n").unwrap_or_default(),
        note.unwrap_or_default()
    )
}

/// The widest line of `t` as printed, in characters.
fn rendered_width(t: &Table) -> usize {
    t.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

/// `t` with its cells wrapped so that it is at most `width` characters wide.
fn wrapped(mut t: Table, width: usize) -> String {
    t.set_content_arrangement(comfy_table::ContentArrangement::Dynamic)
        .set_width(u16::try_from(width).unwrap_or(u16::MAX));
    t.to_string()
}

/// The header, rows and right-alignment of every column of the ranking; a data column only
/// when `data_column` and the rows name different data.
fn ranking_columns(
    rows: &[RankingRow],
    data_column: bool,
) -> (Vec<String>, Vec<Vec<String>>, Vec<bool>) {
    // A data column only when the rows name different data; size and primer columns only
    // when the run varied them.
    let data = rows.iter().any(|r| r.dataset != rows[0].dataset) && data_column;
    let sizes = !data && rows.iter().any(|r| r.records != rows[0].records);
    let primers = rows.iter().any(|r| r.primer != rows[0].primer);
    let mut header: Vec<String> = vec![
        "#".into(),
        "format".into(),
        "structure".into(),
        "variant".into(),
    ];
    if data {
        header.push("data".into());
    }
    if sizes {
        header.push("records".into());
    }
    if primers {
        header.push("primer".into());
    }
    header.extend(["provider".into(), "weighted".into()]);
    let first_numeric = header.len() - 1;
    header.extend(Category::ALL.iter().map(|c| c.name().replace('_', " ")));
    header.extend(["data tokens", "tokens/value", "runs"].map(String::from));
    let body = rows
        .iter()
        .map(|r| {
            let mut row = vec![
                r.rank.to_string(),
                r.format.to_string(),
                r.structure.to_string(),
                r.variant.to_string(),
            ];
            if data {
                row.push(r.dataset.clone());
            }
            if sizes {
                row.push(r.records.to_string());
            }
            if primers {
                row.push(if r.primer { "on" } else { "off" }.to_string());
            }
            // A rendering none of whose runs got an answer has no accuracy, not 0 %.
            let weighted = if r.runs == 0 {
                "–".to_string()
            } else {
                percent_tight(r.weighted_accuracy)
            };
            row.extend([r.provider.clone(), weighted]);
            // A category with no questions (a question file may have none) shows "–", not 0 %.
            row.extend(Category::ALL.iter().map(|c| {
                r.accuracy_by_category
                    .get(c.name())
                    .map_or_else(|| "–".to_string(), |a| percent_tight(*a))
            }));
            let runs = if r.errors > 0 {
                format!("{} ({} failed)", r.runs, r.errors)
            } else {
                r.runs.to_string()
            };
            row.extend([
                r.data_tokens.to_string(),
                format!("{:.2}", r.tokens_per_value),
                runs,
            ]);
            row
        })
        .collect();
    let numeric = (0..header.len())
        .map(|i| i >= first_numeric || (sizes && i == 4))
        .collect();
    (header, body, numeric)
}

/// One rendering's measurements for `bench tokens`.
pub struct TokenRow {
    /// Format.
    pub format: Format,
    /// Structure.
    pub structure: Structure,
    /// Variant; none for the user's own data (`--data`), which has no variants (shown `-`).
    pub variant: Option<Variant>,
    /// Measurements.
    pub stats: DataStats,
}

/// Token count of the same variant rendered in `format` (flat: CSV exists only flat).
fn baseline(
    rows: &[&TokenRow],
    format: Format,
    structure: Structure,
    variant: Option<Variant>,
    t: Tokenizer,
) -> Option<usize> {
    let s = if format.supports(structure) {
        structure
    } else {
        Structure::Flat
    };
    rows.iter()
        .find(|r| r.format == format && r.structure == s && r.variant == variant)
        .map(|r| r.stats.tokens_of(t))
}

/// Renders the token table: counts per tokenizer, and ratios to CSV and to JSON compact of the
/// same variant (CSV of the flat rendering, since CSV has no nested form) for the first tokenizer.
/// `baselines` holds CSV / JSON compact renderings that were measured but not selected for display.
pub fn tokens_table(
    rows: &mut [TokenRow],
    baselines: &[TokenRow],
    tokenizers: &[Tokenizer],
    sort: TokenSort,
    format: TableFormat,
) -> Result<String> {
    let main = tokenizers[0];
    match sort {
        TokenSort::Tokens => {
            rows.sort_by_key(|r| (r.stats.tokens_of(main), r.format, r.structure, r.variant))
        }
        TokenSort::Format => rows.sort_by_key(|r| (r.format, r.structure, r.variant)),
        TokenSort::CharsPerToken => rows.sort_by(|a, b| {
            b.stats
                .chars_per_token(main)
                .total_cmp(&a.stats.chars_per_token(main))
        }),
    }
    let known: Vec<&TokenRow> = rows.iter().chain(baselines).collect();
    let mut objects = Vec::new();
    for r in rows.iter() {
        let mut o = Map::new();
        o.insert("format".into(), json!(r.format));
        o.insert("structure".into(), json!(r.structure));
        o.insert("variant".into(), r.variant.map_or(json!("-"), |v| json!(v)));
        o.insert("chars".into(), json!(r.stats.chars));
        o.insert("bytes".into(), json!(r.stats.bytes));
        o.insert("values".into(), json!(r.stats.values));
        for t in tokenizers {
            o.insert(t.name().into(), json!(r.stats.tokens_of(*t)));
        }
        o.insert(
            "chars_per_token".into(),
            json!(round(r.stats.chars_per_token(main), 3)),
        );
        o.insert(
            "tokens_per_value".into(),
            json!(round(r.stats.tokens_per_value(main), 3)),
        );
        o.insert(
            "tokens_per_object".into(),
            json!(round(r.stats.tokens_per_object(main), 2)),
        );
        let tokens = r.stats.tokens_of(main) as f64;
        for (key, base, label) in [
            ("vs_csv", Format::Csv, "CSV"),
            ("vs_json_compact", Format::JsonCompact, "JSON"),
        ] {
            let ratio = baseline(&known, base, r.structure, r.variant, main)
                .filter(|&b| b > 0)
                .map(|b| tokens / b as f64);
            let shown = match (ratio, format) {
                (Some(x), TableFormat::Table | TableFormat::Markdown) => {
                    json!(format!("{x:.2}× {label}"))
                }
                (Some(x), _) => json!(round(x, 3)),
                (None, _) => Value::Null,
            };
            o.insert(key.into(), shown);
        }
        objects.push(o);
    }
    let columns: Vec<String> = objects
        .first()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    let rows = objects
        .into_iter()
        .map(|o| o.into_iter().map(|(_, v)| v).collect())
        .collect();
    let mut text = render(&AnalyticsTable { columns, rows }, format)?;
    if format == TableFormat::Table {
        text.push_str(&format!(
            "vs_csv / vs_json_compact and per-value figures use {main}\n"
        ));
    }
    Ok(text)
}

/// Renders a result table as an aligned table, CSV, a JSON array of objects or Markdown.
pub fn render(t: &AnalyticsTable, format: TableFormat) -> Result<String> {
    Ok(match format {
        TableFormat::Json => {
            let objects: Vec<Value> = t.objects().map(Value::Object).collect();
            serde_json::to_string_pretty(&objects)? + "\n"
        }
        TableFormat::Csv => {
            let mut w = csv::Writer::from_writer(Vec::new());
            w.write_record(&t.columns)?;
            for r in &t.rows {
                w.write_record(
                    r.iter()
                        .map(|v| if v.is_null() { String::new() } else { cell(v) }),
                )?;
            }
            String::from_utf8(w.into_inner()?)?
        }
        TableFormat::Markdown => {
            let esc = |s: String| s.replace('|', "\\|").replace('\n', " ");
            let mut out = format!(
                "| {} |\n",
                t.columns
                    .iter()
                    .map(|c| esc(c.clone()))
                    .collect::<Vec<_>>()
                    .join(" | ")
            );
            out.push_str(&format!("|{}\n", " --- |".repeat(t.columns.len())));
            for r in &t.rows {
                out.push_str(&format!(
                    "| {} |\n",
                    r.iter()
                        .map(|v| esc(cell(v)))
                        .collect::<Vec<_>>()
                        .join(" | ")
                ));
            }
            out
        }
        TableFormat::Table => {
            // A column is numeric when its first non-null value is a number.
            let numeric: Vec<bool> = (0..t.columns.len())
                .map(|i| {
                    t.rows
                        .iter()
                        .map(|r| &r[i])
                        .find(|v| !v.is_null())
                        .is_some_and(Value::is_number)
                })
                .collect();
            let body = t
                .rows
                .iter()
                .map(|r| r.iter().map(cell).collect())
                .collect();
            format!("{}\n", table(t.columns.clone(), body, |i| numeric[i]))
        }
    })
}

/// A query value as text: nulls as "–", strings bare.
pub(crate) fn cell(v: &Value) -> String {
    match v {
        Value::Null => "–".into(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn round(x: f64, digits: i32) -> f64 {
    let p = 10f64.powi(digits);
    (x * p).round() / p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(rank: usize, records: usize, dataset: &str) -> RankingRow {
        RankingRow {
            rank,
            format: Format::Csv,
            structure: Structure::Flat,
            variant: Variant::Mandatory,
            records,
            dataset: dataset.into(),
            primer: false,
            provider: "reference/reference".into(),
            runs: 1,
            errors: 0,
            weighted_accuracy: 1.0,
            accuracy_by_category: Default::default(),
            data_tokens: 100,
            tokens_per_value: 2.0,
            token_basis: String::new(),
        }
    }

    #[test]
    fn the_printed_ranking_names_its_data_once_or_in_a_column() {
        let one = ranking_table(&[row(1, 31, "products seed 42 · 31 records")]);
        assert!(
            one.starts_with("data: products seed 42 · 31 records\n"),
            "{one}"
        );
        // A sweep: the data above, each size in the records column.
        let sweep = ranking_table(&[
            row(1, 31, "products seed 42 · 31 records"),
            row(1, 62, "products seed 42 · 62 records"),
        ]);
        assert!(sweep.starts_with("data: products seed 42\n"), "{sweep}");
        assert!(sweep.contains("records") && sweep.contains("62"), "{sweep}");
        // Rows of different data: a data column, no line above.
        let mixed = ranking_table(&[
            row(1, 60, "orders.csv · 60 records"),
            row(1, 60, "people.csv · 60 records"),
        ]);
        assert!(!mixed.starts_with("data:"), "{mixed}");
        assert!(mixed.contains("people.csv · 60 records"), "{mixed}");
        // An old summary line names no data: no line.
        assert!(!ranking_table(&[row(1, 31, "")]).starts_with("data:"));
    }

    #[test]
    fn the_ranking_fits_the_width_leaving_out_the_least_needed_columns() {
        let mut r = row(1, 31, "products seed 42 · 31 records");
        r.provider = "openai:gpt-4o-mini".into();
        let rows = [r];
        let wide = ranking_table(&rows);
        assert!(rendered(&wide) > 100, "{wide}");
        let narrow = ranking_table_within(&rows, Some(100));
        assert!(rendered(&narrow) <= 100, "{narrow}");
        for kept in ["format", "weighted", "data tokens", "runs", "gpt-4o-mini"] {
            assert!(narrow.contains(kept), "{kept}: {narrow}");
        }
        let (table, note) = narrow.rsplit_once('\n').unwrap();
        assert!(!table.contains("tokens/value"), "{narrow}");
        assert!(
            note.starts_with("--wide adds: tokens/value, aggregation"),
            "{narrow}"
        );
        // Too narrow for the kept columns: they wrap within their cells.
        let tiny = ranking_table_within(&rows, Some(60));
        let table = tiny
            .lines()
            .filter(|l| !l.starts_with("--wide") && !l.starts_with("data:"));
        assert!(
            table.clone().count() > 3 && table.clone().all(|l| l.chars().count() <= 60),
            "{tiny}"
        );
        assert_eq!(ranking_table_within(&rows, Some(1000)), wide);
    }

    fn rendered(text: &str) -> usize {
        text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
    }
}
