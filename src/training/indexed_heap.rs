//! A binary max-heap over small integer keys that can move any key up or down
//! in O(log n). The trainer needs both directions: a merge lowers the counts of
//! its two tokens, which RAISES the score of every other pair that holds them.
//! A lazy heap that only tolerates falling scores would pick the wrong pair.

const ABSENT: u32 = u32::MAX;

#[derive(Default, Debug)]
pub struct IndexedHeap {
    heap: Vec<u32>,
    /// Position of each key in `heap`, or `ABSENT`.
    position: Vec<u32>,
}

impl IndexedHeap {
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    pub fn peek(&self) -> Option<u32> {
        self.heap.first().copied()
    }

    pub fn contains(&self, key: u32) -> bool {
        self.position
            .get(key as usize)
            .is_some_and(|&p| p != ABSENT)
    }

    /// Inserts `key`, or restores the heap order around it if present.
    /// `before(x, y)` is true when `x` must come out before `y`.
    pub fn upsert(&mut self, key: u32, before: &impl Fn(u32, u32) -> bool) {
        if key as usize >= self.position.len() {
            self.position.resize(key as usize + 1, ABSENT);
        }
        let at = match self.position[key as usize] {
            ABSENT => {
                self.heap.push(key);
                self.position[key as usize] = (self.heap.len() - 1) as u32;
                self.heap.len() - 1
            }
            p => p as usize,
        };
        let at = self.sift_up(at, before);
        self.sift_down(at, before);
    }

    pub fn remove(&mut self, key: u32, before: &impl Fn(u32, u32) -> bool) {
        let Some(&p) = self.position.get(key as usize) else {
            return;
        };
        if p == ABSENT {
            return;
        }
        let at = p as usize;
        let last = self.heap.len() - 1;
        self.swap(at, last);
        self.heap.pop();
        self.position[key as usize] = ABSENT;
        if at < self.heap.len() {
            let at = self.sift_up(at, before);
            self.sift_down(at, before);
        }
    }

    fn swap(&mut self, i: usize, j: usize) {
        self.heap.swap(i, j);
        self.position[self.heap[i] as usize] = i as u32;
        self.position[self.heap[j] as usize] = j as u32;
    }

    fn sift_up(&mut self, mut at: usize, before: &impl Fn(u32, u32) -> bool) -> usize {
        while at > 0 {
            let parent = (at - 1) / 2;
            if !before(self.heap[at], self.heap[parent]) {
                break;
            }
            self.swap(at, parent);
            at = parent;
        }
        at
    }

    fn sift_down(&mut self, mut at: usize, before: &impl Fn(u32, u32) -> bool) {
        loop {
            let (l, r) = (2 * at + 1, 2 * at + 2);
            let mut best = at;
            if l < self.heap.len() && before(self.heap[l], self.heap[best]) {
                best = l;
            }
            if r < self.heap.len() && before(self.heap[r], self.heap[best]) {
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
    use std::cell::RefCell;

    #[test]
    fn keys_move_both_ways_and_the_max_is_always_on_top() {
        let values = RefCell::new(vec![5i64, 3, 8, 1, 9, 2]);
        let before = |x: u32, y: u32| {
            let v = values.borrow();
            (v[x as usize], std::cmp::Reverse(x)) > (v[y as usize], std::cmp::Reverse(y))
        };
        let mut heap = IndexedHeap::default();
        for k in 0..6 {
            heap.upsert(k, &before);
        }
        assert_eq!(heap.peek(), Some(4));
        values.borrow_mut()[3] = 100; // a rising key
        heap.upsert(3, &before);
        assert_eq!(heap.peek(), Some(3));
        values.borrow_mut()[3] = -1; // a falling key
        heap.upsert(3, &before);
        assert_eq!(heap.peek(), Some(4));
        heap.remove(4, &before);
        let mut order = Vec::new();
        while let Some(k) = heap.peek() {
            order.push(k);
            heap.remove(k, &before);
        }
        assert_eq!(order, [2, 0, 1, 5, 3]);
    }
}
