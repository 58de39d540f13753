//! The stages text flows through: normalizer, then pre-tokenizer (the WordPiece
//! model lives in `tokenizer`), then truncation (optional), post-processor and
//! padding (optional); the decoder goes back.

pub mod ascii;
pub mod decoder;
pub mod normalizer;
pub mod padding;
pub mod post_processor;
pub mod pre_tokenizer;
pub mod truncation;
pub mod unicode;
