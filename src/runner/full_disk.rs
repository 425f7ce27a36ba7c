//! A run whose output cannot be written (a full disk, a quota): it stops, says so once in one
//! line naming the file, and tells the way out (free space, then `--resume`).

use super::state::{Shared, StopReason};
use std::path::Path;
use std::sync::atomic::Ordering;

/// Whether `e` comes from a full disk (or quota).
pub(super) fn disk_full(e: &anyhow::Error) -> bool {
    e.chain()
        .filter_map(|c| c.downcast_ref::<std::io::Error>())
        .any(|io| {
            matches!(
                io.kind(),
                std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded
            )
        })
}

/// Stops the run because its output cannot be written: said once, in one line naming the file
/// and the way out; the calls in flight finish unlogged (`--resume` asks them again) and the
/// run ends without a summary line (`runner::run` returns [`crate::error::Reported`]).
pub(super) fn stop_writing(shared: &Shared, e: &anyhow::Error) {
    if shared.write_failed.swap(true, Ordering::SeqCst) {
        return;
    }
    let fix = if disk_full(e) {
        "free space"
    } else {
        "fix that"
    };
    shared
        .observer
        .notice(&format!("error: {e:#}; {}", way_out(fix, &shared.run_dir)));
    shared.stop.request(StopReason::Interrupted);
}

/// What to do after a failed write of the run in `dir`: `fix` ("free space"), then resume.
pub(super) fn way_out(fix: &str, dir: &Path) -> String {
    format!(
        "the run stops: {fix}, then `bench run --resume {}`",
        dir.display()
    )
}

/// `e` with the way out when it comes from a full disk (the run in `dir` can be resumed).
pub(super) fn with_way_out(e: anyhow::Error, dir: &Path) -> anyhow::Error {
    if disk_full(&e) {
        anyhow::anyhow!("{e:#}; {}", way_out("free space", dir))
    } else {
        e
    }
}
