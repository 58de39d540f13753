//! A byte trie over the vocabulary for longest-prefix matching without
//! hashing or allocating: one walk from a position finds the longest token
//! that starts there. Continuation pieces (`##xyz`) need no second trie: their
//! walk starts at the node reached by `##`.
//!
//! The trie is a double array in one flat vector of slots: the child of node
//! `n` by byte `b` is slot `slots[n].base + b`, if that slot's `parent` is
//! `n`. A step is one addition and one comparison, with no search and no
//! data-dependent branch, and it touches one slot.

use super::bfs_trie::BfsTrie;

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
    /// The trie of `tokens`, a token's id being its position; empty tokens
    /// are left out (no walk could report them), and of two equal tokens the
    /// later id is kept.
    pub fn new<'a>(tokens: impl IntoIterator<Item = &'a str>, continuation_prefix: &str) -> Self {
        // The breadth-first trie first (children in byte order), then packed.
        // Sorted by bytes, their first eight as one big-endian word first
        // (one compare decides nearly every pair); of equal tokens, the
        // largest id first, and kept.
        let mut sorted: Vec<(u64, u32, &[u8])> = tokens
            .into_iter()
            .enumerate()
            .filter(|(_, t)| !t.is_empty())
            .map(|(id, t)| {
                let mut head = [0u8; 8];
                let n = t.len().min(8);
                head[..n].copy_from_slice(&t.as_bytes()[..n]);
                (u64::from_be_bytes(head), id as u32, t.as_bytes())
            })
            .collect();
        sorted.sort_unstable_by(|x, y| x.0.cmp(&y.0).then_with(|| x.2.cmp(y.2)).then(y.1.cmp(&x.1)));
        sorted.dedup_by(|later, earlier| later.2 == earlier.2);
        let tree = BfsTrie::from_sorted(sorted.into_iter().map(|(_, id, t)| (id, t)));
        // Each node's slot, set when its parent is placed (breadth first, so
        // before the node itself is).
        let mut slot_of = vec![0u32; tree.byte.len()];
        let mut slots = vec![FREE; 256];
        slots[0] = Slot { parent: 0, base: 0, token: NONE };
        // Which slots are taken (the root's), 64 to a word: a base is tried
        // for 64 positions at once.
        let mut used = vec![1u64, 0, 0, 0];
        // Children go at or after slot 256, so that `at - lowest` is a valid
        // base (>= 1) for any byte; the root's children fill slots 1..256.
        let mut first_free = 256usize;
        for node in 0..tree.byte.len() {
            let kids = tree.children(node);
            if kids.is_empty() {
                continue;
            }
            let slot = slot_of[node];
            first_free = if node == 0 { 1 } else { next_free(&used, first_free) };
            // The first base at which every child lands on a free slot, the
            // lowest child at or after `first_free`.
            let bytes = &tree.byte[kids.clone()];
            let lowest = bytes[0] as usize;
            let base = fit(&used, first_free.max(lowest + 1) - lowest, bytes);
            if node == 0 {
                first_free = 256;
            }
            if slots.len() < base + 256 {
                slots.resize(base + 256, FREE);
                used.resize(slots.len().div_ceil(64) + 1, 0);
            }
            slots[slot as usize].base = base as u32;
            for child in kids {
                let at = base + tree.byte[child] as usize;
                slots[at] = Slot { parent: slot, base: 0, token: tree.token[child] };
                used[at / 64] |= 1 << (at % 64);
                slot_of[child] = at as u32;
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

/// The smallest base at or after `from` such that slot `base + b` is free
/// for every byte `b` of `kids`: 64 bases at a time, one word of `used`
/// per child (past the end of `used`, every slot is free).
fn fit(used: &[u64], from: usize, kids: &[u8]) -> usize {
    let mut block = from;
    loop {
        // Bit j: base `block + j` fits every child so far.
        let mut fits = u64::MAX;
        for &b in kids {
            fits &= !window(used, block + b as usize);
            if fits == 0 {
                break;
            }
        }
        if fits != 0 {
            return block + fits.trailing_zeros() as usize;
        }
        block += 64;
    }
}

/// The 64 bits of `used` from bit `at` on (zeros past its end).
fn window(used: &[u64], at: usize) -> u64 {
    let (word, shift) = (at / 64, at % 64);
    let low = used.get(word).copied().unwrap_or(0) >> shift;
    if shift == 0 {
        low
    } else {
        low | used.get(word + 1).copied().unwrap_or(0) << (64 - shift)
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

    /// Pseudo-random numbers below `n` (xorshift), the same on every run.
    fn numbers(mut state: u64) -> impl FnMut(u64) -> u64 {
        move |n| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        }
    }

    #[test]
    fn empty_tokens_are_left_out_and_the_later_of_equal_tokens_is_kept() {
        let trie = Trie::new(["ab", "", "a", "ab", ""], "##");
        assert_eq!(trie.longest_prefix(b"abc", false), Some((3, 2)));
        assert_eq!(trie.longest_prefix(b"ax", false), Some((2, 1)));
        assert_eq!(trie.longest_prefix(b"x", false), None);
    }

    #[test]
    fn fit_finds_the_smallest_base_like_a_naive_scan() {
        let mut next = numbers(0x2545_F491_4F6C_DD1D);
        for _ in 0..300 {
            let density = 1 + next(15);
            let used: Vec<u64> = (0..2 + next(12))
                .map(|_| (0..64).fold(0u64, |w, bit| w | u64::from(next(16) < density) << bit))
                .collect();
            let free = |at: usize| used.get(at / 64).is_none_or(|w| w >> (at % 64) & 1 == 0);
            let mut kids: Vec<u8> = (0..1 + next(6)).map(|_| next(256) as u8).collect();
            kids.sort_unstable();
            kids.dedup();
            let from = next(700) as usize;
            let naive = (from..).find(|&base| kids.iter().all(|&b| free(base + b as usize))).unwrap();
            assert_eq!(fit(&used, from, &kids), naive, "{kids:?} from {from}");
        }
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
        let mut next = numbers(0x9E37_79B9_7F4A_7C15);
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
