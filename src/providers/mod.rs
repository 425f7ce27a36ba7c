//! The `Provider` trait and one file per wire API: `anthropic`, `openai` (Chat Completions, also
//! for every OpenAI-compatible server), `openai_responses`, `gemini`, and the offline `reference`.
//! Adding a wire API is one file plus one line in `Wire`.

mod adapter;
mod anthropic;
pub mod batch;
pub mod capabilities;
pub mod config;
pub mod counting;
mod gemini;
pub mod http;
mod matching;
mod openai;
mod openai_responses;
pub mod prices;
pub mod reference;
mod unreachable;
pub mod windows;

use crate::UsageError;
use crate::prompt::Message;
use adapter::Http;
pub use config::{ModelConfig, Price};
pub use reference::Reference;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::time::Duration;

/// A call's own output limit and temperature, set by the suite over the model's settings.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct CallSettings {
    /// Output tokens to allow instead of the model's.
    pub max_tokens: Option<u32>,
    /// Temperature to send instead of the model's.
    pub temperature: Option<f64>,
}

/// What a provider is asked: the rendered messages and the call's own settings; `payload` is for
/// the reference answerer only (real models see just the messages).
pub struct Request<'a> {
    /// Messages as rendered by `prompt`.
    pub messages: &'a [Message],
    /// Bytes at the start of the first message that are the same on every call for this
    /// rendering (the data block): providers with explicit prompt caching mark them cacheable.
    pub cache_prefix: usize,
    /// The suite's own output limit and temperature for this call, over the model's.
    pub settings: CallSettings,
    /// What the suite asked, opaque to every provider but the reference answerer.
    pub payload: Option<&'a (dyn std::any::Any + Send + Sync)>,
    /// The JSON Schema to constrain the reply to (structured output), if the suite asks.
    pub schema: Option<&'a Value>,
}

impl<'a> Request<'a> {
    /// A request of `messages` with the model's own settings and no payload.
    pub fn new(messages: &'a [Message]) -> Self {
        Self {
            messages,
            cache_prefix: 0,
            settings: CallSettings::default(),
            payload: None,
            schema: None,
        }
    }
}

/// Token usage, normalized across APIs: `input` counts every prompt token (cached ones
/// included), `output` every generated token (reasoning included); the other fields are parts
/// of those two as the API reports them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens, cache reads and writes included.
    pub input: u64,
    /// Generated tokens, reasoning included.
    pub output: u64,
    /// Reasoning tokens (part of `output`).
    pub reasoning: u64,
    /// Prompt tokens read from the provider's cache (part of `input`).
    pub cache_read: u64,
    /// Prompt tokens written to the provider's cache (part of `input`).
    pub cache_write: u64,
}

impl Usage {
    /// The usage of two calls together.
    pub fn plus(&self, o: &Usage) -> Usage {
        Usage {
            input: self.input + o.input,
            output: self.output + o.output,
            reasoning: self.reasoning + o.reasoning,
            cache_read: self.cache_read + o.cache_read,
            cache_write: self.cache_write + o.cache_write,
        }
    }
}

/// Why the model stopped, normalised across APIs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Finish {
    /// It finished its answer (or hit a stop sequence).
    Stop,
    /// It hit the output-token limit: the answer may be cut off.
    Length,
    /// A safety or content filter stopped it.
    ContentFilter,
    /// It stopped to call a tool.
    ToolUse,
    /// The call failed, or the API reported a failed generation.
    Error,
    /// Any other reason the API gave.
    Other,
}

impl Finish {
    /// Name used in JSONL and SQL.
    pub fn name(self) -> &'static str {
        match self {
            Finish::Stop => "stop",
            Finish::Length => "length",
            Finish::ContentFilter => "content_filter",
            Finish::ToolUse => "tool_use",
            Finish::Error => "error",
            Finish::Other => "other",
        }
    }
}

/// A provider's answer to one request.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Response {
    /// Raw text output.
    pub output: String,
    /// Token usage.
    pub usage: Usage,
    /// HTTP status (none for the offline reference).
    pub status: Option<u16>,
    /// The provider's request id.
    pub request_id: Option<String>,
    /// Why the model stopped, normalised; None when unknown (cache entries from before it was
    /// recorded, hence the serde default).
    #[serde(default)]
    pub finish: Option<Finish>,
    /// The stop or finish reason exactly as the API gave it.
    #[serde(default)]
    pub finish_reason: Option<String>,
    /// The model the server says answered (a dated snapshot, a GGUF path), which may differ
    /// from the one asked for.
    #[serde(default)]
    pub served_model: Option<String>,
    /// The server's own timing fields as it gave them (llama.cpp `timings`, Ollama's
    /// `*_duration` and `*_count`).
    #[serde(default)]
    pub server: Option<Value>,
}

