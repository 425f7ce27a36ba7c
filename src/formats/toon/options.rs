//! The options of the TOON encoder and decoder: spec version, delimiter, key folding.

/// Whether the encoder collapses chains of single-key objects into dotted keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KeyFolding {
    /// Never fold; every object level gets its own line.
    #[default]
    Off,
    /// Fold chains whose segments are identifiers and whose result collides with no sibling.
    Safe,
}

/// Separator used for inline arrays and tabular rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Delimiter {
    /// `,` (the default; not marked in headers).
    #[default]
    Comma,
    /// Horizontal tab, marked as `[N\t]` in headers.
    Tab,
    /// `|`, marked as `[N|]` in headers.
    Pipe,
}

impl Delimiter {
    /// The delimiter as a single ASCII byte.
    pub fn as_byte(self) -> u8 {
        match self {
            Delimiter::Comma => b',',
            Delimiter::Tab => b'\t',
            Delimiter::Pipe => b'|',
        }
    }
}

/// Which TOON spec to follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Spec {
    /// v3.3: key folding and path expansion available; tables hold primitives only.
    #[default]
    V3,
    /// v4.0: nested field groups (`a{b,c}` columns), keyed tables (`key[N:]{…}:`), `#`
    /// comment lines; key folding and path expansion are gone (dotted keys are literal).
    V4,
}

/// Options for [`encode`](super::encode).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeOptions {
    /// Spec version (default v3).
    pub spec: Spec,
    /// Spaces per indentation level (default 2).
    pub indent: usize,
    /// Document delimiter for arrays and quoting decisions (default comma).
    pub delimiter: Delimiter,
    /// Key folding mode (default off).
    pub key_folding: KeyFolding,
    /// Maximum number of segments in one folded key (default `usize::MAX`, i.e. unlimited).
    pub flatten_depth: usize,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        Self {
            spec: Spec::V3,
            indent: 2,
            delimiter: Delimiter::Comma,
            key_folding: KeyFolding::Off,
            flatten_depth: usize::MAX,
        }
    }
}

/// Options for [`decode`](super::decode).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Spec version (default v3).
    pub spec: Spec,
    /// Spaces per indentation level (default 2).
    pub indent: usize,
    /// Enforce counts, indentation, blank-line and duplicate-key rules (default true).
    pub strict: bool,
    /// Expand unquoted dotted keys into nested objects, i.e. `expandPaths: "safe"` (default false).
    pub expand_paths: bool,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        Self {
            spec: Spec::V3,
            indent: 2,
            strict: true,
            expand_paths: false,
        }
    }
}
