//! Matching a model id against a table's row ids: one rule shared by capabilities, windows and prices.
//! A table row is keyed by the provider family ([`Api`]) and its ids.

/// The provider family a row belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    /// Anthropic Messages.
    Anthropic,
    /// OpenAI Chat Completions and Responses.
    OpenAi,
    /// Google Gemini.
    Gemini,
}

/// Whether `rest` (what follows a row id in a model id) is a snapshot of that same model.
fn snapshot(rest: &str) -> bool {
    let Some(tag) = rest.strip_prefix('-') else {
        return rest.is_empty();
    };
    let first = tag.split('-').next().unwrap_or("");
    // A date or build number (`20250514`, `2024`, `001`), never a version step like `-6`.
    (first.len() >= 3 && first.bytes().all(|b| b.is_ascii_digit()))
        || tag == "latest"
        || tag.starts_with("preview")
        || tag.starts_with("exp")
}

/// How well `id` (a row id) matches `model`: the matched length, or None. Exact ids match
/// themselves and their dated snapshots only; an id ending in `*` is a prefix.
fn score(id: &str, model: &str) -> Option<usize> {
    match id.strip_suffix('*') {
        Some(prefix) => model.starts_with(prefix).then_some(prefix.len()),
        None => model
            .strip_prefix(id)
            .filter(|rest| snapshot(rest))
            .map(|_| id.len()),
    }
}

/// The row of `rows` whose ids match `model` longest (ids scored by `score`); None when no
/// row matches. A `models/` prefix (Gemini's) is ignored.
pub(crate) fn longest<'a, T>(
    rows: impl IntoIterator<Item = &'a T>,
    ids: impl Fn(&T) -> &[&'static str],
    model: &str,
) -> Option<&'a T> {
    let model = model.strip_prefix("models/").unwrap_or(model);
    rows.into_iter()
        .filter_map(|r| Some((ids(r).iter().filter_map(|id| score(id, model)).max()?, r)))
        .max_by_key(|(n, _)| *n)
        .map(|(_, r)| r)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROWS: &[(&str, &[&str])] = &[
        ("gpt-4o", &["gpt-4o"]),
        ("gpt-4o-mini", &["gpt-4o-mini"]),
        ("gpt-5.x", &["gpt-5.*"]),
        ("gemini", &["gemini-2.5-pro", "gemini-2.5-flash"]),
    ];

    fn row(model: &str) -> Option<&'static str> {
        longest(ROWS.iter(), |r| r.1, model).map(|r| r.0)
    }

    #[test]
    fn the_longest_matching_id_wins_and_snapshots_match_their_family() {
        assert_eq!(row("gpt-4o"), Some("gpt-4o"));
        assert_eq!(row("gpt-4o-2024-08-06"), Some("gpt-4o"));
        assert_eq!(row("gpt-4o-mini-2024-07-18"), Some("gpt-4o-mini"));
        assert_eq!(row("gpt-5.2"), Some("gpt-5.x"));
        assert_eq!(row("models/gemini-2.5-flash"), Some("gemini"));
        assert_eq!(row("gemini-2.5-flash-preview-05-20"), Some("gemini"));
        assert_eq!(row("gemini-2.5-flash-latest"), Some("gemini"));
    }

    #[test]
    fn a_version_step_or_another_model_matches_no_row() {
        assert_eq!(row("gpt-4o-6"), None);
        assert_eq!(row("gpt-4"), None);
        assert_eq!(row("gpt-4omni"), None);
        assert_eq!(row("gemini-2.5-flash-lite"), None);
        assert_eq!(score("gpt-5.*", "gpt-5"), None);
        assert_eq!(score("gpt-5.*", "gpt-5.1"), Some(6));
        assert_eq!(score("gpt-4o", "gpt-4o-20240513"), Some(6));
    }
}
