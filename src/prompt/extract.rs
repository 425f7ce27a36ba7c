//! Finds the JSON answer object in model output: bare, inside code fences, or inside prose.

use serde_json::{Map, Value};

/// The answer object, or `None` when no JSON object can be found. Prefers a fenced block, then
/// the whole text, then the first balanced `{…}` that parses; among several, the last wins
/// (models often restate the question before answering).
pub fn extract_answers(output: &str) -> Option<Map<String, Value>> {
    let trimmed = output.trim();
    if let Ok(Value::Object(o)) = serde_json::from_str(trimmed) {
        return Some(o);
    }
    let fenced = fenced_blocks(output).into_iter().rev().find_map(|b| {
        match serde_json::from_str(b.trim()) {
            Ok(Value::Object(o)) => Some(o),
            _ => None,
        }
    });
    fenced.or_else(|| {
        balanced_objects(output)
            .into_iter()
            .rev()
            .find_map(|s| match serde_json::from_str(s) {
                Ok(Value::Object(o)) => Some(o),
                _ => None,
            })
    })
}

/// The answers of a reply that hit the output-token limit: a complete answer object if there
/// is one, else every complete `"id": value` pair of the object it was cut inside (the last
/// one opened and never closed), so what was answered before the cut still counts.
pub fn extract_cut_answers(output: &str) -> Option<Map<String, Value>> {
    extract_answers(output).or_else(|| {
        let start = open_object(output)?;
        let text = &output[start..];
        // Cut before each top-level comma, longest first, and close the object there.
        cut_points(text).into_iter().rev().find_map(|cut| {
            match serde_json::from_str(&format!("{}}}", &text[..cut])) {
                Ok(Value::Object(o)) if !o.is_empty() => Some(o),
                _ => None,
            }
        })
    })
}

/// Where the last top-level `{` that is never closed starts.
fn open_object(text: &str) -> Option<usize> {
    let (mut depth, mut start, mut in_str, mut escaped) = (0usize, None, false, false);
    for (i, b) in text.bytes().enumerate() {
        if in_str {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' if depth > 0 => in_str = true,
            b'{' => {
                if depth == 0 {
                    start = Some(i);
                }
                depth += 1;
            }
            b'}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    start = None;
                }
            }
            _ => {}
        }
    }
    start.filter(|_| depth > 0)
}

/// Byte offsets of the commas directly inside the object `text` opens: the ends of its
/// complete pairs (the pair after the last comma may be cut, so it never counts).
fn cut_points(text: &str) -> Vec<usize> {
    let (mut depth, mut in_str, mut escaped) = (0usize, false, false);
    let mut out = Vec::new();
    for (i, b) in text.bytes().enumerate() {
        if in_str {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b',' if depth == 1 => out.push(i),
            _ => {}
        }
    }
    out
}

/// Contents of ``` fenced blocks (any info string).
fn fenced_blocks(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("```") {
        let after = &rest[open + 3..];
        let Some(nl) = after.find('\n') else { break };
        let body = &after[nl + 1..];
        let Some(close) = body.find("```") else { break };
        out.push(&body[..close]);
        rest = &body[close + 3..];
    }
    out
}

/// Top-level balanced `{…}` spans, skipping braces inside JSON strings.
fn balanced_objects(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let (mut depth, mut start, mut in_str, mut escaped) = (0usize, 0usize, false, false);
    for (i, &b) in bytes.iter().enumerate() {
        if in_str {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' if depth > 0 => in_str = true,
            b'{' => {
                if depth == 0 {
                    start = i;
                }
                depth += 1;
            }
            b'}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push(&text[start..=i]);
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_json_bare_fenced_and_in_prose() {
        assert_eq!(extract_answers(r#" {"q001": 1} "#).unwrap()["q001"], 1);
        let fenced = "Here you go:\n```json\n{\"q001\": \"a}b\"}\n```\nDone.";
        assert_eq!(extract_answers(fenced).unwrap()["q001"], "a}b");
        let prose = "The answers are {\"q001\": [1, 2], \"q002\": {\"x\": null}} as requested.";
        let a = extract_answers(prose).unwrap();
        assert_eq!(a["q001"], serde_json::json!([1, 2]));
        let two = "Template {\"q001\": null}. Answer: {\"q001\": 5}";
        assert_eq!(extract_answers(two).unwrap()["q001"], 5);
    }

    #[test]
    fn a_cut_reply_keeps_its_complete_pairs() {
        let a = extract_cut_answers("```json\n{\"q001\": 3, \"q002\": \"a, b\", \"q0").unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!(a["q001"], 3);
        assert_eq!(a["q002"], "a, b", "a comma inside a string is no cut");
        // A number cut at the limit may be short of digits: it is not kept.
        let a = extract_cut_answers("{\"q001\": [1, 2], \"q002\": 12").unwrap();
        assert_eq!(a.len(), 1);
        assert_eq!(a["q001"], serde_json::json!([1, 2]));
        // A whole object wins; nothing complete is None.
        assert_eq!(extract_cut_answers("{\"q001\": 1}").unwrap()["q001"], 1);
        assert!(extract_cut_answers("{\"q001\": 12").is_none());
        assert!(extract_cut_answers("<|im_start|>assistant").is_none());
        // An earlier closed object (a template) does not hide the cut one.
        let a = extract_cut_answers("e.g. {\"q001\": null}. {\"q001\": 5, \"q002\"").unwrap();
        assert_eq!(
            a["q001"],
            serde_json::json!(null),
            "the closed object is complete"
        );
    }

    #[test]
    fn nothing_parseable_is_none() {
        assert!(extract_answers("I cannot answer that.").is_none());
        assert!(extract_answers("{\"q001\": 1").is_none(), "truncated");
        assert!(extract_answers("[1, 2, 3]").is_none(), "not an object");
        assert!(extract_answers("").is_none());
    }
}
