//! A 4-ary max-heap over small integer ids whose keys can move up or down.
//!
//! The trainer needs both directions: a merge lowers the counts of its two
//! tokens, which RAISES the score of every other pair that holds them, so a
//! lazy heap that only tolerates falling scores would pick the wrong pair.
//! Each entry's key is cached here, beside its id in the heap array (so that
//! sifting reads contiguous memory), and changes only through `upsert`, so
//! the heap order never depends on state that changed behind its back.

const ABSENT: u32 = u32::MAX;

/// Children per node: a 4-ary heap is half as deep as a binary one, and a
/// node's children are read from adjacent memory (the heaps of training
/// hold ~10^5 pairs, mostly out of cache).
const ARITY: usize = 4;

#[derive(Debug)]
pub struct IndexedHeap<K> {
    heap: Vec<(u32, K)>,
    /// Per id: its position in `heap`, or `ABSENT`.
    position: Vec<u32>,
}

impl<K> Default for IndexedHeap<K> {
    fn default() -> Self {
        Self { heap: Vec::new(), position: Vec::new() }
    }
}

/// `before(x, y)`: whether entry `x` (id and key) must come out before `y`.
pub trait Before<K>: Fn(&(u32, K), &(u32, K)) -> bool {}
impl<K, F: Fn(&(u32, K), &(u32, K)) -> bool> Before<K> for F {}

