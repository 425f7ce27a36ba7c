//! The context window a model's own server reports (llama.cpp, vLLM), as the run checks it.

/// A context window as the model's own server reported it.
#[derive(Debug, Clone, PartialEq)]
pub struct Served {
    /// Tokens the server takes in one call.
    pub context: u32,
    /// Whether the output counts in it: vLLM refuses a prompt plus `max_tokens` over it, while
    /// llama.cpp refuses only a prompt over it (and stops writing when the window is full).
    pub shared: bool,
    /// Where it says so (`n_ctx of http://127.0.0.1:8088/props`).
    pub source: String,
}
