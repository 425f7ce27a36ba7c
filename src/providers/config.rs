//! Per-model settings: from a `--provider NAME:MODEL` spec, a `--config models.toml` file, or
//! both (the file's entry for the same provider and model supplies the settings).

use super::Wire;
use super::prices::{self, Price};
use super::served::Served;
use crate::UsageError;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::path::Path;

/// One model's settings; every field but `provider` and `model` is optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelConfig {
    /// Wire API: reference, anthropic, openai, openai-responses, gemini, openai-compatible, ollama.
    pub provider: String,
    /// Model id as the API names it.
    #[serde(default)]
    pub model: String,
    /// Base URL override (gateways, proxies, local servers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
    /// Environment variable holding the key, instead of the provider's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key_env: Option<String>,
    /// Sampling temperature (provider default when unset).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Maximum output tokens (default 4096, plus the thinking budget when set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
    /// Extended-thinking budget in tokens (Anthropic: 1024 or more, below max_tokens; Gemini).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thinking_budget: Option<u32>,
    /// Reasoning effort: OpenAI's `reasoning_effort` (minimal, low, medium, high; none and
    /// xhigh on GPT-5.1+), or Anthropic's adaptive thinking effort (low, medium, high, max;
    /// xhigh on Opus 4.7+) on Claude 4.6 and later.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning_effort: Option<String>,
    /// Calls in flight at once (default 4; 1 for ollama).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<usize>,
    /// Requests per minute (unlimited when unset).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rpm: Option<u32>,
    /// Tokens per minute, prompt plus max output (unlimited when unset).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tpm: Option<u32>,
    /// Seconds before a call is abandoned and retried (default 600).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_secs: Option<f64>,
    /// Prices per 1M tokens, overriding the built-in table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<Price>,
    /// The model's context window in tokens, prompt plus output, over the table's
    /// (`providers::windows`): a plan with a prompt that would not fit is refused before any
    /// call, and `bench sweep` stops before a size whose prompt would not fit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_tokens: Option<u32>,
    /// The context window the model's server reported at the start of the run (llama.cpp's
    /// `/props`, vLLM's `/v1/models`) and where, when neither `context_tokens` nor the table
    /// knows it. Learnt, not a setting: never read from a config file or written to a log.
    #[serde(skip)]
    pub served_context: Option<Served>,
}

/// Default output cap when `max_tokens` is unset.
pub const DEFAULT_MAX_TOKENS: u32 = 4096;

impl ModelConfig {
    /// Settings from `NAME:MODEL` (`reference` needs no model).
    pub fn from_spec(spec: &str) -> Result<Self, UsageError> {
        let (provider, model) = match spec.split_once(':') {
            Some((p, m)) => (p, m),
            None if spec == "reference" => ("reference", "reference"),
            None => {
                return Err(UsageError::new(format!(
                    "provider '{spec}' needs a model: NAME:MODEL, e.g. anthropic:claude-sonnet-4-5 \
                     (names: {})",
                    names()
                )));
            }
        };
        let cfg = Self {
            provider: provider.to_string(),
            model: model.to_string(),
            ..Self::default()
        };
        cfg.wire()?;
        if model.is_empty() {
            return Err(UsageError::new(format!(
                "provider '{spec}' has an empty model"
            )));
        }
        Ok(cfg)
    }

    /// The wire API, or a one-line error naming the allowed ones.
    pub fn wire(&self) -> Result<Wire, UsageError> {
        Wire::from_name(&self.provider).ok_or_else(|| {
            UsageError::new(format!(
                "unknown provider '{}' (allowed: {})",
                self.provider,
                names()
            ))
        })
    }

    /// `provider:model`.
    pub fn spec(&self) -> String {
        format!("{}:{}", self.provider, self.model)
    }

    /// The output cap sent with each call.
    pub fn max_tokens(&self) -> u32 {
        self.max_tokens
            .unwrap_or(DEFAULT_MAX_TOKENS + self.thinking_budget.unwrap_or(0))
    }

    /// Calls in flight at once.
    pub fn concurrency(&self) -> usize {
        self.concurrency
            .unwrap_or(if self.provider == "ollama" { 1 } else { 4 })
            .max(1)
    }

    /// The price from the config, else from the built-in table; a configured price without
    /// `batch` gets the provider's batch discount.
    pub fn price(&self) -> Option<Price> {
        let mut p = self
            .price
            .or_else(|| prices::lookup(&self.provider, &self.model).map(|p| p.price))?;
        if p.batch.is_none() {
            p.batch = prices::batch_discount(&self.provider);
        }
        Some(p)
    }

