//! Checks a user's text data file (`--data x.csv|.tsv|.json|.jsonl`) before DuckDB reads it, so
//! a file that is not UTF-8 or not JSON is named in the user's terms (line, column, byte) and
//! never through DuckDB's own message, which quotes bench's internal SQL.

use crate::error::one_line;
use serde::de::IgnoredAny;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// How the file's text is checked beyond UTF-8.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// Delimited text (CSV, TSV): UTF-8 only; DuckDB parses the rest.
    Delimited,
    /// One JSON document.
    Json,
    /// One JSON document per non-blank line.
    JsonLines,
}

/// The first problem of `path`'s text, in words (`not UTF-8: line 3, column 7 (byte 0xE9 at
/// offset 52) …`), or `None` when it is UTF-8 and, for JSON, well-formed.
pub fn check(path: &Path, syntax: Syntax) -> std::io::Result<Option<String>> {
    if let Some(problem) = utf8(path)? {
        return Ok(Some(problem));
    }
    match syntax {
        Syntax::Delimited => Ok(None),
        Syntax::Json => json(path),
        Syntax::JsonLines => json_lines(path),
    }
}

/// Where the first byte that is not UTF-8 is, read in chunks so a large file is never held.
fn utf8(path: &Path) -> std::io::Result<Option<String>> {
    let mut reader = BufReader::with_capacity(1 << 16, File::open(path)?);
    let mut buf = vec![0u8; 1 << 16];
    // Bytes of a character cut by the chunk's end, carried to the next read.
    let mut carry = 0usize;
    let (mut offset, mut line, mut line_start) = (0u64, 1u64, 0u64);
    loop {
        let n = reader.read(&mut buf[carry..])?;
        let len = carry + n;
        let chunk = &buf[..len];
        let (valid, bad) = match std::str::from_utf8(chunk) {
            Ok(_) => (len, None),
            // An incomplete character at the end of a read may complete with the next one.
            Err(e) if e.error_len().is_none() && n > 0 => (e.valid_up_to(), None),
            Err(e) => (e.valid_up_to(), Some(chunk[e.valid_up_to()])),
        };
        for (i, &b) in chunk[..valid].iter().enumerate() {
            if b == b'\n' {
                line += 1;
                line_start = offset + i as u64 + 1;
            }
        }
        if let Some(byte) = bad {
            let at = offset + valid as u64;
            // Columns count characters, as an editor shows them.
            let column = line_column(path, line_start, at)?;
            return Ok(Some(format!(
                "not UTF-8: line {line}, column {column} (byte 0x{byte:02X} at offset {at}); \
                 bench reads UTF-8 text: convert the file first, e.g. \
                 `iconv -f latin1 -t utf-8 IN > OUT` for a Latin-1 (ISO-8859-1) file"
            )));
        }
        if n == 0 {
            return Ok(None);
        }
        offset += valid as u64;
        buf.copy_within(valid..len, 0);
        carry = len - valid;
    }
}

/// The 1-based character column of byte `at` on the line starting at byte `start`.
fn line_column(path: &Path, start: u64, at: u64) -> std::io::Result<u64> {
    let mut f = File::open(path)?;
    std::io::Seek::seek(&mut f, std::io::SeekFrom::Start(start))?;
    let mut head = Vec::new();
    f.take(at - start).read_to_end(&mut head)?;
    Ok(String::from_utf8_lossy(&head).chars().count() as u64 + 1)
}

/// A JSON syntax error of the whole document, with its line and column.
fn json(path: &Path) -> std::io::Result<Option<String>> {
    let mut reader = BufReader::new(File::open(path)?);
    skip_bom(&mut reader)?;
    let Err(e) = serde_json::from_reader::<_, IgnoredAny>(reader) else {
        return Ok(None);
    };
    let mut msg = syntax_error(&e, e.line(), e.column());
    // `[1, 2,]`: serde reads a value that never comes; say what a person sees, the comma.
    if e.to_string().starts_with("expected value") && comma_before(path, e.line(), e.column())? {
        msg = msg.replacen("expected value", "trailing comma", 1);
    }
    Ok(Some(msg))
}

/// Whether the last character before line `line`, column `column` (1-based) that is not
/// whitespace is a comma.
fn comma_before(path: &Path, line: usize, column: usize) -> std::io::Result<bool> {
    let reader = BufReader::new(File::open(path)?);
    let (mut l, mut c, mut last) = (1usize, 0usize, 0u8);
    for b in reader.bytes() {
        let b = b?;
        if b == b'\n' {
            l += 1;
            c = 0;
        } else {
            c += 1;
        }
        if l > line || (l == line && c >= column) {
            break;
        }
        if !b.is_ascii_whitespace() {
            last = b;
        }
    }
    Ok(last == b',')
}

