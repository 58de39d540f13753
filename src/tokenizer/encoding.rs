//! The result of encoding one text (or one pair of texts).

use rayon::prelude::*;

use super::threads;
use crate::error::{Error, Result};

/// Token ids with their character offsets into the original text, and the
/// masks a BERT model takes. Token strings are looked up from the vocabulary
/// on demand, so encoding allocates no string per token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Encoding {
    pub ids: Vec<u32>,
    /// `(start, end)` character offsets into the original string; `(0, 0)`
    /// for the `[CLS]`/`[SEP]` tokens added by post-processing.
    pub offsets: Vec<(u32, u32)>,
    /// 0 for the first sequence, 1 for the second.
    pub type_ids: Vec<u8>,
    /// 1 for the tokens added by post-processing.
    pub special_tokens_mask: Vec<u8>,
    pub attention_mask: Vec<u8>,
    /// The windows that truncation cut off, each a complete encoding (post-
    /// processed and padded like this one); empty unless truncated.
    pub overflowing: Vec<Encoding>,
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

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    #[inline]
    pub fn push(&mut self, id: u32, offsets: (u32, u32), type_id: u8, special: bool) {
        self.ids.push(id);
        self.offsets.push(offsets);
        self.type_ids.push(type_id);
        self.special_tokens_mask.push(special as u8);
        self.attention_mask.push(1);
    }

    /// Appends a token's id and offsets only: the caller fills in the other
    /// columns for the whole sequence (see `BertPostProcessor::assemble`).
    #[inline]
    pub fn push_token(&mut self, id: u32, offsets: (u32, u32)) {
        self.ids.push(id);
        self.offsets.push(offsets);
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

    /// Tokens `start..stop` (all five columns; no overflowing).
    pub fn slice(&self, start: usize, stop: usize) -> Encoding {
        Encoding {
            ids: self.ids[start..stop].to_vec(),
            offsets: self.offsets[start..stop].to_vec(),
            type_ids: self.type_ids[start..stop].to_vec(),
            special_tokens_mask: self.special_tokens_mask[start..stop].to_vec(),
            attention_mask: self.attention_mask[start..stop].to_vec(),
            overflowing: Vec::new(),
        }
    }

    /// Appends all of `other`'s tokens as they are (not its overflowing).
    pub fn append(&mut self, other: &Encoding) {
        self.ids.extend_from_slice(&other.ids);
        self.offsets.extend_from_slice(&other.offsets);
        self.type_ids.extend_from_slice(&other.type_ids);
        self.special_tokens_mask.extend_from_slice(&other.special_tokens_mask);
        self.attention_mask.extend_from_slice(&other.attention_mask);
    }
}

/// A field of a batch as a tensor of int64 rows, as `return_tensors="np"`
/// gives it: one value per token, or two (`start`, `end`) for offsets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    Ids,
    AttentionMask,
    TypeIds,
    Offsets,
}

impl Column {
    /// Values per token.
    pub fn width(self) -> usize {
        if self == Column::Offsets {
            2
        } else {
            1
        }
    }

    /// Writes this field of every encoding of `batch`, all of one length,
    /// as consecutive rows of `out`, in parallel on `threads` threads.
    /// `out` holds exactly `batch.len() * length * self.width()` values.
    pub fn write_rows(self, batch: &[Encoding], out: &mut [i64], threads: Option<usize>) -> Result<()> {
        let row = batch.first().map_or(0, Encoding::len) * self.width();
        let values = |e: &Encoding| match self {
            Column::Ids => e.ids.len(),
            Column::AttentionMask => e.attention_mask.len(),
            Column::TypeIds => e.type_ids.len(),
            Column::Offsets => e.offsets.len(),
        } * self.width();
        // Every value of `out` is written: it may be uninitialised memory.
        if batch.iter().any(|e| values(e) != row) || out.len() != batch.len() * row {
            return Err(Error::invalid("write_rows needs encodings of one length and a buffer of their size"));
        }
        if row == 0 {
            return Ok(());
        }
        threads::install(threads, || {
            out.par_chunks_mut(row).zip(batch.par_iter()).for_each(|(out, e)| match self {
                Column::Ids => widen(out, &e.ids),
                Column::AttentionMask => widen(out, &e.attention_mask),
                Column::TypeIds => widen(out, &e.type_ids),
                Column::Offsets => {
                    for (pair, &(start, end)) in out.chunks_exact_mut(2).zip(&e.offsets) {
                        pair[0] = start.into();
                        pair[1] = end.into();
                    }
                }
            })
        })
    }
}

fn widen<T: Copy + Into<i64>>(out: &mut [i64], values: &[T]) {
    for (slot, &v) in out.iter_mut().zip(values) {
        *slot = v.into();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoding(k: u32) -> Encoding {
        let mut e = Encoding::with_capacity(3);
        for i in 0..3 {
            e.push(10 * k + i, (i, i + k), (i == 2) as u8, false);
        }
        e
    }

    #[test]
    fn rows_hold_each_encoding_widened_to_int64() {
        let batch: Vec<Encoding> = (0..40).map(encoding).collect();
        for threads in [1, 2, 3] {
            let mut mask = vec![-1; 40 * 3];
            Column::AttentionMask.write_rows(&batch, &mut mask, Some(threads)).unwrap();
            assert!(mask.iter().all(|&m| m == 1));
            let mut ids = vec![-1; 40 * 3];
            Column::Ids.write_rows(&batch, &mut ids, Some(threads)).unwrap();
            let mut offsets = vec![-1; 40 * 3 * 2];
            Column::Offsets.write_rows(&batch, &mut offsets, Some(threads)).unwrap();
            let mut types = vec![-1; 40 * 3];
            Column::TypeIds.write_rows(&batch, &mut types, Some(threads)).unwrap();
            for (k, e) in batch.iter().enumerate() {
                let ids_row: Vec<i64> = e.ids.iter().map(|&v| v.into()).collect();
                assert_eq!(ids[3 * k..3 * k + 3], ids_row[..]);
                let pairs: Vec<i64> = e.offsets.iter().flat_map(|&(s, t)| [s.into(), t.into()]).collect();
                assert_eq!(offsets[6 * k..6 * k + 6], pairs[..]);
                assert_eq!(types[3 * k..3 * k + 3], [0, 0, 1]);
            }
        }
    }

    #[test]
    fn rows_need_one_length_and_a_buffer_of_their_size() {
        let mut batch: Vec<Encoding> = (0..4).map(encoding).collect();
        assert!(Column::Ids.write_rows(&batch, &mut [0; 11], None).is_err());
        assert!(Column::Offsets.write_rows(&batch, &mut [0; 12], None).is_err());
        batch[1].type_ids.pop();
        assert!(Column::TypeIds.write_rows(&batch, &mut [0; 12], None).is_err(), "a short column");
        batch[2].truncate(2);
        assert!(Column::Ids.write_rows(&batch, &mut [0; 12], None).is_err());
        assert!(Column::Ids.write_rows(&[], &mut [], None).is_ok());
    }
}
