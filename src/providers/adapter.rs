//! The one `Provider` every HTTP wire API shares: settings, endpoint, key check and the
//! request/response round trip live here once; each wire file implements only [`WireApi`] —
//! where to send, what to send, how to read the answer.

use super::batch::{BatchApi, Caps, Item, Outcome, Protocol, Raw, Status, Transport};
use super::counting::TokenCounter;
use super::http::{Endpoint, Secret};
use super::{ModelConfig, Provider, ProviderError, Request, Response};
use crate::UsageError;
use serde_json::Value;
use std::time::Duration;

/// What differs between wire APIs.
pub(super) trait WireApi: Send + Sync {
    /// Whether the API caches prompt prefixes, so a warm-up call pays off.
    fn caches_prompts(&self) -> bool;
    /// The endpoint for `cfg` under `base`: path, extra headers and the auth header.
    fn endpoint(
        &self,
        cfg: &ModelConfig,
        base: &str,
        timeout: Duration,
        key: Option<Secret>,
    ) -> Result<Endpoint, ProviderError>;
    /// The JSON request body.
    fn body(&self, cfg: &ModelConfig, req: &Request) -> Value;
    /// Answer text, usage and finish reason from a 2xx reply body (status and request id are
    /// filled in by the caller).
    fn parse(&self, body: &Value) -> Result<Response, ProviderError>;
    /// A request id carried in the body, when the API sends none as a header.
    fn body_request_id(&self, _body: &Value) -> Option<String> {
        None
    }
    /// The provider's batch API, if it has one.
    fn protocol(&self) -> Option<Box<dyn Protocol>> {
        None
    }
    /// How the provider counts prompt tokens (see `counting`), given its chat endpoint.
    fn counting(
        &self,
        cfg: &ModelConfig,
        base: &str,
        chat: &Endpoint,
    ) -> Result<Box<dyn TokenCounter>, String>;
    /// Whether `body` carries a structured-output schema for this API, or why not.
    fn structured_output(&self) -> Result<(), String>;
}

/// A model behind one wire API.
pub(super) struct Http {
    /// Its name in `--provider` and the run log (the wire table's).
    name: &'static str,
    wire: Box<dyn WireApi>,
    cfg: ModelConfig,
    endpoint: Endpoint,
    /// The batch API and where to reach it, when the wire API has one.
    batch: Option<(Box<dyn Protocol>, Transport)>,
    /// The variable to set, when the API needs a key and none was found.
    missing_key: Option<String>,
    /// How its prompt tokens are counted, or why they cannot be.
    counting: Result<Box<dyn TokenCounter>, String>,
}

impl Http {
    /// Binds `cfg.model` at `base`; `key_required` makes a missing key an error at run time.
    pub(super) fn new(
        name: &'static str,
        wire: Box<dyn WireApi>,
        cfg: &ModelConfig,
        base: &str,
        key: Option<Secret>,
        key_env: Option<String>,
        key_required: bool,
    ) -> Result<Self, UsageError> {
        let timeout = Duration::from_secs_f64(cfg.timeout_secs.unwrap_or(600.0).max(0.001));
        let missing_key = (key_required && key.is_none())
            .then(|| key_env.unwrap_or_else(|| "the API key".into()));
        let endpoint = wire
            .endpoint(cfg, base, timeout, key)
            .map_err(|e| UsageError::new(e.to_string()))?;
        let batch = wire.protocol().map(|p| {
            let t = Transport {
                endpoint: endpoint.clone(),
                base: base.to_string(),
                model: cfg.model.clone(),
            };
            (p, t)
        });
        let counting = wire.counting(cfg, base, &endpoint);
        Ok(Self {
            name,
            wire,
            cfg: cfg.clone(),
            endpoint,
            batch,
            missing_key,
            counting,
        })
    }

    /// The settings of one call: a suite may set its own output limit and temperature (an
    /// analysis task does, as TeaLeaf's runner does). Thinking tokens count in the output limit, so a thinking
    /// budget comes on top of the task's limit; whether the temperature is sent at all is the
    /// wire body's decision (`capabilities::temperature_allowed`).
    fn call_config(&self, req: &Request) -> std::borrow::Cow<'_, ModelConfig> {
        let own = req.settings;
        if own == super::CallSettings::default() {
            return std::borrow::Cow::Borrowed(&self.cfg);
        }
        std::borrow::Cow::Owned(ModelConfig {
            max_tokens: own
                .max_tokens
                .map(|m| m + self.cfg.thinking_budget.unwrap_or(0))
                .or(self.cfg.max_tokens),
            temperature: own.temperature.or(self.cfg.temperature),
            ..self.cfg.clone()
        })
    }

    fn protocol(&self) -> Result<&(Box<dyn Protocol>, Transport), ProviderError> {
        self.batch
            .as_ref()
            .ok_or_else(|| ProviderError::BadPrompt(format!("{} has no batch API", self.name)))
    }
}

