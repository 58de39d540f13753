//! Optional last stage: padding a batch to one length (Hugging Face's
//! `pad_encodings` and `Encoding::pad`).
//!
//! The length is the longest encoding of the batch (its overflowing windows not
//! counted) or a fixed length, rounded up to a multiple of `multiple_of`.
//! Encodings already that long are left alone. A pad token has the `[PAD]` id,
//! type id 0, offsets `(0, 0)`, `special_tokens_mask` 1 and `attention_mask` 0.
//! Overflowing windows are padded to the same length, recursively.

use rayon::prelude::*;

use super::truncation::Side;
use crate::tokenizer::encoding::Encoding;

/// The length to pad to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PadTo {
    /// The longest encoding in the batch.
    Longest,
    /// A fixed length.
    Fixed(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Padding {
    pub to: PadTo,
    /// Round the length up to a multiple of this (positive) number.
    pub multiple_of: Option<usize>,
    pub side: Side,
}

impl Padding {
    /// The length every encoding of `batch` is padded to.
    pub fn target_length(&self, batch: &[Encoding]) -> usize {
        let length = match self.to {
            PadTo::Longest => batch.iter().map(Encoding::len).max().unwrap_or(0),
            PadTo::Fixed(n) => n,
        };
        match self.multiple_of {
            Some(m) if m > 0 && length % m != 0 => length + (m - length % m),
            _ => length,
        }
    }

    /// Pads every encoding of `batch` (and its overflowing windows) with `pad_id`.
    pub fn apply(&self, batch: &mut [Encoding], pad_id: u32) {
        let length = self.target_length(batch);
        batch.par_iter_mut().for_each(|e| pad(e, length, pad_id, self.side));
    }
}

/// Pads `e` and its overflowing windows to `length` tokens on `side`.
pub fn pad(e: &mut Encoding, length: usize, pad_id: u32, side: Side) {
    for o in &mut e.overflowing {
        pad(o, length, pad_id, side);
    }
    let Some(n) = length.checked_sub(e.len()).filter(|&n| n > 0) else { return };
    fn fill<T: Copy>(column: &mut Vec<T>, n: usize, value: T, side: Side) {
        match side {
            Side::Right => column.resize(column.len() + n, value),
            Side::Left => {
                column.splice(0..0, std::iter::repeat_n(value, n));
            }
        }
    }
    fill(&mut e.ids, n, pad_id, side);
    fill(&mut e.offsets, n, (0, 0), side);
    fill(&mut e.type_ids, n, 0, side);
    fill(&mut e.special_tokens_mask, n, 1, side);
    fill(&mut e.attention_mask, n, 0, side);
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

    #[test]
    fn pads_on_the_right_with_masks_and_empty_offsets() {
        let mut e = seq(&[7, 8]);
        pad(&mut e, 4, 0, Side::Right);
        assert_eq!(e.ids, [7, 8, 0, 0]);
        assert_eq!(e.offsets, [(7, 8), (8, 9), (0, 0), (0, 0)]);
        assert_eq!(e.type_ids, [1, 1, 0, 0]);
        assert_eq!(e.special_tokens_mask, [0, 0, 1, 1]);
        assert_eq!(e.attention_mask, [1, 1, 0, 0]);
    }

    #[test]
    fn pads_on_the_left_and_pads_overflowing_too() {
        let mut e = seq(&[7, 8, 9]);
        e.overflowing.push(seq(&[5]));
        pad(&mut e, 3, 0, Side::Left);
        assert_eq!(e.ids, [7, 8, 9]);
        assert_eq!(e.overflowing[0].ids, [0, 0, 5]);
        assert_eq!(e.overflowing[0].attention_mask, [0, 0, 1]);
    }

    #[test]
    fn target_is_the_longest_or_fixed_rounded_up() {
        let batch = [seq(&[1, 2, 3, 4, 5]), seq(&[1, 2, 3])];
        let p = |to, multiple_of| Padding { to, multiple_of, side: Side::Right };
        assert_eq!(p(PadTo::Longest, None).target_length(&batch), 5);
        assert_eq!(p(PadTo::Longest, Some(6)).target_length(&batch), 6);
        assert_eq!(p(PadTo::Fixed(7), Some(8)).target_length(&batch), 8);
        assert_eq!(p(PadTo::Fixed(8), Some(8)).target_length(&batch), 8);
        assert_eq!(p(PadTo::Longest, Some(4)).target_length(&[]), 0);
        let mut batch = batch;
        p(PadTo::Fixed(2), None).apply(&mut batch, 0);
        assert_eq!(batch[1].len(), 3, "longer encodings are not cut");
    }
}
