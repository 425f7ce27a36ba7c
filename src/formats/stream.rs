//! A document `{key: records}` rendered a chunk of records at a time, for record lists too
//! large to hold rendered. Each chunk is rendered by the format's own encoder as `{key: chunk}`
//! and its records part (between the head and the tail, see [`Encoder::frame`]) is joined to
//! the others as the format's [`Splice`] says. Every chunk's head must come out the same (the
//! same columns, types and table form); when one does not, or a chunk fails, the format is
//! rendered whole instead, and [`Splicer::push`] says why. The property tests prove the joined
//! text equal to the whole rendering for every format.

use super::Format;
use super::encoder::{Encoder, Learned, Splice};
use super::error::FormatError;
use serde_json::Value;

/// Joins one format's renderings of consecutive chunks.
pub struct Splicer {
    /// The format.
    format: Format,
    /// The root key.
    key: String,
    /// Records in all chunks.
    total: usize,
    /// Records in the chunks so far.
    done: usize,
    /// The first chunk's head (with the total count) and tail.
    frame: Option<(String, String)>,
    /// What the encoder learned of all the chunks, when it learns.
    learned: Option<Learned>,
}

impl Splicer {
    /// A splicer of `format` for `total` records under `key`.
    pub fn new(format: Format, key: &str, total: usize) -> Self {
        Self {
            format,
            key: key.to_string(),
            total,
            done: 0,
            frame: None,
            learned: None,
        }
    }

    /// Whether [`Splicer::learn`] must see every chunk before the first [`Splicer::push`].
    pub fn learns(&self) -> bool {
        self.format.spec().encoder.learns()
    }

    /// Shows the encoder one chunk, `{key: [records]}`, of all it will render.
    pub fn learn(&mut self, chunk: &Value) {
        self.format.spec().encoder.learn(chunk, &mut self.learned);
    }

    /// The format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The text the next chunk adds to the whole rendering; `chunk` is `{key: [records]}`
    /// with `n` records. An error says why the format stops here (see [`Stop`]).
    pub fn push(&mut self, chunk: &Value, n: usize) -> Result<String, Stop> {
        let enc: &dyn Encoder = self.format.spec().encoder;
        let whole = |why: &str| Stop::Whole(why.to_string());
        let splice = enc
            .splice()
            .ok_or_else(|| whole("it has no form by chunks"))?;
        let text = match &self.learned {
            Some(learned) => enc.encode_learned(chunk, learned),
            None => enc.encode(chunk),
        }
        .map_err(|e| match e.is_cannot_represent() {
            true => Stop::Refused(self.done + n),
            false => Stop::Whole(format!("records {}..{}: {e}", self.done, self.done + n)),
        })?;
        let (h, t) = enc
            .frame(&text, &self.key)
            .ok_or_else(|| whole("a chunk's rendering has another form than its splice says"))?;
        let head = if splice.counted {
            recount(&text[..h], &self.key, n, self.total)
                .ok_or_else(|| whole("the head states no record count"))?
        } else {
            text[..h].to_string()
        };
        let tail = &text[text.len() - t..];
        let body = renumber(&text[h..text.len() - t], &splice, self.done);
        let out = match &self.frame {
            None => {
                self.frame = Some((head.clone(), tail.to_string()));
                head + &body
            }
            Some((first, last)) if *first == head && last == tail => {
                format!("{}{body}", splice.join)
            }
            Some(_) => {
                return Err(Stop::Whole(format!(
                    "records {}..{} render another head than the first (a field's columns or \
                     types differ)",
                    self.done,
                    self.done + n
                )));
            }
        };
        self.done += n;
        Ok(out)
    }

    /// The text after the last chunk.
    pub fn tail(&self) -> &str {
        self.frame.as_ref().map_or("", |(_, t)| t)
    }
}

/// Why a format's chunks stop joining.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// A chunk is out of the format's reach; the records up to its end (this many) are
    /// rendered whole to say why in the whole's own words (see [`refusal`]).
    Refused(usize),
    /// The chunks do not join (why); the format is rendered whole.
    Whole(String),
}

