//! The `Provider` trait and one folder per provider: `anthropic/`, `openai/` (Chat Completions,
//! also for every OpenAI-compatible server, and `responses.rs`), `gemini/`, each with its wire
//! format, token counter and batch protocol (`batch.rs`), and the offline `reference.rs`.
//! Adding a wire API is its folder, a variant and a row in `wire.rs`, and its arm in `build.rs`
//! (with its models' rows in the capability, window and price tables).
//!
//! This file only declares and re-exports: the shared pieces (a call's request and answer, its
//! errors, the trait, the wire names, building a provider) live in files of their own, so no
//! file of the folder imports one that imports it back.

mod adapter;
mod anthropic;
pub mod batch;
mod build;
mod call;
pub mod capabilities;
pub mod config;
pub mod counting;
mod error;
mod gemini;
pub mod http;
mod matching;
mod openai;
pub mod prices;
mod provider;
pub mod reference;
mod served;
mod thinking;
mod unreachable;
mod urls;
pub mod windows;
mod wire;

pub use build::{Env, build, from_spec, process_env};
pub use call::{
    Answerable, CallSettings, Finish, Request, Response, Usage, served_model, server_timings,
};
pub use config::ModelConfig;
pub use error::ProviderError;
pub use prices::Price;
pub use provider::Provider;
pub use reference::Reference;
pub use served::Served;
pub use wire::Wire;
