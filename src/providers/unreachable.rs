//! A connection that never opened, told apart and said in one line: nothing listening, a host
//! name that does not resolve, a failed TLS handshake, no answer to connect. Before a provider
//! has answered once, these mean there is nothing to ask (the runner stops it after a few tries).

/// Why a connection could not be opened.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum ConnectFault {
    /// Nothing listens at the port.
    Refused,
    /// The host name did not resolve.
    Dns,
    /// The TLS handshake failed (a plain-HTTP server at an https URL, a certificate refused).
    Tls,
    /// No answer to the connection attempt within the connect timeout.
    TimedOut,
    /// Anything else (network unreachable, a reset during connect).
    Other,
}

impl ConnectFault {
    /// The fault a connect error `e` (whose whole chain reads `chain`) shows.
    pub(super) fn of(e: &reqwest::Error, chain: &str, https: bool) -> Self {
        let mut source = std::error::Error::source(e);
        while let Some(s) = source {
            if let Some(io) = s.downcast_ref::<std::io::Error>()
                && io.kind() == std::io::ErrorKind::ConnectionRefused
            {
                return Self::Refused;
            }
            source = s.source();
        }
        let lower = chain.to_ascii_lowercase();
        if e.is_timeout() {
            Self::TimedOut
        } else if lower.contains("connection refused") {
            Self::Refused
        } else if lower.contains("dns error") || lower.contains("failed to lookup address") {
            Self::Dns
        } else if https
            && [
                "tls",
                "certificate",
                "handshake",
                "corrupt message",
                "alert",
            ]
            .iter()
            .any(|w| lower.contains(w))
        {
            Self::Tls
        } else {
            Self::Other
        }
    }

    /// One line saying what failed where (`origin` is scheme, host and port).
    pub(super) fn describe(self, origin: &str, detail: &str) -> String {
        match self {
            Self::Refused => format!(
                "nothing is listening at {origin} (connection refused): is the server running, \
                 and is this its address?"
            ),
            Self::Dns => format!("cannot find the host of {origin} ({detail})"),
            Self::Tls => format!("the TLS handshake with {origin} failed ({detail})"),
            Self::TimedOut => format!("no answer from {origin} while connecting (timed out)"),
            Self::Other => format!("cannot connect to {origin} ({detail})"),
        }
    }
}
