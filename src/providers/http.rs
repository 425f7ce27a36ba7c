//! What every wire API shares: one POST of a JSON body, classification of the outcome into
//! retryable / fatal errors, the wait a server asks for, and redaction of secrets.

use super::ProviderError;
use super::unreachable::ConnectFault;
use super::urls::origin;
pub use super::urls::public_url;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde_json::Value;
use std::time::Duration;

/// An API key; never printed, never serialized.
#[derive(Clone)]
pub struct Secret(String);

impl Secret {
    /// Wraps a key.
    pub fn new(key: String) -> Self {
        Self(key)
    }

    /// The key itself, for a request header only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("[redacted]")
    }
}

/// `base` with `path` appended to its path, keeping any query string after it. When the base
/// already ends with the API version the path starts with (`…/v1` and `/v1/messages`, `…/v1beta`
/// and `/v1beta/models/…`), the version is written once: both spellings of a base URL work.
pub fn join(base: &str, path: &str) -> String {
    let joined = |base_path: &str| {
        let base_path = base_path.trim_end_matches('/');
        let last = base_path.rsplit('/').next().unwrap_or_default();
        let first = path
            .trim_start_matches('/')
            .split('/')
            .next()
            .unwrap_or_default();
        if is_version(last) && last == first {
            format!(
                "{base_path}{}",
                &path[path.find(first).unwrap_or(0) + first.len()..]
            )
        } else {
            format!("{base_path}{path}")
        }
    };
    match reqwest::Url::parse(base) {
        Ok(mut u) => {
            let p = joined(u.path());
            u.set_path(&p);
            u.to_string()
        }
        Err(_) => joined(base),
    }
}

/// Whether a path segment names an API version: `v1`, `v2`, `v1beta`, `v1alpha1`.
fn is_version(segment: &str) -> bool {
    segment
        .strip_prefix('v')
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        && segment.chars().all(|c| c.is_ascii_alphanumeric())
}

/// One endpoint of one provider: the URL, the headers (auth included, marked sensitive) and
/// the key, so that anything it returns can be scrubbed of it.
#[derive(Clone)]
pub struct Endpoint {
    client: reqwest::Client,
    url: String,
    headers: HeaderMap,
    secrets: Vec<String>,
}

/// What a successful POST returned besides the body.
pub struct Reply {
    /// Parsed JSON body.
    pub body: Value,
    /// HTTP status.
    pub status: u16,
    /// The provider's request id, if it sent one.
    pub request_id: Option<String>,
}

/// The largest reply bench reads, bytes: a chat reply of 128k output tokens is under 1 MiB.
pub const REPLY_LIMIT: usize = 16 << 20;

/// The largest batch result file bench reads, bytes.
pub const FILE_LIMIT: usize = 1 << 30;

/// Header names providers use for their request id.
const REQUEST_ID_HEADERS: [&str; 3] = ["request-id", "x-request-id", "x-goog-request-id"];

