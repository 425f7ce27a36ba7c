//! How a provider call fails, and what the runner makes of each failure.

use std::time::Duration;

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
