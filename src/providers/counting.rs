//! Prompt tokens as the provider counts them, for free and without generating anything: the
//! [`TokenCounter`] a wire file returns from [`super::adapter::WireApi::counting`]. A hosted
//! API's own counter lives in its wire file (Anthropic's `count_tokens` in `anthropic.rs`,
//! Gemini's `countTokens` in `gemini.rs`, OpenAI's in `openai.rs`); the `/tokenize` of an
//! OpenAI-compatible server at its root (llama.cpp after `/apply-template`, vLLM with the
//! messages) lives here.

use super::http::{Endpoint, join};
use super::served::Served;
use super::{ModelConfig, ProviderError, Request};
use serde_json::{Value, json};
use std::sync::OnceLock;

/// How one wire API counts prompt tokens.
#[async_trait::async_trait]
pub trait TokenCounter: Send + Sync {
    /// What the counts rest on, in words (`anthropic count_tokens`).
    fn basis(&self) -> String;
    /// Whether the counts come from the provider's own servers (which need the key), not an
    /// offline vocabulary.
    fn remote(&self) -> bool {
        true
    }
    /// The prompt tokens of `req` sent with `cfg`'s settings, whose request body to the model
    /// is `body` (the wire's own).
    async fn count(
        &self,
        cfg: &ModelConfig,
        req: &Request<'_>,
        body: &Value,
    ) -> Result<u64, ProviderError>;
    /// The context window the model's own server reports, for a counter that asks that server.
    async fn served_window(&self, _model: &str) -> Option<Served> {
        None
    }
}

/// The `/tokenize` of an OpenAI-compatible server; which dialect it speaks is learnt from its
/// first answer.
pub struct Tokenize {
    root: Endpoint,
    root_url: String,
    dialect: OnceLock<Dialect>,
}

/// The two `/tokenize` dialects bench knows.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Dialect {
    /// llama.cpp: `/apply-template` turns the messages into the prompt text, `/tokenize` with
    /// `content` and `add_special` counts it as the chat endpoint does.
    LlamaCpp,
    /// vLLM: `/tokenize` takes the messages and applies the chat template itself (`count`).
    Vllm,
}

impl Tokenize {
    /// The counter of a server whose chat endpoint is `chat` under `base`.
    pub fn new(chat: &Endpoint, base: &str) -> Self {
        let root = server_root(base);
        Self {
            root: chat.at(root.clone()),
            root_url: root,
            dialect: OnceLock::new(),
        }
    }
}

/// A base URL without its trailing `/v1` (and slash): where `/tokenize` lives.
pub fn server_root(base: &str) -> String {
    let b = base.trim_end_matches('/');
    b.strip_suffix("/v1").unwrap_or(b).to_string()
}

#[async_trait::async_trait]
impl TokenCounter for Tokenize {
    fn basis(&self) -> String {
        public(&join(&self.root_url, "/tokenize"))
    }

    async fn count(
        &self,
        cfg: &ModelConfig,
        _req: &Request<'_>,
        body: &Value,
    ) -> Result<u64, ProviderError> {
        self.count_chat(&cfg.model, body).await
    }

    async fn served_window(&self, model: &str) -> Option<Served> {
        self.window(model).await
    }
}

impl Tokenize {
    /// Counts the chat `body`'s messages as the server's chat endpoint would.
    async fn count_chat(&self, model: &str, body: &Value) -> Result<u64, ProviderError> {
        let messages = body.get("messages").cloned().unwrap_or(json!([]));
        if self.dialect.get() != Some(&Dialect::Vllm) {
            let template = self
                .root
                .at(join(&self.root_url, "/apply-template"))
                .post(&json!({ "messages": messages }))
                .await;
            match template {
                Ok(reply) => {
                    let _ = self.dialect.set(Dialect::LlamaCpp);
                    let prompt = reply
                        .body
                        .get("prompt")
                        .and_then(Value::as_str)
                        .ok_or_else(|| ProviderError::BadBody {
                            message: "no `prompt` in the /apply-template reply".into(),
                        })?;
                    let reply = self
                        .tokenize()
                        .post(&json!({ "content": prompt, "add_special": true }))
                        .await?;
                    return tokens_len(&reply.body);
                }
                // No /apply-template: not llama.cpp; try vLLM's form.
                Err(ProviderError::Status { status: 404, .. }) if self.dialect.get().is_none() => {
                    let _ = self.dialect.set(Dialect::Vllm);
                }
                Err(e) => return Err(e),
            }
        }
        let reply = self
            .tokenize()
            .post(&json!({ "model": model, "messages": messages, "add_generation_prompt": true }))
            .await
            .map_err(|e| match e {
                // Said in words: a bare "HTTP 404: " names nothing.
                ProviderError::Status { status: 404, .. } => ProviderError::BadPrompt(format!(
                    "{} answered 404: this server has no token counter (llama.cpp and vLLM \
                     have /tokenize at their root)",
                    public(&join(&self.root_url, "/tokenize"))
                )),
                e => e,
            })?;
        match reply.body.get("count") {
            Some(_) => number(&reply.body, "count"),
            None => tokens_len(&reply.body),
        }
    }

