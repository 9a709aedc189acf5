//! A kept value read from disk as its bytes and decoded when first asked
//! for (issue 17, session 30): of the graph analyses a one-shot write reads
//! back, some are dropped by the change before any check asks for them
//! (the topological orders after an edge), some are not asked for at all
//! (the dominator tree, without many reachability questions); decoding
//! them cost ≈ 2 ms at 100,000 nodes. A value never decoded is written
//! back as the bytes it was read from.
//!
//! The bytes are those of one [`Out::part`] (a buffer of its own, text and
//! values): read back whole, or not at all — a value that does not read
//! back is as if it was not kept, and its user makes it afresh.

use super::kept_disk::{Blob, In, Out, Persist, Via};

/// A value made here, or kept as the bytes it was read from with the
/// function that reads them.
pub(crate) enum Later<T> {
    Made(T),
    Kept(Blob, fn(&mut In<'_>) -> Option<T>),
}

impl<T> Later<T> {
    /// The value, decoded now when it was kept as bytes; `None` when they
    /// do not read back.
    pub(crate) fn into_made(self) -> Option<T> {
        match self {
            Later::Made(v) => Some(v),
            Later::Kept(bytes, read) => {
                let mut inp = In::open(&bytes)?;
                let v = read(&mut inp)?;
                inp.is_empty().then_some(v)
            }
        }
    }

    /// The value, when it is made (not decoded here).
    pub(crate) fn made(&self) -> Option<&T> {
        match self {
            Later::Made(v) => Some(v),
            Later::Kept(..) => None,
        }
    }
}

/// `slot`'s value to change, decoded in place when it was kept as bytes;
/// `None`, and the slot emptied, when there is none or it does not read
/// back.
pub(crate) fn made_mut<T>(slot: &mut Option<Later<T>>) -> Option<&mut T> {
    if let Some(Later::Kept(..)) = slot {
        *slot = slot.take().and_then(Later::into_made).map(Later::Made);
    }
    match slot {
        Some(Later::Made(v)) => Some(v),
        _ => None,
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Later<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Later::Made(v) => v.fmt(f),
            Later::Kept(bytes, _) => write!(f, "<{} bytes kept>", bytes.len()),
        }
    }
}

/// An `Option<Later<T>>` on disk: whether there is a value, then its
/// bytes as a part (written through `C`, or copied as they were read).
pub(crate) struct Lazily<C>(std::marker::PhantomData<C>);

impl<T, C: Via<T>> Via<Option<Later<T>>> for Lazily<C> {
    fn put(v: &Option<Later<T>>, out: &mut Out) {
        v.is_some().put(out);
        match v {
            None => {}
            Some(Later::Made(x)) => out.part(|o| C::put(x, o)),
            Some(Later::Kept(bytes, _)) => out.blob(bytes),
        }
    }
    fn get(inp: &mut In<'_>) -> Option<Option<Later<T>>> {
        Some(match bool::get(inp)? {
            false => None,
            true => Some(Later::Kept(inp.blob_kept()?, C::get)),
        })
    }
}

/// A value through its own [`Persist`] (for [`Lazily`]).
pub(crate) struct Plain;

impl<T: Persist> Via<T> for Plain {
    fn put(v: &T, out: &mut Out) {
        v.put(out);
    }
    fn get(inp: &mut In<'_>) -> Option<T> {
        T::get(inp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::kept_disk::{Flat, Shared, from_shared, to_bytes};

    /// Two values kept lazily, through a codec and through their own form.
    #[derive(Debug)]
    struct Two {
        flat: Option<Later<Vec<usize>>>,
        words: Option<Later<Vec<u64>>>,
    }

    impl Persist for Two {
        fn put(&self, out: &mut Out) {
            Lazily::<Flat>::put(&self.flat, out);
            Lazily::<Plain>::put(&self.words, out);
        }
        fn get(inp: &mut In<'_>) -> Option<Two> {
            Some(Two {
                flat: Lazily::<Flat>::get(inp)?,
                words: Lazily::<Plain>::get(inp)?,
            })
        }
    }

    fn shared(v: &Two) -> Shared {
        std::sync::Arc::new(to_bytes(v))
    }

    /// Read back, values stay bytes until asked for, decode to what was
    /// written, and are written again as the same bytes when never
    /// decoded; a value that does not read back is none.
    #[test]
    fn values_decode_when_asked_and_go_back_as_their_bytes() {
        let two = Two {
            flat: Some(Later::Made((0..300).collect())),
            words: Some(Later::Made(vec![7, u64::MAX])),
        };
        let bytes = shared(&two);
        let mut back: Two = from_shared(&bytes).expect("reads back");
        assert!(matches!(back.flat, Some(Later::Kept(Blob::Part(..), _))));
        assert_eq!(
            format!("{:?}", back.words.as_ref().map(|l| l.made())),
            "Some(None)"
        );
        // Not decoded: the same bytes again.
        assert_eq!(to_bytes(&back), **bytes);
        let words = made_mut(&mut back.words).expect("decodes");
        words.push(1);
        assert_eq!(
            back.flat.take().and_then(Later::into_made),
            Some((0..300).collect())
        );
        let again: Two = from_shared(&shared(&back)).expect("reads back");
        assert!(again.flat.is_none());
        assert_eq!(
            again.words.and_then(Later::into_made),
            Some(vec![7, u64::MAX, 1])
        );
        // A part that does not read back (a value cut short): none, and
        // the slot emptied.
        let mut damaged = Some(Later::Kept(
            Blob::Own(to_bytes(&vec![1u64, 2])[..3].to_vec()),
            <Vec<u64>>::get,
        ));
        assert!(made_mut(&mut damaged).is_none());
        assert!(damaged.is_none());
        // No value, and a tag that is neither.
        let none = Two {
            flat: None,
            words: None,
        };
        let back: Two = from_shared(&shared(&none)).expect("reads back");
        assert!(back.flat.is_none() && back.words.is_none());
        let mut out = Out::default();
        2u64.put(&mut out);
        assert!(crate::check::kept_disk::from_bytes::<Two>(&out.finish()).is_none());
    }
}
