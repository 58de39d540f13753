//! The tokenizer file: one JSON document with the vocabulary, the merges and
//! every pipeline option. The pure-Python twin reads and writes the same format.

use std::path::Path;

use rustc_hash::FxHashSet;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{Error, Quoted, Result};
use crate::io::write_atomic;
use crate::pipeline::model::special_tokens::AddedToken;
use crate::pipeline::model::vocab::Vocab;
use crate::tokenizer::hf_json::{padding_from_json, padding_json, truncation_from_json, truncation_json};
use crate::tokenizer::objective::Objective;
use crate::tokenizer::options::Options;
use crate::tokenizer::Tokenizer;

const FORMAT: &str = "fast-wordpiece";
const VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TokenizerFile {
    format: String,
    version: u32,
    vocab: Vec<String>,
    merges: Vec<(String, String)>,
    special_tokens: Vec<String>,
    options: Options,
    /// Ids no token has (their `vocab` entries are empty strings).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    holes: Vec<u32>,
    /// Tokens the WordPiece model does not match inside words.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    outside_model: Vec<u32>,
    /// Added tokens other than `special_tokens` (see `Tokenizer::with_added_tokens`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    added_tokens: Vec<AddedToken>,
    /// The default truncation and padding, as in a Hugging Face file.
    #[serde(default, skip_serializing_if = "Value::is_null")]
    truncation: Value,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    padding: Value,
    /// The training objective; files written before it was recorded were
    /// all trained with `pmi`.
    #[serde(default = "legacy_objective")]
    objective: Option<Objective>,
}

fn legacy_objective() -> Option<Objective> {
    Some(Objective::Pmi)
}

impl Tokenizer {
    pub fn to_json(&self) -> String {
        let file = TokenizerFile {
            format: FORMAT.into(),
            version: VERSION,
            vocab: self.vocab().tokens().to_vec(),
            merges: self.merges().to_vec(),
            special_tokens: self.plain_special_tokens(),
            options: self.options().clone(),
            added_tokens: self.added_tokens().to_vec(),
            holes: self.vocab().holes(),
            outside_model: self.vocab().outside_model(),
            truncation: truncation_json(self.truncation()),
            padding: padding_json(self.padding(), self.vocab(), &self.options().pad_token),
            objective: self.objective(),
        };
        serde_json::to_string(&file).expect("a tokenizer always serializes")
    }

    pub fn from_json(json: &str) -> Result<Self> {
        let file: TokenizerFile = serde_json::from_str(json)
            .map_err(|e| Error::invalid(format!("not a fast-wordpiece tokenizer file: {e}")))?;
        if file.format != FORMAT || file.version != VERSION {
            return Err(Error::invalid(format!(
                "unsupported format {} version {} (expected {} version {VERSION})",
                Quoted(&file.format),
                file.version,
                Quoted(FORMAT)
            )));
        }
        let holes: FxHashSet<u32> = file.holes.into_iter().collect();
        let slots =
            file.vocab.into_iter().enumerate().map(|(id, t)| (!holes.contains(&(id as u32))).then_some(t)).collect();
        let vocab = Vocab::from_slots(
            slots,
            file.outside_model.into_iter().collect(),
            &file.options.continuing_subword_prefix,
        )?;
        let truncation = truncation_from_json(&file.truncation, "truncation")?;
        let padding = match padding_from_json(&file.padding, "padding", &vocab)? {
            Some((_, pad_token)) if pad_token != file.options.pad_token => {
                return Err(Error::invalid(format!(
                    "padding.pad_token: {} is not options.pad_token, {}",
                    Quoted(&pad_token),
                    Quoted(&file.options.pad_token)
                )))
            }
            padding => padding.map(|(padding, _)| padding),
        };
        Tokenizer::new(vocab, file.merges, &file.special_tokens, file.options)?
            .with_added_tokens(file.added_tokens)?
            .with_defaults(truncation, padding)
            .map(|t| t.with_objective(file.objective))
    }

