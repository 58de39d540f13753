//! Encoding for a model: truncation to `max_length` (with overflowing
//! windows) and padding of a batch to one length, with Hugging Face's rules.
//! `Tokenizer::encode` and `Tokenizer::encode_batch` are the special case
//! without truncation and padding.

use rayon::prelude::*;

use super::core::Tokenizer;
use super::encoding::Encoding;
use super::threads;
use crate::error::{Error, Result};
use crate::pipeline::padding::{PadTo, Padding};
use crate::pipeline::post_processor::BertPostProcessor;
use crate::pipeline::truncation::{Side, Strategy, Truncation};

/// The token padding inserts; it must be in the vocabulary when padding.
pub const PAD_TOKEN: &str = "[PAD]";

/// The `truncation` value that turns truncation off.
pub const DO_NOT_TRUNCATE: &str = "do_not_truncate";

/// How to encode: special tokens, truncation, padding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodeOptions {
    pub add_special_tokens: bool,
    pub truncation: Option<Truncation>,
    pub padding: Option<Padding>,
    /// Threads for a batch; None: `threads::default_threads()`.
    pub threads: Option<usize>,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        Self { add_special_tokens: true, truncation: None, padding: None, threads: None }
    }
}

/// The keyword arguments of `encode`/`encode_batch`, before they are checked.
#[derive(Clone, Copy, Debug)]
pub struct EncodeArgs<'a> {
    pub add_special_tokens: bool,
    /// None: no truncation, and no `padding="max_length"`.
    pub max_length: Option<usize>,
    /// A [`Strategy`] name, or `"do_not_truncate"`.
    pub truncation: &'a str,
    pub stride: usize,
    pub truncation_side: &'a str,
    /// None, `"longest"` or `"max_length"`.
    pub padding: Option<&'a str>,
    pub pad_to_multiple_of: Option<usize>,
    pub padding_side: &'a str,
}

impl Default for EncodeArgs<'_> {
    fn default() -> Self {
        Self {
            add_special_tokens: true,
            max_length: None,
            truncation: "longest_first",
            stride: 0,
            truncation_side: "right",
            padding: None,
            pad_to_multiple_of: None,
            padding_side: "right",
        }
    }
}

impl EncodeArgs<'_> {
    /// Checks the arguments together; every error names an argument.
    pub fn check(&self) -> Result<EncodeOptions> {
        let strategy =
            if self.truncation == DO_NOT_TRUNCATE { None } else { Some(self.truncation.parse::<Strategy>()?) };
        let truncation_side = Side::parse(self.truncation_side, "truncation_side")?;
        let padding_side = Side::parse(self.padding_side, "padding_side")?;
        let truncation = match (self.max_length, strategy) {
            (Some(max_length), Some(strategy)) => {
                let t = Truncation { max_length, strategy, stride: self.stride, side: truncation_side };
                t.validate(if self.add_special_tokens { 2 } else { 0 })?;
                Some(t)
            }
            _ if self.stride > 0 => {
                return Err(Error::invalid("stride needs max_length (and a truncation other than \"do_not_truncate\")"))
            }
            _ => None,
        };
        let to = match self.padding {
            None => None,
            Some("longest") => Some(PadTo::Longest),
            Some("max_length") => Some(PadTo::Fixed(
                self.max_length.ok_or_else(|| Error::invalid("padding=\"max_length\" needs max_length"))?,
            )),
            Some(other) => {
                return Err(Error::invalid(format!(
                    "padding must be None, \"longest\" or \"max_length\", not {other:?}"
                )))
            }
        };
        let padding = match (to, self.pad_to_multiple_of) {
            (_, Some(0)) => return Err(Error::invalid("pad_to_multiple_of must be positive, got 0")),
            (None, Some(_)) => {
                return Err(Error::invalid("pad_to_multiple_of needs padding=\"longest\" or padding=\"max_length\""))
            }
            (None, None) => None,
            (Some(to), multiple_of) => Some(Padding { to, multiple_of, side: padding_side }),
        };
        Ok(EncodeOptions { add_special_tokens: self.add_special_tokens, truncation, padding, threads: None })
    }
}

impl Tokenizer {
    /// Encodes `text` (or the pair) with truncation and padding.
    pub fn encode_with(&self, text: &str, pair: Option<&str>, options: &EncodeOptions) -> Result<Encoding> {
        let pad_id = self.pad_id(options)?;
        let mut batch = [self.encode_truncated(text, pair, options)?];
        if let (Some(padding), Some(pad_id)) = (options.padding, pad_id) {
            padding.apply(&mut batch, pad_id);
        }
        let [encoding] = batch;
        Ok(encoding)
    }

