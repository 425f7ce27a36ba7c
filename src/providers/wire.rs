//! The wire APIs `--provider NAME:MODEL` names, and where each finds its key and base URL.

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