    /// Writes the tokenizer file atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        write_atomic(path, self.to_json().as_bytes())
    }

    /// A tokenizer from either file format: this crate's own
    /// (`"format": "fast-wordpiece"`) or a Hugging Face `tokenizer.json`.
    pub fn from_any_json(json: &str) -> Result<Self> {
        #[derive(Deserialize)]
        struct Peek {
            format: Option<serde::de::IgnoredAny>,
        }
        // Only an object is one of ours (serde would also read a struct
        // from an array: `[1]` would pass for a file of ours).
        let object = json.trim_start_matches([' ', '\t', '\n', '\r']).starts_with('{');
        match serde_json::from_str::<Peek>(json) {
            Ok(Peek { format: Some(_) }) if object => Self::from_json(json),
            _ => Self::from_hf_json(json),
        }
    }

    /// Writes the tokenizer as a Hugging Face `tokenizer.json`, atomically.
    pub fn save_hf(&self, path: &Path) -> Result<()> {
        self.save_hf_as(path, true)
    }

    /// [`Self::save_hf`], indented or not (see [`Self::to_hf_json_as`]).
    pub fn save_hf_as(&self, path: &Path, pretty: bool) -> Result<()> {
        write_atomic(path, self.to_hf_json_as(pretty)?.as_bytes())
    }

    /// Reads a tokenizer file of either format (see [`Self::from_any_json`]).
    pub fn load(path: &Path) -> Result<Self> {
        Self::load_with_stop(path, &|| false)
    }

    /// [`Self::load`], the file read by [`crate::io::read_utf8`] (`stop`
    /// asked as there, while it waits for a FIFO's writer or data).
    pub fn load_with_stop(path: &Path, stop: &dyn Fn() -> bool) -> Result<Self> {
        let json = crate::io::read_utf8(path, stop)?;
        Self::from_any_json(&json).map_err(|e| match e {
            Error::InvalidArgument(message) => Error::invalid_file(path, message),
            other => other,
        })
    }

    /// Writes the vocabulary as a BERT `vocab.txt`, atomically. The file
    /// holds the tokens only: a continuation prefix other than `##` is read
    /// back by `from_vocab_file(path, continuing_subword_prefix=...)`.
    pub fn save_vocab(&self, path: &Path) -> Result<()> {
        write_atomic(path, self.vocab().to_text()?.as_bytes())
    }

    /// Whether a `vocab.txt` of this tokenizer says all its readers need:
    /// its continuation prefix is `##`, the one they assume, and none of its
    /// tokens holds a line break (see `Vocab::unwritable_line`).
    pub fn vocab_text_is_enough(&self) -> bool {
        self.options().continuing_subword_prefix == "##" && self.vocab().unwritable_line().is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trip_keeps_everything() {
        let vocab = Vocab::new(["[UNK]", "a", "##b"].map(String::from).to_vec()).unwrap();
        let options = Options { max_input_chars_per_word: 7, ..Options::default() };
        let t = Tokenizer::new(vocab, vec![("a".into(), "##b".into())], &["[UNK]".into()], options).unwrap();
        assert_eq!(Tokenizer::from_json(&t.to_json()).unwrap(), t);
        let t = t.with_objective(Some(Objective::Frequency));
        assert_eq!(Tokenizer::from_json(&t.to_json()).unwrap(), t);
    }

    #[test]
    fn only_the_hash_prefix_is_enough_for_a_vocab_txt() {
        let tokenizer = |prefix: &str| {
            let vocab = Vocab::new(["[UNK]", "a", "##b", "@@b"].map(String::from).to_vec()).unwrap();
            let options = Options { continuing_subword_prefix: prefix.into(), ..Options::default() };
            Tokenizer::new(vocab, vec![], &["[UNK]".into()], options).unwrap()
        };
        assert!(tokenizer("##").vocab_text_is_enough());
        for prefix in ["@@", "", "#"] {
            assert!(!tokenizer(prefix).vocab_text_is_enough());
        }
    }

    #[test]
    fn files_without_an_objective_were_trained_with_pmi() {
        let vocab = Vocab::new(["[UNK]", "a"].map(String::from).to_vec()).unwrap();
        let t = Tokenizer::new(vocab, vec![], &["[UNK]".into()], Options::default()).unwrap();
        let json = t.to_json();
        assert!(json.ends_with(",\"objective\":null}"), "{json}");
        let old = json.replace(",\"objective\":null", "");
        assert_eq!(Tokenizer::from_json(&old).unwrap().objective(), Some(Objective::Pmi));
        assert_eq!(Tokenizer::from_json(&json).unwrap().objective(), None);
    }

    #[test]
    fn corrupt_json_is_a_clear_error() {
        let err = Tokenizer::from_json("{\"format\": 1").unwrap_err().to_string();
        assert!(err.starts_with("not a fast-wordpiece tokenizer file"), "{err}");
    }

    #[test]
    fn json_that_is_no_object_is_named_so() {
        for json in ["[1]", " [\"fast-wordpiece\", 1]", "\n[]", "7"] {
            let err = Tokenizer::from_any_json(json).unwrap_err().to_string();
            assert_eq!(err, "a tokenizer.json must be a JSON object", "{json}");
        }
    }
}
