//! The pieces' byte trie, built in time linear in their bytes (training
//! rebuilds it for hundreds of thousands of pieces every EM iteration):
//! the breadth-first trie of `pipeline::model::bfs_trie`, walked as it is
//! (node `k`'s children are nodes `first[k]..first[k + 1]`, in byte order,
//! their bytes in `byte`). The root's children are also in a table by byte.

use crate::pipeline::model::bfs_trie::BfsTrie;

const NONE: u32 = u32::MAX;

#[derive(Clone, Debug)]
pub struct PieceTrie {
    root: Box<[u32; 256]>,
    first: Vec<u32>,
    byte: Vec<u8>,
    token: Vec<u32>,
}

impl PieceTrie {
    /// The trie of `pieces` (non-empty); a piece's token is its index. Err
    /// with a piece that appears twice.
    pub fn new(pieces: &[&str]) -> Result<Self, usize> {
        Self::build(pieces, None)
    }

    /// [`PieceTrie::new`], but a piece that appears more than once is found
    /// as its last index (as Hugging Face's `token_to_ids` map keeps it);
    /// with whether any did.
    pub fn last_wins(pieces: &[&str]) -> (Self, bool) {
        let mut twice = false;
        let trie = Self::build(pieces, Some(&mut twice)).unwrap_or_else(|_| unreachable!("duplicates are kept out"));
        (trie, twice)
    }

    fn build(pieces: &[&str], last_wins: Option<&mut bool>) -> Result<Self, usize> {
        let mut order: Vec<u32> = (0..pieces.len() as u32).collect();
        // By bytes, then by index: the last of equal pieces is the last of its run.
        order.sort_unstable_by(|&a, &b| {
            pieces[a as usize].as_bytes().cmp(pieces[b as usize].as_bytes()).then(a.cmp(&b))
        });
        if let Some(w) = order.windows(2).find(|w| pieces[w[0] as usize] == pieces[w[1] as usize]) {
            let Some(twice) = last_wins else {
                return Err(w[1] as usize);
            };
            *twice = true;
            let mut kept: Vec<u32> = Vec::with_capacity(order.len());
            for id in order {
                match kept.last_mut() {
                    Some(last) if pieces[*last as usize] == pieces[id as usize] => *last = id,
                    _ => kept.push(id),
                }
            }
            order = kept;
        }
        let BfsTrie { first, byte, token } =
            BfsTrie::from_sorted(order.iter().map(|&id| (id, pieces[id as usize].as_bytes())));
        let mut root = Box::new([NONE; 256]);
        for k in first[0]..first[1] {
            root[byte[k as usize] as usize] = k;
        }
        Ok(PieceTrie { root, first, byte, token })
    }

    /// The token of exactly `text`.
    pub fn get(&self, text: &[u8]) -> Option<u32> {
        let mut node = 0u32;
        for &b in text {
            node = self.child(node, b);
            if node == NONE {
                return None;
            }
        }
        Some(self.token[node as usize]).filter(|&t| t != NONE)
    }

    #[inline(always)]
    fn child(&self, node: u32, b: u8) -> u32 {
        if node == 0 {
            return self.root[b as usize];
        }
        let (lo, hi) = (self.first[node as usize] as usize, self.first[node as usize + 1] as usize);
        match self.byte[lo..hi].iter().position(|&x| x >= b) {
            Some(j) if self.byte[lo + j] == b => (lo + j) as u32,
            _ => NONE,
        }
    }

    /// Calls `f(token, byte length)` for every piece `text` starts with,
    /// shortest first.
    #[inline]
    pub fn for_each_prefix(&self, text: &[u8], mut f: impl FnMut(u32, usize)) {
        let mut node = 0u32;
        for (i, &b) in text.iter().enumerate() {
            node = self.child(node, b);
            if node == NONE {
                break;
            }
            let t = self.token[node as usize];
            if t != NONE {
                f(t, i + 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_a_duplicate() {
        assert_eq!(PieceTrie::new(&["b", "a", "b"]).err(), Some(2));
    }

    #[test]
    fn finds_the_last_of_equal_pieces_when_asked() {
        let (trie, twice) = PieceTrie::last_wins(&["b", "a", "b", "ab", "b", "a"]);
        assert!(twice && !PieceTrie::last_wins(&["a", "b"]).1);
        assert_eq!((trie.get(b"a"), trie.get(b"b"), trie.get(b"ab")), (Some(5), Some(4), Some(3)));
        let mut got = Vec::new();
        trie.for_each_prefix(b"abc", |t, l| got.push((t, l)));
        assert_eq!(got, [(5, 1), (3, 2)]);
    }

    #[test]
    fn finds_every_prefix_like_a_naive_search() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let alphabet = ["a", "b", "c", "é", "中", "▁", "\u{0}", "ÿ"];
        for round in 0..60 {
            let mut pieces: Vec<String> = Vec::new();
            for _ in 0..(3 + round * 5) {
                let t: String = (0..1 + next(5)).map(|_| alphabet[next(8) as usize]).collect();
                if !pieces.contains(&t) {
                    pieces.push(t);
                }
            }
            let refs: Vec<&str> = pieces.iter().map(String::as_str).collect();
            let trie = PieceTrie::new(&refs).unwrap();
            for _ in 0..30 {
                let text: String = (0..next(9)).map(|_| alphabet[next(8) as usize]).collect();
                let mut got = Vec::new();
                trie.for_each_prefix(text.as_bytes(), |t, l| got.push((t, l)));
                let mut want: Vec<(u32, usize)> = pieces
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| text.as_bytes().starts_with(p.as_bytes()))
                    .map(|(i, p)| (i as u32, p.len()))
                    .collect();
                want.sort_by_key(|&(_, l)| l);
                assert_eq!(got, want, "{text:?} in {pieces:?}");
                let exact = pieces.iter().position(|p| *p == text).map(|i| i as u32);
                assert_eq!(trie.get(text.as_bytes()), exact.filter(|_| !text.is_empty()));
            }
        }
    }
}
