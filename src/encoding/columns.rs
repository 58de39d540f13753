//! The six per-token columns of an [`Encoding`](super::Encoding) in one
//! allocation: a struct of arrays, so that making, cloning and freeing an
//! encoding costs one allocation, not six (a batch of short texts made and
//! freed six per text, a tenth of the work of reading their ids).
//!
//! Every column holds plain integers, for which any bytes are a value, and
//! every slot of every column is always initialised (the whole capacity is
//! zeroed when allocated, or written at once by [`Columns::from_columns`]),
//! so all the work on the columns is safe slice work over
//! [`Columns::full_mut`]; the unsafe code is the allocation, that first
//! write, and the making of the six slices. (Crates for struct-of-arrays vectors exist, but
//! the encodings need fallible reservation, which they lack: sizes come from
//! arguments, and a size beyond memory must be an error, not an abort.)

use std::alloc::{self, Layout};
use std::marker::PhantomData;
use std::ptr::NonNull;

/// A value any bytes are a value of (zeros included), of at most 4-byte
/// alignment: what the words column can hold (the encoding's `Word`; this
/// module knows it only through this trait, below it in the layers).
///
/// # Safety
/// Every bit pattern of the type's size is a valid value, and its alignment
/// is at most 4.
pub(super) unsafe trait Plain: Copy {}

/// The columns, each `cap` slots long, one after the other in this order:
/// offsets, ids, words (4-byte values first, so no padding), then type ids,
/// special tokens mask and attention mask (bytes).
pub(super) struct Columns<W: Plain> {
    /// Dangling (never read or freed) when `cap` is 0.
    ptr: NonNull<u8>,
    len: usize,
    cap: usize,
    words: PhantomData<W>,
}

// SAFETY: `Columns` owns its allocation alone, as a `Vec` does, and holds
// only integers: sending it or sharing `&Columns` is as safe as for `Vec<u32>`.
unsafe impl<W: Plain> Send for Columns<W> {}
// SAFETY: as above; `&Columns` gives only shared slices.
unsafe impl<W: Plain> Sync for Columns<W> {}

/// The columns as slices, one entry per token (or per slot of the capacity,
/// from [`Columns::full_mut`]).
pub(super) struct Slices<O, I, W, B> {
    pub offsets: O,
    pub ids: I,
    pub words: W,
    pub type_ids: B,
    pub special_tokens_mask: B,
    pub attention_mask: B,
}

pub(super) type Refs<'a, W> = Slices<&'a [(u32, u32)], &'a [u32], &'a [W], &'a [u8]>;
pub(super) type Muts<'a, W> = Slices<&'a mut [(u32, u32)], &'a mut [u32], &'a mut [W], &'a mut [u8]>;

/// The layout of an allocation for `cap` tokens; None if that size is not a
/// possible size. The columns need no padding (see [`starts`]), so the size
/// is the sum of theirs: one multiplication (this runs for every encoding
/// made and freed).
fn layout<W: Plain>(cap: usize) -> Option<Layout> {
    let token = std::mem::size_of::<(u32, u32)>() + 4 + std::mem::size_of::<W>() + 3;
    Layout::from_size_align(cap.checked_mul(token)?, 4).ok()
}

/// Where each column starts in the allocation for `cap` tokens: the
/// 4-byte columns come first, each a whole number of 4-byte values long,
/// so no column needs padding before it.
#[inline]
fn starts<W: Plain>(cap: usize) -> [usize; 6] {
    const { assert!(std::mem::align_of::<W>() <= 4) };
    let offsets = std::mem::size_of::<(u32, u32)>() * cap;
    let bytes = offsets + (4 + std::mem::size_of::<W>()) * cap;
    [0, offsets, offsets + 4 * cap, bytes, bytes + cap, bytes + 2 * cap]
}

/// The six columns of [`Columns::parts`]' pointers as [`Slices`] of `n`
/// slots each, made by `make` (`from_raw_parts` or `from_raw_parts_mut`):
/// one body for the shared and the mutable view. Unsafe as `make` is.
macro_rules! slices {
    ($parts:expr, $n:expr, $make:path) => {{
        let (o, i, w, [t, s, a]) = $parts;
        let n = $n;
        Slices {
            offsets: $make(o, n),
            ids: $make(i, n),
            words: $make(w, n),
            type_ids: $make(t, n),
            special_tokens_mask: $make(s, n),
            attention_mask: $make(a, n),
        }
    }};
}

