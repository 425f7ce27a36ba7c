//! Grading a written document: take the fenced block (or the whole reply), decode it with the
//! format's own strict decoder, type untyped cells by the schema, compare with the gold after
//! canonicalisation. Every step is recorded, so nothing is a hidden penalty.

use super::schema;
use crate::formats::Format;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// How one reply fared.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Grade {
    /// The format's decoder accepted the extracted text.
    pub parsed: bool,
    /// The decoded document matches the case's schema (types, required and no other fields).
    pub schema_ok: bool,
    /// The whole document equals the gold.
    pub exact: bool,
    /// Share of the gold's leaf values present and equal at the same path.
    pub field_accuracy: f64,
    /// Why it is not exact: `unparseable`, `declared_count_mismatch`, `missing_field`,
    /// `extra_field`, `wrong_type`, `wrong_value`, `missing_record`, `extra_record`,
    /// `truncated`, `no_document`; null when exact.
    pub failure: Option<String>,
    /// The decoder's error or the first difference, one line.
    pub detail: Option<String>,
    /// A fenced block was taken out of the reply.
    pub fence_removed: bool,
    /// Text outside that block was dropped.
    pub prose_removed: bool,
}

/// What one reply is graded against.
pub struct Target<'a> {
    /// The output format.
    pub format: Format,
    /// The root key a tabular format's bare records go under.
    pub root_key: Option<&'a str>,
    /// The gold document.
    pub gold: &'a Value,
    /// Its schema.
    pub schema: &'a Value,
    /// Whether record order matters.
    pub ordered: bool,
}

/// The fenced block of a reply (the first whose info string names the format, else the first)
/// with whether a fence and prose were removed; the whole reply when it has no fence.
pub fn extract<'a>(reply: &'a str, fence: &str) -> (&'a str, bool, bool) {
    let mut blocks = Vec::new();
    let mut rest = reply;
    let mut offset = 0;
    while let Some(open) = rest.find("```") {
        // As in CommonMark, a fence of N backticks is closed by a line of N or more, so a
        // document holding ``` fences itself (markdown_kv) can sit in a ```` fence.
        let ticks = rest[open..].bytes().take_while(|&b| b == b'`').count();
        let fence = &rest[open..open + ticks];
        let after = &rest[open + ticks..];
        let Some(nl) = after.find('\n') else { break };
        let info = after[..nl].trim();
        let body = &after[nl + 1..];
        let close = body
            .find(&format!("\n{fence}"))
            .map(|c| c + 1)
            .or_else(|| body.find(fence));
        let Some(close) = close else {
            // An unclosed fence (a cut reply): the rest is the block.
            blocks.push((info, body, offset + open, reply.len()));
            break;
        };
        let closing = body[close..].bytes().take_while(|&b| b == b'`').count();
        let end = offset + open + ticks + nl + 1 + close + closing;
        blocks.push((info, &body[..close], offset + open, end));
        rest = &reply[end..];
        offset = end;
    }
    let Some(&(_, body, start, end)) = blocks
        .iter()
        .find(|b| b.0.eq_ignore_ascii_case(fence))
        .or(blocks.first())
    else {
        return (reply.trim(), false, false);
    };
    let prose =
        !reply[..start].trim().is_empty() || !reply[end.min(reply.len())..].trim().is_empty();
    (body.trim_end_matches('\n'), true, prose)
}

/// Grades `reply` (`cut` = it stopped at the output limit).
pub fn grade(t: &Target, reply: &str, cut: bool) -> Grade {
    let (text, fence_removed, prose_removed) = extract(reply, t.format.spec().fence);
    let mut g = Grade {
        fence_removed,
        prose_removed,
        ..Grade::default()
    };
    let decoded = match decode(t, text) {
        Ok(d) => d,
        Err(e) => {
            g.failure = Some(
                if cut {
                    "truncated"
                } else if !fence_removed && !mentions_fields(text, t.schema) {
                    "no_document"
                } else if declared_count(&e) {
                    "declared_count_mismatch"
                } else {
                    "unparseable"
                }
                .into(),
            );
            g.detail = Some(e);
            return g;
        }
    };
    g.parsed = true;
    g.schema_ok = schema::validate(&decoded, t.schema).is_ok();
    let mut c = Compare {
        ordered: t.ordered,
        ..Compare::default()
    };
    c.value(t.gold, &decoded, t.schema, "$");
    g.field_accuracy = if c.leaves == 0 {
        f64::from(u8::from(c.first.is_none()))
    } else {
        c.equal as f64 / c.leaves as f64
    };
    g.exact = c.first.is_none();
    if let Some((kind, detail)) = c.first {
        g.failure = Some(if cut { "truncated".into() } else { kind.into() });
        g.detail = Some(detail);
    }
    g
}

