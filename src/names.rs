//! Names a user types (a format, a suite, a SQL file): the one meant, or what they most likely
//! meant, so every "unknown …" message offers the same kind of "did you mean".

/// The item of `all` named `s` (by `name`), or a message naming the `kind`, the likely ones and
/// every allowed name.
pub fn one_of<T: Copy>(
    kind: &str,
    s: &str,
    all: &[T],
    name: impl Fn(T) -> &'static str,
) -> Result<T, String> {
    all.iter().copied().find(|&x| name(x) == s).ok_or_else(|| {
        let allowed: Vec<&str> = all.iter().map(|&x| name(x)).collect();
        let hint = match likely(s, &allowed).as_slice() {
            [] => String::new(),
            [one] => format!(": did you mean {one}?"),
            [most @ .., last] => format!(": did you mean {} or {last}?", most.join(", ")),
        };
        format!(
            "unknown {kind} '{s}'{hint} (allowed: {})",
            allowed.join(", ")
        )
    })
}

/// The names a mistyped `s` most likely meant: those it is part of (`json` → json_compact,
/// json_pretty, jsonl), else those within two edits (`yml` → yaml).
pub fn likely<'a>(s: &str, names: &[&'a str]) -> Vec<&'a str> {
    let s = s.to_ascii_lowercase();
    if s.is_empty() {
        return Vec::new();
    }
    let part: Vec<&str> = names.iter().copied().filter(|n| n.contains(&s)).collect();
    if !part.is_empty() {
        return part;
    }
    names
        .iter()
        .copied()
        .filter(|n| strsim::levenshtein(&s, n) <= 2)
        .collect()
}

/// A format id as `--formats`, `--baseline` and `--write-from` take it.
pub fn format(s: &str) -> Result<crate::formats::Format, String> {
    use crate::formats::Format;
    one_of("format", s, Format::ALL, Format::name)
}