impl Endpoint {
    /// An endpoint at `url` with `timeout` per request.
    pub fn new(url: String, timeout: Duration) -> Result<Self, ProviderError> {
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout.min(Duration::from_secs(30)))
            .user_agent(concat!("bench/", env!("CARGO_PKG_VERSION")))
            // A redirect to another host would carry x-api-key / x-goog-api-key along.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| ProviderError::Connection(format!("cannot build HTTP client: {e}")))?;
        // Query values and user info of a configured URL may be keys: scrub them from errors.
        let mut secrets = Vec::new();
        if let Ok(u) = reqwest::Url::parse(&url) {
            secrets.extend(u.query_pairs().map(|(_, v)| v.into_owned()));
            secrets.extend(u.password().map(str::to_string));
        }
        secrets.retain(|s| s.len() >= 8);
        Ok(Self {
            client,
            url,
            headers: HeaderMap::new(),
            secrets,
        })
    }

    /// Adds a plain header.
    pub fn header(mut self, name: &'static str, value: &str) -> Self {
        if let Ok(v) = HeaderValue::from_str(value) {
            self.headers.insert(HeaderName::from_static(name), v);
        }
        self
    }

    /// Adds the auth header `name: prefix+key`, marked sensitive so no debug output shows it.
    pub fn auth(mut self, name: &'static str, prefix: &str, key: Option<Secret>) -> Self {
        if let Some(k) = &key
            && let Ok(mut v) = HeaderValue::from_str(&format!("{prefix}{}", k.expose()))
        {
            v.set_sensitive(true);
            self.headers.insert(HeaderName::from_static(name), v);
        }
        if let Some(k) = key {
            self.secrets.push(k.expose().to_string());
        }
        self
    }

    /// The URL as recorded in results.
    pub fn public_url(&self) -> String {
        public_url(&self.url)
    }

    /// Removes the key from any text that leaves this module.
    pub(crate) fn scrub(&self, text: &str) -> String {
        self.secrets
            .iter()
            .filter(|s| !s.is_empty())
            .fold(text.to_string(), |t, s| t.replace(s.as_str(), "[redacted]"))
    }

    /// POSTs `body` and classifies the outcome.
    pub async fn post(&self, body: &Value) -> Result<Reply, ProviderError> {
        let req = self.client.post(&self.url).json(body);
        let (status, request_id, text) = self.send(req).await?;
        Ok(Reply {
            body: self.json(&text)?,
            status,
            request_id,
        })
    }

    /// This endpoint's client, headers and secrets at another URL (the same API's other
    /// paths: batch creation, polling, result files).
    pub fn at(&self, url: String) -> Endpoint {
        let mut e = self.clone();
        e.url = url;
        e
    }

    /// GETs a JSON body.
    pub async fn get(&self) -> Result<Reply, ProviderError> {
        let (status, request_id, text) = self.send(self.client.get(&self.url)).await?;
        Ok(Reply {
            body: self.json(&text)?,
            status,
            request_id,
        })
    }

    /// GETs a body as text (JSONL result files, up to [`FILE_LIMIT`]).
    pub async fn get_text(&self) -> Result<String, ProviderError> {
        let req = self.client.get(&self.url);
        Ok(self.send_limited(req, FILE_LIMIT).await?.2)
    }

    /// POSTs a multipart form: text `fields`, then one file part `file` named `file_name`.
    pub async fn post_file(
        &self,
        fields: &[(&'static str, &str)],
        file_name: &str,
        bytes: Vec<u8>,
    ) -> Result<Reply, ProviderError> {
        let mut form = reqwest::multipart::Form::new();
        for (k, v) in fields {
            form = form.text(*k, v.to_string());
        }
        let part = reqwest::multipart::Part::bytes(bytes)
            .file_name(file_name.to_string())
            .mime_str("application/jsonl")
            .map_err(|e| ProviderError::Connection(format!("bad upload type: {e}")))?;
        form = form.part("file", part);
        let req = self.client.post(&self.url).multipart(form);
        let (status, request_id, text) = self.send(req).await?;
        Ok(Reply {
            body: self.json(&text)?,
            status,
            request_id,
        })
    }

    /// [`send_limited`](Self::send_limited) with a reply's limit, [`REPLY_LIMIT`].
    async fn send(
        &self,
        req: reqwest::RequestBuilder,
    ) -> Result<(u16, Option<String>, String), ProviderError> {
        self.send_limited(req, REPLY_LIMIT).await
    }

    /// Sends with this endpoint's headers; a non-2xx status is an error carrying the
    /// server's message and wait; returns status, request id and body text. A body over
    /// `limit` bytes is not read further (a runaway or endless reply): an error, so memory
    /// stays bounded; the request timeout bounds a body that never ends.
    async fn send_limited(
        &self,
        req: reqwest::RequestBuilder,
        limit: usize,
    ) -> Result<(u16, Option<String>, String), ProviderError> {
        let mut resp = req
            .headers(self.headers.clone())
            .send()
            .await
            .map_err(|e| self.transport_error(e))?;
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        let request_id = REQUEST_ID_HEADERS
            .iter()
            .find_map(|h| headers.get(*h)?.to_str().ok().map(str::to_string));
        let mut body = Vec::new();
        while let Some(chunk) = resp.chunk().await.map_err(|e| self.transport_error(e))? {
            if body.len() + chunk.len() > limit {
                return Err(ProviderError::BadBody {
                    message: format!(
                        "the response body passed {} MiB; stopped reading it (HTTP {status})",
                        limit >> 20
                    ),
                });
            }
            body.extend_from_slice(&chunk);
        }
        let text = match String::from_utf8(body) {
            Ok(t) => t,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
        if !(200..300).contains(&status) {
            let body = ErrorBody::new(&text);
            let message = self.scrub(&body.message());
            if status == 429 && body.limit_exhausted() {
                return Err(ProviderError::LimitReached {
                    status,
                    message,
                    request_id,
                });
            }
            return Err(ProviderError::Status {
                status,
                message,
                retry_after: retry_after(&headers, status).or_else(|| body.retry_delay()),
                request_id,
            });
        }
        Ok((status, request_id, text))
    }

    /// A 2xx body as JSON, or a `BadBody` error naming how it starts.
    fn json(&self, text: &str) -> Result<Value, ProviderError> {
        serde_json::from_str(text).map_err(|e| ProviderError::BadBody {
            message: self.scrub(&format!(
                "response body is not valid JSON ({e}); it starts with {:?}",
                snippet(text, 80)
            )),
        })
    }

    fn transport_error(&self, e: reqwest::Error) -> ProviderError {
        // A connection that never opened (refused, no such host, TLS, connect timeout) is told
        // apart: before a provider has answered once it means nothing is there to ask.
        let connect = e.is_connect();
        if e.is_timeout() && !connect {
            return ProviderError::Timeout;
        }
        let body = e.is_body() || e.is_decode();
        // Display without the URL (it may carry a key), then the causes, which name the fault.
        let e = e.without_url();
        let mut msg = e.to_string();
        let mut source = std::error::Error::source(&e);
        let mut innermost = None;
        while let Some(s) = source {
            msg.push_str(": ");
            msg.push_str(&s.to_string());
            innermost = Some(s);
            source = s.source();
        }
        if connect {
            let fault = ConnectFault::of(&e, &msg, self.url.starts_with("https:"));
            let detail = innermost.map_or_else(|| msg.clone(), |s| s.to_string());
            return ProviderError::Unreachable(
                self.scrub(&fault.describe(&origin(&self.url), &detail)),
            );
        }
        let message = self.scrub(&msg);
        if body {
            ProviderError::BadBody {
                message: format!("response body cut off: {message}"),
            }
        } else {
            ProviderError::Connection(message)
        }
    }
}

/// At most `n` characters of `text`.
pub fn snippet(text: &str, n: usize) -> String {
    let mut s: String = text.chars().take(n).collect();
    if s.len() < text.len() {
        s.push('…');
    }
    s
}

/// A non-2xx body, parsed once: its message, whether it says a limit is used up, the wait it
/// asks for.
struct ErrorBody<'a> {
    text: &'a str,
    json: Option<Value>,
}

impl<'a> ErrorBody<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            text,
            json: serde_json::from_str(text).ok(),
        }
    }

    /// The `error` object of any of the providers' shapes (the body itself when it has none).
    fn error(&self) -> Option<&Value> {
        let v = self.json.as_ref()?;
        Some(v.get("error").unwrap_or(v))
    }

    /// The message in any of the providers' shapes, else the body's start; on one line
    /// (Gemini's messages hold line breaks).
    fn message(&self) -> String {
        let from_json = self.error().and_then(|e| {
            e.get("message")
                .and_then(Value::as_str)
                .or_else(|| e.as_str())
                .map(str::to_string)
        });
        let m = from_json.unwrap_or_else(|| snippet(self.text.trim(), 200));
        m.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// Whether a 429 says a limit is used up that a wait of minutes does not restore: OpenAI's
    /// `insufficient_quota` (no credit, or the monthly budget reached), Anthropic's
    /// `rate_limit_error` whose message names the spend limit ("would exceed your account's
    /// monthly spend limit"), a Gemini `QuotaFailure` on a per-day quota (a per-minute one is a
    /// rate limit and is retried).
    fn limit_exhausted(&self) -> bool {
        let Some(e) = self.error() else {
            return false;
        };
        let field = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or_default();
        if field("code") == "insufficient_quota" || field("type") == "insufficient_quota" {
            return true;
        }
        if field("message")
            .to_ascii_lowercase()
            .contains("spend limit")
        {
            return true;
        }
        let details = e.get("details").and_then(Value::as_array);
        details
            .into_iter()
            .flatten()
            .filter_map(|d| d.get("violations").and_then(Value::as_array))
            .flatten()
            .filter_map(|q| q.get("quotaId").and_then(Value::as_str))
            .any(|id| id.contains("PerDay"))
    }

    /// The wait a Gemini body asks for (`google.rpc.RetryInfo` `retryDelay`, such as `36s`).
    fn retry_delay(&self) -> Option<Duration> {
        self.json
            .as_ref()?
            .pointer("/error/details")?
            .as_array()?
            .iter()
            .find_map(|d| d.get("retryDelay")?.as_str())
            .and_then(parse_go_duration)
    }
}

