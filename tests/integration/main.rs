//! Integration tests, one binary: each test binary links DuckDB, so one link instead of seven.

mod analytics;
mod cli;
mod pipeline;
mod roundtrip;
mod tokens;
mod toon_fixtures;
mod toon_golden;
