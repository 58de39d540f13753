//! What a tokenizer is made with (`Options`, the switches of its pipeline)
//! and what one encoding call asks for (`EncodeOptions`: special tokens,
//! truncation, padding, threads), as typed values. The Python bindings turn
//! keyword arguments into these (`python::args`).

use rustc_hash::FxHashSet;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Quoted, Result};
use crate::pipeline::decoder::Joining;
use crate::pipeline::model::vocab::CONTINUATION;
use crate::pipeline::normalizer::{Normalized, Normalizer};
use crate::pipeline::padding::Padding;
use crate::pipeline::pre_tokenizer::PreTokenizer;
use crate::pipeline::truncation::Truncation;
use crate::tokenizer::template::Template;

/// The token padding inserts unless the options name another.
pub const PAD_TOKEN: &str = "[PAD]";

/// The special tokens a new tokenizer gets unless told otherwise.
pub const DEFAULT_SPECIAL_TOKENS: [&str; 5] = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];

/// Every switch of the pipeline. The defaults are bert-base-uncased's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    #[serde(flatten)]
    pub normalizer: Normalizer,
    pub pre_tokenizer: PreTokenizer,
    pub unk_token: String,
    pub cls_token: String,
    pub sep_token: String,
    /// The token padding inserts (transformers' `pad_token`); it must be in
    /// the vocabulary when padding.
    #[serde(default = "default_pad")]
    pub pad_token: String,
    pub max_input_chars_per_word: usize,
    /// The prefix of pieces that continue a word (Hugging Face's
    /// `continuing_subword_prefix`), in encoding and decoding.
    #[serde(default = "default_prefix")]
    pub continuing_subword_prefix: String,
    /// Whether decoding applies the clean-up rules (the decoder's `cleanup`).
    #[serde(default = "default_true")]
    pub decoder_cleanup: bool,
    /// What `add_special_tokens` adds.
    #[serde(default)]
    pub post_processor: PostProcessing,
    /// Special tokens written in the text are plain text (Hugging Face's
    /// `encode_special_tokens`, transformers' `split_special_tokens`).
    #[serde(default)]
    pub split_special_tokens: bool,
    /// How `decode` joins tokens.
    #[serde(default)]
    pub decoder: Decoding,
}

/// What the post-processor adds with `add_special_tokens`. Written as
/// `"bert"`, `"none"`, or Hugging Face's `TemplateProcessing` object.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum PostProcessing {
    /// `[CLS] A [SEP]` and `[CLS] A [SEP] B [SEP]`, type ids 0 then 1.
    #[default]
    Bert,
    /// Nothing (a Hugging Face file whose `post_processor` is null).
    Off,
    /// Any template of special tokens around the sequences.
    Template(Box<Template>),
}

impl PostProcessing {
    pub const NAMES: [&'static str; 2] = ["bert", "none"];

    pub fn parse(name: &str) -> Result<Self> {
        match name {
            "bert" => Ok(Self::Bert),
            "none" => Ok(Self::Off),
            _ => Err(Error::invalid(format!(
                "unknown post_processor {}: expected \"bert\", \"none\" or a TemplateProcessing object",
                Quoted(name)
            ))),
        }
    }

    /// `"bert"`, `"none"`, or a `TemplateProcessing` object (errors name
    /// their path under `post_processor`).
    pub fn from_value(value: &serde_json::Value) -> Result<Self> {
        match value {
            serde_json::Value::String(name) => Self::parse(name),
            serde_json::Value::Object(o) => match o.get("type").and_then(serde_json::Value::as_str) {
                Some("TemplateProcessing") => {
                    Ok(Self::Template(Box::new(Template::from_json(value, "post_processor")?)))
                }
                _ => Err(Error::invalid(
                    "post_processor.type: expected \"TemplateProcessing\" (the only post-processor given as an object)",
                )),
            },
            other => Err(Error::invalid(format!(
                "post_processor: expected \"bert\", \"none\" or a TemplateProcessing object, found {other}"
            ))),
        }
    }

    pub fn to_value(&self) -> serde_json::Value {
        match self {
            Self::Bert => "bert".into(),
            Self::Off => "none".into(),
            Self::Template(t) => t.to_json(),
        }
    }
}

impl Serialize for PostProcessing {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        self.to_value().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for PostProcessing {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        Self::from_value(&value).map_err(serde::de::Error::custom)
    }
}

/// How `decode` joins tokens into text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Decoding {
    /// Hugging Face's `decoders.WordPiece` (the prefix, `decoder_cleanup`).
    #[default]
    #[serde(rename = "wordpiece")]
    WordPiece,
    /// No decoder (a Hugging Face file whose `decoder` is null): the tokens
    /// joined with single spaces.
    #[serde(rename = "none")]
    Off,
}

