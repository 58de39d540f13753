//! The result of encoding one text (or one pair of texts): the layer every
//! stage after the WordPiece model reads and writes, below them all.
//!
//! [`Encoding`] keeps its five per-token columns in step: every method adds,
//! removes or reorders the same tokens in all of them, and no field is public.
//! [`scratch::Scratch`] is the buffer the tokens of an encoding are collected
//! in before post-processing makes the whole encoding, and
//! [`column::Column`] writes one column of a batch as rows of int64.

pub mod column;
pub mod scratch;

use crate::error::{Error, Result};

/// Where tokens are cut (truncation) or added (padding).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Side {
    Left,
    #[default]
    Right,
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if *self == Side::Left { "left" } else { "right" })
    }
}

/// Token ids with their character offsets into the original text, and the
/// masks a BERT model takes. Token strings are looked up from the vocabulary
/// on demand, so encoding allocates no string per token.
///
/// All five columns have one entry per token: a method that changes one
/// changes them all.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Encoding {
    ids: Vec<u32>,
    offsets: Vec<(u32, u32)>,
    type_ids: Vec<u8>,
    special_tokens_mask: Vec<u8>,
    attention_mask: Vec<u8>,
    overflowing: Vec<Encoding>,
}

impl Encoding {
    pub fn with_capacity(n: usize) -> Self {
        Self {
            ids: Vec::with_capacity(n),
            offsets: Vec::with_capacity(n),
            type_ids: Vec::with_capacity(n),
            special_tokens_mask: Vec::with_capacity(n),
            attention_mask: Vec::with_capacity(n),
            overflowing: Vec::new(),
        }
    }

    /// [`Encoding::with_capacity`], or `Error::Memory` when the room for `n`
    /// tokens cannot be reserved (`n` can come from an argument, through
    /// padding or truncation windows).
    pub fn try_with_capacity(n: usize) -> Result<Self> {
        let mut e = Self::default();
        e.try_reserve(n)?;
        Ok(e)
    }

    /// Checks, before any of them is made, that encodings of `tokens` tokens
    /// in all could have room: their size in bytes is a possible size, and
    /// one allocation of that size (freed at once, never written) succeeds.
    /// For work whose total size comes from arguments (overlapping windows),
    /// so that it fails at once instead of after filling the memory.
    pub fn check_room(tokens: u128) -> Result<()> {
        const TOKEN_BYTES: u128 = 4 + 8 + 3;
        let bytes = tokens.saturating_mul(TOKEN_BYTES);
        let fits = usize::try_from(bytes).is_ok_and(|b| Vec::<u8>::new().try_reserve_exact(b).is_ok());
        if fits {
            Ok(())
        } else {
            Err(Error::memory(format_args!("encodings of {tokens} tokens in all")))
        }
    }

    /// Reserves room for `n` more tokens in every column, or `Error::Memory`.
    pub fn try_reserve(&mut self, n: usize) -> Result<()> {
        self.ids
            .try_reserve_exact(n)
            .and_then(|()| self.offsets.try_reserve_exact(n))
            .and_then(|()| self.type_ids.try_reserve_exact(n))
            .and_then(|()| self.special_tokens_mask.try_reserve_exact(n))
            .and_then(|()| self.attention_mask.try_reserve_exact(n))
            .map_err(|_| Error::memory(format_args!("an encoding of {} tokens", self.len() as u128 + n as u128)))
    }

