//! Reading a large YAML document again only where it changed: the
//! validator's memory of the last version it read of each document (its
//! text, the lines of its items, its value), so that an edit inside one
//! item of `nodes:` or `edges:` costs the reading of that item, not of
//! the whole document (at 10,000 nodes, 5 MB of YAML take the YAML reader
//! most of a second on a loaded machine; an item, well under a
//! millisecond).
//!
//! The new version's value is the last one's with that item read again
//! (see [`crate::wire::span::Items`] for when an item reads on its own),
//! and its document is decoded from it as a whole (the decoding is cheap
//! and has rules across items: edge ids minted from the others). It is
//! what reading the whole text gives (`tests`: a property over random
//! edits, the values, the documents and the findings). Any other change —
//! across items, outside the sequences, an anchor or alias, a text that
//! does not read — reads the whole text, as `validate` does.
//!
//! JSON is not kept: its reader reads 10,000 nodes in a few tens of
//! milliseconds (`codec::direct`).

use crate::model::value::{Value, push_pointer_token};
use crate::wire::codec::{self, Document};
use crate::wire::parse::{ParseError, Syntax};
use crate::wire::span::{Change, Items};
use std::sync::Arc;

/// Texts shorter than this are read whole each time (fast enough), and
/// nothing of them is kept.
const LARGE: usize = 64 * 1024;

/// How many documents are kept at most (the most recently read): each
/// holds its value, a few times its text's size.
const KEEP: usize = 4;

/// The last version read of the large YAML documents.
#[derive(Debug, Default)]
pub(crate) struct Rereads {
    kept: Vec<Kept>,
    /// Smallest text kept (`LARGE`; the tests keep every text).
    from: usize,
}

/// A version read: its text, its items' lines and its value (references
/// converted).
#[derive(Debug)]
struct Kept {
    name: String,
    text: Arc<str>,
    items: Items,
    value: Value,
}

/// How a version was read (for the tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum How {
    Whole,
    /// The item read again, its value put in the kept one's place.
    Item,
    /// The item read again, its references refused (the kept version
    /// stays the last one).
    Refused,
    Same,
}

impl Rereads {
    pub(crate) fn new() -> Rereads {
        Rereads::keeping_from(LARGE)
    }

    fn keeping_from(from: usize) -> Rereads {
        Rereads {
            kept: Vec::new(),
            from,
        }
    }

    /// The document `name` holds now (`text`), as `codec::document` reads
    /// it: a large YAML one read again only where it changed since the
    /// last version read of it, any other read whole.
    pub(crate) fn document(
        &mut self,
        name: &str,
        text: &Arc<str>,
        syntax: Syntax,
    ) -> Result<Document, ParseError> {
        if syntax == Syntax::Yaml && text.len() >= self.from {
            self.read(name, text).0
        } else {
            codec::document(text, syntax)
        }
    }

    /// [`Rereads::document`], and how it was read.
    fn read(&mut self, name: &str, text: &Arc<str>) -> (Result<Document, ParseError>, How) {
        let at = self.kept.iter().position(|k| k.name == name);
        if let Some(i) = at {
            let k = &mut self.kept[i];
            match again(k, text) {
                Some(Ok(how)) => {
                    let k = self.kept.remove(i);
                    let read = codec::document_from_value(&k.value);
                    self.kept.push(k);
                    return (read, how);
                }
                // The item does not read as a plan's: that is the
                // document's error (the others read before), and the
                // last version stays the one to read from.
                Some(Err(e)) => return (Err(e), How::Refused),
                None => {}
            }
        }
        (self.whole(name, text, at), How::Whole)
    }

    /// Reads the whole text; keeps it when it reads and is large.
    fn whole(
        &mut self,
        name: &str,
        text: &Arc<str>,
        at: Option<usize>,
    ) -> Result<Document, ParseError> {
        let value = crate::wire::parse::parse(text, Syntax::Yaml)
            .and_then(|v| crate::wire::convert::hydrated(v, ""))?;
        let read = codec::document_from_value(&value);
        if let Some(i) = at {
            self.kept.remove(i);
        }
        if text.len() >= self.from
            && let Some(items) = Items::of(text)
        {
            if self.kept.len() == KEEP {
                self.kept.remove(0);
            }
            self.kept.push(Kept {
                name: name.to_string(),
                text: Arc::clone(text),
                items,
                value,
            });
        }
        read
    }
}

/// The kept version made `text`, when it differs from it in one item
/// that reads on its own (`None`: read the whole text). `Some(Err)`: the
/// item reads, but its references do not (the kept version is left as it
/// is).
fn again(k: &mut Kept, text: &Arc<str>) -> Option<Result<How, ParseError>> {
    let (key, index, part) = match k.items.change(&k.text, text)? {
        Change::Same => return Some(Ok(How::Same)),
        Change::Item {
            key,
            index,
            len,
            part,
        } => {
            let seq = match &k.value {
                Value::Object(m) => m.get(key),
                _ => None,
            };
            // The value's sequence has the items the lines say.
            if !matches!(seq, Some(Value::Array(a)) if a.len() == len) {
                return None;
            }
            (key.to_string(), index, part)
        }
    };
    let mut items = match crate::wire::parse::yaml_part(part, text.contains('!'))? {
        Value::Array(items) if items.len() == 1 => items,
        _ => return None,
    };
    let mut item = items.pop()?;
    let mut pointer = String::from("/");
    push_pointer_token(&mut pointer, &key);
    pointer.push('/');
    pointer.push_str(&index.to_string());
    if let Err(e) = crate::wire::convert::hydrate(&mut item, &mut pointer) {
        return Some(Err(e));
    }
    let items = Items::of(text)?;
    if let Value::Object(m) = &mut k.value
        && let Some(Value::Array(a)) = m.get_mut(&key)
    {
        a[index] = item;
    }
    k.text = Arc::clone(text);
    k.items = items;
    Some(Ok(How::Item))
}

#[cfg(test)]
mod tests;
