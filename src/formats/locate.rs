//! Finds one record in a rendering: given a format id, the rendered text and the record's
//! identifier value (`PROD-000003`, the key a question names), the byte range of that record
//! in the text, so a page can highlight what the model was asked about. One function for every
//! format family (the viewer and the report's wrong-answer section both call it).

use std::ops::Range;

/// How a format lays out its records, which decides where one ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// One record per line (CSV, TSV, PSV, JSONL, Markdown and HTML tables, TeaLeaf rows).
    Line,
    /// Nested braces: the record is the object that is an element of an array (JSON).
    Braces,
    /// Nested tags: the record is a child element of the root (XML).
    Tags,
    /// Indentation: a `- ` list item and the lines indented below it (YAML, TOON).
    Indent,
    /// A header line (`[Record 2]`, `## Record 2`) and what follows it up to the next one.
    Sections(&'static str),
}

fn layout(format: &str) -> Layout {
    match format {
        "json_compact" | "json_pretty" => Layout::Braces,
        "xml_compact" | "xml_pretty" => Layout::Tags,
        "yaml" | "toon_default" | "toon_keyfold" | "toon_v4" => Layout::Indent,
        "ini" => Layout::Sections("["),
        "markdown_kv" => Layout::Sections("## "),
        _ => Layout::Line,
    }
}

/// The byte range of the record whose identifier value is `id` in `rendering`, a text in the
/// format named `format` (a [`super::Format`] id such as `csv` or `json_pretty`). The first
/// occurrence of `id` as a whole value (not part of a longer word) decides the record. `None`
/// when `id` does not occur as a value.
pub fn locate(format: &str, rendering: &str, id: &str) -> Option<Range<usize>> {
    let at = find_value(rendering, id)?;
    let found = match layout(format) {
        Layout::Line => None,
        Layout::Braces => in_braces(rendering, at),
        Layout::Tags => in_tags(rendering, at),
        Layout::Indent => in_indent(rendering, at),
        Layout::Sections(head) => in_section(rendering, at, head),
    };
    Some(found.unwrap_or_else(|| line_at(rendering, at)))
}

/// The identifier a question asks about and its record in `rendering`: the first word of
/// `question` (digits in it, quotes and end punctuation stripped) that [`locate`] finds.
pub fn locate_asked(
    format: &str,
    rendering: &str,
    question: &str,
) -> Option<(String, Range<usize>)> {
    question
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| "\"'`“”‘’?.,;:!()[]{}".contains(c)))
        .filter(|w| w.len() > 1 && w.chars().any(|c| c.is_ascii_digit()))
        .find_map(|w| locate(format, rendering, w).map(|r| (w.to_string(), r)))
}

fn word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '-' || c == '_' || c == '.'
}

/// The first byte offset of `id` in `text` with no word character either side.
fn find_value(text: &str, id: &str) -> Option<usize> {
    if id.is_empty() {
        return None;
    }
    let mut from = 0;
    while let Some(i) = text[from..].find(id).map(|i| i + from) {
        let before = text[..i].chars().next_back();
        let after = text[i + id.len()..].chars().next();
        let ends_word = |c: Option<char>| c.is_none_or(|c| !word_char(c) || c == '.');
        // A trailing dot ends a sentence or a TOON field, not a value.
        if before.is_none_or(|c| !word_char(c)) && ends_word(after) {
            return Some(i);
        }
        from = i + id.len();
    }
    None
}

/// The line holding byte `at`, without its newline.
fn line_at(text: &str, at: usize) -> Range<usize> {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| i + at);
    start..end
}

/// The JSON object around `at` that is an element of an array.
fn in_braces(text: &str, at: usize) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let mut stack: Vec<(u8, usize)> = Vec::new();
    let mut in_string = false;
    let mut i = 0;
    // Up to the value's opening quote: the brackets open around it.
    let until = text[..at].rfind('"').unwrap_or(at);
    while i < until {
        let b = bytes[i];
        if in_string {
            match b {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
        } else {
            match b {
                b'"' => in_string = true,
                b'{' | b'[' => stack.push((b, i)),
                b'}' | b']' => {
                    stack.pop();
                }
                _ => {}
            }
        }
        i += 1;
    }
    let depth = (1..stack.len())
        .rev()
        .find(|&d| stack[d].0 == b'{' && stack[d - 1].0 == b'[')?;
    let start = stack[depth].1;
    // Forward from the opening brace to its match.
    let (mut level, mut in_string, mut j) = (0usize, false, start);
    while j < bytes.len() {
        let b = bytes[j];
        if in_string {
            match b {
                b'\\' => j += 1,
                b'"' => in_string = false,
                _ => {}
            }
        } else {
            match b {
                b'"' => in_string = true,
                b'{' | b'[' => level += 1,
                b'}' | b']' => {
                    level -= 1;
                    if level == 0 {
                        return Some(start..j + 1);
                    }
                }
                _ => {}
            }
        }
        j += 1;
    }
    None
}

