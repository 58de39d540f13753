//! Stage 3: the WordPiece model. The vocabulary (`vocab`, with its byte trie
//! in `trie`, packed from the breadth-first trie of `bfs_trie`), BERT's greedy longest-match-first (`wordpiece`), and the
//! matcher that keeps special tokens written literally in the input whole
//! (`special_tokens`), as Hugging Face's added vocabulary does; and the
//! short keys of words (`word_cache`).

pub mod bfs_trie;
pub mod special_tokens;
pub mod trie;
pub mod vocab;
pub mod word_cache;
pub mod wordpiece;
