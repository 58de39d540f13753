//! A binary max-heap over small integer ids whose keys can move up or down.
//!
//! The trainer needs both directions: a merge lowers the counts of its two
//! tokens, which RAISES the score of every other pair that holds them, so a
//! lazy heap that only tolerates falling scores would pick the wrong pair.
//! Each entry's key is cached here and changes only through `upsert`, so the
//! heap order never depends on state that changed behind its back.

const ABSENT: u32 = u32::MAX;

#[derive(Debug)]
pub struct IndexedHeap<K> {
    heap: Vec<u32>,
    /// Per id: its position in `heap` (or `ABSENT`) and its cached key.
    slots: Vec<(u32, Option<K>)>,
}

impl<K> Default for IndexedHeap<K> {
    fn default() -> Self {
        Self { heap: Vec::new(), slots: Vec::new() }
    }
}

impl<K: Copy> IndexedHeap<K> {
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    pub fn peek(&self) -> Option<u32> {
        self.heap.first().copied()
    }

    pub fn contains(&self, id: u32) -> bool {
        self.slots.get(id as usize).is_some_and(|s| s.0 != ABSENT)
    }

    /// Inserts `id` with `key`, or moves it to where `key` belongs.
    /// `before(x, y)` is true when key `x` must come out before key `y`.
    pub fn upsert(&mut self, id: u32, key: K, before: &impl Fn(&K, &K) -> bool) {
        if id as usize >= self.slots.len() {
            self.slots.resize(id as usize + 1, (ABSENT, None));
        }
        self.slots[id as usize].1 = Some(key);
        let at = match self.slots[id as usize].0 {
            ABSENT => {
                self.heap.push(id);
                self.slots[id as usize].0 = (self.heap.len() - 1) as u32;
                self.heap.len() - 1
            }
            p => p as usize,
        };
        let at = self.sift_up(at, before);
        self.sift_down(at, before);
    }

    pub fn remove(&mut self, id: u32, before: &impl Fn(&K, &K) -> bool) {
        let Some(&(p, _)) = self.slots.get(id as usize) else {
            return;
        };
        if p == ABSENT {
            return;
        }
        let at = p as usize;
        let last = self.heap.len() - 1;
        self.swap(at, last);
        self.heap.pop();
        self.slots[id as usize] = (ABSENT, None);
        if at < self.heap.len() {
            let at = self.sift_up(at, before);
            self.sift_down(at, before);
        }
    }

    fn key(&self, at: usize) -> &K {
        self.slots[self.heap[at] as usize].1.as_ref().expect("heap entries have keys")
    }

    fn swap(&mut self, i: usize, j: usize) {
        self.heap.swap(i, j);
        self.slots[self.heap[i] as usize].0 = i as u32;
        self.slots[self.heap[j] as usize].0 = j as u32;
    }

    fn sift_up(&mut self, mut at: usize, before: &impl Fn(&K, &K) -> bool) -> usize {
        while at > 0 {
            let parent = (at - 1) / 2;
            if !before(self.key(at), self.key(parent)) {
                break;
            }
            self.swap(at, parent);
            at = parent;
        }
        at
    }

    fn sift_down(&mut self, mut at: usize, before: &impl Fn(&K, &K) -> bool) {
        loop {
            let (l, r) = (2 * at + 1, 2 * at + 2);
            let mut best = at;
            if l < self.heap.len() && before(self.key(l), self.key(best)) {
                best = l;
            }
            if r < self.heap.len() && before(self.key(r), self.key(best)) {
                best = r;
            }
            if best == at {
                return;
            }
            self.swap(at, best);
            at = best;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(heap: &mut IndexedHeap<(i64, u32)>) -> Vec<u32> {
        let before = |x: &(i64, u32), y: &(i64, u32)| (x.0, std::cmp::Reverse(x.1)) > (y.0, std::cmp::Reverse(y.1));
        let mut order = Vec::new();
        while let Some(id) = heap.peek() {
            order.push(id);
            heap.remove(id, &before);
        }
        order
    }

    #[test]
    fn keys_move_both_ways_and_the_max_is_always_on_top() {
        let before = |x: &(i64, u32), y: &(i64, u32)| (x.0, std::cmp::Reverse(x.1)) > (y.0, std::cmp::Reverse(y.1));
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
        let before = |x: &(i64, u32), y: &(i64, u32)| (x.0, std::cmp::Reverse(x.1)) > (y.0, std::cmp::Reverse(y.1));
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
}
