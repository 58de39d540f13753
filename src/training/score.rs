//! Exact comparison of WordPiece scores `pair_freq / (freq(a) * freq(b))`.
//!
//! No floats: two scores are compared by cross-multiplying, in 192-bit
//! integer arithmetic so that no count can overflow.

use std::cmp::Ordering;

/// A score as a fraction: `numerator / denominator`, with
/// `denominator = freq(a) * freq(b)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    pub numerator: u64,
    pub denominator: u128,
}

impl Score {
    pub fn new(pair_freq: u64, freq_a: u64, freq_b: u64) -> Self {
        Score { numerator: pair_freq, denominator: freq_a as u128 * freq_b as u128 }
    }
}

/// `x * y` as a 192-bit number `(high, low)`.
fn widening_mul(x: u64, y: u128) -> (u128, u64) {
    let (y_hi, y_lo) = ((y >> 64) as u64, y as u64);
    let lo = x as u128 * y_lo as u128;
    let hi = x as u128 * y_hi as u128 + (lo >> 64);
    (hi, lo as u64)
}

impl Ord for Score {
    fn cmp(&self, other: &Self) -> Ordering {
        // a/b vs c/d  <=>  a*d vs c*b  (denominators are positive)
        widening_mul(self.numerator, other.denominator).cmp(&widening_mul(other.numerator, self.denominator))
    }
}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compares_fractions_exactly() {
        assert!(Score::new(1, 3, 1) < Score::new(1, 2, 1));
        assert_eq!(Score::new(2, 4, 1).cmp(&Score::new(1, 2, 1)), Ordering::Equal);
        // Doubles cannot tell these apart; integers can.
        let big = 1u64 << 60;
        assert!(Score::new(big, big, big + 1) < Score::new(big - 1, big - 1, big));
    }

    #[test]
    fn extreme_counts_do_not_overflow() {
        let m = u64::MAX;
        assert!(Score::new(m, m, m) < Score::new(m, m, m - 1));
        assert_eq!(Score::new(m, m, m).cmp(&Score::new(m, m, m)), Ordering::Equal);
    }
}