/// A server-given number of seconds as a duration: negative or NaN is 0, absurd is a year.
fn seconds(s: f64) -> Duration {
    Duration::try_from_secs_f64(s.clamp(0.0, 365.0 * 86400.0)).unwrap_or(Duration::ZERO)
}

/// How long the server asks us to wait: `retry-after-ms`, `Retry-After` (seconds or an HTTP
/// date), else, on a 429 only, the latest reset time of the rate-limit buckets that are
/// exhausted (Anthropic: RFC 3339 times; OpenAI: durations such as `6m0s` or `20ms`).
pub fn retry_after(headers: &HeaderMap, status: u16) -> Option<Duration> {
    let get = |name: &str| headers.get(name)?.to_str().ok().map(str::trim);
    if let Some(ms) = get("retry-after-ms").and_then(|v| v.parse::<f64>().ok()) {
        return Some(seconds(ms / 1000.0));
    }
    if let Some(v) = get("retry-after") {
        if let Ok(s) = v.parse::<f64>() {
            return Some(seconds(s));
        }
        if let Ok(t) = chrono::DateTime::parse_from_rfc2822(v) {
            return Some(until(t.with_timezone(&chrono::Utc)));
        }
    }
    if status != 429 {
        return None;
    }
    // A bucket counts when its `remaining` header says 0, or when none says anything.
    let exhausted = |reset: &str| {
        let remaining = reset.replace("-reset", "-remaining");
        get(&remaining).is_none_or(|r| r == "0")
    };
    let mut latest: Option<Duration> = None;
    for (name, value) in headers {
        let name = name.as_str();
        let Ok(v) = value.to_str() else { continue };
        if !exhausted(name) {
            continue;
        }
        let wait = if name.starts_with("anthropic-ratelimit-") && name.ends_with("-reset") {
            chrono::DateTime::parse_from_rfc3339(v.trim())
                .ok()
                .map(|t| until(t.with_timezone(&chrono::Utc)))
        } else if name.starts_with("x-ratelimit-reset") {
            parse_go_duration(v.trim())
        } else {
            None
        };
        if let Some(w) = wait {
            latest = Some(latest.map_or(w, |l| l.max(w)));
        }
    }
    latest
}

