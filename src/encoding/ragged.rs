//! A batch of encodings of different lengths as flat columns: every row's
//! ids one after the other, with the row boundaries kept apart, as
//! `encode_batch(return_tensors="np")` gives it without padding. A batch is
//! encoded in chunks on several threads; each chunk fills a [`RaggedPart`],
//! and the parts are then copied, in order and in parallel, into the arrays
//! the caller hands out.

use crate::encoding::scratch::Scratch;
use crate::encoding::Encoding;
use crate::error::{Error, Result};

/// The columns a [`RaggedPart`] keeps besides the ids (which it always keeps).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RaggedFields {
    pub type_ids: bool,
    pub offsets: bool,
    pub special_tokens_mask: bool,
}

/// The tokens of consecutive rows of a batch: each column flat (row after
/// row), and each row's number of tokens.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RaggedPart {
    pub ids: Vec<u32>,
    /// The ids as int64 instead of `ids` (then empty), in a part that the
    /// parts of a whole batch were merged into, in order, as they came (see
    /// [`RaggedPart::absorb`]): the vector an int64 array can take over
    /// without a copy, taken out by the one that does.
    pub wide_ids: Option<Vec<i64>>,
    /// Tokens per row.
    pub lengths: Vec<u32>,
    /// Empty unless [`RaggedFields::type_ids`].
    pub type_ids: Vec<u8>,
    /// Empty unless [`RaggedFields::offsets`].
    pub offsets: Vec<(u32, u32)>,
    /// Empty unless [`RaggedFields::special_tokens_mask`].
    pub special_tokens_mask: Vec<u8>,
}

impl RaggedPart {
    /// An empty part with room for `rows` rows, and for `tokens` tokens
    /// in the columns `fields` asks for when that much can be had (an
    /// estimate: the columns grow as rows come, see [`push`](Self::push)).
    pub fn with_capacity(tokens: usize, rows: usize, fields: RaggedFields) -> Result<Self> {
        let mut part = Self { lengths: room_for(rows, "the lengths of a batch")?, ..Self::default() };
        let room = |on: bool| if on { tokens } else { 0 };
        // A failure here leaves a column empty, to grow as it must.
        let _ = part.ids.try_reserve_exact(tokens).is_ok()
            && part.type_ids.try_reserve_exact(room(fields.type_ids)).is_ok()
            && part.offsets.try_reserve_exact(room(fields.offsets)).is_ok()
            && part.special_tokens_mask.try_reserve_exact(room(fields.special_tokens_mask)).is_ok();
        Ok(part)
    }

    /// A part to [`absorb`](Self::absorb) the ids-only parts of a batch
    /// into, with room for `tokens` ids and `rows` rows.
    pub fn merged(tokens: usize, rows: usize) -> Result<Self> {
        let mut wide = Vec::new();
        let _ = wide.try_reserve_exact(tokens); // else grown as parts come
        Ok(Self { wide_ids: Some(wide), lengths: room_for(rows, "the lengths of a batch")?, ..Self::default() })
    }

    /// Appends the rows of `part`, which keeps ids only, to this part made
    /// by [`merged`](Self::merged), widening its ids to int64: done as each
    /// part comes, while its ids are still in the cache.
    pub fn absorb(&mut self, part: &RaggedPart) -> Result<()> {
        debug_assert!(part.type_ids.is_empty() && part.offsets.is_empty() && part.special_tokens_mask.is_empty());
        if let Some(wide) = &mut self.wide_ids {
            grow(wide, part.ids.len())?;
            wide.extend(part.ids.iter().map(|&id| i64::from(id)));
        }
        grow(&mut self.lengths, part.lengths.len())?;
        self.lengths.extend_from_slice(&part.lengths);
        Ok(())
    }

    /// Room for a row of `n` tokens in every column `fields` asks for.
    fn room(&mut self, n: usize, fields: RaggedFields) -> Result<()> {
        grow(&mut self.ids, n)?;
        grow(&mut self.lengths, 1)?;
        let room = |on: bool| if on { n } else { 0 };
        grow(&mut self.type_ids, room(fields.type_ids))?;
        grow(&mut self.offsets, room(fields.offsets))?;
        grow(&mut self.special_tokens_mask, room(fields.special_tokens_mask))
    }

    /// Appends `encoding` as the next row (its overflowing windows are not
    /// rows: they are left out); `Error::Memory` when there is no room.
    pub fn push(&mut self, encoding: &Encoding, fields: RaggedFields) -> Result<()> {
        self.room(encoding.len(), fields)?;
        self.ids.extend_from_slice(encoding.ids());
        self.lengths.push(encoding.len() as u32);
        if fields.type_ids {
            self.type_ids.extend_from_slice(encoding.type_ids());
        }
        if fields.offsets {
            self.offsets.extend_from_slice(encoding.offsets());
        }
        if fields.special_tokens_mask {
            self.special_tokens_mask.extend_from_slice(encoding.special_tokens_mask());
        }
        Ok(())
    }

