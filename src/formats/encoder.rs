//! The [`Encoder`] trait every format implements, the [`FormatSpec`] that describes a format,
//! and how chunks of a rendering join ([`Splice`]).

use super::error::FormatError;
use serde_json::Value;

/// Renders any JSON document as text and reads it back. A format whose syntax has no form for
/// part of a document (CSV has no nesting) says so with [`FormatError::cannot_represent`].
pub trait Encoder: Sync {
    /// Renders the document.
    fn encode(&self, doc: &Value) -> Result<String, FormatError>;
    /// Parses text this encoder produced back into a document. Tabular formats carry no root
    /// key, so they give back the bare array of records (see [`Format::decode_as`](super::Format::decode_as)).
    fn decode(&self, text: &str) -> Result<Value, FormatError>;
    /// How the renderings of consecutive chunks of records join into the rendering of all of
    /// them (see [`stream`](super::stream)); `None` when the format has no such form.
    fn splice(&self) -> Option<Splice> {
        None
    }
    /// The byte lengths of the head and the tail of `text`, the rendering of `{key: records}`:
    /// what stands before the first record and after the last. `None` when `text` does not have
    /// the form [`Encoder::splice`] describes.
    fn frame(&self, _text: &str, _key: &str) -> Option<(usize, usize)> {
        None
    }
    /// Whether a chunk's rendering needs to know all the records first (TeaLeaf's structs take
    /// their field types from every record): [`Encoder::learn`] is then called on every chunk
    /// before any is rendered.
    fn learns(&self) -> bool {
        false
    }
    /// Learns from one chunk, `{key: [records]}`, what rendering any chunk needs of all.
    fn learn(&self, _chunk: &Value, _learned: &mut Option<Learned>) {}
    /// Renders a chunk with what [`Encoder::learn`] gathered from all of them.
    fn encode_learned(&self, chunk: &Value, _learned: &Learned) -> Result<String, FormatError> {
        self.encode(chunk)
    }
}

/// What an encoder learned of all the records (see [`Encoder::learn`]), its own type inside.
pub type Learned = Box<dyn std::any::Any + Send + Sync>;

/// How the text of `{key: records}` is put together from chunks of the records: the head of
/// the first chunk's rendering, each chunk's records part with `join` between them, and the
/// tail. The head must come out the same for every chunk; the stream renders the format whole
/// when it does not.
#[derive(Debug, Clone, Copy)]
pub struct Splice {
    /// Text between the records parts of two chunks.
    pub join: &'static str,
    /// The head states the record count right after the key (TOON's `key[N]`): compared with
    /// the chunk's count taken out, and written with the total.
    pub counted: bool,
    /// Records are numbered on lines of their own, `prefix N suffix` (`## Record N`): a chunk's
    /// numbers are moved on by the records before it.
    pub numbered: Option<(&'static str, &'static str)>,
}

impl Splice {
    /// Records parts joined by `join`, no count, no numbers.
    pub const fn joined(join: &'static str) -> Self {
        Self {
            join,
            counted: false,
            numbered: None,
        }
    }
}

/// The byte length of the first `n` lines of `text`, when it has that many.
pub fn lines(text: &str, n: usize) -> Option<usize> {
    let mut at = 0;
    for _ in 0..n {
        at += text[at..].find('\n')? + 1;
    }
    Some(at)
}

/// `(head.len(), tail.len())` when `text` starts with `head` and ends with `tail`, apart.
pub fn framed(text: &str, head: &str, tail: &str) -> Option<(usize, usize)> {
    (text.len() >= head.len() + tail.len() && text.starts_with(head) && text.ends_with(tail))
        .then_some((head.len(), tail.len()))
}

/// Static description of one format.
pub struct FormatSpec {
    /// Name used in file names, CLI and JSONL.
    pub name: &'static str,
    /// Human name shown to the model ("TOON", "JSON").
    pub display: &'static str,
    /// File extension without the dot.
    pub extension: &'static str,
    /// Info string of the fenced code block in prompts.
    pub fence: &'static str,
    /// Renders one flat row per record: only a document that is, or holds under one key, an
    /// array of flat records (the product suite's flat structure).
    pub flat_only: bool,
    /// Only with `--formats all` or by name, not in the default set of 8.
    pub extra: bool,
    /// One line describing the format to the model (`--primer on`).
    pub primer: &'static str,
    /// The renderer.
    pub encoder: &'static dyn Encoder,
}
