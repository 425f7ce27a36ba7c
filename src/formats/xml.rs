//! `xml_compact` and `xml_pretty`: any JSON document as elements. A one-key document is its
//! root element (`<products>`), anything else sits in `<document>`; list items are named after
//! the list (`<products>` holds `<product>`s, other lists `<item>`s), objects are child
//! elements, null is `<x/>`. A key that is not an element name (`Beak Length (mm)`, `2024`,
//! `xmlns`) is written as `<field name="Beak Length (mm)">`, as common JSON→XML converters do,
//! so every key survives. Shapes XML cannot say without type hints (empty lists and objects)
//! are a "cannot represent" error, never a guess.

use super::encoder::{Encoder, FormatSpec, Splice};
use super::error::FormatError;
use crate::scalar;
use quick_xml::Writer;
use quick_xml::escape::partial_escape;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// XML, minified or indented by 2 spaces.
pub struct Xml {
    name: &'static str,
    pretty: bool,
}

/// XML without whitespace between elements.
pub static XML_COMPACT: FormatSpec = FormatSpec {
    name: "xml_compact",
    display: "XML",
    extension: "xml",
    fence: "xml",
    flat_only: false,
    extra: false,
    primer: "XML: <products> holds one <product> element per product, each field a child element; an empty element means null.",
    encoder: &Xml {
        name: "xml_compact",
        pretty: false,
    },
};

/// XML indented by 2 spaces.
pub static XML_PRETTY: FormatSpec = FormatSpec {
    name: "xml_pretty",
    display: "XML",
    extension: "xml",
    fence: "xml",
    flat_only: false,
    extra: false,
    primer: "XML: <products> holds one <product> element per product, each field a child element; an empty element means null.",
    encoder: &Xml {
        name: "xml_pretty",
        pretty: true,
    },
};

/// Root element of a document that is not an object with one key (several keys, an array or
/// a scalar); decoding unwraps it. A one-key document named `document` is wrapped too, so the
/// rule has no exception.
const WRAPPER: &str = "document";

/// Element name of one array item: `products` → `product`; `item` when the list's name is not
/// a plain `-s` plural (`status`, `class`, `data`).
fn item_name(list: &str) -> &str {
    if ["ss", "us", "is"].iter().any(|end| list.ends_with(end)) {
        return "item";
    }
    list.strip_suffix('s')
        .filter(|s| !s.is_empty())
        .unwrap_or("item")
}

/// Element of a key that is not an element name; the key itself is its [`KEY_ATTR`]
/// attribute. A real key `field` is a `<field>` without the attribute, so the two never meet.
const FIELD: &str = "field";

/// Attribute of a [`FIELD`] element that holds the real key.
const KEY_ATTR: &str = "name";

/// Whether a key can be an element name as it is: a letter or `_`, then letters, digits and
/// `_-.` (the XML Name production without `:`, which namespaces claim), not starting with
/// `xml` in any case, which XML reserves.
fn valid_name(key: &str) -> bool {
    let b = key.as_bytes();
    // ASCII keys (nearly all) are checked byte by byte: this runs for every element written.
    if b.is_ascii() {
        return matches!(b.first(), Some(c) if c.is_ascii_alphabetic() || *c == b'_')
            && b[1..]
                .iter()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
            && !(b.len() >= 3 && b[..3].eq_ignore_ascii_case(b"xml"));
    }
    let mut chars = key.chars();
    matches!(chars.next(), Some(c) if c == '_' || (c.is_alphabetic() && name_start_char(c)))
        && chars.all(|c| matches!(c, '_' | '-' | '.') || (c.is_alphanumeric() && name_char(c)))
        && !key
            .get(..3)
            .is_some_and(|prefix| prefix.eq_ignore_ascii_case("xml"))
}

/// XML 1.0 (5th edition) `NameStartChar` for letters. Unicode calls some characters below
/// U+00C0 letters (`ª`, `µ`, `º`) that XML does not accept, so both must agree.
fn name_start_char(c: char) -> bool {
    matches!(c,
        'A'..='Z' | 'a'..='z' | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}' | '\u{F8}'..='\u{2FF}'
        | '\u{370}'..='\u{37D}' | '\u{37F}'..='\u{1FFF}' | '\u{200C}'..='\u{200D}'
        | '\u{2070}'..='\u{218F}' | '\u{2C00}'..='\u{2FEF}' | '\u{3001}'..='\u{D7FF}'
        | '\u{F900}'..='\u{FDCF}' | '\u{FDF0}'..='\u{FFFD}' | '\u{10000}'..='\u{EFFFF}')
}

