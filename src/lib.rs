//! `bench`: renders one dataset in many formats, asks the same questions about each rendering,
//! grades the answers deterministically, counts tokens and logs every call as JSONL.

pub mod analytics;
pub mod bundle;
pub mod cli;
pub mod commands;
pub mod dataset;
pub mod doc;
pub mod error;
pub mod formats;
pub mod grading;
pub mod html;
pub mod import;
pub mod layout;
pub mod names;
pub mod numfmt;
pub mod ops;
pub mod out;
pub mod perf;
pub mod prompt;
pub mod providers;
pub mod questions;
pub mod recommend;
pub mod report;
pub mod runlog;
pub mod runner;
pub mod scalar;
pub mod stats;
pub mod suites;
pub mod sweep;
pub mod tokens;
pub mod view;

/// The run log's former module name, kept so existing `bench::records::…` paths still build.
pub use runlog as records;

pub use error::UsageError;

/// The cores this process may run on (1 when unknown): how many workers the parallel stages start.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
