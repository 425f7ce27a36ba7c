//! A task's prompt in one format: `{format_name}`, `{data}` and `{tl_data}` substituted as TeaLeaf does,
//! the data fenced (its info string names the format's syntax), the format hint in front of
//! it when the task asks for one; and the reverse, finding the data in a prompt.

use super::Task;
use crate::formats::Format;
use crate::prompt::fence_for;
use crate::prompt::wording::{self, DataAt, TaskWording};

/// The keys a task's `include_format_hint` and `format_hints.json` may use for a format: its
/// bench name, then TeaLeaf's family key (`tl`, `json`, `toon`).
pub fn hint_keys(format: Format) -> [&'static str; 2] {
    let family = match format {
        Format::Tealeaf => "tl",
        Format::JsonCompact | Format::JsonPretty => "json",
        Format::ToonDefault | Format::ToonKeyfold | Format::ToonV4 => "toon",
        other => other.name(),
    };
    [format.name(), family]
}

/// The hint text prepended to the data, when the task turns it on for this format.
pub fn hint(task: &Task, format: Format) -> Option<&str> {
    let keys = hint_keys(format);
    let on = keys
        .iter()
        .find_map(|k| task.def.include_format_hint.get(*k))
        .copied()
        .unwrap_or(false);
    if !on {
        return None;
    }
    keys.iter()
        .find_map(|k| task.hints.get(*k))
        .map(String::as_str)
        .filter(|h| !h.is_empty())
}

/// The prompt of `task` with its data rendered in `format` as `data`, as its template says.
pub fn render(task: &Task, format: Format, data: &str) -> String {
    render_worded(task, format, data, &wording::tasks()[0])
}

/// [`render`] in wording `w`: a role line before it, the data block moved before or after the
/// template (which then names it with the wording's placeholder).
pub fn render_worded(task: &Task, format: Format, data: &str, w: &TaskWording) -> String {
    let spec = format.spec();
    let block = data_with_hint(task, format, data);
    let (inside, moved) = match w.data_at {
        DataAt::Inline => (block.as_str(), None),
        DataAt::First | DataAt::Last => (
            w.placeholder.as_str(),
            Some(format!(
                "{}\n{block}",
                w.header.replace("{format_name}", spec.display)
            )),
        ),
    };
    let body = fill(
        &task.def.prompt_template,
        &[
            ("{format_name}", spec.display),
            ("{tl_data}", inside),
            ("{data}", inside),
        ],
    );
    let mut out = String::with_capacity(body.len() + moved.as_ref().map_or(0, String::len) + 128);
    if let Some(role) = &w.role {
        out.push_str(role);
        out.push_str("\n\n");
    }
    match (w.data_at, moved) {
        (DataAt::First, Some(m)) => out.push_str(&format!("{m}\n\n{body}")),
        (DataAt::Last, Some(m)) => out.push_str(&format!("{body}\n\n{m}")),
        _ => out.push_str(&body),
    }
    out
}

/// The fenced data, the format hint in front of it when the task turns one on.
fn data_with_hint(task: &Task, format: Format, data: &str) -> String {
    let spec = format.spec();
    let fence = fence_for(data);
    let mut block = String::with_capacity(data.len() + 64);
    if let Some(h) = hint(task, format) {
        block.push_str(h);
        block.push_str("\n\n");
    }
    block.push_str(&format!("{fence}{}\n{}", spec.fence, data));
    if !data.ends_with('\n') {
        block.push('\n');
    }
    block.push_str(&fence);
    block
}

/// `template` with each placeholder replaced in one pass, so text substituted in (the data)
/// is never searched for placeholders again.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out =
        String::with_capacity(template.len() + values.iter().map(|v| v.1.len()).sum::<usize>());
    let mut rest = template;
    while let Some((at, (key, value))) = values
        .iter()
        .filter_map(|kv| rest.find(kv.0).map(|i| (i, kv)))
        .min_by_key(|(i, _)| *i)
    {
        out.push_str(&rest[..at]);
        out.push_str(value);
        rest = &rest[at + key.len()..];
    }
    out.push_str(rest);
    out
}

/// The first fenced block of a prompt: the data, as the reference provider reads it back.
pub fn data_block(prompt: &str) -> Option<&str> {
    let mut offset = 0;
    for line in prompt.split_inclusive('\n') {
        let ticks = line.bytes().take_while(|&b| b == b'`').count();
        if ticks >= 3 {
            let start = offset + line.len();
            let fence = &line[..ticks];
            let closing = format!("\n{fence}");
            let end = prompt[start - 1..].find(&closing)? + start - 1;
            return Some(&prompt[start..end.max(start)]);
        }
        offset += line.len();
    }
    None
}
