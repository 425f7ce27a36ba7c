//! URLs as they may be shown: without the query string or user info that can carry a key.

/// A URL as it may be recorded: without query string or user info, which can carry keys.
pub fn public_url(url: &str) -> String {
    match reqwest::Url::parse(url) {
        Ok(mut u) => {
            u.set_query(None);
            let _ = u.set_username("");
            let _ = u.set_password(None);
            u.to_string()
        }
        Err(_) => url.split(['?', '#']).next().unwrap_or_default().to_string(),
    }
}

/// Scheme, host and port of `url` (the port only when it is not the scheme's default): where a
/// server should be listening, without path, query or user info.
pub fn origin(url: &str) -> String {
    match reqwest::Url::parse(url) {
        Ok(u) => u.origin().ascii_serialization(),
        Err(_) => public_url(url),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_name_where_a_server_should_listen() {
        assert_eq!(
            origin("http://127.0.0.1:11434/v1/chat/completions?key=SECRET"),
            "http://127.0.0.1:11434"
        );
        assert_eq!(
            origin("https://u:p@api.anthropic.com/v1/messages"),
            "https://api.anthropic.com"
        );
    }
}
