//! Byte-level BPE (GPT-2 style): the GPT-2 pre-tokenizer (`pre_tokenizer`),
//! the byte-to-character mapping (`bytes`), the model that encodes by merge
//! rank (`model`), its Hugging Face tokenizer.json form (`hf_json`) and
//! training by pair frequency on the shared merge loop (`train`).

pub mod bytes;
pub mod hf_json;
pub mod model;
pub mod pre_tokenizer;
pub mod train;

pub use model::{Bpe, Cache, Padding};