/// Decodes `text` with the format's decoder, as the gold's shape, typed by the schema where
/// the format carries no types.
pub fn decode(t: &Target, text: &str) -> Result<Value, String> {
    let doc = t
        .format
        .decode_as(text, t.root_key)
        .map_err(|e| one_line(&e.to_string()))?;
    Ok(if untyped(t.format) {
        schema::coerce(doc, t.schema)
    } else {
        doc
    })
}

/// Formats whose values carry no types: every value is text until the schema says otherwise.
fn untyped(f: Format) -> bool {
    matches!(
        f,
        Format::Csv
            | Format::Tsv
            | Format::Psv
            | Format::HtmlTable
            | Format::MarkdownTable
            | Format::XmlCompact
            | Format::XmlPretty
    )
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A decoder error about a count the document declares (TOON `[N]`) that its rows break.
fn declared_count(e: &str) -> bool {
    static RE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"expected \d+ (rows|inline values|entries|items|values)")
            .expect("valid regex")
    });
    RE.is_match(e)
}

/// Whether the text names any field of the schema: a reply that names none holds no
/// document, only prose.
fn mentions_fields(text: &str, schema: &Value) -> bool {
    let mut names = Vec::new();
    field_names(schema, &mut names);
    names.iter().any(|n| text.contains(n.as_str()))
}

fn field_names(schema: &Value, out: &mut Vec<String>) {
    if let Some(p) = schema.get("properties").and_then(Value::as_object) {
        for (k, s) in p {
            out.push(k.clone());
            field_names(s, out);
        }
    }
    if let Some(i) = schema::items(schema) {
        field_names(i, out);
    }
}

/// A structural comparison that counts the gold's leaves and the equal ones, and keeps the
/// first difference (in document order) as the failure kind.
#[derive(Default)]
struct Compare {
    ordered: bool,
    leaves: usize,
    equal: usize,
    first: Option<(&'static str, String)>,
}

impl Compare {
    fn differ(&mut self, kind: &'static str, detail: String) {
        if self.first.is_none() {
            self.first = Some((kind, detail));
        }
    }

    fn value(&mut self, gold: &Value, got: &Value, schema: &Value, path: &str) {
        match (gold, got) {
            (Value::Object(g), Value::Object(a)) => self.object(g, a, schema, path),
            (Value::Array(g), Value::Array(a)) => self.array(g, a, schema, path),
            (Value::Object(_) | Value::Array(_), _) => {
                self.leaves += count_leaves(gold);
                self.differ(
                    "wrong_type",
                    format!(
                        "{path}: {} where the gold has {}",
                        schema::kind(got),
                        schema::kind(gold)
                    ),
                );
            }
            _ => {
                self.leaves += 1;
                if same_scalar(gold, got) {
                    self.equal += 1;
                } else if std::mem::discriminant(gold) != std::mem::discriminant(got) {
                    self.differ(
                        "wrong_type",
                        format!(
                            "{path}: {} {got} where the gold has {} {gold}",
                            schema::kind(got),
                            schema::kind(gold)
                        ),
                    );
                } else {
                    self.differ(
                        "wrong_value",
                        format!("{path}: {got} where the gold has {gold}"),
                    );
                }
            }
        }
    }

