//! Optional last stage: padding a batch to one length (Hugging Face's
//! `pad_encodings` and `Encoding::pad`).
//!
//! The length is the longest encoding of the batch (its overflowing windows not
//! counted) or a fixed length, rounded up to a multiple of `multiple_of`.
//! Encodings already that long are left alone. A pad token has the `[PAD]` id,
//! type id 0, offsets `(0, 0)`, `special_tokens_mask` 1 and `attention_mask` 0
//! (see `Encoding::pad`). Overflowing windows are padded to the same length.

use std::num::NonZeroUsize;

use rayon::prelude::*;

use crate::encoding::{Encoding, Side};
use crate::error::{Error, Result};

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
    /// Round the length up to a multiple of this number.
    pub multiple_of: Option<NonZeroUsize>,
    pub side: Side,
}

impl Padding {
    /// The length every encoding of `batch` is padded to; `Error::Memory`
    /// if rounding it up to `multiple_of` goes beyond any possible size.
    pub fn target_length(&self, batch: &[Encoding]) -> Result<usize> {
        let length = match self.to {
            PadTo::Longest => batch.iter().map(Encoding::len).max().unwrap_or(0),
            PadTo::Fixed(n) => n,
        };
        match self.multiple_of {
            Some(m) => length
                .checked_next_multiple_of(m.get())
                .ok_or_else(|| Error::memory(format_args!("padding to a multiple of {m} (at least {length} tokens)"))),
            None => Ok(length),
        }
    }

    /// Pads every encoding of `batch` (and its overflowing windows) with
    /// `pad_id`. A length there is no memory for is `Error::Memory`.
    pub fn apply(&self, batch: &mut [Encoding], pad_id: u32) -> Result<()> {
        let length = self.target_length(batch)?;
        batch.par_iter_mut().try_for_each(|e| e.pad(length, self.side, pad_id))
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

    #[test]
    fn target_is_the_longest_or_fixed_rounded_up() {
        let batch = [seq(&[1, 2, 3, 4, 5]), seq(&[1, 2, 3])];
        let p = |to, multiple_of: usize| Padding { to, multiple_of: NonZeroUsize::new(multiple_of), side: Side::Right };
        assert_eq!(p(PadTo::Longest, 0).target_length(&batch).unwrap(), 5);
        assert_eq!(p(PadTo::Longest, 6).target_length(&batch).unwrap(), 6);
        assert_eq!(p(PadTo::Fixed(7), 8).target_length(&batch).unwrap(), 8);
        assert_eq!(p(PadTo::Fixed(8), 8).target_length(&batch).unwrap(), 8);
        assert_eq!(p(PadTo::Longest, 4).target_length(&[]).unwrap(), 0);
        assert!(matches!(p(PadTo::Fixed(usize::MAX - 1), 4).target_length(&batch), Err(Error::Memory(_))));
        let mut batch = batch;
        p(PadTo::Fixed(2), 0).apply(&mut batch, 0).unwrap();
        assert_eq!(batch[1].len(), 3, "longer encodings are not cut");
        assert!(matches!(p(PadTo::Fixed(1 << 60), 0).apply(&mut batch, 0), Err(Error::Memory(_))));
        p(PadTo::Longest, 4).apply(&mut batch, 0).unwrap();
        assert_eq!(batch.iter().map(Encoding::len).collect::<Vec<_>>(), [8, 8]);
        assert_eq!(batch[1].attention_mask(), [1, 1, 1, 0, 0, 0, 0, 0]);
    }
}
