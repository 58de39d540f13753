//! The vocabulary, the WordPiece model, the encoding type, and the tokenizer
//! that chains the pipeline stages (`batch`: with truncation and padding).

pub mod batch;
pub mod core;
pub mod encoding;
pub mod serialization;
pub mod special_tokens;
pub mod threads;
pub mod trie;
pub mod vocab;
pub mod wordpiece;