impl<K: Copy> IndexedHeap<K> {
    /// Makes room for ids below `ids` (see `reserve_total`).
    pub fn reserve(&mut self, ids: usize) {
        super::reserve::reserve_total(&mut self.heap, ids);
        super::reserve::reserve_total(&mut self.position, ids);
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    pub fn peek(&self) -> Option<u32> {
        self.heap.first().map(|e| e.0)
    }

    /// The key `id` was last filed with, if it is in the heap.
    pub fn key_of(&self, id: u32) -> Option<&K> {
        match self.position.get(id as usize) {
            Some(&p) if p != ABSENT => Some(&self.heap[p as usize].1),
            _ => None,
        }
    }

    pub fn contains(&self, id: u32) -> bool {
        self.position.get(id as usize).is_some_and(|&p| p != ABSENT)
    }

    /// Starts reading where `id` is, for an `upsert` or `remove` soon.
    #[inline(always)]
    pub fn prefetch(&self, id: u32) {
        if let Some(p) = self.position.get(id as usize) {
            crate::hint::prefetch(p);
        }
    }

    /// Inserts `id` with `key`, or moves it to where `key` belongs.
    /// `before(x, y)` is true when entry `x` must come out before entry `y`.
    pub fn upsert(&mut self, id: u32, key: K, before: &impl Before<K>) {
        if id as usize >= self.position.len() {
            self.position.resize(id as usize + 1, ABSENT);
        }
        let at = match self.position[id as usize] {
            ABSENT => {
                self.heap.push((id, key));
                self.position[id as usize] = (self.heap.len() - 1) as u32;
                self.heap.len() - 1
            }
            p => {
                self.heap[p as usize].1 = key;
                p as usize
            }
        };
        let at = self.sift_up(at, before);
        self.sift_down(at, before);
    }

    pub fn remove(&mut self, id: u32, before: &impl Before<K>) {
        let Some(&p) = self.position.get(id as usize) else {
            return;
        };
        if p == ABSENT {
            return;
        }
        let at = p as usize;
        let last = self.heap.len() - 1;
        self.heap.swap(at, last);
        self.position[self.heap[at].0 as usize] = at as u32;
        self.heap.pop();
        self.position[id as usize] = ABSENT;
        if at < self.heap.len() {
            let at = self.sift_up(at, before);
            self.sift_down(at, before);
        }
    }

    /// Moves the entry at `at` up to its place (a hole travels, no swaps).
    fn sift_up(&mut self, mut at: usize, before: &impl Before<K>) -> usize {
        let entry = self.heap[at];
        while at > 0 {
            let parent = (at - 1) / ARITY;
            if !before(&entry, &self.heap[parent]) {
                break;
            }
            self.heap[at] = self.heap[parent];
            self.position[self.heap[at].0 as usize] = at as u32;
            at = parent;
        }
        self.heap[at] = entry;
        self.position[entry.0 as usize] = at as u32;
        at
    }

    fn sift_down(&mut self, mut at: usize, before: &impl Before<K>) {
        let entry = self.heap[at];
        let len = self.heap.len();
        loop {
            let first = ARITY * at + 1;
            if first >= len {
                break;
            }
            let mut child = first;
            for c in first + 1..(first + ARITY).min(len) {
                if before(&self.heap[c], &self.heap[child]) {
                    child = c;
                }
            }
            if !before(&self.heap[child], &entry) {
                break;
            }
            self.heap[at] = self.heap[child];
            self.position[self.heap[at].0 as usize] = at as u32;
            at = child;
        }
        self.heap[at] = entry;
        self.position[entry.0 as usize] = at as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(heap: &mut IndexedHeap<(i64, u32)>) -> Vec<u32> {
        let before = |x: &(u32, (i64, u32)), y: &(u32, (i64, u32))| {
            (x.1 .0, std::cmp::Reverse(x.1 .1)) > (y.1 .0, std::cmp::Reverse(y.1 .1))
        };
        let mut order = Vec::new();
        while let Some(id) = heap.peek() {
            order.push(id);
            heap.remove(id, &before);
        }
        order
    }

    #[test]
    fn keys_move_both_ways_and_the_max_is_always_on_top() {
        let before = |x: &(u32, (i64, u32)), y: &(u32, (i64, u32))| {
            (x.1 .0, std::cmp::Reverse(x.1 .1)) > (y.1 .0, std::cmp::Reverse(y.1 .1))
        };
        let mut heap = IndexedHeap::default();
        for (id, v) in [5i64, 3, 8, 1, 9, 2].into_iter().enumerate() {
            heap.upsert(id as u32, (v, id as u32), &before);
        }
        assert_eq!(heap.peek(), Some(4));
        heap.upsert(3, (100, 3), &before); // a rising key
        assert_eq!(heap.peek(), Some(3));
        heap.upsert(3, (-1, 3), &before); // a falling key
        assert_eq!(heap.peek(), Some(4));
        heap.remove(4, &before);
        assert_eq!(drain(&mut heap), [2, 0, 1, 5, 3]);
    }

    #[test]
    fn many_simultaneous_changes_keep_the_order_exact() {
        let before = |x: &(u32, (i64, u32)), y: &(u32, (i64, u32))| {
            (x.1 .0, std::cmp::Reverse(x.1 .1)) > (y.1 .0, std::cmp::Reverse(y.1 .1))
        };
        let mut heap = IndexedHeap::default();
        let mut values: Vec<i64> = (0..200).map(|i| (i * 7919) % 211).collect();
        for (id, &v) in values.iter().enumerate() {
            heap.upsert(id as u32, (v, id as u32), &before);
        }
        for round in 0..50i64 {
            for id in (0..200u32).filter(|&i| (i as i64 + round) % 3 == 0) {
                values[id as usize] = (values[id as usize] * 31 + round) % 197 - 50;
                heap.upsert(id, (values[id as usize], id), &before);
            }
        }
        let mut expected: Vec<u32> = (0..200).collect();
        expected.sort_by_key(|&i| (std::cmp::Reverse(values[i as usize]), i));
        assert_eq!(drain(&mut heap), expected);
    }

    proptest::proptest! {
        /// After any sequence of upserts (keys rising or falling) and
        /// removals, the top is the largest key of the ids in the heap.
        #[test]
        fn the_top_is_always_the_largest_key(ops in proptest::collection::vec((0u32..40, -20i64..20, 0u8..4), 1..300)) {
            let before = |x: &(u32, (i64, u32)), y: &(u32, (i64, u32))| {
                (x.1 .0, std::cmp::Reverse(x.1 .1)) > (y.1 .0, std::cmp::Reverse(y.1 .1))
            };
            let mut heap = IndexedHeap::default();
            let mut model = std::collections::BTreeMap::new();
            for (id, key, op) in ops {
                if op == 0 {
                    heap.remove(id, &before);
                    model.remove(&id);
                } else {
                    heap.upsert(id, (key, id), &before);
                    model.insert(id, key);
                }
                let top = model.iter().max_by_key(|&(&i, &k)| (k, std::cmp::Reverse(i))).map(|(&i, _)| i);
                proptest::prop_assert_eq!(heap.peek(), top);
                proptest::prop_assert_eq!(heap.len(), model.len());
                for (&i, &k) in &model {
                    proptest::prop_assert_eq!(heap.key_of(i).map(|key| key.0), Some(k));
                }
            }
        }
    }
}
