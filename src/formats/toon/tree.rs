//! Read-only JSON trees for the encoder. [`Node`] abstracts over `serde_json::Value`
//! and [`Json`], a compact tree that borrows unescaped strings from the JSON text:
//! with `preserve_order` a `Value` object costs an `IndexMap` (hash table plus
//! owned keys), about six times the memory of a `Json` object on record data.

use std::collections::HashMap;
use std::fmt;
use std::ops::Deref;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// A JSON tree the encoder can walk.
pub trait Node: Sized {
    /// How this tree stores an object's entries.
    type Object: Object<Self> + ?Sized;

    /// The node's kind and contents.
    fn view(&self) -> View<'_, Self>;
}

/// An object's entries in document order, keys unique.
pub trait Object<N> {
    /// Number of entries.
    fn len(&self) -> usize;

    /// Whether the object has no entries.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entries in document order.
    fn entries<'a>(&'a self) -> impl Iterator<Item = (&'a str, &'a N)>
    where
        N: 'a;

    /// The value under `key`, if any.
    fn get(&self, key: &str) -> Option<&N>;
}

/// One borrowed node of a [`Node`] tree.
pub enum View<'n, N: Node> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number as serde_json parsed it.
    Number(&'n Number),
    /// A string.
    String(&'n str),
    /// An array.
    Array(&'n [N]),
    /// An object.
    Object(&'n N::Object),
}

impl Node for Value {
    type Object = Map<String, Value>;

    fn view(&self) -> View<'_, Self> {
        match self {
            Value::Null => View::Null,
            Value::Bool(b) => View::Bool(*b),
            Value::Number(n) => View::Number(n),
            Value::String(s) => View::String(s),
            Value::Array(a) => View::Array(a),
            Value::Object(m) => View::Object(m),
        }
    }
}

impl Object<Value> for Map<String, Value> {
    fn len(&self) -> usize {
        Map::len(self)
    }

    fn entries<'a>(&'a self) -> impl Iterator<Item = (&'a str, &'a Value)>
    where
        Value: 'a,
    {
        self.iter().map(|(k, v)| (k.as_str(), v))
    }

    fn get(&self, key: &str) -> Option<&Value> {
        Map::get(self, key)
    }
}

/// A compact JSON tree whose strings borrow from the parsed text; see [`Json::parse`].
#[derive(Debug, Clone, PartialEq)]
pub enum Json<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, exactly as `serde_json::Value` would hold it.
    Number(Number),
    /// A string.
    String(Str<'a>),
    /// An array.
    Array(Box<[Json<'a>]>),
    /// An object's entries in document order, keys unique.
    Object(Box<[(Str<'a>, Json<'a>)]>),
}

/// A string borrowed from the JSON text, or owned when it contained escapes.
#[derive(Debug, Clone)]
pub enum Str<'a> {
    /// Unescaped text, borrowed.
    Borrowed(&'a str),
    /// Unescaped from text with escapes. Boxed twice so `Str` stays two words (rare case).
    Owned(Box<Box<str>>),
}

impl Str<'_> {
    /// The string's contents.
    pub fn as_str(&self) -> &str {
        match self {
            Str::Borrowed(s) => s,
            Str::Owned(s) => s,
        }
    }

    fn owned(s: &str) -> Self {
        Str::Owned(Box::new(s.into()))
    }
}

impl Deref for Str<'_> {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Str<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Str<'_> {}

impl<'a> Node for Json<'a> {
    type Object = [(Str<'a>, Json<'a>)];

    fn view(&self) -> View<'_, Self> {
        match self {
            Json::Null => View::Null,
            Json::Bool(b) => View::Bool(*b),
            Json::Number(n) => View::Number(n),
            Json::String(s) => View::String(s),
            Json::Array(a) => View::Array(a),
            Json::Object(m) => View::Object(&**m),
        }
    }
}

impl<'a> Object<Json<'a>> for [(Str<'a>, Json<'a>)] {
    fn len(&self) -> usize {
        <[_]>::len(self)
    }

    fn entries<'b>(&'b self) -> impl Iterator<Item = (&'b str, &'b Json<'a>)>
    where
        Json<'a>: 'b,
    {
        self.iter().map(|(k, v)| (k.as_str(), v))
    }

    // Linear: objects are small, and the encoder only looks keys up off its fast paths.
    fn get(&self, key: &str) -> Option<&Json<'a>> {
        self.iter().find(|(k, _)| k.as_str() == key).map(|(_, v)| v)
    }
}

