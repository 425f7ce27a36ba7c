//! "Wrong answers": per model and rendering, the first few wrong answers (question, expected,
//! given, failure kind) and how many more there are, so a report read away from the run's
//! files still shows why a format lost. Reads `sql/wrong_answers.sql`.

use crate::analytics::Table;
use crate::doc::{Block, Cell};
use crate::numfmt::thousands as int;
use crate::report::data::{ReportData, WRONG_SHOWN};
use serde_json::{Map, Value};

/// Characters of an answer shown in a cell; a longer reply is cut with "…".
const ANSWER_CHARS: usize = 160;

/// Characters of the asked record shown (a nested record in an indented format is long).
const RECORD_CHARS: usize = 300;

/// `s` on one line, cut to `ANSWER_CHARS` characters.
fn short(s: &str) -> String {
    let one_line: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    match one_line.char_indices().nth(ANSWER_CHARS) {
        Some((at, _)) => format!("{}…", &one_line[..at]),
        None => one_line,
    }
}

fn text(o: &Map<String, Value>, k: &str) -> String {
    match o.get(k) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => "–".into(),
        Some(other) => other.to_string(),
    }
}

/// The heading of one rendering's wrong answers: model, format and data shape.
fn rendering(o: &Map<String, Value>) -> String {
    let primer = if o.get("primer") == Some(&Value::Bool(true)) {
        " · primer"
    } else {
        ""
    };
    // Items are named in the plural whatever their count, as this heading always has.
    let shape = if let Some(items) = crate::suites::counted(&text(o, "structure")) {
        format!("{} {}", text(o, "records"), items.many)
    } else {
        format!(
            "{} · {} · {} records",
            text(o, "structure"),
            text(o, "variant"),
            text(o, "records")
        )
    };
    format!(
        "{}: `{}`, {shape}{primer}",
        text(o, "provider"),
        text(o, "format")
    )
}

/// The question's id and, where the run's artifacts hold it, its text as asked, cut at
/// [`ANSWER_CHARS`] as the answers are.
fn question(o: &Map<String, Value>) -> String {
    match o.get("asked") {
        Some(Value::String(q)) => short(&format!("{}: {q}", text(o, "question"))),
        _ => text(o, "question"),
    }
}

/// The asked record's lines as the model read them, whitespace runs made one space and cut
/// at [`RECORD_CHARS`]; "–" where the question names no record (an aggregate, a task).
fn record(o: &Map<String, Value>) -> String {
    let Some(Value::String(r)) = o.get("record") else {
        return "–".into();
    };
    let flat = r.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(RECORD_CHARS) {
        Some((at, _)) => format!("{}…", &flat[..at]),
        None => flat,
    }
}

/// The section; one line when no answer was wrong.
pub fn section(d: &ReportData) -> Vec<Block> {
    blocks(&d.wrong_answers)
}

