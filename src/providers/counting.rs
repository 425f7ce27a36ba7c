//! Prompt tokens as the provider counts them, for free and without generating anything:
//! Anthropic's `POST /v1/messages/count_tokens`, Gemini's `models/{model}:countTokens`, the
//! `/tokenize` of an OpenAI-compatible server at its root (llama.cpp after `/apply-template`,
//! vLLM with the messages), OpenAI's own vocabulary offline. Each wire file says which one it
//! has ([`super::adapter::WireApi::counting`]); the requests and replies of each live here.

use super::http::{Endpoint, join};
use super::served::Served;
use super::{ProviderError, Request};
use crate::tokens::Tokenizer;
use serde_json::{Value, json};
use std::sync::OnceLock;

/// How one wire API counts prompt tokens.
pub enum Counting {
    /// Anthropic `POST {base}/v1/messages/count_tokens`: the Messages body without the
    /// generation settings; the reply's `input_tokens`.
    Anthropic(Endpoint),
    /// Gemini `POST {base}/v1beta/models/{model}:countTokens`: the `generateContent` body as
    /// `generateContentRequest`; the reply's `totalTokens`.
    Gemini(Endpoint),
    /// `POST {root}/tokenize` of an OpenAI-compatible server, whose base URL usually ends in
    /// `/v1` while `/tokenize` sits at the server's root.
    Tokenize(Tokenize),
    /// OpenAI's own vocabulary, offline, with the chat format's framing tokens.
    Offline(Tokenizer),
    /// No counter, and why.
    Missing(String),
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

impl Counting {
    /// What the counts rest on, in words (`anthropic count_tokens`).
    pub fn basis(&self) -> String {
        match self {
            Counting::Anthropic(_) => "anthropic count_tokens".into(),
            Counting::Gemini(_) => "gemini countTokens".into(),
            Counting::Tokenize(t) => public(&join(&t.root_url, "/tokenize")),
            Counting::Offline(t) => format!("{}, offline", t.name()),
            Counting::Missing(why) => format!("no counter: {why}"),
        }
    }

    /// Whether the counts come from the provider's own servers (not an offline vocabulary).
    pub fn remote(&self) -> bool {
        matches!(
            self,
            Counting::Anthropic(_) | Counting::Gemini(_) | Counting::Tokenize(_)
        )
    }

    /// The prompt tokens of `req`, whose request body to the model is `body` (the wire's own),
    /// for `model`.
    pub async fn count(
        &self,
        model: &str,
        req: &Request<'_>,
        body: &Value,
    ) -> Result<u64, ProviderError> {
        match self {
            Counting::Anthropic(ep) => {
                let reply = ep.post(&anthropic_body(body)).await?;
                number(&reply.body, "input_tokens")
            }
            Counting::Gemini(ep) => {
                let mut inner = body.clone();
                inner["model"] = json!(format!("models/{}", bare(model)));
                let reply = ep.post(&json!({ "generateContentRequest": inner })).await?;
                number(&reply.body, "totalTokens")
            }
            Counting::Tokenize(t) => t.count(model, body).await,
            Counting::Offline(t) => Ok(offline(*t, req)),
            Counting::Missing(why) => Err(ProviderError::BadPrompt(why.clone())),
        }
    }
}

impl Tokenize {
    /// Counts the chat `body`'s messages as the server's chat endpoint would.
    async fn count(&self, model: &str, body: &Value) -> Result<u64, ProviderError> {
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
    pub async fn served_window(&self, model: &str) -> Option<Served> {
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

/// The Messages body with only the fields count_tokens takes (it refuses `max_tokens`,
/// `temperature` and the other generation settings).
fn anthropic_body(body: &Value) -> Value {
    const KEEP: [&str; 6] = [
        "model",
        "messages",
        "system",
        "thinking",
        "tools",
        "tool_choice",
    ];
    let mut out = serde_json::Map::new();
    for k in KEEP {
        if let Some(v) = body.get(k) {
            out.insert(k.to_string(), v.clone());
        }
    }
    Value::Object(out)
}

/// Tokens of `req` under OpenAI's chat format, offline: each message costs 3 tokens of framing
/// plus its role and content, and the reply is primed with 3 more (OpenAI's cookbook,
/// "How to count tokens with tiktoken").
fn offline(t: Tokenizer, req: &Request<'_>) -> u64 {
    let per_message: usize = req
        .messages
        .iter()
        .map(|m| 3 + t.count(&m.role) + t.count(&m.content))
        .sum();
    (per_message + 3) as u64
}

/// A model id without Gemini's `models/` prefix.
fn bare(model: &str) -> &str {
    model.strip_prefix("models/").unwrap_or(model)
}

/// A URL as it may be shown (no user info or query).
fn public(url: &str) -> String {
    super::http::public_url(url)
}

/// The count at `key` of a reply body.
fn number(body: &Value, key: &str) -> Result<u64, ProviderError> {
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

    #[test]
    fn count_tokens_gets_no_generation_settings() {
        let body = json!({"model": "m", "messages": [], "max_tokens": 5, "temperature": 0.0,
                          "thinking": {"type": "adaptive"}, "output_config": {"effort": "low"}});
        let b = anthropic_body(&body);
        assert_eq!(
            b,
            json!({"model": "m", "messages": [], "thinking": {"type": "adaptive"}})
        );
    }
}