impl<'a> Json<'a> {
    /// Parses JSON text with `serde_json`, with the same values `Value` would get
    /// (numbers, and a repeated key keeps its first position and its last value).
    pub fn parse(text: &'a str) -> Result<Self, serde_json::Error> {
        let mut de = serde_json::Deserializer::from_str(text);
        let mut stacks = Stacks::default();
        let json = Seed(&mut stacks).deserialize(&mut de)?;
        de.end()?;
        Ok(json)
    }
}

/// Elements and entries of the containers still being parsed. A finished container
/// moves its tail into an exactly sized box; a growing `Vec` per container would
/// waste up to half its capacity.
#[derive(Default)]
struct Stacks<'a> {
    items: Vec<Json<'a>>,
    entries: Vec<(Str<'a>, Json<'a>)>,
}

/// Objects with more entries than this find duplicate keys through a hash index.
const LINEAR_KEYS: usize = 16;

struct Seed<'s, 'a>(&'s mut Stacks<'a>);

impl<'de> DeserializeSeed<'de> for Seed<'_, 'de> {
    type Value = Json<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Json<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

// Mirrors serde_json's own `Value` visitor, so numbers come out identical.
impl<'de> Visitor<'de> for Seed<'_, 'de> {
    type Value = Json<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_unit<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }

    fn visit_none<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Json<'de>, E> {
        Ok(Json::Bool(b))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Json<'de>, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Json<'de>, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_u128<E: de::Error>(self, n: u128) -> Result<Json<'de>, E> {
        Number::deserialize(de::value::U128Deserializer::new(n)).map(Json::Number)
    }

    fn visit_i128<E: de::Error>(self, n: i128) -> Result<Json<'de>, E> {
        Number::deserialize(de::value::I128Deserializer::new(n)).map(Json::Number)
    }

    fn visit_f64<E>(self, f: f64) -> Result<Json<'de>, E> {
        Ok(Number::from_f64(f).map_or(Json::Null, Json::Number))
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Json<'de>, E> {
        Ok(Json::String(Str::Borrowed(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Json<'de>, E> {
        Ok(Json::String(Str::owned(s)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json<'de>, A::Error> {
        let stacks = self.0;
        let start = stacks.items.len();
        while let Some(v) = seq.next_element_seed(Seed(&mut *stacks))? {
            stacks.items.push(v);
        }
        Ok(Json::Array(stacks.items.drain(start..).collect()))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json<'de>, A::Error> {
        let stacks = self.0;
        let start = stacks.entries.len();
        let mut index: Option<HashMap<Box<str>, usize>> = None;
        while let Some(key) = map.next_key_seed(KeySeed)? {
            let value = map.next_value_seed(Seed(&mut *stacks))?;
            // Nested containers have drained their own entries, so this object's are the tail.
            let open = &mut stacks.entries[start..];
            let n = open.len();
            let found = match &mut index {
                Some(ix) => ix.get(key.as_str()).copied(),
                None => open.iter().position(|(k, _)| *k == key),
            };
            if let Some(i) = found {
                open[i].1 = value;
                continue;
            }
            match &mut index {
                Some(ix) => {
                    ix.insert(key.as_str().into(), n);
                }
                None if n >= LINEAR_KEYS => {
                    let mut ix: HashMap<Box<str>, usize> = open
                        .iter()
                        .enumerate()
                        .map(|(i, (k, _))| (k.as_str().into(), i))
                        .collect();
                    ix.insert(key.as_str().into(), n);
                    index = Some(ix);
                }
                None => {}
            }
            stacks.entries.push((key, value));
        }
        Ok(Json::Object(stacks.entries.drain(start..).collect()))
    }
}

struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Str<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Str<'de>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Str<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Str<'de>, E> {
        Ok(Str::Borrowed(s))
    }

    fn visit_str<E>(self, s: &str) -> Result<Str<'de>, E> {
        Ok(Str::owned(s))
    }
}
