//! The stages text flows through: normalizer, then pre-tokenizer (the WordPiece
//! model lives in `tokenizer`), then post-processor; the decoder goes back.

pub mod ascii;
pub mod decoder;
pub mod normalizer;
pub mod post_processor;
pub mod pre_tokenizer;
pub mod unicode;