/// Why the format cannot represent all the records, from the first `prefix` of them (up to
/// the end of the chunk it refused) rendered whole: a refusal is of a record or a value (a
/// nested field in a table, an empty list in XML), which all the records hold too, named by
/// its place in all of them. (The whole rendering may name another one first: a table checks
/// every record for nesting before any for empty text.) One refusal is of all the records
/// together: records without a field give a table no column, which later records may give;
/// a prefix of such records, short of all `total`, says nothing. `None` when the prefix
/// renders, or fails otherwise: the format must then be rendered whole.
pub fn refusal(
    format: Format,
    key: &str,
    prefix: &[serde_json::Map<String, Value>],
    total: usize,
) -> Option<FormatError> {
    if prefix.len() < total && prefix.iter().all(serde_json::Map::is_empty) {
        return None;
    }
    format
        .encode(&chunk_doc(key, prefix.to_vec()))
        .err()
        .filter(FormatError::is_cannot_represent)
}

/// What becomes of a format whose chunks stopped (`stop`): `Err`, its refusal of all `total`
/// records, said from the records up to the refusing chunk (`upto`, at least that many; see
/// [`refusal`]); or `Ok`, why it must be rendered whole.
pub fn settle(
    format: Format,
    key: &str,
    stop: Stop,
    upto: &[serde_json::Map<String, Value>],
    total: usize,
) -> Result<String, FormatError> {
    match stop {
        Stop::Refused(n) => match refusal(format, key, &upto[..n], total) {
            Some(e) => Err(e),
            None => Ok(format!("the first {n} records render whole")),
        },
        Stop::Whole(why) => Ok(why),
    }
}

/// `head` (`key[n…`) with the count `n` replaced by `total`.
fn recount(head: &str, key: &str, n: usize, total: usize) -> Option<String> {
    let stated = format!("{key}[{n}");
    let rest = head.strip_prefix(&stated)?;
    (!rest.starts_with(|c: char| c.is_ascii_digit())).then(|| format!("{key}[{total}{rest}"))
}

/// `body` with each record number line (`prefix N suffix`) moved on by `before`.
fn renumber(body: &str, splice: &Splice, before: usize) -> String {
    let Some((prefix, suffix)) = splice.numbered.filter(|_| before > 0) else {
        return body.to_string();
    };
    let mut out = String::with_capacity(body.len() + 16);
    for line in body.split_inclusive('\n') {
        let bare = line.strip_suffix('\n').unwrap_or(line);
        let number = bare
            .strip_prefix(prefix)
            .and_then(|r| r.strip_suffix(suffix))
            .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|d| d.parse::<usize>().ok());
        match number {
            Some(k) => {
                out.push_str(&format!("{prefix}{}{suffix}", k + before));
                out.push_str(&line[bare.len()..]);
            }
            None => out.push_str(line),
        }
    }
    out
}

/// The whole rendering of `records` under `key` joined from chunks of `size`, or where it
/// stopped (`Stop::Whole("no records")` for none): [`Streams`] of one format into a string.
pub fn joined(
    format: Format,
    key: &str,
    records: &[serde_json::Map<String, Value>],
    size: usize,
) -> Result<String, Stop> {
    joined_all(&[format], key, records, size)
        .pop()
        .expect("one format")
}

/// [`joined`] for each of `formats`, rendered together: each chunk is copied once for all of
/// them, and they render it in parallel.
pub fn joined_all(
    formats: &[Format],
    key: &str,
    records: &[serde_json::Map<String, Value>],
    size: usize,
) -> Vec<Result<String, Stop>> {
    if records.is_empty() {
        return vec![Err(Stop::Whole("no records".into())); formats.len()];
    }
    let chunks = || records.chunks(size.max(1));
    let mut streams = Streams::new(formats, key, records.len());
    if streams.learns() {
        for chunk in chunks() {
            streams.learn(&chunk_doc(key, chunk.to_vec()));
        }
    }
    let mut out = vec![String::new(); formats.len()];
    let give = |out: &mut String, piece: &str| out.push_str(piece);
    for chunk in chunks() {
        streams.push(&chunk_doc(key, chunk.to_vec()), chunk.len(), &mut out, give);
    }
    streams.finish(&mut out, give);
    out.into_iter()
        .zip(streams.whole())
        .map(|(text, stop)| match stop {
            Some(stop) => Err(stop.clone()),
            None => Ok(text),
        })
        .collect()
}

