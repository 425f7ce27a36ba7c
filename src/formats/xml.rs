//! `xml_compact` and `xml_pretty`: any JSON document as elements. A one-key document is its
//! root element (`<products>`), anything else sits in `<document>`; list items are named after
//! the list (`<products>` holds `<product>`s, other lists `<item>`s), objects are child
//! elements, null is `<x/>`. Shapes XML cannot say without type hints (empty lists and
//! objects, keys that are not element names) are a "cannot represent" error, never a guess.

use super::{Encoder, FormatError, FormatSpec, scalar};
use quick_xml::Writer;
use quick_xml::escape::partial_escape;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use serde_json::{Map, Value};

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

/// `[A-Za-z_][A-Za-z0-9_.-]*`: a key XML can use as an element name as it is.
fn valid_name(key: &str) -> bool {
    let mut chars = key.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

impl Xml {
    fn err(&self, e: impl std::fmt::Display) -> FormatError {
        FormatError::new(self.name, e)
    }

    /// What XML cannot say without attributes or type hints, found before writing anything.
    fn check(&self, path: &str, name: &str, v: &Value) -> Result<(), FormatError> {
        let cannot = |why: String| Err(FormatError::cannot_represent(self.name, why));
        match v {
            Value::Object(o) if o.is_empty() => cannot(format!(
                "{path} is an empty object, which reads back as an empty string"
            )),
            Value::Array(a) if a.is_empty() => cannot(format!(
                "{path} is an empty list, which reads back as an empty string"
            )),
            Value::Object(o) => {
                if o.len() == 1 && o.contains_key(item_name(name)) {
                    return cannot(format!(
                        "{path} is an object whose only key is '{}', which reads back as a list",
                        item_name(name)
                    ));
                }
                for (k, v) in o {
                    if !valid_name(k) {
                        return cannot(format!("key '{k}' in {path} is not an XML element name"));
                    }
                    self.check(&format!("{path}.{k}"), k, v)?;
                }
                Ok(())
            }
            Value::Array(a) => a
                .iter()
                .enumerate()
                .try_for_each(|(i, v)| self.check(&format!("{path}[{i}]"), item_name(name), v)),
            _ => Ok(()),
        }
    }
    fn write(&self, w: &mut Writer<Vec<u8>>, name: &str, v: &Value) -> Result<(), FormatError> {
        let io = |e: std::io::Error| self.err(e);
        match v {
            Value::Null => w
                .write_event(Event::Empty(BytesStart::new(name)))
                .map_err(io)?,
            Value::Object(o) => {
                w.write_event(Event::Start(BytesStart::new(name)))
                    .map_err(io)?;
                for (k, v) in o {
                    self.write(w, k, v)?;
                }
                w.write_event(Event::End(BytesEnd::new(name))).map_err(io)?;
            }
            Value::Array(a) => {
                w.write_event(Event::Start(BytesStart::new(name)))
                    .map_err(io)?;
                for v in a {
                    self.write(w, item_name(name), v)?;
                }
                w.write_event(Event::End(BytesEnd::new(name))).map_err(io)?;
            }
            scalar => {
                let text = scalar::to_text(scalar).expect("scalar");
                w.write_event(Event::Start(BytesStart::new(name)))
                    .map_err(io)?;
                // Only & < > need escaping in text; escaping quotes too would add tokens for nothing.
                w.write_event(Event::Text(BytesText::from_escaped(partial_escape(&text))))
                    .map_err(io)?;
                w.write_event(Event::End(BytesEnd::new(name))).map_err(io)?;
            }
        }
        Ok(())
    }
}

/// An element being read: its name, child elements and text.
struct Open {
    name: String,
    children: Vec<(String, Value)>,
    text: String,
}

impl Open {
    /// Children all named as items of this element are a list, other children an object, no
    /// children the text (`<x></x>` is the empty string; `<x/>`, read elsewhere, is null).
    fn finish(self) -> Result<Value, String> {
        if self.children.is_empty() {
            return Ok(match self.text.as_str() {
                "" => Value::String(String::new()),
                text => scalar::infer(text),
            });
        }
        let item = item_name(&self.name);
        if self.children.iter().all(|(n, _)| n == item) {
            return Ok(Value::Array(
                self.children.into_iter().map(|(_, v)| v).collect(),
            ));
        }
        let mut obj = Map::new();
        for (k, v) in self.children {
            if obj.contains_key(&k) {
                return Err(format!("<{k}> appears twice in <{}>", self.name));
            }
            obj.insert(k, v);
        }
        Ok(Value::Object(obj))
    }
}

impl Encoder for Xml {
    fn encode(&self, doc: &Value) -> Result<String, FormatError> {
        let (root, value) = match doc.as_object() {
            Some(o) if o.len() == 1 && !o.contains_key(WRAPPER) => {
                o.iter().next().expect("one key")
            }
            _ => (&WRAPPER.to_string(), doc),
        };
        if !valid_name(root) {
            return Err(FormatError::cannot_represent(
                self.name,
                format!("root key '{root}' is not an XML element name"),
            ));
        }
        self.check(root, root, value)?;
        let root = root.as_str();
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
        let mut root: Option<(String, Value)> = None;
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
            let name_of = |s: &BytesStart| String::from_utf8_lossy(s.name().as_ref()).into_owned();
            match ev {
                Event::Start(s) => stack.push(Open {
                    name: name_of(&s),
                    children: Vec::new(),
                    text: String::new(),
                }),
                Event::Empty(s) => match stack.last_mut() {
                    Some(parent) => parent.children.push((name_of(&s), Value::Null)),
                    None => root = Some((name_of(&s), Value::Null)),
                },
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
                    let name = open.name.clone();
                    let value = open
                        .finish()
                        .map_err(|e| self.err(format!("line {}: {e}", line_of(pos))))?;
                    match stack.last_mut() {
                        Some(parent) => parent.children.push((name, value)),
                        None => root = Some((name, value)),
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        if !stack.is_empty() {
            return Err(self.err(format!(
                "unclosed element <{}>",
                stack[stack.len() - 1].name
            )));
        }
        let (name, value) = root.ok_or_else(|| self.err("no root element"))?;
        if name == WRAPPER {
            return Ok(value);
        }
        let mut doc = Map::new();
        doc.insert(name, value);
        Ok(Value::Object(doc))
    }
}
