//! `xml_compact` and `xml_pretty`: root `<products>`, one `<product>` per record, nested
//! objects as child elements, null as an empty element.

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

/// Element name of one array item: `products` → `product`.
fn item_name(list: &str) -> &str {
    list.strip_suffix('s')
        .filter(|s| !s.is_empty())
        .unwrap_or("item")
}

impl Xml {
    fn err(&self, e: impl std::fmt::Display) -> FormatError {
        FormatError::new(self.name, e)
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
    fn finish(self, is_root: bool) -> Value {
        if is_root {
            return Value::Array(self.children.into_iter().map(|(_, v)| v).collect());
        }
        if self.children.is_empty() {
            return scalar::infer(&self.text);
        }
        Value::Object(self.children.into_iter().collect::<Map<_, _>>())
    }
}

impl Encoder for Xml {
    fn encode(&self, doc: &Value) -> Result<String, FormatError> {
        let (root, value) = doc
            .as_object()
            .and_then(|o| o.iter().next())
            .ok_or_else(|| self.err("expected a root object with one key"))?;
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
                    None => root = Some((name_of(&s), Value::Array(Vec::new()))),
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
                    let value = open.finish(stack.is_empty());
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
        let mut doc = Map::new();
        doc.insert(name, value);
        Ok(Value::Object(doc))
    }
}
