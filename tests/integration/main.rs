//! Integration tests, one binary: each test binary links DuckDB, so one link instead of seven.
//! Folders group the tests by what they test; `support` holds what they share (the binary, mock
//! servers, test doubles), so a test holds only its own setting and assertions.

mod batch;
mod cli;
mod data;
mod formats;
mod import;
mod providers;
mod report;
mod run;
mod structure;
mod suites;
mod support;
mod view;
