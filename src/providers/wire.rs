//! The wire APIs `--provider NAME:MODEL` names, and what bench knows of each (where it finds its
//! key and base URL, whether it needs one, its family in the model tables): one row a wire API,
//! so adding one is a variant, a row here and its arm in `build.rs`.

use super::matching::Api;
use super::thinking::BudgetedThinking;

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

/// What bench knows of a wire API, said once: one row of [`TABLE`] per API.
struct Row {
    wire: Wire,
    name: &'static str,
    key_envs: &'static [&'static str],
    /// A call without a key is refused (a third-party or local server may need none).
    key_required: bool,
    base_url_env: Option<&'static str>,
    default_base_url: Option<&'static str>,
    family: Option<Api>,
    /// Answers offline, without a server (the reference).
    offline: bool,
    /// Takes Chat Completions requests (a model the tables say is Responses-only is refused).
    chat_completions: bool,
    /// Its thinking is a budget inside `max_tokens`, with these rules.
    budgeted_thinking: Option<BudgetedThinking>,
}

/// Every wire API's row, in [`Wire::ALL`]'s order.
const TABLE: [Row; 7] = [
    Row {
        wire: Wire::Reference,
        name: "reference",
        key_envs: &[],
        key_required: false,
        base_url_env: None,
        default_base_url: None,
        family: None,
        offline: true,
        chat_completions: false,
        budgeted_thinking: None,
    },
    Row {
        wire: Wire::Anthropic,
        name: "anthropic",
        key_envs: &["ANTHROPIC_API_KEY"],
        key_required: true,
        base_url_env: Some("ANTHROPIC_BASE_URL"),
        default_base_url: Some("https://api.anthropic.com"),
        family: Some(Api::Anthropic),
        offline: false,
        chat_completions: false,
        budgeted_thinking: Some(BudgetedThinking {
            maker: "Anthropic",
            min_budget: 1024,
        }),
    },
    Row {
        wire: Wire::OpenAi,
        name: "openai",
        key_envs: &["OPENAI_API_KEY"],
        key_required: true,
        base_url_env: Some("OPENAI_BASE_URL"),
        default_base_url: Some("https://api.openai.com/v1"),
        family: Some(Api::OpenAi),
        offline: false,
        chat_completions: true,
        budgeted_thinking: None,
    },
    Row {
        wire: Wire::OpenAiResponses,
        name: "openai-responses",
        key_envs: &["OPENAI_API_KEY"],
        key_required: true,
        base_url_env: Some("OPENAI_BASE_URL"),
        default_base_url: Some("https://api.openai.com/v1"),
        family: Some(Api::OpenAi),
        offline: false,
        chat_completions: false,
        budgeted_thinking: None,
    },
    Row {
        wire: Wire::Gemini,
        name: "gemini",
        key_envs: &["GEMINI_API_KEY", "GOOGLE_API_KEY"],
        key_required: true,
        base_url_env: Some("GEMINI_BASE_URL"),
        default_base_url: Some("https://generativelanguage.googleapis.com"),
        family: Some(Api::Gemini),
        offline: false,
        chat_completions: false,
        budgeted_thinking: None,
    },
    Row {
        wire: Wire::OpenAiCompatible,
        name: "openai-compatible",
        key_envs: &["OPENAI_API_KEY"],
        key_required: false,
        base_url_env: Some("OPENAI_BASE_URL"),
        default_base_url: None,
        family: None,
        offline: false,
        chat_completions: false,
        budgeted_thinking: None,
    },
    Row {
        wire: Wire::Ollama,
        name: "ollama",
        key_envs: &[],
        key_required: false,
        base_url_env: Some("OLLAMA_BASE_URL"),
        default_base_url: Some("http://localhost:11434/v1"),
        family: None,
        offline: false,
        chat_completions: false,
        budgeted_thinking: None,
    },
];

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

    /// Its row of [`TABLE`].
    fn row(self) -> &'static Row {
        TABLE
            .iter()
            .find(|r| r.wire == self)
            .expect("every wire API has a row")
    }

    /// Name used in `--provider` and in the run log.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// Looks a wire API up by name.
    pub fn from_name(name: &str) -> Option<Wire> {
        TABLE.iter().find(|r| r.name == name).map(|r| r.wire)
    }

    /// Environment variables holding the key, first found wins.
    pub fn key_envs(self) -> &'static [&'static str] {
        self.row().key_envs
    }

    /// Whether a call without a key is refused (an OpenAI-compatible or Ollama server may need
    /// none).
    pub fn key_required(self) -> bool {
        self.row().key_required
    }

    /// Environment variable overriding the base URL.
    pub fn base_url_env(self) -> Option<&'static str> {
        self.row().base_url_env
    }

    /// Base URL when neither config nor environment sets one.
    pub fn default_base_url(self) -> Option<&'static str> {
        self.row().default_base_url
    }

    /// The provider family whose rows of the model tables (capabilities, windows, prices)
    /// describe its models; `None` for servers the tables do not describe.
    pub fn family(self) -> Option<Api> {
        self.row().family
    }

    /// Whether it answers offline, without a server (the reference answerer).
    pub fn offline(self) -> bool {
        self.row().offline
    }

    /// Whether it is a Chat Completions API of the table's family (OpenAI's `openai`), which
    /// refuses a model the capability table says is served by the Responses API only.
    pub fn chat_completions(self) -> bool {
        self.row().chat_completions
    }

    /// The rules of its thinking budget, when thinking is a budget counted in `max_tokens`.
    pub fn budgeted_thinking(self) -> Option<BudgetedThinking> {
        self.row().budgeted_thinking
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table has one row per wire API, in `ALL`'s order, and names that round-trip.
    #[test]
    fn one_row_per_wire_api() {
        let rows: Vec<Wire> = TABLE.iter().map(|r| r.wire).collect();
        assert_eq!(rows, Wire::ALL);
        for w in Wire::ALL {
            assert_eq!(Wire::from_name(w.name()), Some(w));
        }
    }
}