/// A JSON syntax error of one line of a JSON Lines file, with its line and column.
fn json_lines(path: &Path) -> std::io::Result<Option<String>> {
    let mut reader = BufReader::new(File::open(path)?);
    skip_bom(&mut reader)?;
    for (i, line) in reader.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        if let Err(e) = serde_json::from_str::<IgnoredAny>(&line) {
            let mut msg = syntax_error(&e, i + 1, e.column());
            let before = line[..line.len().min(e.column().saturating_sub(1))].trim_end();
            if e.to_string().starts_with("expected value") && before.ends_with(',') {
                msg = msg.replacen("expected value", "trailing comma", 1);
            }
            return Ok(Some(msg));
        }
    }
    Ok(None)
}

/// `not valid JSON: line L, column C: <what>` and what to do.
fn syntax_error(e: &serde_json::Error, line: usize, column: usize) -> String {
    let text = e.to_string();
    // serde_json ends its message with " at line L column C", said here in front instead.
    let what = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(w, _)| w);
    format!("not valid JSON: line {line}, column {column}: {what}; fix the file there")
}

/// Skips a UTF-8 byte-order mark at the start, which JSON parsers reject and editors write.
fn skip_bom(reader: &mut impl BufRead) -> std::io::Result<()> {
    if reader.fill_buf()?.starts_with(&[0xEF, 0xBB, 0xBF]) {
        reader.consume(3);
    }
    Ok(())
}

/// A DuckDB read error as one line, the common cases in the user's terms.
pub fn read_error(e: &duckdb::Error) -> String {
    let text = e.to_string();
    if text.contains("expected records") {
        "not an array of objects: every record must be a JSON object".into()
    } else {
        format!("cannot read it: {}", about_the_file(&text))
    }
}

/// The lines of a DuckDB reader error that describe the file, without the SQL bench ran, its
/// reader options or advice about options bench has no flag for (`encoding=`, `ignore_errors`).
fn about_the_file(text: &str) -> String {
    const INTERNAL: [&str; 8] = [
        "read_csv",
        "read_json",
        "read_parquet",
        "SELECT",
        "sample_size",
        "Possible Solution",
        " = ",
        "Possible fixes",
    ];
    let kept: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("LINE "))
        .filter(|l| !l.is_empty() && !INTERNAL.iter().any(|w| l.contains(w)))
        .collect();
    let what = one_line(&kept.join("\n")).replace("Invalid Input Error: ", "");
    match what.char_indices().nth(300) {
        Some((i, _)) => format!("{}…", &what[..i]),
        None => what,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(bytes: &[u8]) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(&mut f, bytes).unwrap();
        f
    }

    #[test]
    fn duckdb_errors_lose_the_sql_and_the_reader_options() {
        let text = "Invalid Input Error: CSV Error on Line: 3\nOriginal Line: 1,2,3\n\
                    Expected Number of Columns: 2 Found: 3\nPossible fixes:\n\
                    * Enable null padding (null_padding=true)\n\
                    delimiter = , (Auto-Detected)\n\nLINE 1: CREATE TEMP TABLE t AS SELECT * \
                    FROM read_csv('x.csv', sample_size=-1)";
        let msg = about_the_file(text);
        assert_eq!(
            msg,
            "CSV Error on Line: 3 — Original Line: 1,2,3 — Expected Number of Columns: 2 \
             Found: 3 — * Enable null padding (null_padding=true)"
        );
    }

    #[test]
    fn a_latin1_byte_is_named_by_line_column_and_offset() {
        let f = file(b"id,name\n1,caf\xE9\n");
        let msg = check(f.path(), Syntax::Delimited).unwrap().unwrap();
        assert!(
            msg.starts_with("not UTF-8: line 2, column 6 (byte 0xE9 at offset 13)"),
            "{msg}"
        );
    }

    #[test]
    fn a_character_cut_by_a_chunk_end_is_still_utf8() {
        // 'é' (2 bytes) straddles the 64 KiB read boundary.
        let mut bytes = vec![b'a'; (1 << 16) - 1];
        bytes.extend("é\n".as_bytes());
        assert_eq!(check(file(&bytes).path(), Syntax::Delimited).unwrap(), None);
    }

    #[test]
    fn a_trailing_comma_is_named_by_line_and_column() {
        let f = file(b"[\n  {\"a\": 1},\n]\n");
        let msg = check(f.path(), Syntax::Json).unwrap().unwrap();
        assert!(
            msg.starts_with("not valid JSON: line 3, column 1: trailing comma"),
            "{msg}"
        );
    }

    #[test]
    fn json_lines_are_checked_line_by_line_and_a_bom_is_allowed() {
        let f = file(b"\xEF\xBB\xBF{\"a\": 1}\n\n{\"a\": }\n");
        let msg = check(f.path(), Syntax::JsonLines).unwrap().unwrap();
        assert!(msg.starts_with("not valid JSON: line 3, column 7"), "{msg}");
        let ok = file(b"\xEF\xBB\xBF{\"a\": 1}\n{\"a\": 2}\n");
        assert_eq!(check(ok.path(), Syntax::JsonLines).unwrap(), None);
        assert_eq!(
            check(file(b"[{\"a\":1}]").path(), Syntax::Json).unwrap(),
            None
        );
    }
}