/// The section of the rows of `sql/wrong_answers.sql` (at most [`WRONG_SHOWN`] a rendering).
fn blocks(t: &Table) -> Vec<Block> {
    let mut out = vec![Block::Heading(2, "Wrong answers".into())];
    let rows: Vec<Map<String, Value>> = t.objects().collect();
    if rows.is_empty() {
        out.push(Block::Para(
            "No wrong answers: every graded answer of a successful call was right.".into(),
        ));
        return out;
    }
    out.push(Block::Para(format!(
        "Per model and rendering, the first {WRONG_SHOWN} wrong answers by question and run, \
         with the failure kind (docs/formats-suite.md, \"Wrong-answer taxonomy\"); questions and \
         answers are shown as asked and given, cut at {ANSWER_CHARS} characters. \
         `bench query sql/wrong_answers.sql` lists them all."
    )));
    let mut at = 0;
    while at < rows.len() {
        let key = rendering(&rows[at]);
        let end = (at..rows.len())
            .find(|&i| rendering(&rows[i]) != key)
            .unwrap_or(rows.len());
        let group = &rows[at..end];
        let wrong = group[0].get("wrong").and_then(Value::as_i64).unwrap_or(0);
        out.push(Block::Heading(
            3,
            format!(
                "{key}: {} wrong answer{}",
                int(wrong),
                if wrong == 1 { "" } else { "s" }
            ),
        ));
        out.push(Block::Table {
            columns: [
                "question",
                "run",
                "expected",
                "answer",
                "failure",
                "the asked record in the rendering",
            ]
            .map(String::from)
            .to_vec(),
            rows: group
                .iter()
                .map(|o| {
                    let run = o.get("run").and_then(Value::as_f64);
                    vec![
                        Cell::literal(question(o)),
                        Cell::num(text(o, "run"), run),
                        Cell::literal(short(&text(o, "expected"))),
                        Cell::literal(short(&text(o, "actual"))),
                        Cell::text(text(o, "failure").replace('_', " ")),
                        Cell::literal(record(o)),
                    ]
                })
                .collect(),
        });
        let more = wrong - group.len() as i64;
        if more > 0 {
            out.push(Block::Para(format!(
                "… and {} more wrong answer{}.",
                int(more),
                if more == 1 { "" } else { "s" }
            )));
        }
        at = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc;

    fn row(question: &str, actual: &str, nth: i64, wrong: i64) -> Vec<Value> {
        vec![
            Value::from("m/x<b>"),
            Value::from("csv"),
            Value::from("flat"),
            Value::from("mandatory"),
            Value::from(31),
            Value::from(false),
            Value::from(question),
            Value::from(1),
            Value::from("PROD-000001"),
            Value::from(actual),
            Value::from("hallucinated"),
            Value::from(nth),
            Value::from(wrong),
        ]
    }

    fn table(rows: Vec<Vec<Value>>) -> Table {
        let columns = [
            "provider",
            "format",
            "structure",
            "variant",
            "records",
            "primer",
            "question",
            "run",
            "expected",
            "actual",
            "failure",
            "nth",
            "wrong",
        ];
        Table {
            columns: columns.map(String::from).to_vec(),
            rows,
        }
    }

    #[test]
    fn a_reply_full_of_markup_shows_as_text() {
        let reply = "<script>alert(1)</script> **bold** `code` | pipe";
        let blocks = blocks(&table(vec![row("q001", reply, 1, 7)]));
        let html = doc::html("t", &blocks);
        assert!(!html.contains("<script>alert"), "{html}");
        assert!(!html.contains("<b>"), "{html}");
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt; **bold** `code` | pipe"),
            "{html}"
        );
        let md = doc::markdown(&blocks);
        assert!(
            md.contains("\\<script\\>alert(1)\\</script\\> \\*\\*bold\\*\\* \\`code\\` \\| pipe"),
            "{md}"
        );
        assert!(md.contains("… and 6 more wrong answers."), "{md}");
    }

    #[test]
    fn each_rendering_shows_its_first_answers_and_counts_the_rest() {
        let blocks = blocks(&table(vec![row("q001", "a", 1, 2), row("q002", "b", 2, 2)]));
        let md = doc::markdown(&blocks);
        assert!(
            md.contains("### m/x<b>: `csv`, flat · mandatory · 31 records: 2 wrong answers"),
            "{md}"
        );
        assert!(
            md.contains("| q001 | 1 | PROD-000001 | a | hallucinated |"),
            "{md}"
        );
        assert!(!md.contains("more wrong"), "{md}");
        let none = doc::markdown(&blocks_of_nothing());
        assert!(none.contains("No wrong answers"), "{none}");
    }

    fn blocks_of_nothing() -> Vec<Block> {
        blocks(&table(Vec::new()))
    }

    #[test]
    fn long_and_multi_line_answers_are_cut_to_one_line() {
        assert_eq!(short("a\nb"), "a b");
        let long = "x".repeat(500);
        assert_eq!(short(&long).chars().count(), ANSWER_CHARS + 1);
        assert!(short(&long).ends_with('…'));
    }
}
