//! The object of a value: string keys in the order they were written.
//!
//! A plan holds hundreds of thousands of small objects (a definition, its
//! arguments, each declared field, each authority claim), most of them with a
//! handful of keys. An [`indexmap::IndexMap`] costs two allocations per object
//! (its entries and its hash table), a stored hash per entry and 56 bytes
//! inline, which made every [`Value`](crate::model::value::Value) 56 bytes.
//! This map keeps its entries in one vector and scans them while there are
//! few; above [`SCAN`] entries (objects a document may make as large as it
//! likes) it adds a hash index of entry numbers, so a lookup stays
//! constant-time for them. A map is 32 bytes and so is a value. Keys are
//! [`Id`]s: a key of up to 24 bytes (every key the plan format defines)
//! lives inside its entry, without an allocation of its own.

use std::hash::BuildHasher;

use hashbrown::HashTable;

use super::hash::FastState;
use super::ids::Id;

/// Up to this many entries a lookup scans the keys: cheaper than hashing the
/// probe, and no index to build or keep.
const SCAN: usize = 8;

/// An object's entries, in the order they were inserted, keys unique.
/// Generic over the value so that it does not depend on [`Value`]
/// (`crate::model::value::Map` is this map of values).
///
/// [`Value`]: crate::model::value::Value
#[derive(Clone)]
pub struct Map<V> {
    entries: Vec<(Id, V)>,
    /// Entry numbers by key hash; present exactly while `len() > SCAN`.
    index: Option<Box<HashTable<usize>>>,
}

fn hash(key: &str) -> u64 {
    FastState.hash_one(key)
}

impl<V> Default for Map<V> {
    fn default() -> Self {
        Map {
            entries: Vec::new(),
            index: None,
        }
    }
}

impl<V> Map<V> {
    pub fn new() -> Self {
        Map::default()
    }

    pub fn with_capacity(n: usize) -> Self {
        Map {
            entries: Vec::with_capacity(n),
            index: None,
        }
    }

    /// A map of `entries`, whose keys the caller knows are unique (kept as
    /// they are: sized as the caller sized them).
    pub fn from_unique(entries: Vec<(Id, V)>) -> Self {
        let mut m = Map {
            entries,
            index: None,
        };
        debug_assert!(
            m.entries
                .iter()
                .enumerate()
                .all(|(i, (k, _))| m.entries[..i].iter().all(|(j, _)| j != k)),
            "the keys are unique"
        );
        if m.entries.len() > SCAN {
            m.build_index();
        }
        m
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Where `key` sits among the entries.
    #[inline]
    pub fn index_of(&self, key: &str) -> Option<usize> {
        match &self.index {
            None => self.entries.iter().position(|(k, _)| k == key),
            Some(ix) => ix.find(hash(key), |&i| self.entries[i].0 == key).copied(),
        }
    }

    #[inline]
    pub fn get(&self, key: &str) -> Option<&V> {
        self.index_of(key).map(|i| &self.entries[i].1)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut V> {
        self.index_of(key).map(|i| &mut self.entries[i].1)
    }

    #[inline]
    pub fn contains_key(&self, key: &str) -> bool {
        self.index_of(key).is_some()
    }

    /// The first entry written.
    pub fn first(&self) -> Option<(&Id, &V)> {
        self.entries.first().map(|(k, v)| (k, v))
    }

    /// Sets `key` to `value`. A key already present keeps its place and
    /// gives back its old value; a new key goes last.
    pub fn insert(&mut self, key: Id, value: V) -> Option<V> {
        match self.index_of(&key) {
            Some(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            None => {
                self.push_new(key, value);
                None
            }
        }
    }

    /// Appends an entry whose key the caller knows is absent.
    pub fn push_new(&mut self, key: Id, value: V) {
        debug_assert!(!self.contains_key(&key), "{key:?} is already present");
        let at = self.entries.len();
        self.entries.push((key, value));
        match &mut self.index {
            Some(ix) => {
                let entries = &self.entries;
                ix.insert_unique(hash(&entries[at].0), at, |&i| hash(&entries[i].0));
            }
            None if self.entries.len() > SCAN => self.build_index(),
            None => {}
        }
    }

    /// The value under `key`, made by `make` and inserted last if absent.
    pub fn get_or_insert_with(&mut self, key: Id, make: impl FnOnce() -> V) -> &mut V {
        let at = match self.index_of(&key) {
            Some(i) => i,
            None => {
                self.push_new(key, make());
                self.entries.len() - 1
            }
        };
        &mut self.entries[at].1
    }

    /// Removes `key`, keeping the order of the others (linear, like
    /// `Vec::remove`).
    pub fn shift_remove(&mut self, key: &str) -> Option<V> {
        let at = self.index_of(key)?;
        let (_, v) = self.entries.remove(at);
        if self.entries.len() > SCAN {
            self.build_index();
        } else {
            self.index = None;
        }
        Some(v)
    }

    pub fn clear(&mut self) {
        self.entries.clear();
        self.index = None;
    }

    fn build_index(&mut self) {
        let mut ix = HashTable::with_capacity(self.entries.len());
        for (i, (k, _)) in self.entries.iter().enumerate() {
            ix.insert_unique(hash(k), i, |&j| hash(&self.entries[j].0));
        }
        self.index = Some(Box::new(ix));
    }

    pub fn iter(&self) -> Iter<'_, V> {
        Iter(self.entries.iter())
    }

    pub fn iter_mut(&mut self) -> IterMut<'_, V> {
        IterMut(self.entries.iter_mut())
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Id> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> + ExactSizeIterator {
        self.entries.iter_mut().map(|(_, v)| v)
    }
}

/// Equal when they hold the same keys with equal values, in any order (as
/// JSON objects compare, and as `IndexMap` did).
impl<V: PartialEq> PartialEq for Map<V> {
    fn eq(&self, other: &Map<V>) -> bool {
        self.len() == other.len()
            && self
                .entries
                .iter()
                .all(|(k, v)| other.get(k).is_some_and(|w| w == v))
    }
}

impl<V: std::fmt::Debug> std::fmt::Debug for Map<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<V> std::ops::Index<&str> for Map<V> {
    type Output = V;
    /// The value under `key`; panics when it is absent (for tests and
    /// keys a caller has just checked).
    fn index(&self, key: &str) -> &V {
        self.get(key)
            .unwrap_or_else(|| panic!("no key {key:?} in the object"))
    }
}

/// Entries by reference, in order.
pub struct Iter<'a, V>(std::slice::Iter<'a, (Id, V)>);

impl<V> Clone for Iter<'_, V> {
    fn clone(&self) -> Self {
        Iter(self.0.clone())
    }
}

