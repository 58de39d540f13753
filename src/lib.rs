//! fast-wordpiece: a WordPiece tokenizer with BERT-exact encoding and exact,
//! deterministic training (by default on WordPiece's likelihood gain; the
//! seed's `freq(ab) / (freq(a) * freq(b))` and pair frequency on request).
//!
//! Text flows through the stages in `pipeline`: the normalizer, the
//! pre-tokenizer, the WordPiece model (`pipeline::model`), truncation, the
//! post-processor and padding, each reading and writing an `encoding::Encoding`;
//! `tokenizer` chains them. Training (`training`) reuses the first two stages.
//! `threads` holds the thread pools both use. The core has no Python types;
//! the bindings in `python` are compiled only with the `python` feature.
//! docs/architecture.md draws the layers.

pub mod bpe;
pub mod chars;
pub mod encoding;
pub mod error;
pub mod hint;
pub mod io;
pub mod memory;
pub mod pipeline;
pub mod threads;
pub mod tokenizer;
pub mod training;
pub mod unigram;

#[cfg(feature = "python")]
mod python;

pub use encoding::{Encoding, Side};
pub use error::{Error, Result};
pub use pipeline::padding::{PadTo, Padding};
pub use pipeline::truncation::{Strategy, Truncation};
pub use tokenizer::options::{EncodeOptions, Options, DEFAULT_SPECIAL_TOKENS};
pub use tokenizer::Tokenizer;
