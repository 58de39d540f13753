//! A byte trie over the vocabulary for longest-prefix matching without
//! hashing or allocating: one walk from a position finds the longest token
//! that starts there. Continuation pieces (`##xyz`) need no second trie: their
//! walk starts at the node reached by `##`.
//!
//! The trie is a double array in one flat vector of slots: the child of node
//! `n` by byte `b` is slot `slots[n].base + b`, if that slot's `parent` is
//! `n`. A step is one addition and one comparison, with no search and no
//! data-dependent branch, and it touches one slot.

const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Slot {
    /// The node whose child this slot is, or `NONE` for a free slot.
    parent: u32,
    /// Where this node's children start: child `b` is slot `base + b`.
    base: u32,
    /// Token id ending at this node, or `NONE`.
    token: u32,
}

const FREE: Slot = Slot { parent: NONE, base: 0, token: NONE };

#[derive(Clone, Debug)]
pub struct Trie {
    /// Slot 0 is the root. Every node's `base + 255` is in bounds.
    slots: Vec<Slot>,
    /// The node reached by the continuation prefix, or `NONE`.
    continuation_root: u32,
}

impl Trie {
    pub fn new<'a>(tokens: impl IntoIterator<Item = &'a str>, continuation_prefix: &str) -> Self {
        // A pointer trie first (children sorted by byte), then packed.
        let mut children: Vec<Vec<(u8, u32)>> = vec![Vec::new()];
        let mut token_of: Vec<u32> = vec![NONE];
        for (id, token) in tokens.into_iter().enumerate() {
            let mut node = 0usize;
            for &b in token.as_bytes() {
                node = match children[node].iter().find(|&&(c, _)| c == b) {
                    Some(&(_, child)) => child as usize,
                    None => {
                        children.push(Vec::new());
                        token_of.push(NONE);
                        let child = children.len() - 1;
                        children[node].push((b, child as u32));
                        child
                    }
                };
            }
            token_of[node] = id as u32;
        }
        let mut slots = vec![FREE; 256];
        slots[0] = Slot { parent: 0, base: 0, token: token_of[0] };
        // Which slots are taken, 64 to a word, so that the search for a base
        // jumps over full stretches instead of testing every position.
        let mut used = vec![1u64; 4];
        // Children go at or after slot 256, so that `at - lowest` is a valid
        // base (>= 1) for any byte; the root's children fill slots 1..256.
        let mut first_free = 256usize;
        // Breadth first: (pointer-trie node, its slot).
        let mut queue = std::collections::VecDeque::from([(0usize, 0u32)]);
        while let Some((node, slot)) = queue.pop_front() {
            let kids = &mut children[node];
            if kids.is_empty() {
                continue;
            }
            kids.sort_unstable();
            first_free = if node == 0 { 1 } else { next_free(&used, first_free) };
            // The first child goes on a free slot at or after `first_free`;
            // take the first such slot where every other child fits too.
            let lowest = kids[0].0 as usize;
            let mut at = next_free(&used, first_free.max(lowest + 1));
            if node == 0 {
                first_free = 256;
            }
            let base = loop {
                let base = at - lowest;
                if slots.len() < base + 256 {
                    slots.resize(base + 256, FREE);
                    used.resize(slots.len().div_ceil(64) + 1, 0);
                }
                if kids.iter().all(|&(b, _)| slots[base + b as usize].parent == NONE) {
                    break base;
                }
                at = next_free(&used, at + 1);
            };
            slots[slot as usize].base = base as u32;
            for &(b, child) in kids.iter() {
                let at = base + b as usize;
                slots[at] = Slot { parent: slot, base: 0, token: token_of[child as usize] };
                used[at / 64] |= 1 << (at % 64);
                queue.push_back((child as usize, at as u32));
            }
        }
        let mut trie = Trie { slots, continuation_root: NONE };
        trie.continuation_root = trie.walk(0, continuation_prefix.as_bytes());
        trie
    }

    #[inline(always)]
    fn child(&self, node: u32, byte: u8) -> u32 {
        let at = self.slots[node as usize].base as usize + byte as usize;
        // In bounds by construction (`base + 255` always is); `get` keeps it safe.
        match self.slots.get(at) {
            Some(s) if s.parent == node => at as u32,
            _ => NONE,
        }
    }

    fn walk(&self, mut node: u32, bytes: &[u8]) -> u32 {
        for &b in bytes {
            if node == NONE {
                break;
            }
            node = self.child(node, b);
        }
        node
    }

    /// The longest token that `text` starts with: `(id, byte length)`. With
    /// `continues`, only continuation tokens count, matched without their prefix.
    #[inline]
    pub fn longest_prefix(&self, text: &[u8], continues: bool) -> Option<(u32, usize)> {
        let mut node = if continues { self.continuation_root } else { 0 };
        if node == NONE {
            return None;
        }
        let mut best = None;
        for (i, &b) in text.iter().enumerate() {
            node = self.child(node, b);
            if node == NONE {
                break;
            }
            let token = self.slots[node as usize].token;
            if token != NONE {
                best = Some((token, i + 1));
            }
        }
        best
    }
}