/// XML 1.0 (5th edition) `NameChar` for letters and digits: superscripts and fractions
/// (`²`, `½`) are Unicode numbers but not XML name characters.
fn name_char(c: char) -> bool {
    name_start_char(c)
        || matches!(c, '0'..='9' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
}

/// The element name a key is written as: itself, or [`FIELD`].
fn tag_of(key: &str) -> &str {
    if valid_name(key) { key } else { FIELD }
}

/// The start tag of a key: `<key>`, or `<field name="key">` for a key that is not a name.
fn start_of(key: &str) -> BytesStart<'_> {
    if valid_name(key) {
        return BytesStart::new(key);
    }
    let mut start = BytesStart::new(FIELD);
    let value = escape_attr(key);
    // Bytes are pushed as they are; the `&str` form would escape again, and `>` and `'` too.
    start.push_attribute((KEY_ATTR.as_bytes(), value.as_bytes()));
    start
}

/// Escapes an attribute value in double quotes: `&`, `<` and `"` as entities, and tab,
/// newline and carriage return as character references, since parsers read literal ones in
/// attributes as spaces.
fn escape_attr(value: &str) -> Cow<'_, str> {
    if !value.contains(['&', '<', '"', '\t', '\n', '\r']) {
        return Cow::Borrowed(value);
    }
    let mut out = String::with_capacity(value.len() + 8);
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '"' => out.push_str("&quot;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

impl Xml {
    fn err(&self, e: impl std::fmt::Display) -> FormatError {
        FormatError::new(self.name, e)
    }

    /// What XML cannot say without type hints, found before writing anything. `tag` is the
    /// element `v` is written as, which names its list items.
    fn check(&self, path: &dyn Fn() -> String, tag: &str, v: &Value) -> Result<(), FormatError> {
        // `path` is built only for an error message: formatting it for every node of 100,000
        // records cost more than the check itself.
        let cannot = |why: String| Err(FormatError::cannot_represent(self.name, why));
        match v {
            Value::Object(o) if o.is_empty() => cannot(format!(
                "{} is an empty object, which reads back as an empty string",
                path()
            )),
            Value::Array(a) if a.is_empty() => cannot(format!(
                "{} is an empty list, which reads back as an empty string",
                path()
            )),
            Value::Object(o) => {
                if o.len() == 1 && o.contains_key(item_name(tag)) {
                    return cannot(format!(
                        "{} is an object whose only key is '{}', which reads back as a list",
                        path(),
                        item_name(tag)
                    ));
                }
                o.iter()
                    .try_for_each(|(k, v)| self.check(&|| format!("{}.{k}", path()), tag_of(k), v))
            }
            Value::Array(a) => a.iter().enumerate().try_for_each(|(i, v)| {
                self.check(&|| format!("{}[{i}]", path()), item_name(tag), v)
            }),
            _ => Ok(()),
        }
    }

    /// Writes `v` as the element of `key` (see [`start_of`]).
    fn write(&self, w: &mut Writer<Vec<u8>>, key: &str, v: &Value) -> Result<(), FormatError> {
        let io = |e: std::io::Error| self.err(e);
        let tag = tag_of(key);
        match v {
            Value::Null => w.write_event(Event::Empty(start_of(key))).map_err(io)?,
            Value::Object(o) => {
                w.write_event(Event::Start(start_of(key))).map_err(io)?;
                for (k, v) in o {
                    self.write(w, k, v)?;
                }
                w.write_event(Event::End(BytesEnd::new(tag))).map_err(io)?;
            }
            Value::Array(a) => {
                w.write_event(Event::Start(start_of(key))).map_err(io)?;
                // Items are named after the element, not the key: `field` holds `item`s. A
                // name's item name is a name too, so items never take the attribute form.
                for v in a {
                    self.write(w, item_name(tag), v)?;
                }
                w.write_event(Event::End(BytesEnd::new(tag))).map_err(io)?;
            }
            scalar => {
                let text = scalar::to_text(scalar).expect("scalar");
                w.write_event(Event::Start(start_of(key))).map_err(io)?;
                // Only & < > need escaping in text; escaping quotes too would add tokens for nothing.
                w.write_event(Event::Text(BytesText::from_escaped(partial_escape(&text))))
                    .map_err(io)?;
                w.write_event(Event::End(BytesEnd::new(tag))).map_err(io)?;
            }
        }
        Ok(())
    }
}

/// A read element: its name, and the key from its `name` attribute if it is a `<field>` with one.
struct Named {
    tag: String,
    attr: Option<String>,
}

impl Named {
    /// The JSON key the element stands for.
    fn key(self) -> String {
        self.attr.unwrap_or(self.tag)
    }
}

/// An element being read: its name, child elements and text.
struct Open {
    named: Named,
    children: Vec<(Named, Value)>,
    text: String,
}

impl Open {
    /// Children all named as items of this element are a list, other children an object, no
    /// children the text (`<x></x>` is the empty string; `<x/>`, read elsewhere, is null). A
    /// `<field name=…>` is always an object key, even inside a list of `<field>`s.
    fn finish(self) -> Result<(Named, Value), String> {
        if self.children.is_empty() {
            let value = match self.text.as_str() {
                "" => Value::String(String::new()),
                text => scalar::infer(text),
            };
            return Ok((self.named, value));
        }
        let item = item_name(&self.named.tag);
        if self
            .children
            .iter()
            .all(|(n, _)| n.tag == item && n.attr.is_none())
        {
            let items = self.children.into_iter().map(|(_, v)| v).collect();
            return Ok((self.named, Value::Array(items)));
        }
        let mut obj = Map::new();
        for (n, v) in self.children {
            let k = n.key();
            if obj.contains_key(&k) {
                return Err(format!("key '{k}' appears twice in <{}>", self.named.tag));
            }
            obj.insert(k, v);
        }
        Ok((self.named, Value::Object(obj)))
    }
}

impl Encoder for Xml {
    fn encode(&self, doc: &Value) -> Result<String, FormatError> {
        // A root key that is not a name is wrapped like any other document: the root element
        // then needs no attribute and decoding has one rule.
        let (root, value) = match doc
            .as_object()
            .filter(|o| o.len() == 1)
            .and_then(|o| o.iter().next())
        {
            Some((k, v)) if k != WRAPPER && valid_name(k) => (k.as_str(), v),
            _ => (WRAPPER, doc),
        };
        self.check(&|| root.to_string(), root, value)?;
        let mut w = if self.pretty {
            Writer::new_with_indent(Vec::new(), b' ', 2)
        } else {
            Writer::new(Vec::new())
        };
        w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))
            .map_err(|e| self.err(e))?;
        self.write(&mut w, root, value)?;
        String::from_utf8(w.into_inner()).map_err(|e| self.err(e))
    }

    fn decode(&self, text: &str) -> Result<Value, FormatError> {
        let mut reader = quick_xml::Reader::from_str(text);
        let mut stack: Vec<Open> = Vec::new();
        let mut root: Option<(Named, Value)> = None;
        let line_of = |pos: u64| {
            text.as_bytes()[..(pos as usize).min(text.len())]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1
        };
        loop {
            let pos = reader.buffer_position();
            let ev = reader
                .read_event()
                .map_err(|e| self.err(format!("line {}: {e}", line_of(pos))))?;
            let decoder = reader.decoder();
            let named = |s: &BytesStart| -> Result<Named, FormatError> {
                let tag = String::from_utf8_lossy(s.name().as_ref()).into_owned();
                let attr = match tag.as_str() {
                    FIELD => s
                        .try_get_attribute(KEY_ATTR)
                        .map_err(|e| self.err(format!("line {}: {e}", line_of(pos))))?
                        .map(|a| a.decode_and_unescape_value(decoder).map(Cow::into_owned))
                        .transpose()
                        .map_err(|e| self.err(format!("line {}: {e}", line_of(pos))))?,
                    _ => None,
                };
                Ok(Named { tag, attr })
            };
            match ev {
                Event::Start(s) => stack.push(Open {
                    named: named(&s)?,
                    children: Vec::new(),
                    text: String::new(),
                }),
                Event::Empty(s) => {
                    let child = (named(&s)?, Value::Null);
                    match stack.last_mut() {
                        Some(parent) => parent.children.push(child),
                        None => root = Some(child),
                    }
                }
                Event::Text(t) => {
                    // Entities arrive as separate GeneralRef events, so text is taken as is;
                    // indentation whitespace only ever sits between child elements and is dropped.
                    let t = t.decode().map_err(|e| self.err(e))?;
                    if let Some(open) = stack.last_mut() {
                        open.text.push_str(&t);
                    }
                }
                Event::GeneralRef(r) => {
                    let name = r.decode().map_err(|e| self.err(e))?;
                    let ch = quick_xml::escape::resolve_predefined_entity(&name)
                        .map(str::to_string)
                        .or_else(|| r.resolve_char_ref().ok().flatten().map(String::from))
                        .ok_or_else(|| {
                            self.err(format!("line {}: unknown entity &{name};", line_of(pos)))
                        })?;
                    if let Some(open) = stack.last_mut() {
                        open.text.push_str(&ch);
                    }
                }
                Event::End(_) => {
                    let open = stack.pop().ok_or_else(|| self.err("unbalanced end tag"))?;
                    let child = open
                        .finish()
                        .map_err(|e| self.err(format!("line {}: {e}", line_of(pos))))?;
                    match stack.last_mut() {
                        Some(parent) => parent.children.push(child),
                        None => root = Some(child),
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        if let Some(open) = stack.last() {
            return Err(self.err(format!("unclosed element <{}>", open.named.tag)));
        }
        let (named, value) = root.ok_or_else(|| self.err("no root element"))?;
        if named.tag == WRAPPER && named.attr.is_none() {
            return Ok(value);
        }
        let mut doc = Map::new();
        doc.insert(named.key(), value);
        Ok(Value::Object(doc))
    }

    fn splice(&self) -> Option<Splice> {
        Some(Splice::joined(""))
    }

    fn frame(&self, text: &str, key: &str) -> Option<(usize, usize)> {
        let decl = r#"<?xml version="1.0" encoding="UTF-8"?>"#;
        let head = if self.pretty {
            format!("{decl}\n<{key}>\n")
        } else {
            format!("{decl}<{key}>")
        };
        super::encoder::framed(text, &head, &format!("</{key}>"))
    }
}

#[cfg(test)]
mod tests {
    //! Unit tests of this file: keys that are not element names, names XML accepts, escaping.

    use super::*;
    use serde_json::json;

    const DECL: &str = r#"<?xml version="1.0" encoding="UTF-8"?>"#;

    /// Encodes `doc` compact and pretty, asserts both read back to `doc`, returns the compact text.
    fn round_trip(doc: &Value) -> String {
        for spec in [&XML_COMPACT, &XML_PRETTY] {
            let text = spec
                .encoder
                .encode(doc)
                .unwrap_or_else(|e| panic!("{doc}: {e}"));
            let back = spec
                .encoder
                .decode(&text)
                .unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(&back, doc, "{}:\n{text}", spec.name);
        }
        XML_COMPACT.encoder.encode(doc).unwrap()
    }

    #[test]
    fn names_follow_the_xml_name_production() {
        for ok in [
            "id", "_x", "a-b.c", "Größe", "名前", "état", "x2", "field", "document",
        ] {
            assert!(valid_name(ok), "{ok}");
        }
        for bad in [
            "",
            "first name",
            "Beak Length (mm)",
            "2024",
            "$ref",
            "-a",
            ".a",
            "a:b",
            "adjusted CO2",
            // Reserved in any case.
            "xml",
            "xmlns",
            "XML_id",
            "Xmlish",
            // Unicode letters and numbers that XML's name tables leave out.
            "µg",
            "ªa",
            "m²",
            "a½",
        ] {
            assert!(!valid_name(bad), "{bad}");
        }
    }

    #[test]
    fn keys_that_are_not_names_become_field_elements() {
        let doc =
            json!({"penguins": [{"species": "Adelie", "Beak Length (mm)": 39.1, "sex": null}]});
        let text = round_trip(&doc);
        assert_eq!(
            text,
            format!(
                "{DECL}<penguins><penguin><species>Adelie</species>\
             <field name=\"Beak Length (mm)\">39.1</field><sex/></penguin></penguins>"
            )
        );
        let pretty = XML_PRETTY.encoder.encode(&doc).unwrap();
        assert_eq!(
            pretty,
            format!(
                "{DECL}\n<penguins>\n  <penguin>\n    <species>Adelie</species>\n    \
             <field name=\"Beak Length (mm)\">39.1</field>\n    <sex/>\n  </penguin>\n</penguins>"
            )
        );
    }

    #[test]
    fn awkward_keys_round_trip() {
        let doc = json!({"rows": [
            {"Beak Length (mm)": 39.1, "2024": true, "first name": "Ann", "field": "a real key",
             "xmlns": "urn:x", "Größe": 1.8, "名前": "ペンギン", "$ref": "#/a", "adjusted CO2": null,
             "m²": 12},
            {"first name": "Bo", "field": null}
        ]});
        let text = round_trip(&doc);
        for part in [
            "<field name=\"2024\">true</field>",
            "<field>a real key</field>",
            "<field name=\"xmlns\">urn:x</field>",
            "<Größe>1.8</Größe>",
            "<名前>ペンギン</名前>",
            "<field name=\"adjusted CO2\"/>",
            "<field name=\"m²\">12</field>",
            "<row><field name=\"first name\">Bo</field><field/></row>",
        ] {
            assert!(text.contains(part), "{part}\n{text}");
        }
    }

    #[test]
    fn nested_awkward_keys_round_trip() {
        round_trip(&json!({"a b": {"c d": [1, {"field": {"x y": [null, "z", [true]]}}]}, "e": 2}));
        // A list under a key that is not a name holds `<item>`s, whatever the key ends with.
        let text = round_trip(&json!({"rows": [{"adjusted CO2s": ["x", "y"]}]}));
        assert!(
            text.contains("<field name=\"adjusted CO2s\"><item>x</item><item>y</item></field>"),
            "{text}"
        );
        // `<fields>` holds `<field>` items; a `<field name=…>` in it is a key, not an item.
        round_trip(&json!({"fields": {"a b": 1}}));
        round_trip(&json!({"fields": [{"a b": 1}, {"field": 2, "c d": 3}], "n": 1}));
        round_trip(&json!({"fields": ["x", null]}));
    }

    #[test]
    fn a_root_key_that_is_not_a_name_is_wrapped() {
        let doc = json!({"first name": "Ann"});
        assert_eq!(
            round_trip(&doc),
            format!("{DECL}<document><field name=\"first name\">Ann</field></document>")
        );
        assert!(round_trip(&json!({"xml": [1, 2]})).contains("<document><field name=\"xml\">"));
        round_trip(&json!({"2024": {"a": 1}}));
        round_trip(&json!({"a b": null}));
        // The wrapper itself and one-key documents with a name keep their form.
        round_trip(&json!({"document": {"a b": 1}}));
        assert!(round_trip(&json!({"Größe": 1})).starts_with(&format!("{DECL}<Größe>1</Größe>")));
    }

    #[test]
    fn key_attributes_escape_quotes_ampersands_and_angles() {
        let key = "say \"hi\" & <b>'s\tx\ny";
        let doc = json!({"rows": [{ key: 1 }]});
        let text = round_trip(&doc);
        assert!(
            text.contains("<field name=\"say &quot;hi&quot; &amp; &lt;b>'s&#9;x&#10;y\">1</field>"),
            "{text}"
        );
    }

    #[test]
    fn only_types_xml_cannot_say_are_refused() {
        // `<field name="a b"><item>1</item></field>` would read back as the list [1].
        let e = XML_COMPACT
            .encoder
            .encode(&json!({"rows": [{"a b": {"item": 1}}]}))
            .unwrap_err();
        assert!(e.is_cannot_represent(), "{e}");
        assert!(
            e.to_string()
                .contains("rows[0].a b is an object whose only key is 'item'"),
            "{e}"
        );
        let e = XML_COMPACT.encoder.encode(&json!({"a b": []})).unwrap_err();
        assert!(e.to_string().contains("a b is an empty list"), "{e}");
    }

    #[test]
    fn hand_written_field_elements_decode() {
        let text =
            r#"<r><field name="a &amp; b"/><field>x</field><field name="&#x41;"></field></r>"#;
        assert_eq!(
            XML_COMPACT.encoder.decode(text).unwrap(),
            json!({"r": {"a & b": null, "field": "x", "A": ""}})
        );
        let twice = r#"<r><field name="k">1</field><field name="k">2</field></r>"#;
        let e = XML_COMPACT.encoder.decode(twice).unwrap_err().to_string();
        assert!(e.contains("key 'k' appears twice in <r>"), "{e}");
    }
}