/// The child element of the XML root that holds `at`.
fn in_tags(text: &str, at: usize) -> Option<Range<usize>> {
    let mut stack: Vec<usize> = Vec::new();
    let mut record: Option<usize> = None;
    let mut i = 0;
    while let Some(open) = text[i..].find('<').map(|o| o + i) {
        if open >= at && record.is_none() {
            record = Some(*stack.get(1)?);
        }
        let close = text[open..].find('>')? + open;
        let tag = &text[open..=close];
        if tag.starts_with("</") {
            stack.pop();
            if record.is_some() && stack.len() == 1 {
                return Some(record?..close + 1);
            }
        } else if !(tag.starts_with("<?") || tag.starts_with("<!") || tag.ends_with("/>")) {
            stack.push(open);
        }
        i = close + 1;
    }
    None
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// The `- ` list item (and the lines indented below it) that holds `at`.
fn in_indent(text: &str, at: usize) -> Option<Range<usize>> {
    let here = line_at(text, at);
    let line = &text[here.clone()];
    let mut start = here.start;
    let mut item_indent = indent_of(line);
    if !line.trim_start().starts_with("- ") {
        // Up to the list item this line belongs to; a parent key first means no list item.
        let mut level = item_indent;
        let mut pos = here.start;
        loop {
            if pos == 0 {
                return None;
            }
            let prev = line_at(text, pos - 1);
            let l = &text[prev.clone()];
            pos = prev.start;
            if l.trim().is_empty() || indent_of(l) >= level {
                continue;
            }
            level = indent_of(l);
            if l.trim_start().starts_with("- ") {
                start = prev.start;
                item_indent = level;
                break;
            }
            return None;
        }
    }
    // Down to the first line indented no deeper than the item's dash.
    let mut end = line_at(text, start).end;
    while end < text.len() {
        let next = line_at(text, end + 1);
        let l = &text[next.clone()];
        if !l.trim().is_empty() && indent_of(l) <= item_indent {
            break;
        }
        end = next.end;
    }
    Some(start..text[..end].trim_end().len().max(start))
}

/// From the header line (starting with `head`) before `at` up to the next header.
fn in_section(text: &str, at: usize, head: &str) -> Option<Range<usize>> {
    let is_head = |l: &str| l.starts_with(head);
    let mut start = line_at(text, at).start;
    loop {
        let l = &text[line_at(text, start)];
        if is_head(l) {
            break;
        }
        if start == 0 {
            return None;
        }
        start = line_at(text, start - 1).start;
    }
    let mut end = line_at(text, start).end;
    while end < text.len() {
        let next = line_at(text, end + 1);
        if is_head(&text[next.clone()]) {
            break;
        }
        end = next.end;
    }
    Some(start..text[..end].trim_end().len().max(start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::Structure;
    use crate::formats::Format;

    /// Every format, flat and nested (where it can hold nesting): the range found for a product
    /// holds its id and name and no other product's id.
    #[test]
    fn every_format_finds_the_record_and_only_it() {
        let ds = crate::dataset::generate(31, 42);
        for &format in Format::ALL {
            for structure in [Structure::Flat, Structure::Nested] {
                if !format.supports(structure) {
                    continue;
                }
                let doc = ds.document(crate::dataset::Variant::Mandatory, structure);
                let text = format.encode(&doc).unwrap();
                for n in [1usize, 2, 17, 31] {
                    let id = format!("PROD-{n:06}");
                    let name = doc["products"][n - 1]["name"].as_str().unwrap().to_string();
                    let r = locate(format.name(), &text, &id).unwrap_or_else(|| {
                        panic!("{} {structure:?}: {id} not found", format.name())
                    });
                    let rec = &text[r];
                    assert!(rec.contains(&id), "{}: {rec}", format.name());
                    assert!(
                        rec.contains(&name) || rec.contains(&name.replace(' ', "\\u0020")),
                        "{} {structure:?}: {id}'s name {name} not in {rec}",
                        format.name()
                    );
                    for other in [n - 1, n + 1].into_iter().filter(|o| (1..=31).contains(o)) {
                        let other = format!("PROD-{other:06}");
                        assert!(
                            !rec.contains(&other),
                            "{} {structure:?}: {other} in the range of {id}: {rec}",
                            format.name()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn json_compact_is_one_line_and_gets_the_object() {
        let text = r#"{"items":[{"id":"A-1","sub":{"x":"A-10"}},{"id":"A-10","n":"b"}]}"#;
        assert_eq!(
            &text[locate("json_compact", text, "A-10").unwrap()],
            r#"{"id":"A-1","sub":{"x":"A-10"}}"#
        );
        assert_eq!(
            &text[locate("json_compact", text, "A-1").unwrap()],
            r#"{"id":"A-1","sub":{"x":"A-10"}}"#
        );
        assert!(locate("json_compact", text, "A-2").is_none());
    }

    #[test]
    fn a_longer_value_is_not_the_id() {
        let text = "id,name\nPROD-0000011,x\nPROD-000001,y\n";
        assert_eq!(
            &text[locate("csv", text, "PROD-000001").unwrap()],
            "PROD-000001,y"
        );
    }

    #[test]
    fn the_question_names_the_record() {
        let text = "id: 1\n---\n- id: PROD-000002\n  name: b\n- id: PROD-000003\n  name: c\n";
        let (id, r) = locate_asked(
            "yaml",
            text,
            "What is the name of the product with ID PROD-000003?",
        )
        .unwrap();
        assert_eq!(id, "PROD-000003");
        assert_eq!(&text[r], "- id: PROD-000003\n  name: c");
    }
}