#[async_trait::async_trait]
impl Provider for Http {
    fn name(&self) -> &str {
        self.name
    }

    fn model(&self) -> &str {
        &self.cfg.model
    }

    fn params(&self) -> Value {
        self.cfg.params()
    }

    fn url(&self) -> Option<String> {
        Some(self.endpoint.public_url())
    }

    fn preview(&self, req: &Request<'_>) -> Option<Value> {
        Some(self.wire.body(&self.call_config(req), req))
    }

    fn structured_output(&self) -> Result<(), String> {
        self.wire.structured_output()
    }

    fn caches_prompts(&self) -> bool {
        self.wire.caches_prompts()
    }

    fn batch(&self) -> Option<&dyn BatchApi> {
        self.batch.as_ref().map(|_| self as &dyn BatchApi)
    }

    fn ready(&self) -> Result<(), ProviderError> {
        match &self.missing_key {
            Some(env) => Err(ProviderError::MissingKey(env.clone())),
            None => Ok(()),
        }
    }

    fn counter(&self) -> Result<String, String> {
        match &self.counting {
            Ok(c) => Ok(c.basis()),
            Err(why) => Err(why.clone()),
        }
    }

    async fn count_tokens(&self, req: &Request<'_>) -> Result<u64, ProviderError> {
        let counter = match &self.counting {
            Ok(c) => c,
            Err(why) => return Err(ProviderError::BadPrompt(why.clone())),
        };
        if counter.remote() {
            self.ready()?;
        }
        let cfg = self.call_config(req);
        let body = self.wire.body(&cfg, req);
        counter.count(&cfg, req, &body).await
    }

    async fn served_window(&self) -> Option<super::Served> {
        match &self.counting {
            Ok(c) if self.ready().is_ok() => c.served_window(&self.cfg.model).await,
            _ => None,
        }
    }

    async fn complete(&self, req: &Request<'_>) -> Result<Response, ProviderError> {
        self.ready()?;
        let cfg = self.call_config(req);
        let reply = self.endpoint.post(&self.wire.body(&cfg, req)).await?;
        let mut resp = self.wire.parse(&reply.body)?;
        resp.served_model = super::served_model(&reply.body);
        resp.server = super::server_timings(&reply.body);
        resp.request_id = reply
            .request_id
            .or_else(|| self.wire.body_request_id(&reply.body));
        resp.status = Some(reply.status);
        Ok(resp)
    }
}

#[async_trait::async_trait]
impl BatchApi for Http {
    fn caps(&self) -> Caps {
        self.batch.as_ref().map_or(
            Caps {
                requests: 0,
                bytes: 0,
            },
            |(p, _)| p.caps(),
        )
    }

    fn body(&self, req: &Request<'_>) -> Value {
        self.wire.body(&self.call_config(req), req)
    }

    fn item_bytes(&self, item: &Item) -> usize {
        self.batch.as_ref().map_or(0, |(p, _)| p.item_bytes(item))
    }

    async fn submit(&self, items: &[Item]) -> Result<String, ProviderError> {
        self.ready()?;
        let (p, t) = self.protocol()?;
        p.submit(t, items).await
    }

    async fn poll(&self, id: &str) -> Result<Status, ProviderError> {
        let (p, t) = self.protocol()?;
        p.poll(t, id).await
    }

    async fn results(
        &self,
        status: &Status,
    ) -> Result<Vec<(Option<String>, Outcome)>, ProviderError> {
        let (p, t) = self.protocol()?;
        let raw = p.results(t, status).await?;
        Ok(raw
            .into_iter()
            .map(|(id, r)| {
                let outcome = match r {
                    Raw::Reply(body, request_id) => match self.wire.parse(&body) {
                        Ok(mut resp) => {
                            resp.status = Some(200);
                            resp.served_model = super::served_model(&body);
                            resp.server = super::server_timings(&body);
                            resp.request_id =
                                request_id.or_else(|| self.wire.body_request_id(&body));
                            Outcome::Answer(resp)
                        }
                        Err(e) => Outcome::Failed(e),
                    },
                    Raw::Failed(e) => Outcome::Failed(e),
                    Raw::Expired => Outcome::Expired,
                    Raw::Canceled => Outcome::Canceled,
                };
                (id, outcome)
            })
            .collect())
    }

    async fn cancel(&self, id: &str) -> Result<(), ProviderError> {
        let (p, t) = self.protocol()?;
        p.cancel(t, id).await
    }
}