    /// Appends the tokens of `scratch` as a row: what [`push`](Self::push)
    /// appends for the encoding `scratch.to_encoding()` gives, without it.
    pub fn push_scratch(&mut self, scratch: &Scratch, fields: RaggedFields) -> Result<()> {
        self.room(scratch.len(), fields)?;
        self.ids.extend_from_slice(scratch.ids());
        self.lengths.push(scratch.len() as u32);
        if fields.offsets {
            self.offsets.extend_from_slice(scratch.offsets());
        }
        if fields.type_ids || fields.special_tokens_mask {
            scratch.for_each_run(|n, type_id, special| {
                if fields.type_ids {
                    self.type_ids.extend(std::iter::repeat_n(type_id, n));
                }
                if fields.special_tokens_mask {
                    self.special_tokens_mask.extend(std::iter::repeat_n(u8::from(special), n));
                }
            });
        }
        Ok(())
    }

    /// The number of rows.
    pub fn rows(&self) -> usize {
        self.lengths.len()
    }

    /// The number of tokens of all rows.
    pub fn tokens(&self) -> usize {
        let wide = self.wide_ids.as_ref().map_or(0, Vec::len);
        self.ids.len() + wide
    }
}

/// Room for `n` more values in `column` (growing at least twofold, as a
/// `Vec` does), or `Error::Memory`.
fn grow<T>(column: &mut Vec<T>, n: usize) -> Result<()> {
    column
        .try_reserve(n)
        .map_err(|_| Error::memory(format_args!("a batch of {} tokens", column.len() as u128 + n as u128)))
}

/// An empty vector with room for `n` values, or `Error::Memory` naming `what`.
fn room_for<T>(n: usize, what: &str) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| Error::memory(format_args!("{what} ({n} rows)")))?;
    Ok(v)
}

/// The total rows and tokens of `parts`.
pub fn totals(parts: &[RaggedPart]) -> (usize, usize) {
    parts.iter().fold((0, 0), |(rows, tokens), p| (rows + p.rows(), tokens + p.tokens()))
}

/// Cuts `out` into one slice per part, `per_token * part.tokens()` long (or
/// `per_row * part.rows()` with `by_rows`), in order: where each part's
/// values go. `out` must be exactly long enough.
pub fn split_for<'a, T>(mut out: &'a mut [T], parts: &[RaggedPart], width: usize, by_rows: bool) -> Vec<&'a mut [T]> {
    let mut slices = Vec::with_capacity(parts.len());
    for p in parts {
        let n = width * if by_rows { p.rows() } else { p.tokens() };
        let (head, tail) = std::mem::take(&mut out).split_at_mut(n);
        slices.push(head);
        out = tail;
    }
    slices
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoding(n: u32) -> Encoding {
        let mut e = Encoding::with_capacity(n as usize);
        for i in 0..n {
            e.push(100 + i, (i, i + 1), (i % 2) as u8, i == 0);
        }
        e
    }

    #[test]
    fn rows_are_laid_end_to_end() {
        let all = RaggedFields { type_ids: true, offsets: true, special_tokens_mask: true };
        let mut part = RaggedPart::default();
        for n in [2, 0, 3] {
            part.push(&encoding(n), all).unwrap();
        }
        assert_eq!(part.ids, [100, 101, 100, 101, 102]);
        assert_eq!(part.lengths, [2, 0, 3]);
        assert_eq!(part.type_ids, [0, 1, 0, 1, 0]);
        assert_eq!(part.offsets[4], (2, 3));
        assert_eq!(part.special_tokens_mask, [1, 0, 1, 0, 0]);
        let mut ids_only = RaggedPart::default();
        ids_only.push(&encoding(2), RaggedFields::default()).unwrap();
        assert!(ids_only.type_ids.is_empty() && ids_only.offsets.is_empty());
        let parts = [part, ids_only];
        assert_eq!(totals(&parts), (4, 7));
        let mut out = [0u8; 14];
        let slices = split_for(&mut out, &parts, 2, false);
        assert_eq!(slices.iter().map(|s| s.len()).collect::<Vec<_>>(), [10, 4]);
        let mut merged = RaggedPart::merged(0, 0).unwrap();
        merged.absorb(&parts[1]).unwrap();
        merged.absorb(&RaggedPart { ids: vec![7, 8, 9], lengths: vec![1, 2], ..RaggedPart::default() }).unwrap();
        assert_eq!((merged.rows(), merged.tokens()), (3, 5));
        assert_eq!(merged.lengths, [2, 1, 2]);
        assert_eq!(merged.wide_ids, Some(vec![100, 101, 7, 8, 9]));
        let mut rows = [0u8; 4];
        assert_eq!(split_for(&mut rows, &parts, 1, true).iter().map(|s| s.len()).collect::<Vec<_>>(), [3, 1]);
    }
}
