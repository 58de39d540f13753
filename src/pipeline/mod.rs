//! The stages text flows through, in order: normalizer, pre-tokenizer
//! (`ascii` fuses the two for ASCII text), the WordPiece model (`model`),
//! truncation (optional), post-processor and padding (optional); the decoder
//! goes back. Each stage works on text or on an `encoding::Encoding`; the
//! `tokenizer` chains them.

pub mod ascii;
pub mod decoder;
pub mod model;
pub mod normalizer;
pub mod padding;
pub mod post_processor;
pub mod pre_tokenizer;
pub mod special_split;
pub mod truncation;
pub mod unicode;
