//! The work commands share, as a library (cargo's `ops`): a command parses its arguments,
//! calls these and prints; no command calls another (tests/integration/module_graph.rs).

pub mod reports;
pub mod rescore;
pub mod runs;
pub mod setup;
