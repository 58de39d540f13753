//! Which training objective made a tokenizer's vocabulary (spec section 4).
//! The tokenizer only records it; `training` implements each one.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Quoted, Result};

/// How training ranks the candidate merges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Objective {
    /// The pair whose merge most increases the unigram likelihood of the corpus.
    #[default]
    Likelihood,
    /// `freq(ab) / (freq(a) * freq(b))` (the Hugging Face course's WordPiece).
    Pmi,
    /// The most frequent pair (byte-pair encoding).
    Frequency,
}

impl Objective {
    pub const ALL: [Objective; 3] = [Objective::Likelihood, Objective::Pmi, Objective::Frequency];

    pub fn name(self) -> &'static str {
        match self {
            Objective::Likelihood => "likelihood",
            Objective::Pmi => "pmi",
            Objective::Frequency => "frequency",
        }
    }

    pub fn parse(name: &str) -> Result<Self> {
        Self::ALL.into_iter().find(|o| o.name() == name).ok_or_else(|| {
            Error::invalid(format!("objective must be \"likelihood\", \"pmi\" or \"frequency\", not {}", Quoted(name)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for o in Objective::ALL {
            assert_eq!(Objective::parse(o.name()).unwrap(), o);
        }
        assert!(Objective::parse("bpe").unwrap_err().to_string().contains("\"bpe\""));
        // Quoted as JSON quotes it (spec section 8), not as Rust's `{:?}`.
        assert!(Objective::parse("a\0b\u{1}é").unwrap_err().to_string().ends_with(r#"not "a\u0000b\u0001é""#));
    }
}
