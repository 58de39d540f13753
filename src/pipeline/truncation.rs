//! Optional stage between the WordPiece model and post-processing: truncation
//! to `max_length` tokens, keeping what is cut off as overflowing windows.
//!
//! The rules are Hugging Face's (`truncate_encodings` and `Encoding::truncate`):
//! the budget is `max_length` minus the special tokens post-processing will add
//! (2 for one text, 3 for a pair, 0 without special tokens). A sequence cut to
//! `n` tokens is split into windows of at most `n` tokens that overlap by
//! `stride` tokens; the first window (from the start, or from the end when
//! `side` is `Left`) is kept, the others become its overflowing encodings.

use std::fmt;

use crate::encoding::{Encoding, Side};
use crate::error::{Error, Result};

/// Which sequence of a pair gives up tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Strategy {
    /// Cut the longer sequence first; when both must be cut, each keeps about
    /// half of the budget (the longer one gets the odd token).
    #[default]
    LongestFirst,
    /// Cut only the first sequence.
    OnlyFirst,
    /// Cut only the second sequence (an error for a single text that is too long).
    OnlySecond,
}

impl fmt::Display for Strategy {
    /// The strategy's name in the spec and in Hugging Face: `only_second`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Strategy::LongestFirst => "longest_first",
            Strategy::OnlyFirst => "only_first",
            Strategy::OnlySecond => "only_second",
        })
    }
}

/// Truncation parameters. `max_length` counts the special tokens too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Truncation {
    pub max_length: usize,
    pub strategy: Strategy,
    pub stride: usize,
    pub side: Side,
}

impl Truncation {
    /// Checks the parameters on their own: `stride` must be at most
    /// `max_length` minus the special tokens of a single text
    /// (`added_single`), as Hugging Face's `with_truncation` requires (a
    /// window that must then be cut is refused by `apply`, and so is a
    /// `max_length` below the special tokens).
    pub fn validate(&self, added_single: usize) -> Result<()> {
        let Some(room) = self.max_length.checked_sub(added_single) else { return Ok(()) };
        if self.stride > room {
            return Err(Error::invalid(format!(
                "stride must be at most max_length minus the {added_single} special tokens ({room}), got {}",
                self.stride
            )));
        }
        Ok(())
    }

    /// Truncates one text or a pair of texts that post-processing will give
    /// `added` special tokens. Cut-off windows go to each sequence's
    /// `overflowing`.
    pub fn apply(&self, a: &mut Encoding, b: Option<&mut Encoding>, added: usize) -> Result<()> {
        let Some(budget) = self.max_length.checked_sub(added) else {
            let what = if b.is_some() { "a pair" } else { "a single text" };
            return Err(Error::invalid(format!(
                "max_length must be at least {added}, the number of special tokens added to {what}, got {}",
                self.max_length
            )));
        };
        if budget == 0 {
            // Hugging Face moves every token of both sequences to overflowing.
            split(a, 0, self.stride, self.side, "the first text")?;
            if let Some(b) = b {
                split(b, 0, self.stride, self.side, "the second text")?;
            }
            return Ok(());
        }
        let total = a.len() + b.as_ref().map_or(0, |b| b.len());
        if total <= budget {
            return Ok(());
        }
        let to_remove = total - budget;
        match (self.strategy, b) {
            (Strategy::LongestFirst, None) => split(a, budget, self.stride, self.side, "the text"),
            (Strategy::LongestFirst, Some(b)) => {
                let (n1, n2) = longest_first_lengths(a.len(), b.len(), budget);
                split(a, n1, self.stride, self.side, "the first text")?;
                split(b, n2, self.stride, self.side, "the second text")
            }
            (Strategy::OnlySecond, None) => Err(Error::invalid(
                "truncation=\"only_second\" needs a pair of texts, but got a single text longer than max_length",
            )),
            (strategy, b) => {
                let (target, what) = match (strategy, b) {
                    (Strategy::OnlySecond, Some(b)) => (b, "second"),
                    _ => (a, "first"),
                };
                if target.len() <= to_remove {
                    return Err(Error::invalid(format!(
                        "truncation=\"{strategy}\" cannot fit the pair in max_length={}: the {what} text has {} tokens \
                         and {to_remove} must go",
                        self.max_length,
                        target.len()
                    )));
                }
                let keep = target.len() - to_remove;
                split(target, keep, self.stride, self.side, &format!("the {what} text"))
            }
        }
    }
}