    /// Whether its calls cost money bench cannot price (the reference answerer costs nothing).
    pub fn unpriced(&self) -> bool {
        self.provider != "reference" && self.price().is_none()
    }

    /// Model parameters recorded with every result (only those set).
    pub fn params(&self) -> Value {
        let mut m = Map::new();
        if let Some(t) = self.temperature {
            m.insert("temperature".into(), json!(t));
        }
        m.insert("max_tokens".into(), json!(self.max_tokens()));
        if let Some(b) = self.thinking_budget {
            m.insert("thinking_budget".into(), json!(b));
        }
        if let Some(e) = &self.reasoning_effort {
            m.insert("reasoning_effort".into(), json!(e));
        }
        Value::Object(m)
    }
}

fn names() -> String {
    Wire::ALL.map(Wire::name).join(", ")
}

/// A `models.toml` file.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// `[[models]]` entries.
    #[serde(default)]
    pub models: Vec<ModelConfig>,
}

impl ConfigFile {
    /// Reads and checks a config file.
    pub fn load(path: &Path) -> Result<Self, UsageError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            UsageError::new(format!("cannot read config '{}': {e}", path.display()))
        })?;
        let file: Self = toml::from_str(&text).map_err(|e| {
            UsageError::new(crate::error::one_line(&format!(
                "config '{}': {}",
                path.display(),
                e
            )))
        })?;
        for (i, m) in file.models.iter().enumerate() {
            m.wire().map_err(|e| {
                UsageError::new(format!("config '{}', models[{i}]: {e}", path.display()))
            })?;
            if m.model.is_empty() && m.provider != "reference" {
                return Err(UsageError::new(format!(
                    "config '{}', models[{i}]: `model` is missing",
                    path.display()
                )));
            }
        }
        Ok(file)
    }

    /// The models to run: each `--provider` spec (with the file's settings for the same
    /// provider and model), or every model in the file when no spec is given.
    pub fn resolve(&self, specs: &[String]) -> Result<Vec<ModelConfig>, UsageError> {
        if specs.is_empty() {
            return Ok(self.models.clone());
        }
        specs
            .iter()
            .map(|s| {
                let bare = ModelConfig::from_spec(s)?;
                Ok(self
                    .models
                    .iter()
                    .find(|m| m.provider == bare.provider && m.model == bare.model)
                    .cloned()
                    .unwrap_or(bare))
            })
            .collect()
    }
}

