//! What the integration tests share, so that a test holds only its own setting and assertions:
//! the binary and what it writes (`binary`), local mock provider servers (`mocks`), and test
//! doubles run through the real runner with their plans (`doubles`).

mod binary;
pub mod doubles;
pub mod mocks;

pub use binary::*;
pub use doubles::{one_table_plan, run_plan};