/// Records per chunk when a rendering is joined from chunks (`bench tokens --data`'s default
/// `--chunk-records`, the run and `generate --data`).
pub const CHUNK_RECORDS: usize = 4096;

/// Each of `formats`' rendering of `{key: records}`, the same text as the whole document's,
/// without a copy of all the records: joined from chunks of `size` ([`joined_all`]); where a
/// chunk is out of a format's reach, the refusal of the records up to it ([`settle`]); where
/// its chunks do not join, the whole document (which copies them).
pub fn render_all(
    formats: &[Format],
    key: &str,
    records: &[serde_json::Map<String, Value>],
    size: usize,
) -> Vec<Result<String, FormatError>> {
    use rayon::prelude::*;
    let joined = joined_all(formats, key, records, size);
    formats
        .par_iter()
        .zip(joined)
        .map(|(&format, joined)| match joined {
            Ok(text) => Ok(text),
            Err(stop) => settle(format, key, stop, records, records.len())
                .and_then(|_| format.encode(&chunk_doc(key, records.to_vec()))),
        })
        .collect()
}

/// `{key: [records…]}`, the records moved in.
pub fn chunk_doc(key: &str, records: Vec<serde_json::Map<String, Value>>) -> Value {
    let mut root = serde_json::Map::new();
    root.insert(
        key.to_string(),
        Value::Array(records.into_iter().map(Value::Object).collect()),
    );
    Value::Object(root)
}

/// Several formats rendered from the same chunks, in parallel, each piece handed to that
/// format's sink; a format that cannot be joined is dropped with its reason (see
/// [`Streams::whole`]) and gets no more pieces.
pub struct Streams {
    /// One splicer per format.
    splicers: Vec<Splicer>,
    /// Where each format stopped joining, once it has.
    whole: Vec<Option<Stop>>,
}

impl Streams {
    /// Streams of `formats` for `total` records under `key`.
    pub fn new(formats: &[Format], key: &str, total: usize) -> Self {
        Self {
            splicers: formats
                .iter()
                .map(|&f| Splicer::new(f, key, total))
                .collect(),
            whole: vec![None; formats.len()],
        }
    }

    /// Whether some format must see every chunk ([`Streams::learn`]) before the first push.
    pub fn learns(&self) -> bool {
        self.splicers.iter().any(Splicer::learns)
    }

    /// Shows every learning format one chunk, `{key: [records]}`.
    pub fn learn(&mut self, chunk: &Value) {
        use rayon::prelude::*;
        self.splicers
            .par_iter_mut()
            .filter(|s| s.learns())
            .for_each(|s| s.learn(chunk));
    }

    /// Renders the next chunk, `{key: [records]}` with `n` records, in every format still
    /// joined, giving format `i`'s piece to `give(&mut sinks[i], piece)`.
    pub fn push<S: Send>(
        &mut self,
        chunk: &Value,
        n: usize,
        sinks: &mut [S],
        give: impl Fn(&mut S, &str) + Sync,
    ) {
        use rayon::prelude::*;
        self.splicers
            .par_iter_mut()
            .zip(self.whole.par_iter_mut())
            .zip(sinks.par_iter_mut())
            .filter(|((_, whole), _)| whole.is_none())
            .for_each(|((s, whole), sink)| match s.push(chunk, n) {
                Ok(piece) => give(sink, &piece),
                Err(why) => *whole = Some(why),
            });
    }

    /// Ends every joined format's text, giving its tail to its sink.
    pub fn finish<S>(&self, sinks: &mut [S], give: impl Fn(&mut S, &str)) {
        for ((s, whole), sink) in self.splicers.iter().zip(&self.whole).zip(sinks) {
            if whole.is_none() {
                give(sink, s.tail());
            }
        }
    }

    /// Per format (in the order given), where it stopped joining, or `None` when its sink
    /// received all of its text.
    pub fn whole(&self) -> &[Option<Stop>] {
        &self.whole
    }
}