/// The first position at or after `from` whose bit in `used` is clear
/// (positions past the end of `used` are free).
fn next_free(used: &[u64], from: usize) -> usize {
    let mut word = from / 64;
    let mut bits = used.get(word).map_or(0, |w| w | ((1u64 << (from % 64)) - 1));
    while bits == u64::MAX {
        word += 1;
        bits = used.get(word).copied().unwrap_or(0);
    }
    word * 64 + (!bits).trailing_zeros() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_longest_token_prefix() {
        let tokens = ["un", "una", "##aff", "##a", "##affable", "a", ""];
        let trie = Trie::new(tokens, "##");
        assert_eq!(trie.longest_prefix(b"unaffable", false), Some((1, 3)));
        assert_eq!(trie.longest_prefix(b"affable", true), Some((4, 7)));
        assert_eq!(trie.longest_prefix(b"affx", true), Some((2, 3)));
        assert_eq!(trie.longest_prefix(b"ax", true), Some((3, 1)));
        assert_eq!(trie.longest_prefix(b"xyz", false), None);
        assert_eq!(trie.longest_prefix(b"", false), None);
        assert_eq!(trie.longest_prefix(b"b", true), None);
    }

    #[test]
    fn wide_nodes_work_like_narrow_ones() {
        let tokens: Vec<String> = (b'a'..=b'z').map(|c| format!("x{}", c as char)).collect();
        let trie = Trie::new(tokens.iter().map(String::as_str), "##");
        for (id, t) in tokens.iter().enumerate() {
            assert_eq!(trie.longest_prefix(t.as_bytes(), false), Some((id as u32, 2)));
        }
        assert_eq!(trie.longest_prefix(b"##a", true), None);
    }

    #[test]
    fn agrees_with_a_naive_search_on_random_vocabularies() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let alphabet = ["a", "b", "c", "é", "中", "#"];
        for round in 0..50 {
            let mut tokens: Vec<String> = Vec::new();
            for _ in 0..(5 + round * 4) {
                let len = 1 + next(5) as usize;
                let t: String = (0..len).map(|_| alphabet[next(6) as usize]).collect();
                let t = if next(3) == 0 { format!("##{t}") } else { t };
                if !tokens.contains(&t) {
                    tokens.push(t);
                }
            }
            let trie = Trie::new(tokens.iter().map(String::as_str), "##");
            for _ in 0..50 {
                let text: String = (0..next(8)).map(|_| alphabet[next(6) as usize]).collect();
                for continues in [false, true] {
                    let naive = tokens
                        .iter()
                        .enumerate()
                        .filter_map(|(id, t)| {
                            let t = if continues { t.strip_prefix("##")? } else { t.as_str() };
                            (!t.is_empty() && text.as_bytes().starts_with(t.as_bytes())).then_some((id as u32, t.len()))
                        })
                        .max_by_key(|&(_, len)| len);
                    assert_eq!(trie.longest_prefix(text.as_bytes(), continues), naive, "{tokens:?} {text:?}");
                }
            }
        }
    }
}