impl<W: Plain> Columns<W> {
    pub const fn new() -> Self {
        Self { ptr: NonNull::dangling(), len: 0, cap: 0, words: PhantomData }
    }

    /// Room for `cap` tokens, or None when it cannot be had (a size beyond
    /// the possible sizes, or an allocation that fails).
    pub fn try_with_capacity(cap: usize) -> Option<Self> {
        if cap == 0 {
            return Some(Self::new());
        }
        let layout = layout::<W>(cap)?;
        // SAFETY: `layout` has a non-zero size (`cap` > 0, every column at
        // least a byte per token).
        let ptr = NonNull::new(unsafe { alloc::alloc_zeroed(layout) })?;
        Some(Self { ptr, len: 0, cap, words: PhantomData })
    }

    /// Exactly `ids.len()` tokens: the 4-byte columns copied from the
    /// slices given, each byte column filled with its value of `bytes`
    /// (type id, special tokens mask, attention mask). Every slot is
    /// written once, without the zeroing of a fresh allocation first (the
    /// encodings of long documents spent more on zeroing than on copying).
    /// None when there is no room for them (as [`Self::try_with_capacity`]).
    pub fn from_columns(ids: &[u32], offsets: &[(u32, u32)], words: &[W], bytes: [u8; 3]) -> Option<Self> {
        let n = ids.len();
        assert!(offsets.len() == n && words.len() == n, "columns of one length");
        if n == 0 {
            return Some(Self::new());
        }
        let layout = layout::<W>(n)?;
        // SAFETY: `layout` has a non-zero size (`n` > 0).
        let ptr = NonNull::new(unsafe { alloc::alloc(layout) })?;
        let mut columns = Self { ptr, len: 0, cap: n, words: PhantomData };
        let (o, i, w, [t, s, a]) = columns.parts();
        // SAFETY: each column of the new allocation has room for `n` values
        // (`layout`), none overlaps the sources; after this, every slot of
        // every column is written, as `Columns` requires of its slots.
        unsafe {
            std::ptr::copy_nonoverlapping(offsets.as_ptr(), o, n);
            std::ptr::copy_nonoverlapping(ids.as_ptr(), i, n);
            std::ptr::copy_nonoverlapping(words.as_ptr(), w, n);
            std::ptr::write_bytes(t, bytes[0], n);
            std::ptr::write_bytes(s, bytes[1], n);
            std::ptr::write_bytes(a, bytes[2], n);
        }
        columns.len = n;
        Some(columns)
    }

    /// Room for `cap` tokens; panics or aborts as `Vec::with_capacity` does
    /// when it cannot be had.
    pub fn with_capacity(cap: usize) -> Self {
        Self::try_with_capacity(cap).unwrap_or_else(|| match layout::<W>(cap) {
            Some(layout) => alloc::handle_alloc_error(layout),
            None => panic!("capacity overflow"),
        })
    }

    pub fn len(&self) -> usize {
        self.len
    }

    #[cfg(test)]
    pub fn capacity(&self) -> usize {
        self.cap
    }

    /// Pointers to the six columns of the allocation.
    fn parts(&self) -> (*mut (u32, u32), *mut u32, *mut W, [*mut u8; 3]) {
        if self.cap == 0 {
            return (
                NonNull::<(u32, u32)>::dangling().as_ptr(),
                NonNull::<u32>::dangling().as_ptr(),
                NonNull::<W>::dangling().as_ptr(),
                [NonNull::<u8>::dangling().as_ptr(); 3],
            );
        }
        let at = starts::<W>(self.cap);
        let base = self.ptr.as_ptr();
        // SAFETY: every start is within the allocation (`layout`), which
        // was made for `cap` tokens.
        unsafe {
            (
                base.add(at[0]).cast(),
                base.add(at[1]).cast(),
                base.add(at[2]).cast(),
                [base.add(at[3]), base.add(at[4]), base.add(at[5])],
            )
        }
    }

