//! One call's request and answer as every wire API shares them: the messages and settings
//! sent, the usage, finish reason and text that came back, and the reply fields read the same
//! way everywhere.

use crate::prompt::Message;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A call's own output limit and temperature, set by the suite over the model's settings.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct CallSettings {
    /// Output tokens to allow instead of the model's.
    pub max_tokens: Option<u32>,
    /// Temperature to send instead of the model's.
    pub temperature: Option<f64>,
}

/// What the offline reference answerer can answer: a suite's request for one prompt, which
/// knows the perfect reply from the prompt's text (it decodes the data block the prompt holds).
/// Each suite implements it on its own request type, so the reference answerer names no suite.
pub trait Answerable: Send + Sync {
    /// The reply of a model that answers `prompt` (every message's text, joined) perfectly; an
    /// error when the prompt is not what the request expects (no data block, one that does
    /// not decode).
    fn answer(&self, prompt: &str) -> Result<String, super::ProviderError>;
}

/// What a provider is asked: the rendered messages and the call's own settings; `answerable`
/// is for the reference answerer only (real models see just the messages).
pub struct Request<'a> {
    /// Messages as rendered by `prompt`.
    pub messages: &'a [Message],
    /// Bytes at the start of the first message that are the same on every call for this
    /// rendering (the data block): providers with explicit prompt caching mark them cacheable.
    pub cache_prefix: usize,
    /// The suite's own output limit and temperature for this call, over the model's.
    pub settings: CallSettings,
    /// What the suite asked, as the reference answerer answers it (no other provider reads it).
    pub answerable: Option<&'a dyn Answerable>,
    /// The JSON Schema to constrain the reply to (structured output), if the suite asks.
    pub schema: Option<&'a Value>,
}

impl<'a> Request<'a> {
    /// A request of `messages` with the model's own settings and nothing for the reference.
    pub fn new(messages: &'a [Message]) -> Self {
        Self {
            messages,
            cache_prefix: 0,
            settings: CallSettings::default(),
            answerable: None,
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

/// A JSON number or nothing, as an Option of u64.
pub(super) fn u64_at(v: &Value, path: &[&str]) -> u64 {
    let mut cur = v;
    for p in path {
        match cur.get(p) {
            Some(next) => cur = next,
            None => return 0,
        }
    }
    cur.as_u64().unwrap_or(0)
}
