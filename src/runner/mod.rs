//! Plans the (format, structure, variant, provider) matrix and executes it: every call runs as
//! its own task under its provider's limits (concurrency, RPM, TPM), with retries, the response
//! cache and the budget; each finished call is appended to the JSONL log at once, so an
//! interrupted run loses nothing and can be resumed.

mod artifacts;
pub mod batch;
pub mod cache;
mod call;
pub use call::SAME_ON_RESUME;
pub mod conversation;
pub mod estimate;
pub mod fits;
mod folder;
mod full_disk;
pub mod ledger;
pub mod limits;
mod model;
/// The plan and its matrix (they live with the suites that build them).
pub use crate::suites::plan;
pub mod progress;
mod record;
pub mod resume;
pub mod retry;
mod run;
pub mod shard;
mod shortfall;
mod state;
pub mod tokens;
pub mod warnings;

pub use cache::Cache;
pub use folder::check_output_root;
pub(crate) use folder::{create_run_dir, run_identity};
pub use model::{Model, model_notes, unserved};
pub use plan::{Plan, QuestionMode, SampleKey};
pub use retry::RetryPolicy;
pub use run::{DEFAULT_MAX_FAILED_SHARE, Options, Outcome, run, sequential};
pub use state::{Stop, StopReason};
