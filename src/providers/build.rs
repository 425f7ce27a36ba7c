//! Building the provider a model config describes: base URL, key and wire file.

use super::adapter::{Http, WireApi};
use super::{ModelConfig, Provider, Reference, Wire};
use super::{anthropic, capabilities, gemini, http, openai};
use crate::UsageError;

/// Where a provider reads its environment (tests pass a map instead of the process env).
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The process environment, empty values treated as unset.
pub fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// Builds the provider a model config describes. Keys are looked up now but only required
/// when a call is made (`Provider::ready`), so `--dry-run` works without them.
pub fn build(cfg: &ModelConfig, env: Env) -> Result<Box<dyn Provider>, UsageError> {
    let wire = cfg.wire()?;
    if wire.offline() {
        return Ok(Box::new(Reference));
    }
    capabilities::check(cfg)?;
    let from_env = wire.base_url_env().and_then(env);
    let base_from_env = cfg.base_url.is_none() && from_env.is_some();
    let base = cfg
        .base_url
        .clone()
        .or(from_env)
        .or_else(|| wire.default_base_url().map(str::to_string))
        .ok_or_else(|| {
            UsageError::new(format!(
                "{}: needs a base URL (--base-url URL, OPENAI_BASE_URL, or base_url in the config)",
                cfg.spec()
            ))
        })?;
    // A third-party server never gets OPENAI_API_KEY unless the user points OPENAI_BASE_URL
    // at it (the OpenAI SDKs' convention) or names the variable with api_key_env.
    let default_envs = match wire {
        Wire::OpenAiCompatible if !base_from_env => &[][..],
        _ => wire.key_envs(),
    };
    let (key_env, key) = match &cfg.api_key_env {
        Some(name) => (Some(name.clone()), env(name)),
        None => {
            let found = default_envs
                .iter()
                .find_map(|n| env(n).map(|k| (n.to_string(), k)));
            match found {
                Some((n, k)) => (Some(n), Some(k)),
                None => (default_envs.first().map(|s| s.to_string()), None),
            }
        }
    };
    let key = key.map(http::Secret::new);
    let required = wire.key_required();
    let http = |api: Box<dyn WireApi>| -> Result<Box<dyn Provider>, UsageError> {
        Ok(Box::new(Http::new(
            wire.name(),
            api,
            cfg,
            &base,
            key,
            key_env,
            required,
        )?))
    };
    // The one place a wire API is bound to its file.
    match wire {
        Wire::Anthropic => http(Box::new(anthropic::Anthropic)),
        Wire::OpenAi | Wire::OpenAiCompatible | Wire::Ollama => {
            http(Box::new(openai::OpenAi(wire)))
        }
        Wire::OpenAiResponses => http(Box::new(openai::responses::OpenAiResponses)),
        Wire::Gemini => http(Box::new(gemini::Gemini)),
        Wire::Reference => unreachable!("handled above"),
    }
}

/// Builds a provider from a bare `--provider` spec with default settings.
pub fn from_spec(spec: &str) -> Result<Box<dyn Provider>, UsageError> {
    build(&ModelConfig::from_spec(spec)?, &process_env)
}
