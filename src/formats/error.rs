//! [`FormatError`]: why a format could not render or parse a document.

use std::fmt;

/// Why a format failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The document has a shape the format has no syntax for: a skip with a reason, not a bug.
    CannotRepresent,
    /// Rendering or parsing failed.
    Invalid,
}

/// A format could not render or parse a document.
#[derive(Debug, thiserror::Error)]
#[error("{format}: {}{message}", if *.kind == ErrorKind::CannotRepresent { "cannot represent: " } else { "" })]
pub struct FormatError {
    /// Format name.
    pub format: &'static str,
    /// What went wrong, with the line or path where known.
    pub message: String,
    /// Whether the document is out of the format's reach or something failed.
    pub kind: ErrorKind,
}

impl FormatError {
    /// Builds an error for `format`. The message is kept to one line (a parser's message may
    /// quote the text it stopped at, line breaks included), so every error is one line.
    pub fn new(format: &'static str, message: impl fmt::Display) -> Self {
        let message = message.to_string();
        let message = if message.contains(['\n', '\r']) {
            message.replace("\r\n", "\\n").replace(['\n', '\r'], "\\n")
        } else {
            message
        };
        Self {
            format,
            message,
            kind: ErrorKind::Invalid,
        }
    }

    /// The document has a shape `format` cannot express; `why` names the part.
    pub fn cannot_represent(format: &'static str, why: impl fmt::Display) -> Self {
        Self {
            kind: ErrorKind::CannotRepresent,
            ..Self::new(format, why)
        }
    }

    /// Whether this is a shape the format cannot express (a skip) rather than a failure.
    pub fn is_cannot_represent(&self) -> bool {
        self.kind == ErrorKind::CannotRepresent
    }
}
