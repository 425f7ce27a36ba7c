//! Prompt rendering (data block first, so providers can cache it) and answer extraction from
//! model output.

mod extract;
mod fence;
pub mod wording;

use crate::formats::Format;
use crate::questions::Question;
pub use extract::{extract_answers, extract_cut_answers};
pub use fence::first_fenced;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One chat message as logged in `sample.input`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// `user`, `system` or `assistant`.
    pub role: String,
    /// Text content.
    pub content: String,
}

impl Message {
    /// A message of `role` saying `content`.
    pub fn new(role: &str, content: &str) -> Self {
        Self {
            role: role.to_string(),
            content: content.to_string(),
        }
    }
}

/// A rendered prompt: the cacheable data block and the question part.
#[derive(Debug, Clone)]
pub struct Prompt {
    /// Header line plus the fenced data; identical for every call on the same rendering.
    pub data_block: String,
    /// Instructions, questions and the answer template.
    pub instructions: String,
    /// The data block comes first (the default), else the instructions do.
    pub data_first: bool,
}

/// The line before the fence; the reference provider reads the format name from it.
pub const DATA_HEADER: &str = "Product data, format:";

/// The header line of a prompt about the user's own records (`--data FILE`).
pub const RECORDS_HEADER: &str = "Data, format:";

/// What the data of a prompt is, which names it in the header and the instructions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    /// The product dataset of the `formats` suite.
    Products,
    /// A user's own records.
    Records,
}

impl Subject {
    fn header(self) -> &'static str {
        match self {
            Subject::Products => DATA_HEADER,
            Subject::Records => RECORDS_HEADER,
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Subject::Products => "product data",
            Subject::Records => "data",
        }
    }
}

impl Prompt {
    /// Renders the prompt for `questions` about the product `data`, rendered in `format`; with
    /// `primer`, the data block starts with the format's one-line description.
    pub fn render(format: Format, data: &str, questions: &[Question], primer: bool) -> Self {
        Self::render_about(Subject::Products, format, data, questions, primer)
    }

    /// [`Prompt::render`] for data of any `subject`, in the default wording.
    pub fn render_about(
        subject: Subject,
        format: Format,
        data: &str,
        questions: &[Question],
        primer: bool,
    ) -> Self {
        Self::render_worded(
            subject,
            format,
            data,
            questions,
            primer,
            wording::default_lookup(),
        )
    }

    /// [`Prompt::render_about`] in `wording`.
    pub fn render_worded(
        subject: Subject,
        format: Format,
        data: &str,
        questions: &[Question],
        primer: bool,
        wording: &wording::Wording,
    ) -> Self {
        let spec = format.spec();
        let fence = fence_for(data);
        let mut data_block = String::with_capacity(data.len() + 256);
        if primer {
            data_block.push_str(spec.primer);
            data_block.push('\n');
        }
        data_block.push_str(&format!(
            "{} {} ({})\n{fence}{}\n",
            subject.header(),
            spec.display,
            spec.name,
            spec.fence
        ));
        data_block.push_str(data);
        if !data.ends_with('\n') {
            data_block.push('\n');
        }
        data_block.push_str(&fence);
        data_block.push('\n');

        let mut instructions = String::new();
        if let Some(role) = &wording.role {
            instructions.push_str(role);
            instructions.push_str("\n\n");
        }
        instructions.push_str(&wording.text.replace("{noun}", subject.noun()));
        for q in questions {
            instructions.push_str(&format!("{}: {}\n", q.id, q.text));
        }
        instructions.push_str("\nAnswer template:\n");
        instructions
            .push_str(&serde_json::to_string(&template(questions)).expect("template serializes"));
        instructions.push('\n');
        Self {
            data_block,
            instructions,
            data_first: wording.data_first,
        }
    }

    /// The prompt as one user message: data block first, then the questions (or the other
    /// way round in a wording that puts the data last).
    pub fn messages(&self) -> Vec<Message> {
        let content = if self.data_first {
            format!("{}\n{}", self.data_block, self.instructions)
        } else {
            format!("{}\n{}", self.instructions, self.data_block)
        };
        vec![Message {
            role: "user".into(),
            content,
        }]
    }

    /// Bytes at the start of the message that every prompt of the rendering shares: the data
    /// block when it comes first, else none.
    pub fn cache_prefix(&self) -> usize {
        if self.data_first {
            self.data_block.len()
        } else {
            0
        }
    }
}

/// The answer template: every question id mapped to null.
pub fn template(questions: &[Question]) -> Map<String, Value> {
    questions
        .iter()
        .map(|q| (q.id.clone(), Value::Null))
        .collect()
}

/// A backtick fence longer than any backtick run inside the data.
pub fn fence_for(data: &str) -> String {
    let longest = data.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}

/// The format name and data text of a rendered data block, as the reference provider reads it.
pub fn parse_data_block(text: &str) -> Option<(&str, &str)> {
    // The first header in the text is the prompt's own (data only follows it).
    let (start, header) = [DATA_HEADER, RECORDS_HEADER]
        .into_iter()
        .filter_map(|h| Some((text.find(h)?, h)))
        .min_by_key(|&(at, _)| at)?;
    let rest = &text[start + header.len()..];
    let header_end = rest.find('\n')?;
    let header = &rest[..header_end];
    let name = header.rsplit_once('(')?.1.strip_suffix(')')?;
    // The fence's info string repeats the format; the header's name is the one read.
    let block = fence::read(&rest[header_end + 1..]).filter(|b| b.closed)?;
    Some((name, block.body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_block_comes_first_and_parses_back() {
        let data = "a,b\n1,```x```\n";
        let p = Prompt::render(Format::Csv, data, &[], false);
        let msg = &p.messages()[0].content;
        assert!(msg.starts_with(DATA_HEADER));
        assert!(
            msg.contains("````csv\n"),
            "fence longer than the data's backticks"
        );
        let (name, body) = parse_data_block(msg).unwrap();
        assert_eq!(name, "csv");
        assert_eq!(body, "a,b\n1,```x```");
        let primed = Prompt::render(Format::Csv, data, &[], true).messages()[0]
            .content
            .clone();
        assert!(primed.starts_with(Format::Csv.spec().primer));
        assert_eq!(parse_data_block(&primed), parse_data_block(msg));
    }

    /// The data block is read after its header and named by it, and must be closed; a prompt
    /// without the header (a task's) has only its first fenced block, named by its info string.
    #[test]
    fn the_data_block_and_the_first_fenced_block_read_one_fence() {
        let lookup = "Data, format: CSV (csv)\n```text\na,b\n1,2\n```\n\nQ1: which?";
        assert_eq!(parse_data_block(lookup), Some(("csv", "a,b\n1,2")));
        assert_eq!(first_fenced(lookup), Some(("text", "a,b\n1,2")));
        let task = "Evaluate the table:\n\n```json\n[1]\n```\n";
        assert_eq!(parse_data_block(task), None);
        assert_eq!(first_fenced(task), Some(("json", "[1]")));
        let unclosed = "Product data, format: CSV (csv)\n```csv\na,b\n";
        assert_eq!(parse_data_block(unclosed), None);
        assert_eq!(first_fenced(unclosed), Some(("csv", "a,b\n")));
    }
}