    /// Encodes many inputs in parallel with truncation, then pads them
    /// together. An input that cannot be truncated is an error naming it.
    pub fn encode_batch_with(&self, inputs: &[(&str, Option<&str>)], options: &EncodeOptions) -> Result<Vec<Encoding>> {
        self.post_processor(options.add_special_tokens)?;
        let pad_id = self.pad_id(options)?;
        threads::install(options.threads, || {
            let mut batch = inputs
                .par_iter()
                .enumerate()
                .map(|(i, &(a, b))| {
                    self.encode_truncated(a, b, options).map_err(|e| match e {
                        Error::InvalidArgument(message) => Error::invalid(format!("inputs[{i}]: {message}")),
                        other => other,
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            if let (Some(padding), Some(pad_id)) = (options.padding, pad_id) {
                padding.apply(&mut batch, pad_id);
            }
            Ok(batch)
        })?
    }

    /// The id of `[PAD]` when padding (an error if it is missing), else None.
    fn pad_id(&self, options: &EncodeOptions) -> Result<Option<u32>> {
        if options.padding.is_none() {
            return Ok(None);
        }
        self.vocab()
            .id(PAD_TOKEN)
            .map(Some)
            .ok_or_else(|| Error::invalid(format!("padding needs {PAD_TOKEN:?} in the vocabulary")))
    }

    /// One input, truncated and post-processed (not padded).
    fn encode_truncated(&self, text: &str, pair: Option<&str>, options: &EncodeOptions) -> Result<Encoding> {
        let Some(truncation) = options.truncation else {
            return self.encode(text, pair, options.add_special_tokens);
        };
        let processor = self.post_processor(options.add_special_tokens)?;
        let mut a = self.encode(text, None, false)?;
        let mut b = pair.map(|p| self.encode(p, None, false)).transpose()?;
        let added = match (processor, &b) {
            (None, _) => 0,
            (Some(_), None) => 2,
            (Some(_), Some(_)) => 3,
        };
        truncation.apply(&mut a, b.as_mut(), added)?;
        Ok(BertPostProcessor::process_windows(processor, a, b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizer::core::{Options, DEFAULT_SPECIAL_TOKENS};
    use crate::tokenizer::vocab::Vocab;

    fn tokenizer() -> Tokenizer {
        let tokens = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "a", "b", "c", "d", "e", "f", "g", "h"];
        let vocab = Vocab::new(tokens.iter().map(|t| t.to_string()).collect()).unwrap();
        let specials: Vec<String> = DEFAULT_SPECIAL_TOKENS.iter().map(|t| t.to_string()).collect();
        Tokenizer::new(vocab, vec![], &specials, Options::default()).unwrap()
    }

    fn options(args: EncodeArgs<'_>) -> EncodeOptions {
        args.check().unwrap()
    }

    #[test]
    fn truncates_with_stride_and_pads_the_overflowing_windows() {
        let t = tokenizer();
        let o = options(EncodeArgs {
            max_length: Some(6),
            stride: 2,
            padding: Some("max_length"),
            pad_to_multiple_of: Some(4),
            ..EncodeArgs::default()
        });
        let e = t.encode_with("a b c d e f g", None, &o).unwrap();
        assert_eq!(e.ids, [2, 5, 6, 7, 8, 3, 0, 0]);
        assert_eq!(e.attention_mask, [1, 1, 1, 1, 1, 1, 0, 0]);
        let windows: Vec<Vec<u32>> = e.overflowing.iter().map(|o| o.ids.clone()).collect();
        assert_eq!(windows, [vec![2, 7, 8, 9, 10, 3, 0, 0], vec![2, 9, 10, 11, 3, 0, 0, 0]]);
    }

    #[test]
    fn batch_pads_to_the_longest_on_the_left() {
        let t = tokenizer();
        let o = options(EncodeArgs { padding: Some("longest"), padding_side: "left", ..EncodeArgs::default() });
        let batch = t.encode_batch_with(&[("a b c", None), ("d", Some("e"))], &o).unwrap();
        assert_eq!(batch[0].ids, [2, 5, 6, 7, 3]);
        assert_eq!(batch[1].ids, [2, 8, 3, 9, 3]);
        let batch = t.encode_batch_with(&[("a b c", None), ("d", None)], &o).unwrap();
        assert_eq!(batch[1].ids, [0, 0, 2, 8, 3]);
        assert_eq!(batch[1].special_tokens_mask, [1, 1, 1, 0, 1]);
        assert_eq!(batch[1].offsets[..2], [(0, 0), (0, 0)]);
    }

    #[test]
    fn errors_name_the_argument_or_the_input() {
        let bad = |args: EncodeArgs<'_>| args.check().unwrap_err().to_string();
        let d = EncodeArgs::default();
        assert!(bad(EncodeArgs { padding: Some("max_length"), ..d }).contains("needs max_length"));
        assert!(bad(EncodeArgs { padding: Some("yes"), ..d }).starts_with("padding must be"));
        assert!(bad(EncodeArgs { truncation: "shortest", ..d }).contains("unknown truncation"));
        assert!(bad(EncodeArgs { truncation_side: "top", ..d }).starts_with("truncation_side"));
        assert!(bad(EncodeArgs { padding_side: "top", ..d }).starts_with("padding_side"));
        assert!(bad(EncodeArgs { pad_to_multiple_of: Some(8), ..d }).starts_with("pad_to_multiple_of"));
        assert!(bad(EncodeArgs { stride: 1, ..d }).starts_with("stride"));
        assert!(bad(EncodeArgs { max_length: Some(6), stride: 4, ..d }).starts_with("stride"));
        let o = options(EncodeArgs { max_length: Some(5), truncation: "only_second", ..d });
        let err = tokenizer().encode_batch_with(&[("a", None), ("a b c d", None)], &o).unwrap_err();
        assert!(err.to_string().starts_with("inputs[1]: truncation=\"only_second\" needs a pair"), "{err}");
    }

    #[test]
    fn padding_needs_the_pad_token() {
        let vocab = Vocab::new(["[UNK]", "[CLS]", "[SEP]", "a"].iter().map(|t| t.to_string()).collect()).unwrap();
        let t = Tokenizer::new(vocab, vec![], &[], Options::default()).unwrap();
        let o = options(EncodeArgs { padding: Some("longest"), ..EncodeArgs::default() });
        assert!(t.encode_with("a", None, &o).unwrap_err().to_string().contains("\"[PAD]\""));
    }
}