    /// The tokens' columns.
    pub fn get(&self) -> Refs<'_, W> {
        // SAFETY: `len <= cap`; each column's slots are initialised (zeroed
        // at allocation, any bytes being a value) and aligned (`layout`),
        // and borrowed shared with `self`.
        unsafe { slices!(self.parts(), self.len, std::slice::from_raw_parts) }
    }

    /// Every slot of every column, the capacity's worth: the tokens' slots
    /// first, the slots past them free to write before
    /// [`set_len`](Self::set_len).
    pub fn full_mut(&mut self) -> Muts<'_, W> {
        // SAFETY: as in `get`; the six columns do not overlap, and are
        // borrowed mutably with `self`.
        unsafe { slices!(self.parts(), self.cap, std::slice::from_raw_parts_mut) }
    }

    /// The tokens' columns, mutable.
    pub fn get_mut(&mut self) -> Muts<'_, W> {
        let n = self.len;
        let c = self.full_mut();
        Slices {
            offsets: &mut c.offsets[..n],
            ids: &mut c.ids[..n],
            words: &mut c.words[..n],
            type_ids: &mut c.type_ids[..n],
            special_tokens_mask: &mut c.special_tokens_mask[..n],
            attention_mask: &mut c.attention_mask[..n],
        }
    }

    /// Makes the first `len` slots the tokens (every slot holds a value:
    /// this is safe, and slots never written are zeros).
    pub fn set_len(&mut self, len: usize) {
        assert!(len <= self.cap, "a length within the capacity");
        self.len = len;
    }

    /// Room for at least `n` more tokens, exactly that much if it must grow
    /// (as `Vec::try_reserve_exact`); false if it cannot be had.
    pub fn try_reserve_exact(&mut self, n: usize) -> bool {
        match self.len.checked_add(n) {
            Some(need) if need <= self.cap => true,
            Some(need) => self.try_grow_to(need),
            None => false,
        }
    }

    /// Room for one more token, growing by doubling (as `Vec::push`).
    #[inline]
    pub fn reserve_one(&mut self) {
        if self.len == self.cap {
            let cap = (2 * self.cap).max(8);
            if !self.try_grow_to(cap) {
                Self::with_capacity(cap); // panics or aborts, as `Vec` would
            }
        }
    }

    /// Room for `n` more tokens; panics or aborts as `Vec::reserve` does
    /// when it cannot be had.
    pub fn reserve(&mut self, n: usize) {
        let need = self.len.checked_add(n).expect("capacity overflow");
        if need > self.cap && !self.try_grow_to(need.max(2 * self.cap)) {
            Self::with_capacity(need); // panics or aborts, as `Vec` would
        }
    }

    fn try_grow_to(&mut self, cap: usize) -> bool {
        let Some(mut grown) = Self::try_with_capacity(cap) else {
            return false;
        };
        grown.copy_from(&self.get());
        *self = grown;
        true
    }

    /// Appends the tokens of `from` (columns of one length); room for them
    /// must have been made.
    pub fn copy_from(&mut self, from: &Refs<'_, W>) {
        let (start, n) = (self.len, from.ids.len());
        let to = self.full_mut();
        to.offsets[start..start + n].copy_from_slice(from.offsets);
        to.ids[start..start + n].copy_from_slice(from.ids);
        to.words[start..start + n].copy_from_slice(from.words);
        to.type_ids[start..start + n].copy_from_slice(from.type_ids);
        to.special_tokens_mask[start..start + n].copy_from_slice(from.special_tokens_mask);
        to.attention_mask[start..start + n].copy_from_slice(from.attention_mask);
        self.len = start + n;
    }

    pub fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n);
    }
}

impl<W: Plain> Default for Columns<W> {
    fn default() -> Self {
        Self::new()
    }
}

impl<W: Plain> Drop for Columns<W> {
    fn drop(&mut self) {
        if self.cap > 0 {
            let layout = layout::<W>(self.cap).expect("the layout of an allocation made");
            // SAFETY: `ptr` was allocated with this layout and is freed once.
            unsafe { alloc::dealloc(self.ptr.as_ptr(), layout) };
        }
    }
}

