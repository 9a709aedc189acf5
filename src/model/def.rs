//! A node's definition: an owned [`Map`], or one read on demand from where
//! it is stored (issue 17: a one-shot write on a large stored plan builds
//! only the definitions it reads).
//!
//! A [`Def`] dereferences to its map everywhere: a stored one is built on
//! first read and kept (by its source, shared by every clone), and
//! [`DerefMut`](std::ops::DerefMut) makes it owned first. `Clone`,
//! `PartialEq` and `Debug` behave as the map's.
//!
//! The model does not know where a definition is stored: a source is a
//! [`Stored`] trait object the store supplies (a chunk of a snapshot). Its
//! contract: a read gives the definition written, or — when the source
//! finds what it holds damaged on that first read (the store checks a
//! chunk's definitions only then) — an empty one, and the source marks
//! the plan it belongs to, whose owner then makes again from the log
//! whatever was made from it (see `store::late`).

use super::value::{Map, Value};
use std::sync::Arc;

/// Where stored definitions come from: a list of them, each built on
/// demand. Implemented by the store; see the module's contract.
pub trait Stored: std::any::Any + Send + Sync {
    /// The definition of item `at`, built on its first read and the same
    /// map on every later one. `at` is one the store handed out with this
    /// source (an item it holds).
    fn definition(&self, at: usize) -> &Map;

    /// The definition of item `at`, built afresh (to be owned and changed).
    fn build(&self, at: usize) -> Map {
        self.definition(at).clone()
    }

    /// The value of `key` in definition `at` (what its map has there): a
    /// source may build it alone, so that a check that reads one field of
    /// every node does not build every definition.
    fn field(&self, at: usize, key: &str) -> Option<&Value> {
        self.definition(at).get(key)
    }

    /// The `tool` string of item `at` (a call's), when the source keeps it
    /// apart from the definitions (`Some(None)`: it has none that is a
    /// string); `None` to read it as the field. A check reads the tool of
    /// every call: kept apart, no definition is read for it.
    fn tool(&self, _at: usize) -> Option<Option<&str>> {
        None
    }

    /// Whether a definition of the plan this source holds items of was
    /// found damaged when built (it then built an empty one): what was
    /// made from the plan's definitions since is not the plan's.
    fn damaged(&self) -> bool {
        false
    }
}

/// A node's definition (see the module).
#[derive(Clone)]
pub struct Def(Repr);

#[derive(Clone)]
enum Repr {
    Owned(Map),
    Stored(Arc<dyn Stored>, usize),
}

impl Def {
    /// Definition `at` of `source`, built when first read.
    pub fn stored(source: Arc<dyn Stored>, at: usize) -> Def {
        Def(Repr::Stored(source, at))
    }

    /// The source and position of a definition that is still the stored
    /// one (not changed since); `None` for an owned one.
    pub fn source(&self) -> Option<(&Arc<dyn Stored>, usize)> {
        match &self.0 {
            Repr::Stored(s, at) => Some((s, *at)),
            Repr::Owned(_) => None,
        }
    }

    /// The value of `key` (as the map's `get`; a stored definition may
    /// build only that value, see [`Stored::field`]).
    #[inline]
    pub fn get(&self, key: &str) -> Option<&Value> {
        match &self.0 {
            Repr::Owned(m) => m.get(key),
            Repr::Stored(s, at) => s.field(*at, key),
        }
    }

    /// The `tool` field as a string, as `get("tool")` gives it, read from
    /// where the source keeps it apart when it does (see [`Stored::tool`]).
    #[inline]
    pub fn tool(&self) -> Option<&str> {
        if let Repr::Stored(s, at) = &self.0
            && let Some(t) = s.tool(*at)
        {
            return t;
        }
        self.get("tool").and_then(Value::as_str)
    }

    /// Whether `key` is present (see [`Def::get`]).
    #[inline]
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The map, owned.
    pub fn into_map(self) -> Map {
        match self.0 {
            Repr::Owned(m) => m,
            Repr::Stored(s, at) => s.build(at),
        }
    }
}

impl Default for Def {
    fn default() -> Def {
        Def(Repr::Owned(Map::new()))
    }
}