/// Hugging Face's `longest_first` split of `budget` tokens between sequences
/// of `len1` and `len2` tokens (whose sum exceeds `budget`).
pub fn longest_first_lengths(len1: usize, len2: usize, budget: usize) -> (usize, usize) {
    let swapped = len1 > len2;
    let short = len1.min(len2);
    let (mut n_short, mut n_long) = (short, if short > budget { short } else { short.max(budget - short) });
    if n_short + n_long > budget {
        n_short = budget / 2;
        n_long = n_short + budget % 2;
    }
    if swapped {
        (n_long, n_short)
    } else {
        (n_short, n_long)
    }
}

/// The `(start, stop)` token ranges of the windows of a sequence of `len`
/// tokens cut to `max_len` with `stride` (`0 < max_len < len`,
/// `stride < max_len`), the kept window first.
pub fn windows(len: usize, max_len: usize, stride: usize, side: Side) -> Vec<(usize, usize)> {
    let step = max_len - stride;
    let mut out = Vec::with_capacity(len.div_ceil(step));
    match side {
        Side::Right => {
            let mut start = 0;
            loop {
                let stop = (start + max_len).min(len);
                out.push((start, stop));
                if stop == len {
                    break;
                }
                start += step;
            }
        }
        Side::Left => {
            let mut stop = len;
            loop {
                let start = stop.saturating_sub(max_len);
                out.push((start, stop));
                if start == 0 {
                    break;
                }
                stop -= step;
            }
        }
    }
    out
}

/// The error for windows there is no memory for.
fn windows_memory(count: usize, what: &str) -> Error {
    Error::memory(format_args!("cutting {what} into {count} overlapping windows (max_length and stride)"))
}

