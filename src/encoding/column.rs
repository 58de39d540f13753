//! One column of a batch of encodings as a tensor of int64 rows, as
//! `return_tensors="np"` gives it, written in parallel.

use crate::encoding::Encoding;
use crate::error::{Error, Result};
use crate::threads;

/// A field of a batch as a tensor of int64 rows, as `return_tensors="np"`
/// gives it: one value per token, or two (`start`, `end`) for offsets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    Ids,
    AttentionMask,
    TypeIds,
    SpecialTokensMask,
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
        let length = batch.first().map_or(0, Encoding::len);
        let row = length * self.width();
        // Every value of `out` is written: it may be uninitialised memory.
        if batch.iter().any(|e| e.len() != length) || out.len() != batch.len() * row {
            return Err(Error::invalid("write_rows needs encodings of one length and a buffer of their size"));
        }
        if row == 0 {
            return Ok(());
        }
        let bytes = std::mem::size_of_val(out);
        let jobs: Vec<_> = out.chunks_mut(row).zip(batch).collect();
        threads::for_each(threads, bytes, jobs, |(out, e)| match self {
            Column::Ids => widen(out, e.ids()),
            Column::AttentionMask => widen(out, e.attention_mask()),
            Column::TypeIds => widen(out, e.type_ids()),
            Column::SpecialTokensMask => widen(out, e.special_tokens_mask()),
            Column::Offsets => {
                for (pair, &(start, end)) in out.chunks_exact_mut(2).zip(e.offsets()) {
                    pair[0] = start.into();
                    pair[1] = end.into();
                }
            }
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
            let mut special = vec![-1; 40 * 3];
            Column::SpecialTokensMask.write_rows(&batch, &mut special, Some(threads)).unwrap();
            assert!(special.iter().all(|&m| m == 0));
            for (k, e) in batch.iter().enumerate() {
                let ids_row: Vec<i64> = e.ids().iter().map(|&v| v.into()).collect();
                assert_eq!(ids[3 * k..3 * k + 3], ids_row[..]);
                let pairs: Vec<i64> = e.offsets().iter().flat_map(|&(s, t)| [s.into(), t.into()]).collect();
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
        batch[2].truncate(2);
        assert!(Column::Ids.write_rows(&batch, &mut [0; 12], None).is_err());
        assert!(Column::TypeIds.write_rows(&batch, &mut [0; 12], None).is_err());
        assert!(Column::Ids.write_rows(&[], &mut [], None).is_ok());
    }
}