impl From<Map> for Def {
    fn from(m: Map) -> Def {
        Def(Repr::Owned(m))
    }
}

impl From<Def> for Map {
    fn from(d: Def) -> Map {
        d.into_map()
    }
}

impl std::ops::Deref for Def {
    type Target = Map;
    #[inline]
    fn deref(&self) -> &Map {
        match &self.0 {
            Repr::Owned(m) => m,
            Repr::Stored(s, at) => s.definition(*at),
        }
    }
}

impl std::ops::DerefMut for Def {
    fn deref_mut(&mut self) -> &mut Map {
        if let Repr::Stored(s, at) = &self.0 {
            self.0 = Repr::Owned(s.build(*at));
        }
        match &mut self.0 {
            Repr::Owned(m) => m,
            Repr::Stored(..) => unreachable!("made owned above"),
        }
    }
}

impl PartialEq for Def {
    fn eq(&self, other: &Def) -> bool {
        if let (Repr::Stored(a, i), Repr::Stored(b, j)) = (&self.0, &other.0)
            && i == j
            && std::ptr::addr_eq(Arc::as_ptr(a), Arc::as_ptr(b))
        {
            return true;
        }
        **self == **other
    }
}

impl PartialEq<Map> for Def {
    fn eq(&self, other: &Map) -> bool {
        **self == *other
    }
}

impl std::fmt::Debug for Def {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

impl FromIterator<(String, Value)> for Def {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Def {
        Def::from(iter.into_iter().collect::<Map>())
    }
}

impl<'a> IntoIterator for &'a Def {
    type Item = (&'a crate::model::ids::Id, &'a Value);
    type IntoIter = crate::model::map::Iter<'a, Value>;
    fn into_iter(self) -> Self::IntoIter {
        (**self).iter()
    }
}

impl<'a> IntoIterator for &'a mut Def {
    type Item = (&'a crate::model::ids::Id, &'a mut Value);
    type IntoIter = crate::model::map::IterMut<'a, Value>;
    fn into_iter(self) -> Self::IntoIter {
        (**self).iter_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A source of `n` definitions `{"i": i}`, counting its builds.
    struct Counting {
        maps: Vec<OnceLock<Map>>,
        builds: AtomicUsize,
    }

    impl Counting {
        fn new(n: usize) -> Arc<Counting> {
            Arc::new(Counting {
                maps: (0..n).map(|_| OnceLock::new()).collect(),
                builds: AtomicUsize::new(0),
            })
        }
        fn make(&self, at: usize) -> Map {
            self.builds.fetch_add(1, Ordering::Relaxed);
            [("i".to_string(), Value::from(at as u64))]
                .into_iter()
                .collect()
        }
    }

    impl Stored for Counting {
        fn definition(&self, at: usize) -> &Map {
            self.maps[at].get_or_init(|| self.make(at))
        }
        fn build(&self, at: usize) -> Map {
            self.make(at)
        }
    }

    #[test]
    fn a_stored_definition_is_built_once_when_read_and_owned_when_changed() {
        let src = Counting::new(3);
        let a = Def::stored(src.clone(), 1);
        let b = a.clone();
        assert_eq!(src.builds.load(Ordering::Relaxed), 0, "nothing read yet");
        assert_eq!(a.get("i"), Some(&Value::from(1u64)));
        assert_eq!(b.len(), 1);
        assert_eq!(src.builds.load(Ordering::Relaxed), 1, "built once, shared");
        let mut c = b.clone();
        c.insert("j".into(), Value::Null);
        assert!(c.source().is_none() && b.source().is_some());
        assert_eq!(b.len(), 1, "the stored one is unchanged");
        assert_ne!(c, b);
        let owned: Map = [("i".to_string(), Value::from(1u64))].into_iter().collect();
        assert_eq!(a, Def::from(owned.clone()), "equal to the owned map");
        assert_eq!(a, owned);
        assert_ne!(a, Def::stored(src.clone(), 2));
        assert_eq!(format!("{a:?}"), format!("{owned:?}"));
        assert_eq!(a.into_map(), owned);
    }
}
