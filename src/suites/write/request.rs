//! What a write call asks: the prompt that asks for a case's document in one format, the
//! request the reference answerer reads, the scores a reply gets, and the repair request that
//! follows a reply that does not parse.

use super::cases::{Case, Kind};
use super::grade::Grade;
use super::schema;
use crate::formats::Format;
use crate::prompt::wording::WriteWording;
use serde::{Deserialize, Serialize};

/// Output mode of the structured-output baseline: JSON constrained by the provider to the
/// case's JSON Schema.
pub const JSON_SCHEMA: &str = "json_schema";

/// A write result's grades: the first reply's and the final one's, after repairs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WriteScores {
    /// Case id.
    pub case: String,
    /// How the gold was given.
    pub kind: Kind,
    /// `text`, or `json_schema` for the structured-output baseline.
    pub mode: String,
    /// The first reply.
    pub first: Grade,
    /// The last reply (the first when no repair was asked).
    #[serde(rename = "final")]
    pub last: Grade,
    /// Repair requests sent.
    pub repairs: u32,
}

/// What the reference answerer writes for a write prompt: the gold in the output format
/// (the round-trip proof of the write suite).
#[derive(Debug, Clone)]
pub struct WriteRequest {
    /// The output format.
    pub format: Format,
    /// The gold rendered in it.
    pub text: String,
}

impl WriteRequest {
    /// The reply of a model that writes the gold perfectly: it in one fenced block.
    pub fn reply(&self) -> String {
        // A longer fence than any backtick run inside, so a document holding fences itself
        // (markdown_kv) stays one block.
        let fence = crate::prompt::fence_for(&self.text);
        format!(
            "{fence}{}\n{}\n{fence}",
            self.format.spec().fence,
            self.text
        )
    }
}

/// The prompt's word for the output: the format's name and, where two formats share a
/// name, the style that tells them apart.
pub fn format_words(f: Format) -> String {
    let style = match f {
        Format::JsonCompact => Some("minified, on one line"),
        Format::JsonPretty => Some("indented by 2 spaces"),
        Format::ToonDefault => Some("spec v3"),
        Format::ToonKeyfold => Some("spec v3, with key folding"),
        Format::ToonV4 => Some("spec v4.0"),
        Format::XmlCompact => Some("no whitespace between elements"),
        Format::XmlPretty => Some("indented by 2 spaces"),
        _ => None,
    };
    let d = f.spec().display;
    style.map_or_else(|| d.to_string(), |s| format!("{d} ({s})"))
}

/// What the prompt shows besides the instructions: the facts, the source document, edits.
pub enum Given<'a> {
    /// The facts of the gold in words.
    Facts(&'a str),
    /// The gold in `from`.
    Document {
        /// Its format.
        from: Format,
        /// Its text.
        text: &'a str,
    },
    /// The document before, in the output format, and the edits.
    Edit {
        /// The document in the output format.
        text: &'a str,
        /// The edits in words.
        edits: &'a [String],
    },
}

/// The prompt asking for `case` in `format` in wording `w`: the same words for every format
/// but the format's name and, with `primer`, its one-line description.
pub fn prompt(
    case: &Case,
    format: Format,
    primer: bool,
    given: &Given,
    w: &WriteWording,
) -> String {
    let name = format_words(format);
    let named = |t: &str| t.replace("{name}", &name);
    let mut request = match given {
        Given::Facts(_) => named(&w.facts),
        Given::Document { from, .. } => named(&w.rewrite).replace("{from}", &format_words(*from)),
        Given::Edit { .. } => named(&w.edit),
    };
    request.push('\n');
    if primer {
        request.push_str(&format!(
            "About {}: {}\n",
            format.spec().display,
            format.spec().primer
        ));
    }
    request.push('\n');
    request.push_str(&schema::describe(&case.schema));
    let mut shown = String::new();
    match given {
        Given::Facts(facts) => {
            shown.push_str(
                "Facts (a path goes from the outside in with › between levels; \"item N\" is \
                 the N-th entry of a list; text is in double quotes, other values are bare):\n",
            );
            shown.push_str(facts);
        }
        Given::Document { from, text } => {
            let fence = crate::prompt::fence_for(text);
            shown.push_str(&format!(
                "Document:\n{fence}{}\n{text}\n{fence}\n",
                from.spec().fence
            ));
        }
        Given::Edit { text, edits } => {
            let fence = crate::prompt::fence_for(text);
            shown.push_str(&format!(
                "Document:\n{fence}{}\n{text}\n{fence}\n\nEdits:\n",
                format.spec().fence
            ));
            for (i, e) in edits.iter().enumerate() {
                shown.push_str(&format!("{}. {e}\n", i + 1));
            }
        }
    }
    let document = if matches!(given, Given::Edit { .. }) {
        "whole edited document"
    } else {
        "document"
    };
    let reply = named(&w.reply).replace("{document}", document);
    let mut p = String::new();
    if let Some(role) = &w.role {
        p.push_str(role);
        p.push_str("\n\n");
    }
    if w.given_first {
        p.push_str(&format!("{shown}\n{request}\n{reply}"));
    } else {
        p.push_str(&format!("{request}\n{shown}\n{reply}"));
    }
    p
}

/// The repair request after a reply whose document could not be parsed: the decoder's own
/// one-line error.
pub fn repair_request(error: &str) -> String {
    format!(
        "Your document could not be parsed: {error}. Reply with the corrected document only, in one fenced code block."
    )
}