    /// The number of tokens.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Token ids.
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }

    /// `(start, end)` character offsets into the original string; `(0, 0)`
    /// for the `[CLS]`/`[SEP]` tokens added by post-processing and for padding.
    pub fn offsets(&self) -> &[(u32, u32)] {
        &self.offsets
    }

    /// 0 for the first sequence, 1 for the second.
    pub fn type_ids(&self) -> &[u8] {
        &self.type_ids
    }

    /// 1 for the tokens added by post-processing and padding.
    pub fn special_tokens_mask(&self) -> &[u8] {
        &self.special_tokens_mask
    }

    /// 1 for every token but padding.
    pub fn attention_mask(&self) -> &[u8] {
        &self.attention_mask
    }

    /// The windows that truncation cut off, each a complete encoding (post-
    /// processed and padded like this one); empty unless truncated.
    pub fn overflowing(&self) -> &[Encoding] {
        &self.overflowing
    }

    /// Replaces the overflowing windows.
    pub fn set_overflowing(&mut self, windows: Vec<Encoding>) {
        self.overflowing = windows;
    }

    /// Takes the overflowing windows, leaving none.
    pub fn take_overflowing(&mut self) -> Vec<Encoding> {
        std::mem::take(&mut self.overflowing)
    }

    /// Appends one token with attention: a text's token (`special` false) or
    /// one that post-processing adds (`special` true).
    #[inline]
    pub fn push(&mut self, id: u32, offsets: (u32, u32), type_id: u8, special: bool) {
        self.ids.push(id);
        self.offsets.push(offsets);
        self.type_ids.push(type_id);
        self.special_tokens_mask.push(special.into());
        self.attention_mask.push(1);
    }

    /// Keeps the first `n` tokens.
    pub fn truncate(&mut self, n: usize) {
        self.ids.truncate(n);
        self.offsets.truncate(n);
        self.type_ids.truncate(n);
        self.special_tokens_mask.truncate(n);
        self.attention_mask.truncate(n);
    }

    /// Appends all of `other`'s tokens, giving them `type_id`.
    pub fn extend_with_type(&mut self, other: &Encoding, type_id: u8) {
        self.ids.extend_from_slice(&other.ids);
        self.offsets.extend_from_slice(&other.offsets);
        self.type_ids.extend(std::iter::repeat_n(type_id, other.len()));
        self.special_tokens_mask.extend_from_slice(&other.special_tokens_mask);
        self.attention_mask.extend_from_slice(&other.attention_mask);
    }

    /// Appends all of `other`'s tokens as they are (not its overflowing).
    pub fn append(&mut self, other: &Encoding) {
        self.ids.extend_from_slice(&other.ids);
        self.offsets.extend_from_slice(&other.offsets);
        self.type_ids.extend_from_slice(&other.type_ids);
        self.special_tokens_mask.extend_from_slice(&other.special_tokens_mask);
        self.attention_mask.extend_from_slice(&other.attention_mask);
    }

    /// Tokens `start..stop` (all five columns; no overflowing), or
    /// `Error::Memory` if there is no room for them.
    pub fn slice(&self, start: usize, stop: usize) -> Result<Encoding> {
        let mut out = Encoding::try_with_capacity(stop - start)?;
        out.ids.extend_from_slice(&self.ids[start..stop]);
        out.offsets.extend_from_slice(&self.offsets[start..stop]);
        out.type_ids.extend_from_slice(&self.type_ids[start..stop]);
        out.special_tokens_mask.extend_from_slice(&self.special_tokens_mask[start..stop]);
        out.attention_mask.extend_from_slice(&self.attention_mask[start..stop]);
        Ok(out)
    }

    /// Pads this encoding and its overflowing windows to `length` tokens on
    /// `side` (an encoding already that long is left alone). A pad token has
    /// the id `pad_id`, type id 0, offsets `(0, 0)`, `special_tokens_mask` 1
    /// and `attention_mask` 0, as in Hugging Face. `length` comes from an
    /// argument: when there is no room for it, `Error::Memory`.
    pub fn pad(&mut self, length: usize, side: Side, pad_id: u32) -> Result<()> {
        let Some(n) = length.checked_sub(self.len()).filter(|&n| n > 0) else {
            return self.overflowing.iter_mut().try_for_each(|o| o.pad(length, side, pad_id));
        };
        self.try_reserve(n)?;
        for o in &mut self.overflowing {
            o.pad(length, side, pad_id)?;
        }
        fn fill<T: Copy>(column: &mut Vec<T>, n: usize, value: T, side: Side) {
            match side {
                Side::Right => column.resize(column.len() + n, value),
                Side::Left => {
                    column.splice(0..0, std::iter::repeat_n(value, n));
                }
            }
        }
        fill(&mut self.ids, n, pad_id, side);
        fill(&mut self.offsets, n, (0, 0), side);
        fill(&mut self.type_ids, n, 0, side);
        fill(&mut self.special_tokens_mask, n, 1, side);
        fill(&mut self.attention_mask, n, 0, side);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seq(ids: &[u32]) -> Encoding {
        let mut e = Encoding::default();
        for &id in ids {
            e.push(id, (id, id + 1), 1, false);
        }
        e
    }

    fn columns_in_step(e: &Encoding) -> bool {
        let n = e.len();
        [e.offsets.len(), e.type_ids.len(), e.special_tokens_mask.len(), e.attention_mask.len()] == [n; 4]
            && e.overflowing.iter().all(columns_in_step)
    }

    #[test]
    fn pads_on_the_right_with_masks_and_empty_offsets() {
        let mut e = seq(&[7, 8]);
        e.pad(4, Side::Right, 0).unwrap();
        assert_eq!(e.ids(), [7, 8, 0, 0]);
        assert_eq!(e.offsets(), [(7, 8), (8, 9), (0, 0), (0, 0)]);
        assert_eq!(e.type_ids(), [1, 1, 0, 0]);
        assert_eq!(e.special_tokens_mask(), [0, 0, 1, 1]);
        assert_eq!(e.attention_mask(), [1, 1, 0, 0]);
    }

    #[test]
    fn pads_on_the_left_and_pads_overflowing_too() {
        let mut e = seq(&[7, 8, 9]);
        e.set_overflowing(vec![seq(&[5])]);
        e.pad(3, Side::Left, 0).unwrap();
        assert_eq!(e.ids(), [7, 8, 9]);
        assert_eq!(e.overflowing()[0].ids(), [0, 0, 5]);
        assert_eq!(e.overflowing()[0].attention_mask(), [0, 0, 1]);
    }

    #[test]
    fn every_change_keeps_the_columns_in_step() {
        let mut e = seq(&[1, 2, 3, 4]);
        e.extend_with_type(&seq(&[5]), 0);
        e.append(&seq(&[6, 7]));
        e.truncate(6);
        e.pad(9, Side::Left, 0).unwrap();
        let mut cut = e.slice(2, 8).unwrap();
        cut.set_overflowing(vec![e.slice(0, 1).unwrap(), e.clone()]);
        assert!(columns_in_step(&e) && columns_in_step(&cut));
        assert_eq!(cut.len(), 6);
        assert_eq!(e.type_ids()[3..], [1, 1, 1, 1, 0, 1]);
        assert_eq!(cut.take_overflowing().len(), 2);
        assert!(cut.overflowing().is_empty());
    }

    #[test]
    fn sizes_beyond_memory_are_errors_not_aborts() {
        let mut e = seq(&[1, 2]);
        for length in [usize::MAX, usize::MAX / 2, 1 << 60] {
            assert!(matches!(e.pad(length, Side::Right, 0), Err(Error::Memory(_))), "{length}");
            assert!(matches!(e.pad(length, Side::Left, 0), Err(Error::Memory(_))), "{length}");
            assert!(Encoding::try_with_capacity(length).is_err());
        }
        assert_eq!(e, seq(&[1, 2]), "a failed pad changes nothing");
    }
}
