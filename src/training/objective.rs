//! The objectives (`likelihood`, `pmi`, `frequency`), each a `Ranking` of
//! the merge loop, and the order they share after their scores.

use std::cmp::Ordering;

use super::trainer::TokenId;

pub use crate::tokenizer::objective::Objective;

/// The order of two tokens' strings (code point order).
pub fn string_order(vocab: &[String], x: TokenId, y: TokenId) -> Ordering {
    if x == y {
        Ordering::Equal
    } else {
        vocab[x as usize].cmp(&vocab[y as usize])
    }
}

/// The tie-break shared by every objective after its score: larger `k`,
/// then smaller `a`, then smaller `b`. `Greater` means `x` ranks first.
pub fn tie_break(vocab: &[String], x: (u64, TokenId, TokenId), y: (u64, TokenId, TokenId)) -> Ordering {
    x.0.cmp(&y.0).then_with(|| string_order(vocab, y.1, x.1)).then_with(|| string_order(vocab, y.2, x.2))
}
