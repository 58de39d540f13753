//! The bound on word counts every trainer keeps to: their character
//! occurrences fit in 64 bits.

use crate::error::{Error, Result};

/// Refuses word counts whose character occurrences add up to more than
/// 2**64 - 1: every count a trainer keeps (of a token, a pair, a piece) is at
/// most that many, so within it no 64-bit count can wrap. Bytes bound
/// characters: the characters are only counted when the bytes do not fit.
pub fn check<'a>(counts: impl Iterator<Item = (&'a str, u64)> + Clone) -> Result<()> {
    let occurrences = |len: fn(&str) -> usize| {
        counts.clone().try_fold(0u64, |sum, (w, c)| c.checked_mul(len(w) as u64)?.checked_add(sum))
    };
    if occurrences(str::len).is_none() && occurrences(|w| w.chars().count()).is_none() {
        return Err(Error::invalid(
            "the word counts add up to more than 2**64 - 1 character occurrences: scale them down",
        ));
    }
    Ok(())
}
