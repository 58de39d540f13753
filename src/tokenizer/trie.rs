//! A byte trie over the vocabulary for longest-prefix matching without
//! hashing or allocating: one walk from a position finds the longest token
//! that starts there. Continuation pieces (`##xyz`) need no second trie: their
//! walk starts at the node reached by `##`.

const NONE: u32 = u32::MAX;
/// Nodes with more children than this get a 256-entry table.
const DENSE_FROM: usize = 12;

#[derive(Clone, Debug)]
struct Node {
    /// Token id ending here, or `NONE`.
    token: u32,
    /// Children: `edges[first..first + len]` sorted by byte, or, when
    /// `dense` is set, `dense_tables[first]`.
    first: u32,
    len: u16,
    dense: bool,
}

#[derive(Clone, Debug)]
pub struct Trie {
    nodes: Vec<Node>,
    edges: Vec<(u8, u32)>,
    dense_tables: Vec<[u32; 256]>,
    /// The node reached by the continuation prefix, if any token has it.
    continuation_root: u32,
}

impl Trie {
    /// Builds the trie of `tokens` (id = position).
    pub fn new<'a>(tokens: impl IntoIterator<Item = &'a str>, continuation_prefix: &str) -> Self {
        // Build with per-node child lists, then freeze into flat arrays.
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
        let mut trie = Trie {
            nodes: Vec::with_capacity(children.len()),
            edges: Vec::new(),
            dense_tables: Vec::new(),
            continuation_root: NONE,
        };
        for (mut kids, token) in children.into_iter().zip(token_of) {
            kids.sort_unstable();
            let node = if kids.len() >= DENSE_FROM {
                let mut table = [NONE; 256];
                for &(b, child) in &kids {
                    table[b as usize] = child;
                }
                trie.dense_tables.push(table);
                Node { token, first: (trie.dense_tables.len() - 1) as u32, len: kids.len() as u16, dense: true }
            } else {
                let first = trie.edges.len() as u32;
                trie.edges.extend_from_slice(&kids);
                Node { token, first, len: kids.len() as u16, dense: false }
            };
            trie.nodes.push(node);
        }
        trie.continuation_root = trie.walk(0, continuation_prefix.as_bytes());
        trie
    }

    #[inline]
    fn child(&self, node: u32, byte: u8) -> u32 {
        let n = &self.nodes[node as usize];
        if n.dense {
            return self.dense_tables[n.first as usize][byte as usize];
        }
        let edges = &self.edges[n.first as usize..n.first as usize + n.len as usize];
        for &(b, child) in edges {
            if b == byte {
                return child;
            }
            if b > byte {
                break;
            }
        }
        NONE
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

    /// The longest non-empty token that `text` starts with, as
    /// `(token id, length in bytes)`; continuation tokens when `continues`.
    #[inline]
    pub fn longest_prefix(&self, text: &[u8], continues: bool) -> Option<(u32, usize)> {
        let mut node = if continues { self.continuation_root } else { 0 };
        let mut best = None;
        for (i, &b) in text.iter().enumerate() {
            if node == NONE {
                break;
            }
            node = self.child(node, b);
            if node == NONE {
                break;
            }
            let token = self.nodes[node as usize].token;
            if token != NONE {
                best = Some((token, i + 1));
            }
        }
        best
    }
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
    fn dense_nodes_work_like_sparse_ones() {
        let tokens: Vec<String> = (b'a'..=b'z').map(|c| format!("x{}", c as char)).collect();
        let trie = Trie::new(tokens.iter().map(String::as_str), "##");
        for (id, t) in tokens.iter().enumerate() {
            assert_eq!(trie.longest_prefix(t.as_bytes(), false), Some((id as u32, 2)));
        }
        assert_eq!(trie.longest_prefix(b"##a", true), None);
    }
}
