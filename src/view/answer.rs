//! One answer's page: the question, what was expected and under which rule, the answer as
//! extracted and the normalisation it needed, the raw reply, the call's tokens, cost, latency
//! and finish reason, the other answers of the same call, and the data as the model saw it with
//! the asked record highlighted (`formats::locate`).

use super::html::{esc, href, page, value_text};
use super::respond::{AppState, blocking};
use super::state::State;
use crate::grading::Metric;
use crate::runlog::{Line, ResultRecord};
use axum::extract::{Query, State as Shared};
use axum::response::Response;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Read, Seek, SeekFrom};
use std::path::Path;

/// `GET /answer?…`.
pub async fn handler(Shared(s): Shared<AppState>, Query(k): Query<Key>) -> Response {
    blocking(move || page_of(&s, &k)).await
}

/// The query string of `/answer`: the run, the call (provider, model, sample tag) and the
/// question's metric id.
#[derive(Debug, Default, Deserialize)]
pub struct Key {
    /// Run folder name.
    pub run: String,
    /// Provider.
    pub provider: String,
    /// Model.
    pub model: String,
    /// The call's sample tag.
    pub tag: String,
    /// The metric (question or fact) id within the call.
    pub q: String,
}

/// The byte offset of every result line of `log`, by its sample tag.
fn index(log: &Path) -> std::io::Result<std::collections::HashMap<String, Vec<u64>>> {
    let mut out: std::collections::HashMap<String, Vec<u64>> = Default::default();
    let mut reader = std::io::BufReader::new(std::fs::File::open(log)?);
    let (mut at, mut line) = (0u64, Vec::new());
    const TAG: &[u8] = b"\"tag\":\"";
    loop {
        line.clear();
        let n = reader.read_until(b'\n', &mut line)?;
        if n == 0 {
            break;
        }
        if let Some(i) = line.windows(TAG.len()).position(|w| w == TAG) {
            let rest = &line[i + TAG.len()..];
            if let Some(end) = rest.iter().position(|&b| b == b'"') {
                let tag = String::from_utf8_lossy(&rest[..end]).into_owned();
                out.entry(tag).or_default().push(at);
            }
        }
        at += n as u64;
    }
    Ok(out)
}

/// The result line of the call `key` names, read as the run log's record.
fn find_line(state: &State, log: &Path, key: &Key) -> Result<Option<ResultRecord>, String> {
    let offsets = {
        let mut lines = state.lines.lock().unwrap_or_else(|e| e.into_inner());
        if !lines.contains_key(log) {
            let idx = index(log).map_err(|e| format!("cannot read '{}': {e}", log.display()))?;
            lines.insert(log.to_path_buf(), idx);
        }
        lines[log].get(&key.tag).cloned().unwrap_or_default()
    };
    let mut file =
        std::fs::File::open(log).map_err(|e| format!("cannot read '{}': {e}", log.display()))?;
    for at in offsets {
        file.seek(SeekFrom::Start(at)).map_err(|e| e.to_string())?;
        let mut text = String::new();
        std::io::BufReader::new(&mut file)
            .take(1 << 26)
            .read_line(&mut text)
            .map_err(|e| e.to_string())?;
        let Ok(Line::Result(d)) = serde_json::from_str::<Line>(&text) else {
            continue;
        };
        // Lines of one call's tag are told apart by their question where each line asks one
        // (per-question mode, imported answers).
        if d.provider_config.provider == key.provider
            && d.provider_config.model == key.model
            && d.question.as_deref().is_none_or(|q| q == key.q)
        {
            return Ok(Some(*d));
        }
    }
    Ok(None)
}

/// The question's text: its line `id: text` in the prompt.
fn question_text<'a>(prompt: &'a str, id: &str) -> Option<&'a str> {
    let head = format!("{id}: ");
    prompt.lines().find_map(|l| l.strip_prefix(head.as_str()))
}

/// A logged field as a short text, as it reads in the log ([`value_text`]).
fn text<T: Serialize>(field: &T) -> String {
    value_text(&serde_json::to_value(field).unwrap_or_default())
}

/// A `<dl>` of label → text pairs (text escaped).
fn kv(pairs: &[(&str, String)]) -> String {
    let mut out = String::from("<dl class=\"kv\">");
    for (k, v) in pairs {
        out.push_str(&format!("<dt>{}</dt><dd>{}</dd>", esc(k), esc(v)));
    }
    out.push_str("</dl>");
    out
}

