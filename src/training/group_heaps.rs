//! Many small binary max-heaps that share one position table: every item
//! (a pair id) lives in at most one group. Keys are held by the caller and
//! must change only right before the item's own `upsert`.

const ABSENT: u32 = u32::MAX;

#[derive(Default, Debug)]
pub struct GroupHeaps {
    heaps: Vec<Vec<u32>>,
    position: Vec<u32>,
}

impl GroupHeaps {
    pub fn top(&self, group: u32) -> Option<u32> {
        self.heaps.get(group as usize).and_then(|h| h.first().copied())
    }

    /// Inserts `item` into `group`, or moves it to where its (changed) key belongs.
    pub fn upsert(&mut self, group: u32, item: u32, before: &impl Fn(u32, u32) -> bool) {
        let (g, i) = (group as usize, item as usize);
        if g >= self.heaps.len() {
            self.heaps.resize_with(g + 1, Vec::new);
        }
        if i >= self.position.len() {
            self.position.resize(i + 1, ABSENT);
        }
        let at = match self.position[i] {
            ABSENT => {
                self.heaps[g].push(item);
                self.position[i] = (self.heaps[g].len() - 1) as u32;
                self.heaps[g].len() - 1
            }
            p => p as usize,
        };
        let at = self.sift_up(g, at, before);
        self.sift_down(g, at, before);
    }

    pub fn remove(&mut self, group: u32, item: u32, before: &impl Fn(u32, u32) -> bool) {
        let (g, i) = (group as usize, item as usize);
        let Some(&p) = self.position.get(i) else {
            return;
        };
        if p == ABSENT {
            return;
        }
        let at = p as usize;
        let last = self.heaps[g].len() - 1;
        self.swap(g, at, last);
        self.heaps[g].pop();
        self.position[i] = ABSENT;
        if at < self.heaps[g].len() {
            let at = self.sift_up(g, at, before);
            self.sift_down(g, at, before);
        }
    }

    fn swap(&mut self, g: usize, x: usize, y: usize) {
        let heap = &mut self.heaps[g];
        heap.swap(x, y);
        self.position[heap[x] as usize] = x as u32;
        self.position[heap[y] as usize] = y as u32;
    }

    fn sift_up(&mut self, g: usize, mut at: usize, before: &impl Fn(u32, u32) -> bool) -> usize {
        while at > 0 {
            let parent = (at - 1) / 2;
            if !before(self.heaps[g][at], self.heaps[g][parent]) {
                break;
            }
            self.swap(g, at, parent);
            at = parent;
        }
        at
    }

    fn sift_down(&mut self, g: usize, mut at: usize, before: &impl Fn(u32, u32) -> bool) {
        let len = self.heaps[g].len();
        loop {
            let (l, r) = (2 * at + 1, 2 * at + 2);
            let mut best = at;
            if l < len && before(self.heaps[g][l], self.heaps[g][best]) {
                best = l;
            }
            if r < len && before(self.heaps[g][r], self.heaps[g][best]) {
                best = r;
            }
            if best == at {
                return;
            }
            self.swap(g, at, best);
            at = best;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_independent_heaps() {
        let keys = [5, 1, 9, 3, 7, 2];
        let before = |x: u32, y: u32| keys[x as usize] > keys[y as usize];
        let mut g = GroupHeaps::default();
        for item in 0..6u32 {
            g.upsert(item % 2, item, &before);
        }
        assert_eq!(g.top(0), Some(2)); // items 0, 2, 4: keys 5, 9, 7
        assert_eq!(g.top(1), Some(3)); // items 1, 3, 5: keys 1, 3, 2
        g.remove(0, 2, &before);
        assert_eq!(g.top(0), Some(4));
        g.remove(0, 4, &before);
        g.remove(0, 0, &before);
        assert_eq!(g.top(0), None);
        assert_eq!(g.top(7), None);
    }
}