impl Options {
    /// How `decode` joins tokens: the decoder's prefix and clean-up, or
    /// spaces without a decoder.
    pub fn joining(&self) -> Joining<'_> {
        match self.decoder {
            Decoding::WordPiece => {
                Joining::WordPiece { prefix: &self.continuing_subword_prefix, cleanup: self.decoder_cleanup }
            }
            Decoding::Off => Joining::Spaces,
        }
    }
}

impl Decoding {
    pub fn parse(name: &str) -> Result<Self> {
        match name {
            "wordpiece" => Ok(Self::WordPiece),
            "none" => Ok(Self::Off),
            _ => Err(Error::invalid(format!("unknown decoder {}: expected \"wordpiece\" or \"none\"", Quoted(name)))),
        }
    }
}

fn default_prefix() -> String {
    CONTINUATION.to_owned()
}

fn default_pad() -> String {
    PAD_TOKEN.to_owned()
}

fn default_true() -> bool {
    true
}

impl Default for Options {
    fn default() -> Self {
        Self {
            normalizer: Normalizer::default(),
            pre_tokenizer: PreTokenizer::default(),
            unk_token: "[UNK]".into(),
            cls_token: "[CLS]".into(),
            sep_token: "[SEP]".into(),
            pad_token: PAD_TOKEN.into(),
            max_input_chars_per_word: 100,
            continuing_subword_prefix: default_prefix(),
            decoder_cleanup: true,
            post_processor: PostProcessing::Bert,
            decoder: Decoding::WordPiece,
            split_special_tokens: false,
        }
    }
}

impl Options {
    pub fn validate(&self) -> Result<()> {
        if self.max_input_chars_per_word == 0 {
            return Err(Error::invalid("max_input_chars_per_word must be >= 1, got 0"));
        }
        for (name, token) in [
            ("unk_token", &self.unk_token),
            ("cls_token", &self.cls_token),
            ("sep_token", &self.sep_token),
            ("pad_token", &self.pad_token),
        ] {
            if token.is_empty() {
                return Err(Error::invalid(format!("{name} must not be empty")));
            }
        }
        Ok(())
    }

    /// Normalizes and pre-tokenizes `text`, calling `f` with each word.
    /// This is the part of the pipeline that training shares with encoding.
    pub fn for_each_word(&self, text: &str, normalized: &mut Normalized, mut f: impl FnMut(&str)) {
        self.normalizer.normalize_into(text, normalized);
        let t = normalized.text.as_str();
        self.pre_tokenizer.split(t, |w| f(&t[w.bytes.0..w.bytes.1]));
    }

    /// [`Self::for_each_word`], or `Error::Memory` when there is no room for
    /// the normalized text (see [`Normalizer::try_normalize_into`]).
    pub fn try_for_each_word(&self, text: &str, normalized: &mut Normalized, mut f: impl FnMut(&str)) -> Result<()> {
        self.normalizer.try_normalize_into(text, normalized)?;
        let t = normalized.text.as_str();
        self.pre_tokenizer.split(t, |w| f(&t[w.bytes.0..w.bytes.1]));
        Ok(())
    }
}

/// Checks a list of special tokens: non-empty strings, no duplicates.
pub fn validate_special_tokens(tokens: &[String]) -> Result<()> {
    let mut seen = FxHashSet::default();
    for t in tokens {
        if t.is_empty() {
            return Err(Error::invalid("special tokens must not be empty strings"));
        }
        if !seen.insert(t.as_str()) {
            return Err(Error::invalid(format!("special token {} is listed twice", Quoted(t))));
        }
    }
    Ok(())
}

/// How to encode: special tokens, truncation, padding, threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodeOptions {
    /// The special tokens of the post-processor (see `PostProcessor`).
    pub add_special_tokens: bool,
    pub truncation: Option<Truncation>,
    pub padding: Option<Padding>,
    /// Threads for a batch; None: `threads::default_threads()`.
    pub num_threads: Option<usize>,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        Self { add_special_tokens: true, truncation: None, padding: None, num_threads: None }
    }
}

impl EncodeOptions {
    /// Checks what the types alone cannot: a truncation `stride` that leaves
    /// room for new tokens in every window (see [`Truncation::validate`]),
    /// with `added_single` the special tokens the post-processor adds to one
    /// text.
    ///
    /// A truncation that leaves no room at all (`max_length` equal to the
    /// special tokens this call adds) cuts no windows: every token goes to
    /// one overflowing window, so its stride is not checked. Hugging Face
    /// encodes so a text without special tokens at `max_length=0`, whatever
    /// the stride its setter took.
    pub fn validate(&self, added_single: usize) -> Result<()> {
        let added = if self.add_special_tokens { added_single } else { 0 };
        match self.truncation {
            Some(t) if t.max_length != added => t.validate(added),
            _ => Ok(()),
        }
    }
}