/// The answer page, or (status, one-line reason).
pub fn page_of(state: &State, key: &Key) -> Result<String, (u16, String)> {
    let run = state
        .run(&key.run)
        .ok_or_else(|| (404, format!("no run folder '{}' under the root", key.run)))?;
    let suite = run
        .suite()
        .ok_or_else(|| (404, format!("the log of '{}' does not read", key.run)))?;
    let log = run.dir.join(format!("{suite}.jsonl"));
    let d = find_line(state, &log, key)
        .map_err(|e| (500, e))?
        .ok_or_else(|| {
            (
                404,
                format!(
                    "no call {} of {}:{} in '{}'",
                    key.tag, key.provider, key.model, key.run
                ),
            )
        })?;
    let m = d
        .metrics
        .iter()
        .find(|m| m.metric == key.q)
        .ok_or_else(|| (404, format!("call {} has no answer '{}'", key.tag, key.q)))?;
    let prompt: String = d
        .sample
        .input
        .iter()
        .map(|msg| msg.content.as_str())
        .collect::<Vec<_>>()
        .join("\n\n");
    // The suite's own pieces of the page, found in the registry by the log's name.
    let panel = crate::suites::panel(suite);
    let asked_about = d
        .task
        .as_deref()
        .and_then(|item| panel.asked_about(item, &key.q))
        .unwrap_or_else(|| "(not found as a line of the prompt: see the prompt below)".into());
    let question = question_text(&prompt, &key.q).unwrap_or(&asked_about);
    let passed = m.passed == 1;
    let norm = match m.normalization.iter().map(text).collect::<Vec<_>>() {
        n if n.is_empty() => "none".to_string(),
        n => n.join(", "),
    };
    let u = &d.usage;
    let mut body = format!(
        "<h1>Answer {} of {}</h1><p>{}:{} · {} · {} · {} · {} records · run {} · <a href=\"{}\">answers of this run</a></p>",
        esc(&key.q),
        esc(&key.tag),
        esc(&key.provider),
        esc(&key.model),
        esc(&text(&d.format)),
        esc(&text(&d.structure)),
        esc(&text(&d.variant)),
        d.records,
        d.run,
        href("/answers", &[("run", &key.run), ("q", "")]),
    );
    body.push_str(&format!(
        "<section id=\"question\"><h2>Question</h2><p>{}</p></section>",
        esc(question)
    ));
    body.push_str(&panel.after_question(&d));
    body.push_str(&format!(
        "<section id=\"grading\" data-passed=\"{passed}\">{}</section>",
        kv(&[
            ("expected", value_text(&m.expected)),
            ("rule", m.validation.clone()),
            ("answer as extracted", value_text(&m.actual)),
            ("normalisation needed", norm),
            ("passed", if passed { "yes".into() } else { "no".into() }),
            ("failure kind", text(&m.failure)),
            ("off by", text(&m.off_by)),
            ("reason", text(&m.reason)),
            ("call error", text(&d.error)),
            (
                "tokens",
                format!(
                    "input {} · output {} · reasoning {} · cache read {}",
                    u.input, u.output, u.reasoning, u.cache_read
                ),
            ),
            ("cost (USD)", text(&d.cost_usd)),
            ("latency (ms)", d.timing.provider_latency_ms.to_string()),
            (
                "finish reason",
                format!("{} ({})", text(&d.finish), text(&d.finish_reason))
            ),
            ("served model", text(&d.served_model)),
        ])
    ));
    body.push_str(&format!(
        "<section id=\"reply\"><h2>Raw reply</h2><pre>{}</pre></section>",
        esc(&d.sample.output.content)
    ));
    if let Ok(info) = &run.info {
        body.push_str(&panel.after_reply(&info.metadata, &d));
    }
    let expected = if panel.expected_names_record() {
        value_text(&m.expected)
    } else {
        String::new()
    };
    body.push_str(&data_section(&prompt, question, &expected));
    body.push_str(&siblings(key, &d.metrics));
    body.push_str(&format!(
        "<details id=\"prompt\"><summary>The whole prompt</summary><pre>{}</pre></details>",
        esc(&prompt)
    ));
    Ok(page(&format!("bench view — {} {}", key.tag, key.q), &body))
}

/// The record named by the question, else by the expected answer (where the suite's panel
/// says it names one), else none. A prompt without bench's data header (a task's)
/// shows its first fenced block.
fn data_section(prompt: &str, question: &str, expected: &str) -> String {
    let Some((format, data)) =
        crate::prompt::parse_data_block(prompt).or_else(|| crate::prompt::first_fenced(prompt))
    else {
        return "<section id=\"data\"><h2>Data</h2><p class=\"note\">The prompt holds no data \
                block (a write prompt, or a rendering saved beside the log).</p></section>"
            .into();
    };
    let found = crate::formats::locate::locate_asked(format, data, question).or_else(|| {
        crate::formats::locate::locate(format, data, expected).map(|r| (expected.to_string(), r))
    });
    let shown = match &found {
        Some((_, r)) => format!(
            "{}<mark class=\"hl\" id=\"record\">{}</mark>{}",
            esc(&data[..r.start]),
            esc(&data[r.clone()]),
            esc(&data[r.end..])
        ),
        None => esc(data),
    };
    let note = match &found {
        Some((id, _)) => format!("The record asked about ({}) is highlighted.", esc(id)),
        None => {
            "The question names no record found in the rendering (a question over all records)."
                .into()
        }
    };
    format!(
        "<section id=\"data\" data-format=\"{}\"><h2>Data as the model saw it ({})</h2><p class=\"note\">{note}</p><pre>{shown}</pre></section>",
        esc(format),
        esc(format)
    )
}

/// The other answers (or facts) of the same call, each linked.
fn siblings(key: &Key, metrics: &[Metric]) -> String {
    let mut out = String::from(
        "<section id=\"call\"><h2>Every answer of this call</h2><table id=\"facts\"><thead><tr>\
         <th>id</th><th>category</th><th>expected</th><th>answer</th><th>passed</th><th>failure</th></tr></thead><tbody>",
    );
    for m in metrics {
        let id = &m.metric;
        let passed = m.passed == 1;
        let link = href(
            "/answer",
            &[
                ("run", &key.run),
                ("provider", &key.provider),
                ("model", &key.model),
                ("tag", &key.tag),
                ("q", id),
            ],
        );
        out.push_str(&format!(
            "<tr class=\"{}\"><td><a href=\"{link}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            if passed { "passed" } else { "failed" },
            esc(id),
            esc(m.category.name()),
            esc(&value_text(&m.expected)),
            esc(&value_text(&m.actual)),
            if passed { "yes" } else { "no" },
            esc(&text(&m.failure)),
        ));
    }
    out.push_str("</tbody></table></section>");
    out
}
