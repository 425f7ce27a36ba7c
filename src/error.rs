//! Error kinds shared by the binary: usage errors exit with code 2, everything else with 1.

/// Bad input from the user (flag values, paths): the binary exits with code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

impl UsageError {
    /// Builds a usage error from anything printable.
    pub fn new(msg: impl Into<String>) -> Self {
        Self(msg.into())
    }
}

/// Joins a multi-line message (DuckDB puts the SQL and a caret under it) into one line.
pub fn one_line(msg: &str) -> String {
    msg.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.chars().all(|c| c == '^'))
        .collect::<Vec<_>>()
        .join(" — ")
}

/// A run that ended early on purpose (budget reached: 3, Ctrl-C: 130) after writing its summary.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct Stopped {
    /// Process exit code.
    pub code: u8,
    /// What happened and how to continue.
    pub message: String,
}

/// A failure already said on screen, in one line, when it happened (a full disk mid-run): the
/// binary exits with `code` and prints nothing more.
#[derive(Debug, thiserror::Error)]
#[error("stopped; the reason was printed above")]
pub struct Reported {
    /// Process exit code.
    pub code: u8,
}
