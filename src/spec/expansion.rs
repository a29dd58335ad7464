//! The size a document expands to, measured before it is built: a YAML puzzle with its
//! aliases repeated, or a JSON file with what reading it allocates.
//!
//! yaml_serde bounds how many times aliases may be replayed, but not what each replay copies:
//! one 300 KB anchored string repeated through `ratings:` became 2 GB. [`check`] walks the
//! document once without keeping anything (strings are borrowed from the parser's events)
//! and stops as soon as the scalars it has seen pass [`MAX_EXPANDED_BYTES`]. [`json_cost`]
//! walks a JSON text the same way.

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::cell::Cell;

/// Four times the file cap: room for honest anchors, none for a bomb.
pub const MAX_EXPANDED_BYTES: u64 = 4 * super::MAX_SPEC_BYTES;
/// What each node costs beyond its text, so that empty nodes are not free.
const NODE_BYTES: u64 = 8;
const TOO_BIG: &str = "marbles: expansion limit";

/// `Err(line)` when the document expands past the limit; every other problem is left to
/// the real parse, which reports it with its location.
pub fn check(source: &str) -> Result<(), Option<usize>> {
    let used = Cell::new(0u64);
    let counter = Counter {
        used: &used,
        node: NODE_BYTES,
        limit: MAX_EXPANDED_BYTES,
    };
    for doc in serde_yaml::Deserializer::from_str(source) {
        if let Err(e) = counter.deserialize(doc) {
            if e.to_string().contains(TOO_BIG) {
                return Err(e.location().map(|l| l.line()));
            }
            return Ok(());
        }
    }
    Ok(())
}

/// Whether reading the JSON `text` into typed values stays within `limit` bytes, counting
/// `node` bytes for each value (a key too) besides its strings' bytes: `Err(None)` once that
/// passes `limit`, unread further; `Err(Some(why))` for text that is not JSON.
pub fn json_cost(text: &str, node: u64, limit: u64) -> Result<(), Option<String>> {
    let used = Cell::new(0u64);
    let counter = Counter {
        used: &used,
        node,
        limit,
    };
    let mut d = serde_json::Deserializer::from_str(text);
    match counter.deserialize(&mut d).and_then(|()| d.end()) {
        Ok(()) => Ok(()),
        Err(e) if e.to_string().contains(TOO_BIG) => Err(None),
        Err(e) => Err(Some(e.to_string())),
    }
}

#[derive(Clone, Copy)]
struct Counter<'a> {
    used: &'a Cell<u64>,
    /// Bytes each node costs beyond its text.
    node: u64,
    limit: u64,
}

impl Counter<'_> {
    fn spend<E: de::Error>(&self, bytes: usize) -> Result<(), E> {
        let used = self.used.get() + bytes as u64 + self.node;
        self.used.set(used);
        if used > self.limit {
            return Err(E::custom(TOO_BIG));
        }
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Counter<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Counter<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any value")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.spend(0)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.spend(0)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.spend(0)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.spend(0)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.spend(v.len())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.spend(0)
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.spend(0)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.spend::<A::Error>(0)?;
        while seq.next_element_seed(self)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.spend::<A::Error>(0)?;
        while map.next_key_seed(self)?.is_some() {
            map.next_value_seed(self)?;
        }
        Ok(())
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        use de::VariantAccess;
        let ((), v) = data.variant_seed(self)?;
        v.newtype_variant_seed(self)
    }
}