/// The commented template `bench init-config` writes: one entry that runs as it is (the
/// offline reference answerer, no key, no server) and commented examples of each provider,
/// every model of which the window and price tables know (or its entry sets both).
pub fn template() -> String {
    format!(
        r#"# bench model settings. Use with: bench run --config models.toml
# With --config and no --provider, every [[models]] entry that is not commented out runs; with
# --provider NAME:MODEL, the entry with the same provider and model supplies the settings.
# As written, only the offline reference answerer runs (no key, no server): uncomment the
# models you want (and comment the reference out if you like), then set their keys.
# Keys are never written here: each provider reads its key from the environment
# (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY or GOOGLE_API_KEY), or from `api_key_env`.
# Built-in prices (USD per 1M tokens, as of {date}) and context windows apply when `price` and
# `context_tokens` are not set (docs/providers.md lists both tables).

[[models]]
provider = "reference"            # reads each rendering back: a ceiling and a self-check, not an LLM

# [[models]]
# provider = "anthropic"          # anthropic | openai | openai-responses | gemini | openai-compatible | ollama
# model = "claude-sonnet-4-5"
# base_url = "https://api.anthropic.com"   # or ANTHROPIC_BASE_URL; for gateways and proxies
# api_key_env = "ANTHROPIC_API_KEY"
# temperature = 0.0
# max_tokens = 4096
# thinking_budget = 2048          # extended thinking (Claude up to 4.5; Gemini): 1024 or more, below max_tokens
# concurrency = 4                 # calls in flight
# rpm = 50                        # requests per minute
# tpm = 30000                     # input + max output tokens per minute
# timeout_secs = 600
# context_tokens = 200000         # context window (overrides the built-in table): a prompt plus max_tokens over it is refused
# price = {{ input = 3.0, output = 15.0, cache_read = 0.30, cache_write = 3.75 }}
#   (add batch = 0.5 for the --batch price as a fraction of these; 0.5 is the default for
#    anthropic, openai, openai-responses and gemini)

# Settings a model refuses (a temperature for gpt-5, a thinking budget where only adaptive
# thinking is taken) are refused when the config loads; docs/providers.md ("What each model
# accepts") lists what each model family takes. `bench run --dry-run --show-requests` prints
# the exact body each model receives.
# [[models]]
# provider = "anthropic"
# model = "claude-opus-4-6"       # adaptive thinking, set by its effort
# reasoning_effort = "medium"     # low | medium | high | max
# concurrency = 4

# [[models]]
# provider = "openai"
# model = "gpt-4.1-mini"
# temperature = 0.0
# concurrency = 8
# rpm = 500
# tpm = 200000

# [[models]]
# provider = "openai-responses"
# model = "gpt-5-mini"
# reasoning_effort = "low"        # minimal | low | medium | high
# concurrency = 8

# [[models]]
# provider = "gemini"
# model = "gemini-2.5-flash"
# temperature = 0.0
# thinking_budget = 0             # 0 turns thinking off on Flash models
# concurrency = 4

# A model on your own machine (Ollama at http://localhost:11434/v1, no key; start it first):
# [[models]]
# provider = "ollama"
# model = "llama3.1:8b"
# temperature = 0.0
# concurrency = 1
# context_tokens = 4096           # Ollama's default context; it cuts longer prompts without an error
# price = {{ input = 0.0, output = 0.0 }}

# Any OpenAI-compatible server (vLLM, llama.cpp, OpenRouter); llama.cpp and vLLM report their
# window, for others set context_tokens and price:
# [[models]]
# provider = "openai-compatible"
# model = "qwen2.5-7b-instruct"
# base_url = "http://127.0.0.1:8080/v1"
# api_key_env = "MY_SERVER_KEY"   # optional
# context_tokens = 32768
# price = {{ input = 0.0, output = 0.0 }}
"#,
        date = prices::AS_OF
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_parses_and_specs_resolve() {
        let file: ConfigFile = toml::from_str(&template()).unwrap();
        // As written it runs with no key and no server (issue 54: six keyed models did not).
        assert_eq!(file.models.len(), 1);
        assert_eq!(file.models[0].provider, "reference");
        // Every example, uncommented, is accepted and known to the window and price tables (or
        // sets both): `claude-opus-4-7` had no window.
        let uncommented: String = template()
            .lines()
            .map(|l| match l.strip_prefix("# ") {
                Some(rest)
                    if rest.starts_with("[[models]]")
                        || rest.split_once(" = ").is_some_and(|(k, _)| {
                            !k.is_empty() && k.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                        }) =>
                {
                    rest
                }
                _ => l,
            })
            .collect::<Vec<_>>()
            .join("\n");
        let all: ConfigFile = toml::from_str(&uncommented).unwrap();
        assert_eq!(all.models.len(), 8);
        for m in &all.models {
            crate::providers::capabilities::check(m).unwrap();
            if m.provider == "reference" {
                continue;
            }
            let spec = format!("{}:{}", m.provider, m.model);
            assert!(
                crate::providers::windows::of(m).is_some(),
                "{spec}: no context window"
            );
            assert!(m.price().is_some(), "{spec}: no price");
        }
        let file: ConfigFile = toml::from_str(&uncommented).unwrap();
        let r = file
            .resolve(&["anthropic:claude-sonnet-4-5".into(), "openai:gpt-4o".into()])
            .unwrap();
        assert_eq!(r[0].concurrency, Some(4));
        assert_eq!(r[1].concurrency, None, "no entry: defaults");
        assert!(ModelConfig::from_spec("anthropic").is_err());
        assert!(ModelConfig::from_spec("nope:x").is_err());
        assert_eq!(
            ModelConfig::from_spec("ollama:llama3.1:8b").unwrap().model,
            "llama3.1:8b"
        );
    }

    #[test]
    fn cost_splits_cached_tokens() {
        let p = Price {
            input: 3.0,
            output: 15.0,
            cache_read: Some(0.3),
            cache_write: Some(3.75),
            batch: Some(0.5),
        };
        let u = super::super::Usage {
            input: 1_000_000,
            output: 100_000,
            reasoning: 0,
            cache_read: 500_000,
            cache_write: 100_000,
        };
        let want = 0.4 * 3.0 + 0.5 * 0.3 + 0.1 * 3.75 + 0.1 * 15.0;
        assert!((p.cost(&u) - want).abs() < 1e-9);
        assert!((p.batch_cost(&u) - want / 2.0).abs() < 1e-9);
        let live_only = Price { batch: None, ..p };
        assert!((live_only.batch_cost(&u) - want).abs() < 1e-9);
    }
}
