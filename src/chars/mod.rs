//! The character tokenizer: every character seen (at least `min_frequency`
//! times) is a token, with the special tokens; other characters are unknown.