    fn tokenize(&self) -> Endpoint {
        self.root.at(join(&self.root_url, "/tokenize"))
    }

    /// The context window the server serves `model` with, and where it says so: llama.cpp's
    /// `GET /props` (`default_generation_settings.n_ctx`, a slot's window), else vLLM's
    /// `GET /v1/models` (`max_model_len` of the model's entry); None when neither answers
    /// within a few seconds (another server, or none).
    async fn window(&self, model: &str) -> Option<Served> {
        let ask = |path: &str| {
            let url = join(&self.root_url, path);
            let ep = self.root.at(url.clone());
            async move {
                let reply = tokio::time::timeout(WINDOW_WAIT, ep.get())
                    .await
                    .ok()?
                    .ok()?;
                Some((reply.body, public(&url)))
            }
        };
        let as_u32 = |v: Option<&Value>| v?.as_u64().and_then(|n| u32::try_from(n).ok());
        if let Some((body, url)) = ask("/props").await
            && let Some(n) = as_u32(body.pointer("/default_generation_settings/n_ctx"))
        {
            return Some(Served {
                context: n,
                shared: false,
                source: format!("n_ctx of {url}"),
            });
        }
        let (body, url) = ask("/v1/models").await?;
        let models = body.get("data")?.as_array()?;
        let entry = models
            .iter()
            .find(|m| m.get("id").and_then(Value::as_str) == Some(model))
            .or_else(|| models.first().filter(|_| models.len() == 1))?;
        as_u32(entry.get("max_model_len")).map(|n| Served {
            context: n,
            shared: true,
            source: format!("max_model_len of {url}"),
        })
    }
}

/// How long a server may take to say its context window before the run goes on without it.
const WINDOW_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// A URL as it may be shown (no user info or query).
fn public(url: &str) -> String {
    super::http::public_url(url)
}

/// `body` with only the fields of `keep`: a counting endpoint takes the request body of its
/// API but refuses the generation settings (`max_tokens`, `temperature`, …).
pub(super) fn only(body: &Value, keep: &[&str]) -> Value {
    let mut out = serde_json::Map::new();
    for k in keep {
        if let Some(v) = body.get(*k) {
            out.insert(k.to_string(), v.clone());
        }
    }
    Value::Object(out)
}

/// The count at `key` of a reply body.
pub(super) fn number(body: &Value, key: &str) -> Result<u64, ProviderError> {
    body.get(key)
        .and_then(Value::as_u64)
        .ok_or_else(|| ProviderError::BadBody {
            message: format!("no `{key}` number in the token-count reply"),
        })
}

/// The length of a `/tokenize` reply's `tokens` array.
fn tokens_len(body: &Value) -> Result<u64, ProviderError> {
    body.get("tokens")
        .and_then(Value::as_array)
        .map(|t| t.len() as u64)
        .ok_or_else(|| ProviderError::BadBody {
            message: "no `tokens` array in the /tokenize reply".into(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::Tokenizer;

    #[test]
    fn the_tokenize_root_is_the_base_without_v1() {
        assert_eq!(
            server_root("http://127.0.0.1:8088/v1"),
            "http://127.0.0.1:8088"
        );
        assert_eq!(server_root("http://h:1/v1/"), "http://h:1");
        assert_eq!(server_root("http://h:1/api"), "http://h:1/api");
    }

    #[test]
    fn openai_models_count_with_their_own_vocabulary() {
        assert_eq!(Tokenizer::openai("gpt-4o-mini"), Tokenizer::O200kBase);
        assert_eq!(Tokenizer::openai("gpt-4.1"), Tokenizer::O200kBase);
        assert_eq!(Tokenizer::openai("gpt-5"), Tokenizer::O200kBase);
        assert_eq!(Tokenizer::openai("o3-mini"), Tokenizer::O200kBase);
        assert_eq!(Tokenizer::openai("gpt-4"), Tokenizer::Cl100kBase);
        assert_eq!(Tokenizer::openai("gpt-4-turbo"), Tokenizer::Cl100kBase);
        assert_eq!(Tokenizer::openai("gpt-3.5-turbo"), Tokenizer::Cl100kBase);
    }
}
