//! Fenced blocks read back out of a prompt: the one parser under both the data block of a
//! lookup prompt (after its header, [`super::parse_data_block`]) and the first fenced block of
//! a prompt without that header (a task's data, shown by `bench view`).

/// A fenced block read back.
#[derive(Debug, PartialEq)]
pub struct Fenced<'a> {
    /// The opening line's info string, trimmed (`json`, or empty).
    pub info: &'a str,
    /// The text between the opening line and the closing one (or the text's end).
    pub body: &'a str,
    /// Whether a line holding only the fence closed it (else the body runs to the text's end).
    pub closed: bool,
}

/// The fenced block `text` opens with: its run of backticks and info string up to the first
/// newline, then the body up to the first line that is the same fence alone. The search starts
/// at the opening line's newline, so an empty block closes at once.
pub fn read(text: &str) -> Option<Fenced<'_>> {
    let ticks = text.bytes().take_while(|&b| b == b'`').count();
    let nl = text.find('\n')?;
    let info = text[ticks..nl].trim();
    let rest = &text[nl..];
    let closing = format!("\n{}", &text[..ticks]);
    // A closing line is the fence alone: a newline or the text's end follows it.
    let close = rest.match_indices(&closing).map(|(i, _)| i).find(|&i| {
        let after = &rest[i + closing.len()..];
        after.is_empty() || after.starts_with('\n')
    });
    Some(match close {
        Some(i) => Fenced {
            info,
            body: &text[(nl + 1).min(nl + i)..nl + i],
            closed: true,
        },
        None => Fenced {
            info,
            body: &text[nl + 1..],
            closed: false,
        },
    })
}

/// The first fenced block of a prompt (a task's data): its info string and text, the text
/// running to the prompt's end when no fence closes it.
pub fn first_fenced(prompt: &str) -> Option<(&str, &str)> {
    let open = prompt.find("```")?;
    read(&prompt[open..]).map(|f| (f.info, f.body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_fenced_finds_a_tasks_data_block() {
        let p = "Evaluate:\n\n```json\n{\"a\":1}\n```\n\nThen say.";
        assert_eq!(first_fenced(p), Some(("json", "{\"a\":1}")));
        // Unclosed: the rest of the prompt; a longer run of backticks does not close it.
        assert_eq!(
            first_fenced("x ```csv \na,b\n````\n1,2"),
            Some(("csv", "a,b\n````\n1,2"))
        );
        // No fence, or no line after it: nothing.
        assert_eq!(first_fenced("no fence here"), None);
        assert_eq!(first_fenced("```json"), None);
    }

    #[test]
    fn a_block_closes_at_its_own_fence_alone() {
        let f = read("````yaml\na: ```b```\n```\n````\nafter").unwrap();
        assert_eq!(f.info, "yaml");
        assert_eq!(f.body, "a: ```b```\n```");
        assert!(f.closed);
        // Empty, and closed at the text's end.
        let empty = read("```\n```").unwrap();
        assert_eq!((empty.body, empty.closed), ("", true));
        assert_eq!(read("```x\nbody\n```").unwrap().body, "body");
        // Without a closing line, the body runs to the end and says so.
        let open = read("```\nbody\n``` not alone").unwrap();
        assert_eq!((open.body, open.closed), ("body\n``` not alone", false));
    }
}
