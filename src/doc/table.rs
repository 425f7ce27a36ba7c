//! A SQL result shown as a document table: its columns headed in words, its numbers in the
//! report's one style.

use super::{Block, Cell};
use crate::analytics::Table;
use crate::numfmt::{decimal, thousands as int, usd};
use serde_json::Value;

/// Columns a run's report leaves out of its tables: the SQL files key and name the data of
/// every row (`experiment`, `dataset`) so that rows of different data never pool, but a report
/// is one run, whose data its header names (and `records` tells the sizes of a sweep apart).
const DATA_KEY_COLUMNS: [&str; 2] = ["experiment", "dataset"];

/// Headings in words for the SQL column names the report's tables show. The SQL files keep
/// their names (they are also `bench query` output); a column not listed here reads as its
/// name with its unit spelled out and `_` as spaces ([`heading`]).
const HEADINGS: [(&str, &str); 30] = [
    ("pct_of_answers", "% of answers"),
    ("pct_of_failures", "% of failures"),
    ("wrong_form_pct", "right value, wrong form %"),
    ("latency_mean_ms", "mean latency (ms)"),
    ("latency_p50_ms", "median latency (ms)"),
    ("latency_p95_ms", "95th percentile latency (ms)"),
    ("warmup_calls", "warm-up calls"),
    ("warmup_cost_usd", "warm-up cost ($)"),
    ("start_pct", "target in first third %"),
    ("middle_pct", "target in middle third %"),
    ("end_pct", "target in last third %"),
    ("end_minus_start_pp", "last minus first third (pp)"),
    ("first_exact_pct", "exact at first shot %"),
    ("first_low", "first shot 95 % CI low"),
    ("first_high", "first shot 95 % CI high"),
    ("final_exact_pct", "exact after repairs %"),
    ("final_low", "after repairs 95 % CI low"),
    ("final_high", "after repairs 95 % CI high"),
    ("mean_repairs", "repairs per document"),
    (
        "output_tokens_per_exact",
        "output tokens per exact document",
    ),
    ("tokens_per_exact", "all tokens per exact document"),
    ("cost_per_exact", "cost per exact document ($)"),
    ("first_shots", "first shot"),
    ("final_replies", "after repairs"),
    ("composite_pct", "rubric composite %"),
    ("detected_pct", "defects detected %"),
    ("control_false_alarm_pct", "control false alarms %"),
    ("avg_input_tokens", "mean input tokens"),
    ("avg_output_tokens", "mean output tokens"),
    ("normalizations", "normalisations a right answer needed"),
];

/// The heading of SQL column `column`: its words from [`HEADINGS`], else its name with the
/// unit suffix spelled out (`_pct` %, `_pp` (pp), `_ms` (ms), `_usd` ($)) and `_` as spaces.
pub fn heading(column: &str) -> String {
    if let Some((_, words)) = HEADINGS.iter().find(|(c, _)| *c == column) {
        return words.to_string();
    }
    let units = [
        ("_pct", " %"),
        ("_pp", " (pp)"),
        ("_ms", " (ms)"),
        ("_usd", " ($)"),
    ];
    let (stem, unit) = units
        .iter()
        .find_map(|(suffix, unit)| column.strip_suffix(suffix).map(|s| (s, *unit)))
        .unwrap_or((column, ""));
    format!("{}{unit}", stem.replace('_', " "))
}

/// Whether column `column` holds US dollars.
fn is_money(column: &str) -> bool {
    column.ends_with("_usd") || column.starts_with("cost")
}

/// A SQL result as a document table: headings in words, numbers right-aligned in one style.
pub fn generic_table(t: &Table) -> Block {
    let shown: Vec<usize> = (0..t.columns.len())
        .filter(|&i| !DATA_KEY_COLUMNS.contains(&t.columns[i].as_str()))
        .collect();
    let rows = t
        .rows
        .iter()
        .map(|r| {
            shown
                .iter()
                .map(|&i| match &r[i] {
                    Value::Number(n) if is_money(&t.columns[i]) => {
                        let x = n.as_f64().unwrap_or(0.0);
                        Cell::num(usd(x), Some(x))
                    }
                    Value::Number(n) if n.is_f64() => {
                        let x = n.as_f64().unwrap_or(0.0);
                        Cell::num(decimal(x), Some(x))
                    }
                    Value::Number(n) => {
                        Cell::num(n.as_i64().map_or(n.to_string(), int), n.as_f64())
                    }
                    Value::Null => Cell::text("–"),
                    Value::String(s) => Cell::text(s.clone()),
                    other => Cell::text(other.to_string()),
                })
                .collect()
        })
        .collect();
    Block::Table {
        columns: shown.iter().map(|&i| heading(&t.columns[i])).collect(),
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_are_words_not_column_names() {
        assert_eq!(heading("pct_of_answers"), "% of answers");
        assert_eq!(heading("latency_p50_ms"), "median latency (ms)");
        assert_eq!(heading("cost_usd"), "cost ($)");
        assert_eq!(heading("failed_calls"), "failed calls");
        assert_eq!(heading("fact_accuracy_pct"), "fact accuracy %");
        assert_eq!(heading("format"), "format");
        for (column, words) in HEADINGS {
            assert!(!words.contains('_'), "{column} → {words}");
        }
    }

    #[test]
    fn a_table_has_one_number_style() {
        let t = Table {
            columns: vec![
                "format".into(),
                "latency_mean_ms".into(),
                "cost_usd".into(),
                "calls".into(),
            ],
            rows: vec![
                vec![
                    Value::from("csv"),
                    Value::from(0.667),
                    Value::from(0.0),
                    Value::from(1234),
                ],
                vec![
                    Value::from("yaml"),
                    Value::from(100.0),
                    Value::from(0.00123),
                    Value::from(3),
                ],
            ],
        };
        let Block::Table { columns, rows } = generic_table(&t) else {
            panic!("a table")
        };
        assert_eq!(
            columns,
            ["format", "mean latency (ms)", "cost ($)", "calls"]
        );
        let text: Vec<Vec<&str>> = rows
            .iter()
            .map(|r| r.iter().map(|c| c.text.as_str()).collect())
            .collect();
        assert_eq!(
            text,
            [
                ["csv", "0.7", "$0", "1,234"],
                ["yaml", "100.0", "$0.0012", "3"]
            ]
        );
    }
}