/// The model id in a reply: `model` (Anthropic, OpenAI, compatible servers) or
/// `modelVersion` (Gemini).
pub fn served_model(body: &Value) -> Option<String> {
    ["model", "modelVersion"]
        .iter()
        .find_map(|k| body.get(*k)?.as_str())
        .filter(|m| !m.is_empty())
        .map(str::to_string)
}

/// Ollama's timing and count fields, as its native API names them.
const OLLAMA_TIMINGS: [&str; 6] = [
    "total_duration",
    "load_duration",
    "prompt_eval_count",
    "prompt_eval_duration",
    "eval_count",
    "eval_duration",
];

/// The server's own timings in a reply: llama.cpp's `timings` object, else Ollama's duration
/// and count fields; None when it gave neither.
pub fn server_timings(body: &Value) -> Option<Value> {
    if let Some(t) = body.get("timings").filter(|t| t.is_object()) {
        return Some(t.clone());
    }
    let ollama: serde_json::Map<String, Value> = OLLAMA_TIMINGS
        .iter()
        .filter_map(|k| Some((k.to_string(), body.get(*k)?.clone())))
        .collect();
    (!ollama.is_empty()).then_some(Value::Object(ollama))
}

/// A failed call. Messages never contain a key.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ProviderError {
    /// The prompt could not be understood (reference provider: no data block, decode failure).
    #[error("{0}")]
    BadPrompt(String),
    /// The API key's environment variable is not set.
    #[error("{0} is not set")]
    MissingKey(String),
    /// The server answered with a non-2xx status.
    #[error("HTTP {status}: {message}")]
    Status {
        /// HTTP status.
        status: u16,
        /// The error message from the body.
        message: String,
        /// The wait the server asked for.
        retry_after: Option<Duration>,
        /// The provider's request id.
        request_id: Option<String>,
    },
    /// A 429 that is not a rate limit: the account's spend limit or quota is used up (OpenAI
    /// `insufficient_quota`, Anthropic's monthly spend limit, a Gemini quota counted per day).
    /// Waiting minutes does not help, so the provider is stopped.
    #[error("HTTP {status}: {message} (a spend or quota limit, not a rate limit: stopped)")]
    LimitReached {
        /// HTTP status (429).
        status: u16,
        /// The error message from the body.
        message: String,
        /// The provider's request id.
        request_id: Option<String>,
    },
    /// No complete answer within the timeout.
    #[error("request timed out")]
    Timeout,
    /// Connection refused, reset or similar.
    #[error("connection failed: {0}")]
    Connection(String),
    /// No connection could be opened at all (refused, the host not found, the TLS handshake
    /// failed, no answer to connect): the message says what and where. Retried like a
    /// connection fault once the provider has answered; before that, the runner stops the
    /// provider after a few tries (`runner::retry::UNREACHABLE_TRIES`).
    #[error("{0}")]
    Unreachable(String),
    /// The run stopped (Ctrl-C, budget) before this attempt was sent; not recorded.
    #[error("cancelled before sending")]
    Cancelled,
    /// A batch API did not run the request: it expired, was cancelled, or its batch failed.
    #[error("{0}")]
    NotRun(String),
    /// A 2xx answer whose body is cut off, not JSON, or not the expected shape.
    #[error("bad response body: {message}")]
    BadBody {
        /// What was wrong.
        message: String,
    },
}

impl ProviderError {
    /// Whether another attempt may succeed: 408, 409, 429, 5xx (529 included), timeouts,
    /// connection faults, and cut-off or garbage bodies.
    pub fn retryable(&self) -> bool {
        match self {
            Self::Status { status, .. } => matches!(status, 408 | 409 | 429 | 500..=599),
            Self::Timeout | Self::Connection(_) | Self::Unreachable(_) | Self::BadBody { .. } => {
                true
            }
            Self::BadPrompt(_)
            | Self::MissingKey(_)
            | Self::LimitReached { .. }
            | Self::Cancelled
            | Self::NotRun(_) => false,
        }
    }

