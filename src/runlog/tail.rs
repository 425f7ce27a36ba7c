//! The last line of a run log, read from its end: a log's summary line without reading the
//! millions of answers before it (`bench view` lists every run at each start).

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// How much of the file is read at a time, backwards.
const CHUNK: u64 = 64 * 1024;

/// The last line of `path` that is not blank, and the byte offset where it starts; `None`
/// when the file holds only blank lines.
pub fn last_line(path: &Path) -> std::io::Result<Option<(u64, String)>> {
    let mut file = std::fs::File::open(path)?;
    // The bytes from `start` to the end of the file.
    let mut start = file.metadata()?.len();
    let mut tail: Vec<u8> = Vec::new();
    loop {
        let end = tail.iter().rposition(|b| !b.is_ascii_whitespace());
        if let Some(end) = end
            && let Some(newline) = tail[..end].iter().rposition(|&b| b == b'\n')
        {
            let line = String::from_utf8_lossy(&tail[newline + 1..=end]).into_owned();
            return Ok(Some((start + newline as u64 + 1, line)));
        }
        if start == 0 {
            return Ok(end.map(|end| (0, String::from_utf8_lossy(&tail[..=end]).into_owned())));
        }
        let from = start.saturating_sub(CHUNK);
        let mut chunk = vec![0; (start - from) as usize];
        file.seek(SeekFrom::Start(from))?;
        file.read_exact(&mut chunk)?;
        chunk.extend_from_slice(&tail);
        tail = chunk;
        start = from;
    }
}

#[cfg(test)]
mod tests {
    use super::last_line;

    fn last(text: &str) -> Option<(u64, String)> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.jsonl");
        std::fs::write(&path, text).unwrap();
        last_line(&path).unwrap()
    }

    #[test]
    fn the_last_line_that_is_not_blank_and_where_it_starts() {
        assert_eq!(last("a\nbb\n"), Some((2, "bb".into())));
        assert_eq!(last("a\nbb\n\n  \n"), Some((2, "bb".into())));
        assert_eq!(last("a\nbb"), Some((2, "bb".into())), "no final newline");
        assert_eq!(last("only\n"), Some((0, "only".into())));
        assert_eq!(last(" \n\n"), None);
        assert_eq!(last(""), None);
        // A line longer than a chunk, ending past several chunks.
        let long = "x".repeat(200_000);
        assert_eq!(last(&format!("first\n{long}\n")), Some((6, long)));
    }
}
