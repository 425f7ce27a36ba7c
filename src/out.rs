//! Standard output that a closed pipe does not crash: `bench … | head -1` ends quietly, as
//! `rg … | head` does, where `println!` panicked with "failed printing to stdout: Broken pipe".
//!
//! A command's work goes on when its reader has gone (a run's calls are paid for and its log is
//! the product); only the printing stops. Any other write error (a full disk behind `>`) is
//! returned, so it is reported instead of being lost.

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once stdout's reader has gone: later writes are dropped without trying.
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes formatted text to stdout and flushes it; a closed pipe is `Ok` (the text is dropped).
pub fn write(args: fmt::Arguments<'_>) -> io::Result<()> {
    if CLOSED.load(Ordering::Relaxed) {
        return Ok(());
    }
    let mut stdout = io::stdout().lock();
    match stdout.write_fmt(args).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
            CLOSED.store(true, Ordering::Relaxed);
            Ok(())
        }
        other => other,
    }
}

/// Whether an error is, or was caused by, a write into a pipe whose reader has gone.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// `print!` that returns `io::Result` and treats a closed pipe as done (see [`crate::out`]).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => { $crate::out::write(format_args!($($arg)*)) };
}

/// `println!` that returns `io::Result` and treats a closed pipe as done (see [`crate::out`]).
#[macro_export]
macro_rules! outln {
    () => { $crate::out::write(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::out::write(format_args!("{}\n", format_args!($($arg)*))) };
}

/// The width in columns that stdout's text should fit: the terminal's when stdout is one, else
/// `COLUMNS` when set (as clap's help and ripgrep read it), else `None` (no limit: a pipe or
/// file gets every column).
pub fn width() -> Option<usize> {
    use std::io::IsTerminal;
    let terminal = io::stdout()
        .is_terminal()
        .then(|| comfy_table::Table::new().width())
        .flatten()
        .map(usize::from)
        // A pseudo-terminal that was never given a size (`script`, some CI runners) says 0.
        .filter(|&w| w > 0);
    terminal.or_else(|| {
        std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.trim().parse::<usize>().ok())
            .filter(|&c| c > 0)
    })
}
