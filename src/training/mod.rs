//! Training: count words with the first two pipeline stages, then learn the
//! vocabulary with the WordPiece merge loop.

pub mod counts;
pub mod counts_file;
pub mod crc32;
pub mod frequency;
pub mod group_heaps;
pub mod indexed_heap;
pub mod likelihood;
pub mod objective;
pub mod occurrences;
pub mod pmi;
pub mod progress;
pub mod reserve;
pub mod score;
pub mod targets;
pub mod trainer;
pub mod word_counts;

use crate::error::{Error, Quoted, Result};
use crate::pipeline::model::vocab::Vocab;
use crate::tokenizer::options::{validate_special_tokens, Options};
use crate::tokenizer::Tokenizer;
pub use counts::{CountOptions, WordCounts};
use frequency::FrequencyRanking;
use likelihood::LikelihoodRanking;
pub use objective::Objective;
use pmi::PmiRanking;
pub use progress::Progress;
use trainer::Trained;
pub use trainer::TrainerConfig;
pub use word_counts::{Utf8Errors, WordCounter};

/// Learns the vocabulary and merges from `(word, count)` pairs (words already
/// normalized and pre-tokenized) with `config.objective`.
/// No word at all (an empty or a used-up corpus) is a ValueError rather than
/// a vocabulary of just the special tokens and the initial alphabet.
pub fn train(counts: Vec<(String, u64)>, config: &TrainerConfig, progress: &mut Progress) -> Result<Trained> {
    if !counts.iter().any(|(w, n)| !w.is_empty() && *n > 0) {
        return Err(Error::invalid("the corpus has no words to train on"));
    }
    match config.objective {
        Objective::Likelihood => trainer::train(counts, config, LikelihoodRanking::default(), progress),
        Objective::Pmi => trainer::train(counts, config, PmiRanking::default(), progress),
        Objective::Frequency => trainer::train(counts, config, FrequencyRanking::default(), progress),
    }
}

/// Training's continuation prefix holds no whitespace: trained tokens hold
/// none, as counted words hold none.
pub fn check_prefix(prefix: &str) -> Result<()> {
    if prefix.chars().any(char::is_whitespace) {
        return Err(Error::invalid(format!(
            "continuing_subword_prefix {} contains whitespace, which training keeps out of every token",
            Quoted(prefix)
        )));
    }
    Ok(())
}

/// Learns a vocabulary from word counts and builds the tokenizer that uses it
/// (the continuation tokens with `options.continuing_subword_prefix`).
/// `counted`: the words come from a [`WordCounter`] (normalized and
/// pre-tokenized here, so never empty nor holding whitespace) and are not
/// checked again.
pub fn train_tokenizer(
    counts: Vec<(String, u64)>,
    counted: bool,
    config: &TrainerConfig,
    options: Options,
    progress: &mut Progress,
) -> Result<Tokenizer> {
    options.validate()?;
    check_prefix(&options.continuing_subword_prefix)?;
    validate_special_tokens(&config.special_tokens)?;
    if !config.special_tokens.contains(&options.unk_token) {
        return Err(Error::invalid(format!(
            "unk_token {} must be one of the special tokens [{}]",
            Quoted(&options.unk_token),
            config.special_tokens.iter().map(|t| Quoted(t).to_string()).collect::<Vec<_>>().join(", ")
        )));
    }
    // Empty words are dropped (they hold no pair); a word with whitespace is
    // an error: it can only come from counts made by hand.
    for (word, _) in counts.iter().filter(|(w, _)| !counted && !w.is_empty()) {
        counts::check_word(word).map_err(Error::invalid)?;
    }
    // The continuation tokens get the prefix the tokenizer encodes with.
    let config = &TrainerConfig { prefix: options.continuing_subword_prefix.clone(), ..config.clone() };
    let trained = train(counts, config, progress)?;
    let vocab = Vocab::from_slots(trained.vocab.into_iter().map(Some).collect(), Default::default(), &config.prefix)?;
    Ok(Tokenizer::new(vocab, trained.merges, &config.special_tokens, options)?.with_objective(Some(config.objective)))
}

#[cfg(test)]
mod prefix_tests {
    use super::*;

    #[test]
    fn a_training_prefix_holds_no_whitespace() {
        for prefix in ["##", "@@", "", "\u{200B}"] {
            assert!(check_prefix(prefix).is_ok(), "{prefix:?}");
        }
        for prefix in ["a b", "\n", "#\u{3000}"] {
            let message = check_prefix(prefix).unwrap_err().to_string();
            assert!(message.contains("contains whitespace, which training keeps out of every token"), "{message}");
        }
    }
}
