//! The `frequency` objective (byte-pair encoding): merge the most frequent
//! pair; ties: larger `k`, then smaller `a`, then smaller `b`.
//!
//! A pair's rank depends on its own counts only, so only the pairs whose
//! counts changed move in the heap.

use std::cmp::Ordering;

use super::indexed_heap::IndexedHeap;
use super::objective::tie_break;
use super::trainer::{Core, Merged, Pair, PairId, Ranking, TokenId};

#[derive(Clone, Copy, Debug)]
struct Key {
    freq: u64,
    k: u64,
    a: TokenId,
    b: TokenId,
}

#[derive(Default)]
pub struct FrequencyRanking {
    heap: IndexedHeap<Key>,
}

fn before(vocab: &[String], x: &Key, y: &Key) -> bool {
    x.freq.cmp(&y.freq).then_with(|| tie_break(vocab, (x.k, x.a, x.b), (y.k, y.a, y.b))) == Ordering::Greater
}

impl Ranking for FrequencyRanking {
    fn update(&mut self, core: &Core, changed: &[PairId], merged: Option<Merged>) {
        if merged.is_none() {
            self.heap.reserve(core.expected_pairs().max(core.pairs.len()));
        }
        let vocab = &core.vocab;
        let before = |x: &(u32, Key), y: &(u32, Key)| before(vocab, &x.1, &y.1);
        for &p in changed {
            let Pair { a, b, freq, k, .. } = core.pairs[p as usize];
            if core.eligible(p) {
                self.heap.upsert(p, Key { freq, k, a, b }, &before);
            } else {
                self.heap.remove(p, &before);
            }
        }
    }

    fn best(&mut self, _core: &Core) -> Option<PairId> {
        self.heap.peek()
    }
}
