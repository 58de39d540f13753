//! fast-wordpiece: a WordPiece tokenizer with BERT-exact encoding and training
//! on the true WordPiece objective, `freq(ab) / (freq(a) * freq(b))`.
//!
//! Text flows through `pipeline::normalizer`, `pipeline::pre_tokenizer`, the
//! WordPiece model in `tokenizer::wordpiece`, and `pipeline::post_processor`.
//! Training (`training`) reuses the first two stages. The core has no Python
//! types; the bindings in `python` are compiled only with the `python` feature.

pub mod error;
pub mod io;
pub mod pipeline;
pub mod tokenizer;
pub mod training;

#[cfg(feature = "python")]
mod python;

pub use error::{Error, Result};
pub use tokenizer::core::{Options, Tokenizer, DEFAULT_SPECIAL_TOKENS};
pub use tokenizer::encoding::Encoding;