impl<'a, V> Iterator for Iter<'a, V> {
    type Item = (&'a Id, &'a V);
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<V> DoubleEndedIterator for Iter<'_, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl<V> ExactSizeIterator for Iter<'_, V> {}

/// Entries with their values mutable, in order.
pub struct IterMut<'a, V>(std::slice::IterMut<'a, (Id, V)>);

impl<'a, V> Iterator for IterMut<'a, V> {
    type Item = (&'a Id, &'a mut V);
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (&*k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<V> DoubleEndedIterator for IterMut<'_, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (&*k, v))
    }
}

impl<V> ExactSizeIterator for IterMut<'_, V> {}

/// Later entries with a key already seen replace its value in place, as
/// [`Map::insert`] does.
impl<V> FromIterator<(Id, V)> for Map<V> {
    fn from_iter<I: IntoIterator<Item = (Id, V)>>(iter: I) -> Self {
        let mut m = Map::new();
        m.extend(iter);
        m
    }
}

impl<V> Extend<(Id, V)> for Map<V> {
    fn extend<I: IntoIterator<Item = (Id, V)>>(&mut self, iter: I) {
        let iter = iter.into_iter();
        self.entries.reserve(iter.size_hint().0);
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

/// As from `(Id, V)` pairs, the keys made ids.
impl<V> FromIterator<(String, V)> for Map<V> {
    fn from_iter<I: IntoIterator<Item = (String, V)>>(iter: I) -> Self {
        iter.into_iter().map(|(k, v)| (Id::from(k), v)).collect()
    }
}

impl<V> IntoIterator for Map<V> {
    type Item = (Id, V);
    type IntoIter = std::vec::IntoIter<(Id, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<'a, V> IntoIterator for &'a Map<V> {
    type Item = (&'a Id, &'a V);
    type IntoIter = Iter<'a, V>;
    fn into_iter(self) -> Iter<'a, V> {
        self.iter()
    }
}

impl<'a, V> IntoIterator for &'a mut Map<V> {
    type Item = (&'a Id, &'a mut V);
    type IntoIter = IterMut<'a, V>;
    fn into_iter(self) -> IterMut<'a, V> {
        self.iter_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(n: usize) -> u64 {
        n as u64
    }

    #[test]
    fn keys_keep_their_order_and_a_repeated_key_its_place() {
        let mut m: Map<u64> = Map::new();
        for k in ["b", "a", "c"] {
            assert_eq!(m.insert(k.into(), num(1)), None);
        }
        assert_eq!(m.insert("a".into(), num(2)), Some(num(1)));
        assert_eq!(
            m.keys().map(Id::as_str).collect::<Vec<_>>(),
            ["b", "a", "c"]
        );
        assert_eq!(m["a"], num(2));
        assert_eq!(m.shift_remove("b"), Some(num(1)));
        assert_eq!(m.shift_remove("b"), None);
        assert_eq!(m.first().map(|(k, _)| k.as_str()), Some("a"));
    }

    /// Across the scan limit in both directions the index finds every key,
    /// and equality ignores order.
    #[test]
    fn lookups_agree_above_and_below_the_scan_limit() {
        let n = 3 * SCAN;
        let mut m: Map<u64> = Map::new();
        for i in 0..n {
            m.insert(format!("k{i}").into(), num(i));
            assert!(m.index.is_some() == (m.len() > SCAN));
            for j in 0..=i {
                assert_eq!(m.get(&format!("k{j}")), Some(&num(j)));
            }
            assert_eq!(m.get("absent"), None);
        }
        let reversed: Map<u64> = m.clone().into_iter().rev().collect();
        assert_eq!(reversed, m);
        assert_ne!(reversed.first(), m.first());
        for i in (0..n).step_by(2) {
            assert_eq!(m.shift_remove(&format!("k{i}")), Some(num(i)));
            assert!(m.index.is_some() == (m.len() > SCAN));
        }
        let left: Vec<_> = m.keys().cloned().collect();
        let odd: Vec<_> = (1..n).step_by(2).map(|i| format!("k{i}")).collect();
        assert_eq!(left, odd);
        for (i, k) in odd.iter().enumerate() {
            assert_eq!(m.index_of(k), Some(i));
        }
        assert_ne!(m, reversed);
        *m.get_or_insert_with("new".into(), || num(0)) = num(7);
        assert_eq!(m.get("new"), Some(&num(7)));
        m.clear();
        assert!(m.is_empty() && m.index.is_none() && m.get("k1").is_none());
    }
}
