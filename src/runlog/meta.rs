//! The run log's metadata types every suite shares: the question mode, a rendering a format
//! could not produce, and where an imported run came from. A suite's own metadata (a task
//! file, a `--data` file, write cases) lives in its folder, and the log holds it as its
//! [`Payload`](super::Payload).

use crate::formats::Format;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// How questions are put to the model. `one-prompt` was called `batch` before the providers'
/// batch APIs (`--batch`) arrived; the old name is still read from the command line and from
/// old run logs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum QuestionMode {
    /// All questions in one prompt with an answer template.
    #[default]
    #[serde(alias = "batch")]
    #[value(alias = "batch")]
    OnePrompt,
    /// One prompt per question.
    PerQuestion,
}

impl QuestionMode {
    /// Both modes.
    pub const ALL: [QuestionMode; 2] = [QuestionMode::OnePrompt, QuestionMode::PerQuestion];

    /// Name used on the command line and in the run log.
    pub fn name(self) -> &'static str {
        match self {
            QuestionMode::OnePrompt => "one-prompt",
            QuestionMode::PerQuestion => "per-question",
        }
    }
}

/// One rendering a format could not produce, with the reason.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Skip {
    /// Task id, or the data set's name (the file's stem made an identifier) of a `--data` run.
    pub task: String,
    /// Format.
    pub format: Format,
    /// Why ("cannot represent: …").
    pub reason: String,
}

impl std::fmt::Display for Skip {
    /// `skipped HR-001 in csv: csv: cannot represent: …`, as the screen and the dry run say it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "skipped {} in {}: {}",
            self.task, self.format, self.reason
        )
    }
}

/// Where an imported run's answers came from (`bench import`): another benchmark or harness
/// produced them, not bench; every reader says so, and `--resume` and `rescore` refuse the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Imported {
    /// The importer that read it (`toon`, `hoeltig`, `table`).
    pub source: String,
    /// The source in words (`the TOON benchmark`), as readers name it.
    pub name: String,
    /// Where it is published.
    pub url: String,
    /// The source repository's commit the files were taken at, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The source's licence (`MIT`; `none found` when the repository has none).
    pub licence: String,
    /// Every file read, with its sha256.
    pub files: Vec<ImportedFile>,
    /// What the source counted tokens with (`the provider's billed input tokens of the whole
    /// prompt`).
    pub token_counter: String,
    /// The source's own baseline format, which the report compares against by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<Format>,
    /// Whose grade the answers' `passed` holds: `bench` (default) or `source` (`--grade source`).
    pub grade: String,
    /// Files of the source left out, each with why (a format bench has no equivalent of).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    /// What else a reader must know about the grades, in words (how bench's recomputed scores
    /// compare with the source's where the source grades whole replies).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// One file an imported run was read from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImportedFile {
    /// The path as given.
    pub path: PathBuf,
    /// Hex sha256 of its bytes.
    pub sha256: String,
    /// Answers read from it.
    pub answers: usize,
}

/// Both grades of an imported answer (a `result` line's `imported`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImportedGrades {
    /// The source's own grade, as published (null when it published none).
    pub source_passed: Option<bool>,
    /// bench's grade of the published answer (null when the expected value is not published).
    pub bench_passed: Option<bool>,
}

#[cfg(test)]
mod tests {
    use super::QuestionMode;
    use clap::ValueEnum;

    #[test]
    fn one_prompt_reads_its_old_name_batch() {
        let old: QuestionMode = serde_json::from_str("\"batch\"").unwrap();
        assert_eq!(old, QuestionMode::OnePrompt);
        assert_eq!(
            serde_json::to_string(&QuestionMode::OnePrompt).unwrap(),
            "\"one-prompt\""
        );
        assert_eq!(
            QuestionMode::from_str("batch", false).unwrap(),
            QuestionMode::OnePrompt
        );
        assert_eq!(QuestionMode::OnePrompt.name(), "one-prompt");
    }
}
