//! What a result line carries of a large rendering. Each line is one JSON object, and DuckDB
//! reads objects up to 16 MiB (`maximum_object_size`): a prompt holding 20,000 product records
//! made lines of 15–25 MB that the views could not read, and every call repeated them. The
//! rendering is saved once beside the log (`<suite>/data/…`, listed with its sha256 in
//! `metadata.json`), so a line names it by its hash instead.

use crate::prompt::Message;
use std::borrow::Cow;

/// Renderings up to this many bytes are kept in `sample.input` as sent (with the rest of a
/// prompt and the reply, a line stays well under DuckDB's 16 MiB).
pub const INLINE_DATA_MAX: usize = 4 << 20;

/// The messages as a result line logs them: as sent, or, when `data` (the rendering the
/// prompt holds) is over [`INLINE_DATA_MAX`], with each copy of it replaced by one line naming
/// its size and sha256 (the hash `metadata.json` lists the saved file with).
pub fn logged_input(messages: Vec<Message>, data: &str) -> Vec<Message> {
    let Cow::Owned(mark) = as_logged(data) else {
        return messages;
    };
    messages
        .into_iter()
        .map(|m| {
            if m.content.contains(data) {
                Message {
                    content: m.content.replace(data, &mark),
                    ..m
                }
            } else {
                m
            }
        })
        .collect()
}

/// A rendering as result lines hold it: itself up to [`INLINE_DATA_MAX`] bytes, else the line
/// that stands for it.
pub fn as_logged(data: &str) -> Cow<'_, str> {
    if data.len() <= INLINE_DATA_MAX {
        return Cow::Borrowed(data);
    }
    Cow::Owned(format!(
        "[rendering not repeated in the run log: {} bytes, sha256 {}]",
        data.len(),
        crate::layout::sha256_hex(data.as_bytes())
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_rendering_is_named_not_repeated() {
        let small = "id,name\n1,a\n";
        let msgs = vec![Message::new(
            "user",
            &format!("Data:\n```csv\n{small}```\nQ1"),
        )];
        assert_eq!(logged_input(msgs.clone(), small), msgs);
        let big = "1,a\n".repeat(INLINE_DATA_MAX / 4 + 1);
        let msgs = vec![
            Message::new("system", "be brief"),
            Message::new("user", &format!("Data:\n```csv\n{big}```\nQ1: how many?")),
        ];
        let logged = logged_input(msgs.clone(), &big);
        assert_eq!(logged[0], msgs[0]);
        let text = &logged[1].content;
        assert!(text.len() < 300, "{text}");
        assert!(
            text.starts_with("Data:\n```csv\n[rendering not repeated"),
            "{text}"
        );
        assert!(text.contains(&format!("{} bytes", big.len())), "{text}");
        let hash = crate::layout::sha256_hex(big.as_bytes());
        assert!(text.contains(&format!("sha256 {hash}]")), "{text}");
        assert!(text.ends_with("```\nQ1: how many?"), "{text}");
    }
}