    fn object(
        &mut self,
        g: &Map<String, Value>,
        a: &Map<String, Value>,
        schema: &Value,
        path: &str,
    ) {
        for (k, gv) in g {
            let (s, optional) = schema::property(schema, k).unwrap_or((&Value::Null, false));
            let p = format!("{path}.{k}");
            match a.get(k) {
                Some(av) => self.value(gv, av, s, &p),
                // A null the schema allows to be left out equals a missing field.
                None if gv.is_null() && optional => {
                    self.leaves += 1;
                    self.equal += 1;
                }
                None => {
                    self.leaves += count_leaves(gv);
                    self.differ("missing_field", format!("{p} is missing"));
                }
            }
        }
        for (k, av) in a {
            if g.contains_key(k) {
                continue;
            }
            let optional = schema::property(schema, k).is_some_and(|(_, o)| o);
            if !(av.is_null() && optional) {
                self.differ("extra_field", format!("{path}.{k} is not in the gold"));
            }
        }
    }

    fn array(&mut self, g: &[Value], a: &[Value], schema: &Value, path: &str) {
        let item = schema::items(schema).unwrap_or(&Value::Null);
        let records = g.iter().chain(a).all(Value::is_object) && !g.is_empty();
        let pairs: Vec<(usize, Option<usize>)> = if records && !self.ordered {
            match_records(g, a)
        } else {
            (0..g.len())
                .map(|i| (i, (i < a.len()).then_some(i)))
                .collect()
        };
        let mut used = vec![false; a.len()];
        for (gi, ai) in pairs {
            let p = format!("{path}[{gi}]");
            match ai {
                Some(ai) => {
                    used[ai] = true;
                    self.value(&g[gi], &a[ai], item, &p);
                }
                None => {
                    self.leaves += count_leaves(&g[gi]);
                    let kind = if records {
                        "missing_record"
                    } else {
                        "wrong_value"
                    };
                    self.differ(kind, format!("{p} is missing"));
                }
            }
        }
        if let Some(extra) = used.iter().position(|u| !u) {
            let kind = if records || g.is_empty() {
                "extra_record"
            } else {
                "wrong_value"
            };
            self.differ(
                kind,
                format!(
                    "{path}[{extra}] is not in the gold ({} items, gold {})",
                    a.len(),
                    g.len()
                ),
            );
        }
    }
}

/// Whether two records are the same record.
type Same = dyn Fn(&Value, &Value) -> bool;

/// Pairs gold records with answer records regardless of order: equal records first, then by
/// the first field whose value matches, then by position among what is left.
fn match_records(g: &[Value], a: &[Value]) -> Vec<(usize, Option<usize>)> {
    let mut taken = vec![false; a.len()];
    let mut out: Vec<(usize, Option<usize>)> = (0..g.len()).map(|i| (i, None)).collect();
    let passes: [&Same; 2] = [&|x, y| crate::formats::same_value(x, y), &|x, y| {
        let first = x.as_object().and_then(|o| o.iter().next());
        first.is_some_and(|(k, v)| y.get(k).is_some_and(|w| same_scalar(v, w)))
    }];
    for same in passes {
        for (gi, slot) in out.iter_mut() {
            if slot.is_some() {
                continue;
            }
            if let Some(ai) = (0..a.len()).find(|&ai| !taken[ai] && same(&g[*gi], &a[ai])) {
                taken[ai] = true;
                *slot = Some(ai);
            }
        }
    }
    let mut free = (0..a.len()).filter(|&i| !taken[i]);
    for (_, slot) in out.iter_mut().filter(|(_, s)| s.is_none()) {
        *slot = free.next();
    }
    out
}

/// Scalars equal as JSON, numbers within 1e-9 relative.
fn same_scalar(g: &Value, a: &Value) -> bool {
    match (g, a) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            x == y || (x - y).abs() <= 1e-9 * x.abs().max(y.abs())
        }
        _ => g == a,
    }
}

fn count_leaves(v: &Value) -> usize {
    match v {
        Value::Object(o) if !o.is_empty() => o.values().map(count_leaves).sum(),
        Value::Array(a) if !a.is_empty() => a.iter().map(count_leaves).sum(),
        _ => 1,
    }
}

#[cfg(test)]
mod tests;