/// Cuts `e` to its first window of `max_len` tokens; the other windows become
/// `e.overflowing`. `max_len == 0` moves all of `e` to one overflowing
/// encoding. `what` names the sequence in the error for a too large stride.
fn split(e: &mut Encoding, max_len: usize, stride: usize, side: Side, what: &str) -> Result<()> {
    if max_len >= e.len() {
        return Ok(());
    }
    if max_len == 0 {
        let all = std::mem::take(e);
        e.set_overflowing(vec![all]);
        return Ok(());
    }
    if stride >= max_len {
        return Err(Error::invalid(format!(
            "stride ({stride}) must be less than the {max_len} tokens that truncation leaves for {what}"
        )));
    }
    let ranges = windows(e.len(), max_len, stride, side);
    // The windows hold up to `max_len / (max_len - stride)` times the tokens
    // of `e`, and both numbers come from arguments: every copy is fallible.
    let mut overflowing = Vec::new();
    Encoding::check_room(ranges.len() as u128 * max_len as u128).map_err(|_| windows_memory(ranges.len(), what))?;
    overflowing.try_reserve_exact(ranges.len() - 1).map_err(|_| windows_memory(ranges.len(), what))?;
    for &(start, stop) in &ranges[1..] {
        overflowing.push(e.slice(start, stop).map_err(|_| windows_memory(ranges.len(), what))?);
    }
    let (start, stop) = ranges[0];
    let mut kept = e.slice(start, stop)?;
    kept.set_overflowing(overflowing);
    *e = kept;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seq(n: u32) -> Encoding {
        let mut e = Encoding::default();
        for i in 0..n {
            e.push(i, (i, i + 1), 0, false);
        }
        e
    }

    fn trunc(max_length: usize, strategy: Strategy, stride: usize, side: Side) -> Truncation {
        Truncation { max_length, strategy, stride, side }
    }

    #[test]
    fn windows_overlap_by_stride_from_either_side() {
        assert_eq!(windows(7, 4, 2, Side::Right), [(0, 4), (2, 6), (4, 7)]);
        assert_eq!(windows(7, 4, 1, Side::Right), [(0, 4), (3, 7)]);
        assert_eq!(windows(7, 4, 1, Side::Left), [(3, 7), (0, 4)]);
        assert_eq!(windows(9, 4, 1, Side::Left), [(5, 9), (2, 6), (0, 3)]);
        assert_eq!(windows(5, 1, 0, Side::Right), [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]);
    }

    #[test]
    fn longest_first_gives_the_shorter_sequence_what_it_needs() {
        // Hugging Face's own table for max_length 7: (len1, len2) -> (n1, n2).
        let cases = [
            ((0, 8), (0, 7)),
            ((2, 8), (2, 5)),
            ((4, 4), (3, 4)),
            ((4, 8), (3, 4)),
            ((8, 2), (5, 2)),
            ((8, 4), (4, 3)),
            ((8, 8), (3, 4)),
            ((9, 0), (7, 0)),
        ];
        for ((l1, l2), want) in cases {
            assert_eq!(longest_first_lengths(l1, l2, 7), want, "{l1} {l2}");
        }
    }

    #[test]
    fn single_text_keeps_the_first_window_and_overflows_the_rest() {
        let mut a = seq(7);
        trunc(6, Strategy::LongestFirst, 2, Side::Right).apply(&mut a, None, 2).unwrap();
        assert_eq!(a.ids(), [0, 1, 2, 3]);
        let rest: Vec<Vec<u32>> = a.overflowing().iter().map(|o| o.ids().to_vec()).collect();
        assert_eq!(rest, [vec![2, 3, 4, 5], vec![4, 5, 6]]);
    }

    #[test]
    fn zero_budget_moves_everything_to_overflowing() {
        let (mut a, mut b) = (seq(3), seq(2));
        trunc(3, Strategy::OnlyFirst, 0, Side::Right).apply(&mut a, Some(&mut b), 3).unwrap();
        assert!(a.is_empty() && b.is_empty());
        assert_eq!(a.overflowing()[0].ids(), [0, 1, 2]);
        assert_eq!(b.overflowing()[0].ids(), [0, 1]);
    }

    #[test]
    fn errors_name_the_problem() {
        let t = trunc(1, Strategy::LongestFirst, 0, Side::Right);
        assert!(t.apply(&mut seq(3), None, 2).unwrap_err().to_string().contains("max_length must be at least 2"));
        let t = trunc(5, Strategy::OnlySecond, 0, Side::Right);
        assert!(t.apply(&mut seq(9), None, 2).unwrap_err().to_string().contains("needs a pair"));
        let err = t.apply(&mut seq(9), Some(&mut seq(1)), 3).unwrap_err().to_string();
        assert!(err.contains("the second text has 1 tokens and 8 must go"), "{err}");
        let t = trunc(20, Strategy::LongestFirst, 10, Side::Right);
        let err = t.apply(&mut seq(20), Some(&mut seq(20)), 3).unwrap_err().to_string();
        assert!(err.contains("stride (10) must be less than the 8 tokens"), "{err}");
        assert!(trunc(6, Strategy::LongestFirst, 5, Side::Right).validate(2).is_err());
        assert!(trunc(6, Strategy::LongestFirst, 4, Side::Right).validate(2).is_ok());
        assert!(trunc(2, Strategy::LongestFirst, 0, Side::Right).validate(2).is_ok());
        // A stride of the whole room is Hugging Face's limit: refused only where a window is cut.
        let t = trunc(6, Strategy::LongestFirst, 4, Side::Right);
        assert!(t.apply(&mut seq(4), None, 2).is_ok());
        assert!(t.apply(&mut seq(5), None, 2).unwrap_err().to_string().contains("stride (4) must be less than the 4"));
        // Below the special tokens, apply's error says so, not a stride error.
        assert!(trunc(1, Strategy::LongestFirst, 4, Side::Right).validate(2).is_ok());
    }

    #[test]
    fn nothing_happens_within_the_budget() {
        let mut a = seq(4);
        trunc(6, Strategy::OnlySecond, 0, Side::Left).apply(&mut a, None, 2).unwrap();
        assert_eq!(a, seq(4));
    }
}