    /// Whether every later call to this provider will fail the same way (bad key, no access,
    /// unknown model or endpoint, spend or quota used up): the runner stops scheduling it.
    pub fn fatal(&self) -> bool {
        matches!(
            self,
            Self::MissingKey(_)
                | Self::LimitReached { .. }
                | Self::Status {
                    status: 401 | 403 | 404,
                    ..
                }
        )
    }

    /// Whether no connection could be opened at all (see [`ProviderError::Unreachable`]).
    pub fn unreachable(&self) -> bool {
        matches!(self, Self::Unreachable(_))
    }

    /// Whether the server answered this attempt (an HTTP status came back, or a body began):
    /// after that, a failure to connect is a transient fault, not a server that is not there.
    pub fn answered(&self) -> bool {
        matches!(
            self,
            Self::Status { .. } | Self::LimitReached { .. } | Self::BadBody { .. }
        )
    }

    /// Whether the server said we are over a rate limit.
    pub fn throttled(&self) -> bool {
        matches!(self, Self::Status { status: 429, .. })
    }

    /// The wait the server asked for.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            Self::Status { retry_after, .. } => *retry_after,
            _ => None,
        }
    }

    /// The HTTP status, if the server answered.
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Status { status, .. } | Self::LimitReached { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// The provider's request id of a failed call, if the server sent one.
    pub fn request_id(&self) -> Option<&str> {
        match self {
            Self::Status { request_id, .. } | Self::LimitReached { request_id, .. } => {
                request_id.as_deref()
            }
            _ => None,
        }
    }
}

/// One wire API bound to one model.
#[async_trait::async_trait]
pub trait Provider: Send + Sync {
    /// Provider name (`reference`, `anthropic`, …).
    fn name(&self) -> &str;
    /// Model id.
    fn model(&self) -> &str;
    /// Model parameters recorded with every result.
    fn params(&self) -> Value;
    /// Endpoint URL recorded with every result, without secrets.
    fn url(&self) -> Option<String>;
    /// Whether the provider caches prompts, so a warm-up call pays off.
    fn caches_prompts(&self) -> bool;
    /// The provider's batch API (half price, answers within a day), if it has one.
    fn batch(&self) -> Option<&dyn batch::BatchApi> {
        None
    }
    /// Why a call cannot be made at all (a missing key), checked before a run starts.
    fn ready(&self) -> Result<(), ProviderError> {
        Ok(())
    }
    /// The exact JSON body `complete` would send for `req` (`--show-requests`); None for the
    /// offline reference, which sends nothing.
    fn preview(&self, _req: &Request<'_>) -> Option<Value> {
        None
    }
    /// Sends one request.
    /// Whether it can constrain a reply to a JSON Schema (`Request::schema`), or why not.
    fn structured_output(&self) -> Result<(), String> {
        Err("bench sends no structured-output request to this provider".into())
    }
    async fn complete(&self, req: &Request<'_>) -> Result<Response, ProviderError>;
    /// What its token counts rest on (`anthropic count_tokens`, `o200k_base, offline`), or
    /// why it has no counter.
    fn counter(&self) -> Result<String, String> {
        Err(format!("{} has no token counter", self.name()))
    }
    /// The prompt tokens of `req` as the provider counts (and bills) them, without generating
    /// anything.
    async fn count_tokens(&self, _req: &Request<'_>) -> Result<u64, ProviderError> {
        Err(ProviderError::BadPrompt(
            self.counter().err().unwrap_or_default(),
        ))
    }
    /// The context window the model's own server reports, and where it says so (a llama.cpp
    /// or vLLM server); None for the hosted APIs, whose windows are in `windows.rs`.
    async fn served_window(&self) -> Option<windows::Served> {
        None
    }
}

/// The wire APIs `--provider NAME:MODEL` accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    /// The offline reference answerer.
    Reference,
    /// Anthropic Messages API.
    Anthropic,
    /// OpenAI Chat Completions.
    OpenAi,
    /// OpenAI Responses API.
    OpenAiResponses,
    /// Google Gemini generateContent.
    Gemini,
    /// Any OpenAI-compatible Chat Completions server (vLLM, llama.cpp, OpenRouter, …).
    OpenAiCompatible,
    /// Ollama's OpenAI-compatible endpoint.
    Ollama,
}