impl<W: Plain> Clone for Columns<W> {
    /// A copy of the tokens, at their exact size.
    fn clone(&self) -> Self {
        let mut copy = Self::with_capacity(self.len);
        copy.copy_from(&self.get());
        copy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Word(u32);
    // SAFETY: a u32.
    unsafe impl Plain for Word {}

    impl Word {
        fn new(index: u32, _sequence: u8) -> Self {
            Word(index)
        }
    }

    fn filled(n: u32) -> Columns<Word> {
        let mut c = Columns::new();
        for i in 0..n {
            c.reserve_one();
            let at = c.len();
            let s = c.full_mut();
            s.ids[at] = i;
            s.offsets[at] = (i, i + 1);
            s.words[at] = Word::new(i, 0);
            s.type_ids[at] = 1;
            s.special_tokens_mask[at] = (i % 2) as u8;
            s.attention_mask[at] = 1;
            c.set_len(at + 1);
        }
        c
    }

    #[test]
    fn columns_grow_clone_and_keep_their_values() {
        let c = filled(100);
        assert!(c.capacity() >= 100);
        for copy in [c.clone(), filled(100)] {
            let s = copy.get();
            assert_eq!(s.ids, (0..100).collect::<Vec<_>>());
            assert_eq!(s.offsets[99], (99, 100));
            assert_eq!(s.words[7], Word::new(7, 0));
            assert!(s.type_ids.iter().all(|&t| t == 1) && s.attention_mask.len() == 100);
            assert_eq!(s.special_tokens_mask[..4], [0, 1, 0, 1]);
        }
        assert_eq!(c.clone().capacity(), 100);
        let empty = Columns::<Word>::new().clone();
        assert_eq!((empty.len(), empty.capacity(), empty.get().ids.len()), (0, 0, 0));
    }

    #[test]
    fn columns_made_from_slices_hold_them() {
        let c = filled(5);
        let s = c.get();
        let made = Columns::from_columns(s.ids, s.offsets, s.words, [2, 0, 1]).unwrap();
        let m = made.get();
        assert_eq!((m.ids, m.offsets, m.words), (s.ids, s.offsets, s.words));
        assert_eq!((m.type_ids, m.special_tokens_mask, m.attention_mask), (&[2; 5][..], &[0; 5][..], &[1; 5][..]));
        assert_eq!(made.capacity(), 5);
        let mut grown = made.clone();
        assert!(grown.try_reserve_exact(10));
        assert_eq!(grown.get().ids, s.ids);
        assert_eq!(Columns::<Word>::from_columns(&[], &[], &[], [0; 3]).map(|c| c.len()), Some(0));
    }

    #[test]
    fn the_layout_is_the_columns_one_after_the_other() {
        for cap in [1, 2, 3, 7, 8, 1000] {
            let mut all = Layout::array::<(u32, u32)>(cap).unwrap();
            let mut at = vec![0];
            let bytes = Layout::array::<u8>(cap).unwrap();
            let columns =
                [Layout::array::<u32>(cap).unwrap(), Layout::array::<Word>(cap).unwrap(), bytes, bytes, bytes];
            for column in columns {
                let (joined, start) = all.extend(column).unwrap();
                (all, at) = (joined, [at, vec![start]].concat());
            }
            assert_eq!(layout::<Word>(cap), Some(all));
            assert_eq!(starts::<Word>(cap)[..], at[..]);
        }
        assert_eq!(layout::<Word>(usize::MAX / 8), None);
    }

    #[test]
    fn impossible_sizes_are_refused() {
        let mut c = filled(3);
        for n in [usize::MAX, usize::MAX / 2, 1 << 60] {
            assert!(!c.try_reserve_exact(n));
            assert!(Columns::<Word>::try_with_capacity(n).is_none());
        }
        assert_eq!(c.get().ids, [0, 1, 2]);
        assert!(c.try_reserve_exact(5) && c.capacity() >= 8);
        c.truncate(1);
        assert_eq!(c.get().offsets, [(0, 1)]);
    }
}