fn until(t: chrono::DateTime<chrono::Utc>) -> Duration {
    (t - chrono::Utc::now()).to_std().unwrap_or(Duration::ZERO)
}

/// Parses durations like `1s`, `6m0s`, `20ms`, `1h2m3.5s`.
fn parse_go_duration(s: &str) -> Option<Duration> {
    let mut total = 0.0;
    let mut rest = s;
    if rest.is_empty() {
        return None;
    }
    while !rest.is_empty() {
        let num_end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
        let n: f64 = rest[..num_end].parse().ok()?;
        rest = &rest[num_end..];
        let unit_end = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        total += n * match &rest[..unit_end] {
            "h" => 3600.0,
            "m" => 60.0,
            "s" => 1.0,
            "ms" => 0.001,
            "us" | "µs" => 0.000_001,
            "ns" => 0.000_000_001,
            _ => return None,
        };
        rest = &rest[unit_end..];
    }
    Some(seconds(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(
                HeaderName::from_static(k),
                HeaderValue::from_str(v).unwrap(),
            );
        }
        h
    }

    #[test]
    fn retry_after_forms() {
        let ms = |h| retry_after(&h, 429).map(|d: Duration| d.as_millis());
        assert_eq!(ms(headers(&[("retry-after-ms", "250")])), Some(250));
        assert_eq!(
            ms(headers(&[("retry-after", "2"), ("retry-after-ms", "1500")])),
            Some(1500)
        );
        assert_eq!(ms(headers(&[("retry-after", "3")])), Some(3000));
        assert_eq!(
            ms(headers(&[
                ("x-ratelimit-reset-requests", "1s"),
                ("x-ratelimit-reset-tokens", "6m0s")
            ])),
            Some(360_000)
        );
        assert_eq!(
            ms(headers(&[("x-ratelimit-reset-tokens", "20ms")])),
            Some(20)
        );
        let soon = (chrono::Utc::now() + chrono::Duration::seconds(30)).to_rfc3339();
        let d = retry_after(
            &headers(&[("anthropic-ratelimit-requests-reset", &soon)]),
            429,
        )
        .unwrap();
        assert!((28..=30).contains(&d.as_secs()), "{d:?}");
        let date = (chrono::Utc::now() + chrono::Duration::seconds(60)).to_rfc2822();
        let d = retry_after(&headers(&[("retry-after", &date)]), 503).unwrap();
        assert!((58..=60).contains(&d.as_secs()), "{d:?}");
        assert_eq!(ms(headers(&[])), None);
        // Reset headers count only for a 429, and only for exhausted buckets.
        let resets = headers(&[
            ("x-ratelimit-reset-requests", "2s"),
            ("x-ratelimit-remaining-requests", "0"),
            ("x-ratelimit-reset-tokens", "9m"),
            ("x-ratelimit-remaining-tokens", "5000"),
        ]);
        assert_eq!(retry_after(&resets, 429), Some(Duration::from_secs(2)));
        assert_eq!(retry_after(&resets, 500), None);
        // Absurd values do not panic.
        assert!(ms(headers(&[("retry-after", "1e300")])).is_some());
        assert!(ms(headers(&[("retry-after-ms", "inf")])).is_some());
        assert_eq!(ms(headers(&[("retry-after", "-5")])), Some(0));
    }

    #[test]
    fn paths_join_before_the_query() {
        assert_eq!(
            join("https://gw.example/v1?key=K", "/chat/completions"),
            "https://gw.example/v1/chat/completions?key=K"
        );
        assert_eq!(
            join("http://localhost:11434/v1/", "/x"),
            "http://localhost:11434/v1/x"
        );
    }

    #[test]
    fn a_version_in_both_base_and_path_is_written_once() {
        assert_eq!(
            join("http://127.0.0.1:9/v1", "/v1/messages"),
            "http://127.0.0.1:9/v1/messages"
        );
        assert_eq!(
            join("https://api.anthropic.com", "/v1/messages"),
            "https://api.anthropic.com/v1/messages"
        );
        assert_eq!(
            join(
                "https://gw.example/v1beta/?key=K",
                "/v1beta/models/m:generateContent"
            ),
            "https://gw.example/v1beta/models/m:generateContent?key=K"
        );
        assert_eq!(
            join("http://localhost:8000/v1", "/chat/completions"),
            "http://localhost:8000/v1/chat/completions"
        );
        // Only a version is folded: another shared segment is a real path.
        assert_eq!(join("http://h/api", "/api/x"), "http://h/api/api/x");
        assert_eq!(join("http://h/v1", "/v1beta/x"), "http://h/v1/v1beta/x");
    }

    #[test]
    fn urls_lose_keys() {
        assert_eq!(
            public_url("https://u:p@gw.example/v1beta/models/m:generateContent?key=SECRET"),
            "https://gw.example/v1beta/models/m:generateContent"
        );
    }

    fn error_message(text: &str) -> String {
        ErrorBody::new(text).message()
    }

    #[test]
    fn spend_and_quota_limits_are_told_from_rate_limits() {
        // Bodies as the APIs send them (OpenAI's error object; Anthropic's error envelope; a
        // google.rpc.Status with QuotaFailure and RetryInfo details).
        let openai = r#"{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}"#;
        let openai_rate = r#"{"error":{"message":"Rate limit reached for gpt-5-mini on tokens per min (TPM)","type":"tokens","param":null,"code":"rate_limit_exceeded"}}"#;
        let anthropic = r#"{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed your account's monthly spend limit. Please try again later."}}"#;
        let anthropic_rate = r#"{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}"#;
        let gemini = |quota: &str| {
            format!(
                r#"{{"error":{{"code":429,"message":"You exceeded your current quota.\n* Quota exceeded","status":"RESOURCE_EXHAUSTED","details":[{{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{{"quotaId":"{quota}","quotaValue":"20"}}]}},{{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"36s"}}]}}}}"#
            )
        };
        let limit_exhausted = |t: &str| ErrorBody::new(t).limit_exhausted();
        assert!(limit_exhausted(openai));
        assert!(!limit_exhausted(openai_rate));
        assert!(limit_exhausted(anthropic));
        assert!(!limit_exhausted(anthropic_rate));
        assert!(limit_exhausted(&gemini(
            "GenerateRequestsPerDayPerProjectPerModel-FreeTier"
        )));
        let per_minute = gemini("GenerateRequestsPerMinutePerProjectPerModel-FreeTier");
        assert!(!limit_exhausted(&per_minute));
        assert!(!limit_exhausted("<html>429</html>"));
        assert_eq!(
            ErrorBody::new(&per_minute).retry_delay(),
            Some(Duration::from_secs(36))
        );
        assert_eq!(
            error_message(&per_minute),
            "You exceeded your current quota. * Quota exceeded"
        );
    }

    #[test]
    fn error_messages_from_each_shape() {
        assert_eq!(
            error_message(r#"{"type":"error","error":{"type":"x","message":"bad key"}}"#),
            "bad key"
        );
        assert_eq!(error_message(r#"{"error":"nope"}"#), "nope");
        assert_eq!(error_message("<html>502</html>"), "<html>502</html>");
    }
}