impl Wire {
    /// Every wire API.
    pub const ALL: [Wire; 7] = [
        Wire::Reference,
        Wire::Anthropic,
        Wire::OpenAi,
        Wire::OpenAiResponses,
        Wire::Gemini,
        Wire::OpenAiCompatible,
        Wire::Ollama,
    ];

    /// Name used in `--provider` and in the run log.
    pub fn name(self) -> &'static str {
        match self {
            Wire::Reference => "reference",
            Wire::Anthropic => "anthropic",
            Wire::OpenAi => "openai",
            Wire::OpenAiResponses => "openai-responses",
            Wire::Gemini => "gemini",
            Wire::OpenAiCompatible => "openai-compatible",
            Wire::Ollama => "ollama",
        }
    }

    /// Looks a wire API up by name.
    pub fn from_name(name: &str) -> Option<Wire> {
        Wire::ALL.into_iter().find(|w| w.name() == name)
    }

    /// Environment variables holding the key, first found wins.
    pub fn key_envs(self) -> &'static [&'static str] {
        match self {
            Wire::Anthropic => &["ANTHROPIC_API_KEY"],
            Wire::OpenAi | Wire::OpenAiResponses | Wire::OpenAiCompatible => &["OPENAI_API_KEY"],
            Wire::Gemini => &["GEMINI_API_KEY", "GOOGLE_API_KEY"],
            Wire::Reference | Wire::Ollama => &[],
        }
    }

    /// Environment variable overriding the base URL.
    pub fn base_url_env(self) -> Option<&'static str> {
        match self {
            Wire::Anthropic => Some("ANTHROPIC_BASE_URL"),
            Wire::OpenAi | Wire::OpenAiResponses | Wire::OpenAiCompatible => {
                Some("OPENAI_BASE_URL")
            }
            Wire::Gemini => Some("GEMINI_BASE_URL"),
            Wire::Ollama => Some("OLLAMA_BASE_URL"),
            Wire::Reference => None,
        }
    }

    /// Base URL when neither config nor environment sets one.
    pub fn default_base_url(self) -> Option<&'static str> {
        match self {
            Wire::Anthropic => Some("https://api.anthropic.com"),
            Wire::OpenAi | Wire::OpenAiResponses => Some("https://api.openai.com/v1"),
            Wire::Gemini => Some("https://generativelanguage.googleapis.com"),
            Wire::Ollama => Some("http://localhost:11434/v1"),
            Wire::OpenAiCompatible | Wire::Reference => None,
        }
    }
}

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
    if wire == Wire::Reference {
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
    let required = wire != Wire::OpenAiCompatible && wire != Wire::Ollama;
    let built: Box<dyn Provider> = match wire {
        Wire::Anthropic => Box::new(Http::new(
            anthropic::Anthropic,
            cfg,
            &base,
            key,
            key_env,
            required,
        )?),
        Wire::OpenAi | Wire::OpenAiCompatible | Wire::Ollama => Box::new(Http::new(
            openai::OpenAi(wire),
            cfg,
            &base,
            key,
            key_env,
            required,
        )?),
        Wire::OpenAiResponses => Box::new(Http::new(
            openai_responses::OpenAiResponses,
            cfg,
            &base,
            key,
            key_env,
            required,
        )?),
        Wire::Gemini => Box::new(Http::new(
            gemini::Gemini,
            cfg,
            &base,
            key,
            key_env,
            required,
        )?),
        Wire::Reference => unreachable!("handled above"),
    };
    Ok(built)
}

/// Builds a provider from a bare `--provider` spec with default settings.
pub fn from_spec(spec: &str) -> Result<Box<dyn Provider>, UsageError> {
    build(&ModelConfig::from_spec(spec)?, &process_env)
}

/// `text` cut after its first `prefix` bytes: the prefix and the rest (all of it as the rest
/// when the cut is not at a character boundary).
fn split_prefix(text: &str, prefix: usize) -> (String, String) {
    let cut = prefix.min(text.len());
    if text.is_char_boundary(cut) {
        (text[..cut].to_string(), text[cut..].to_string())
    } else {
        (String::new(), text.to_string())
    }
}

/// A JSON number or nothing, as an Option of u64.
fn u64_at(v: &Value, path: &[&str]) -> u64 {
    let mut cur = v;
    for p in path {
        match cur.get(p) {
            Some(next) => cur = next,
            None => return 0,
        }
    }
    cur.as_u64().unwrap_or(0)
}
