//! A byte trie built in time linear in the bytes of its pieces, with its
//! nodes numbered breadth first: the children of node `k` are the nodes
//! `first[k]..first[k + 1]`, in byte order. The WordPiece trie packs it into
//! a double array (`trie`); the Unigram model walks it as it is.

const NONE: u32 = u32::MAX;

#[derive(Clone, Debug)]
pub struct BfsTrie {
    /// Node `k`'s children start at `first[k]` (one entry past the last node).
    pub first: Vec<u32>,
    /// The byte that leads to each node (the root's is 0).
    pub byte: Vec<u8>,
    /// The token ending at each node, or `u32::MAX`.
    pub token: Vec<u32>,
}

impl BfsTrie {
    /// The trie of `pieces`, `(token, bytes)` sorted by bytes, no two bytes
    /// equal (an empty piece is the root's token).
    pub fn from_sorted<'a>(pieces: impl IntoIterator<Item = (u32, &'a [u8])>) -> Self {
        // A first-child / next-sibling trie: with the pieces sorted, a node's
        // next child is always either its last child or a new one.
        let pieces = pieces.into_iter();
        // Room for a node per piece: most pieces end in a node of their own.
        let room = 1 + pieces.size_hint().0;
        let mut label: Vec<u8> = Vec::with_capacity(room);
        let mut token: Vec<u32> = Vec::with_capacity(room);
        let mut first_child: Vec<u32> = Vec::with_capacity(room);
        let mut last_child: Vec<u32> = Vec::with_capacity(room);
        let mut next_sibling: Vec<u32> = Vec::with_capacity(room);
        label.push(0);
        token.push(NONE);
        first_child.push(NONE);
        last_child.push(NONE);
        next_sibling.push(NONE);
        for (id, bytes) in pieces {
            let mut node = 0usize;
            for &b in bytes {
                let last = last_child[node];
                node = if last != NONE && label[last as usize] == b {
                    last as usize
                } else {
                    let new = label.len() as u32;
                    label.push(b);
                    token.push(NONE);
                    first_child.push(NONE);
                    last_child.push(NONE);
                    next_sibling.push(NONE);
                    if last == NONE {
                        first_child[node] = new;
                    } else {
                        next_sibling[last as usize] = new;
                    }
                    last_child[node] = new;
                    new as usize
                };
            }
            token[node] = id;
        }
        // Breadth-first renumbering.
        let n = label.len();
        let mut bfs: Vec<u32> = Vec::with_capacity(n);
        bfs.push(0);
        let mut first = Vec::with_capacity(n + 1);
        let mut i = 0;
        while i < bfs.len() {
            first.push(bfs.len() as u32);
            let mut c = first_child[bfs[i] as usize];
            while c != NONE {
                bfs.push(c);
                c = next_sibling[c as usize];
            }
            i += 1;
        }
        first.push(bfs.len() as u32);
        let byte = bfs.iter().map(|&k| label[k as usize]).collect();
        let token = bfs.iter().map(|&k| token[k as usize]).collect();
        BfsTrie { first, byte, token }
    }

    /// The nodes that are children of node `k`.
    pub fn children(&self, k: usize) -> std::ops::Range<usize> {
        self.first[k] as usize..self.first[k + 1] as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_nodes_breadth_first_with_children_in_byte_order() {
        let pieces: [(u32, &[u8]); 4] = [(3, b"a"), (1, b"ab"), (0, b"b"), (2, b"ba")];
        let trie = BfsTrie::from_sorted(pieces);
        // root; a, b; ab, ba
        assert_eq!(trie.byte, [0, b'a', b'b', b'b', b'a']);
        assert_eq!(trie.token, [NONE, 3, 0, 1, 2]);
        assert_eq!(trie.children(0), 1..3);
        assert_eq!(trie.children(1), 3..4);
        assert_eq!(trie.children(2), 4..5);
        assert_eq!(trie.children(3), 5..5);
    }
}
