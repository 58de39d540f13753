//! `WordCounts`: the words of a corpus and their counts, with the options of
//! the pipeline stages that made them (normalizer and pre-tokenizer). Counts
//! made on many machines merge exactly into the counts of the whole corpus,
//! which training takes as they are (spec section 13).
//!
//! The words are kept sorted (code point order, which is UTF-8 byte order) and
//! distinct: merging is one linear pass, the file format is canonical, and
//! nothing depends on hashing or thread scheduling.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::progress::Progress;
use super::word_counts::{Utf8Errors, WordCounter};
use crate::error::{Error, Quoted, Result};
use crate::pipeline::pre_tokenizer::PreTokenizer;
use crate::tokenizer::options::Options;

/// The most parts [`WordCounts::split`] makes (more than any shuffle has).
pub const MAX_PARTS: usize = 1 << 20;

/// The options that change which words a text counts as: those of the
/// normalizer and the pre-tokenizer (the rest of `Options` only matters to
/// encoding and decoding).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountOptions {
    pub clean_text: bool,
    pub handle_chinese_chars: bool,
    pub lowercase: bool,
    /// As given: `None` follows `lowercase` (compared by effect).
    pub strip_accents: Option<bool>,
    pub strip_all_marks: bool,
    pub pre_tokenizer: PreTokenizer,
}

impl CountOptions {
    /// Their names, as keyword arguments and in the counts file.
    pub const NAMES: [&'static str; 6] =
        ["clean_text", "handle_chinese_chars", "lowercase", "strip_accents", "strip_all_marks", "pre_tokenizer"];

    pub fn of(options: &Options) -> Self {
        let n = &options.normalizer;
        Self {
            clean_text: n.clean_text,
            handle_chinese_chars: n.handle_chinese_chars,
            lowercase: n.lowercase,
            strip_accents: n.strip_accents,
            strip_all_marks: n.strip_all_marks,
            pre_tokenizer: options.pre_tokenizer,
        }
    }

    /// `options` with these counting options (the others kept).
    pub fn apply(&self, options: &mut Options) {
        let n = &mut options.normalizer;
        n.clean_text = self.clean_text;
        n.handle_chinese_chars = self.handle_chinese_chars;
        n.strip_accents = self.strip_accents;
        n.lowercase = self.lowercase;
        n.strip_all_marks = self.strip_all_marks;
        options.pre_tokenizer = self.pre_tokenizer;
    }

    fn strips_accents(&self) -> bool {
        self.strip_accents.unwrap_or(self.lowercase)
    }

    /// `strip_all_marks` has no effect without `strip_accents`.
    fn strips_all_marks(&self) -> bool {
        self.strip_all_marks && self.strips_accents()
    }

    /// The first option (in `NAMES` order) whose effect differs, if any:
    /// `strip_accents=None` and `strip_accents=lowercase` count alike, and
    /// so do both values of `strip_all_marks` when accents are kept.
    pub fn differing(&self, other: &Self) -> Option<&'static str> {
        self.differs_in(other).into_iter().next()
    }

    /// Every option whose effect differs.
    pub fn differs_in(&self, other: &Self) -> Vec<&'static str> {
        let same = [
            self.clean_text == other.clean_text,
            self.handle_chinese_chars == other.handle_chinese_chars,
            self.lowercase == other.lowercase,
            self.strips_accents() == other.strips_accents(),
            self.strips_all_marks() == other.strips_all_marks(),
            self.pre_tokenizer == other.pre_tokenizer,
        ];
        Self::NAMES.iter().zip(same).filter(|(_, s)| !s).map(|(n, _)| *n).collect()
    }

    /// The effect of option `name`, written as in Python (for messages).
    pub fn show(&self, name: &str) -> String {
        let value = match name {
            "strip_accents" => serde_json::Value::Bool(self.strips_accents()),
            "strip_all_marks" => serde_json::Value::Bool(self.strips_all_marks()),
            _ => serde_json::to_value(self).expect("options serialize").get(name).cloned().unwrap_or_default(),
        };
        match value {
            serde_json::Value::Bool(true) => "True".into(),
            serde_json::Value::Bool(false) => "False".into(),
            other => other.to_string(),
        }
    }
}

impl Default for CountOptions {
    fn default() -> Self {
        Self::of(&Options::default())
    }
}

/// Word counts: distinct words in code point order, each counted at least once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordCounts {
    options: CountOptions,
    words: Vec<(String, u64)>,
    total: u64,
}

impl WordCounts {
    pub fn new(options: CountOptions) -> Self {
        Self { options, words: Vec::new(), total: 0 }
    }

    /// Counts from `(word, count)` pairs in any order; a word listed twice is
    /// counted once with the sum. Every word is checked ([`check_word`]); a
    /// count of 0 adds nothing, so a word whose counts are all 0 (a word not
    /// seen) is left out, as training ignores it.
    pub fn from_pairs(options: CountOptions, mut pairs: Vec<(String, u64)>) -> Result<Self> {
        for (word, _) in &pairs {
            check_word(word).map_err(Error::invalid)?;
        }
        pairs.retain(|(_, n)| *n > 0);
        pairs.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut words: Vec<(String, u64)> = Vec::with_capacity(pairs.len());
        for (word, n) in pairs {
            match words.last_mut() {
                Some(last) if last.0 == word => last.1 = add(last.1, n)?,
                _ => words.push((word, n)),
            }
        }
        Self::from_sorted(options, words)
    }

    /// Counts from distinct pairs sorted by word (not checked here).
    pub(super) fn from_sorted(options: CountOptions, words: Vec<(String, u64)>) -> Result<Self> {
        let total = words.iter().try_fold(0u64, |t, (_, n)| add(t, *n))?;
        Ok(Self { options, words, total })
    }

    /// The words of `texts` under `options`, counted in parallel.
    pub fn count_texts<S: AsRef<str> + Sync>(options: &Options, texts: &[S]) -> Result<Self> {
        let mut counter = WordCounter::new(options);
        counter.add_texts(texts)?;
        Self::from_counter(options, counter)
    }

    /// The words of text files under `options` (see `WordCounter::add_files`).
    pub fn count_files(
        options: &Options,
        paths: &[PathBuf],
        errors: Utf8Errors,
        progress: &mut Progress,
    ) -> Result<Self> {
        let mut counter = WordCounter::new(options);
        counter.add_files(paths, errors, progress)?;
        Self::from_counter(options, counter)
    }

    /// The counts a `WordCounter` made with `options`.
    pub fn from_counter(options: &Options, counter: WordCounter) -> Result<Self> {
        Self::from_sorted(CountOptions::of(options), counter.into_counts()?)
    }

    pub fn options(&self) -> &CountOptions {
        &self.options
    }

    /// The number of distinct words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The sum of all counts (the words of the corpus).
    pub fn total(&self) -> u64 {
        self.total
    }

    pub fn get(&self, word: &str) -> Option<u64> {
        self.words.binary_search_by(|(w, _)| w.as_str().cmp(word)).ok().map(|i| self.words[i].1)
    }

    /// The pairs in code point order of the words.
    pub fn words(&self) -> &[(String, u64)] {
        &self.words
    }

    pub fn into_words(self) -> Vec<(String, u64)> {
        self.words
    }

    /// Fails naming the first option that differs from `other`'s.
    pub fn check_options(&self, other: &CountOptions) -> Result<()> {
        match self.options.differing(other) {
            None => Ok(()),
            Some(name) => Err(Error::invalid(format!(
                "word counts made with different options: {name}={} and {name}={}",
                self.options.show(name),
                other.show(name)
            ))),
        }
    }

    /// Adds `other`'s counts to these (one linear pass over both). The
    /// options must have the same effect; these keep their own.
    pub fn merge(&mut self, other: WordCounts) -> Result<()> {
        self.check_options(&other.options)?;
        let total = add(self.total, other.total)?;
        if other.words.is_empty() {
            return Ok(());
        }
        if self.words.is_empty() {
            self.words = other.words;
            self.total = total;
            return Ok(());
        }
        let mine = std::mem::take(&mut self.words);
        let mut out = Vec::with_capacity(mine.len().max(other.words.len()));
        let mut a = mine.into_iter().peekable();
        let mut b = other.words.into_iter().peekable();
        loop {
            let next = match (a.peek(), b.peek()) {
                (Some(x), Some(y)) => match x.0.cmp(&y.0) {
                    std::cmp::Ordering::Less => a.next(),
                    std::cmp::Ordering::Greater => b.next(),
                    std::cmp::Ordering::Equal => {
                        let (word, n) = a.next().expect("peeked");
                        let (_, m) = b.next().expect("peeked");
                        Some((word, n + m)) // no overflow: the totals did not
                    }
                },
                (Some(_), None) => a.next(),
                (None, Some(_)) => b.next(),
                (None, None) => break,
            };
            out.extend(next);
        }
        self.words = out;
        self.total = total;
        Ok(())
    }

    /// The `n` most common words (all when `None`), by count, ties in code
    /// point order of the words.
    pub fn most_common(&self, n: Option<usize>) -> Vec<(&str, u64)> {
        let mut order: Vec<usize> = (0..self.words.len()).collect();
        let key = |&i: &usize| (std::cmp::Reverse(self.words[i].1), i);
        match n {
            Some(n) if n < order.len() => {
                if n > 0 {
                    order.select_nth_unstable_by_key(n - 1, key);
                }
                order.truncate(n);
            }
            _ => {}
        }
        order.sort_unstable_by_key(key);
        order.into_iter().map(|i| (self.words[i].0.as_str(), self.words[i].1)).collect()
    }

    /// Splits the counts into `n` parts (at most [`MAX_PARTS`]) by word: a word goes to part
    /// `crc32(its UTF-8 bytes) % n`, on every machine alike, so that part `i`
    /// of many counts can be added up apart from the other parts.
    pub fn split(self, n: usize) -> Result<Vec<WordCounts>> {
        if n == 0 {
            return Err(Error::invalid("n must be positive"));
        }
        if n > MAX_PARTS {
            return Err(Error::invalid(format!("n must be at most {MAX_PARTS}, not {n}")));
        }
        let mut parts: Vec<Vec<(String, u64)>> = vec![Vec::new(); n];
        for (word, count) in self.words {
            parts[super::crc32::crc32(word.as_bytes()) as usize % n].push((word, count));
        }
        // Each part keeps the order of the words: sorted already.
        parts.into_iter().map(|words| Self::from_sorted(self.options, words)).collect()
    }

    /// Drops the words counted fewer than `min_count` times, then keeps the
    /// `max_words` most common (ties: smaller word). Approximate: training
    /// on pruned counts may differ from training on all of them (spec 13).
    pub fn prune(&mut self, min_count: u64, max_words: Option<usize>) {
        self.words.retain(|(_, n)| *n >= min_count);
        if let Some(max) = max_words {
            if self.words.len() > max {
                let mut order: Vec<usize> = (0..self.words.len()).collect();
                let key = |&i: &usize| (std::cmp::Reverse(self.words[i].1), i);
                if max > 0 {
                    order.select_nth_unstable_by_key(max - 1, key);
                }
                let mut keep = vec![false; self.words.len()];
                for &i in &order[..max] {
                    keep[i] = true;
                }
                let mut i = 0;
                self.words.retain(|_| {
                    i += 1;
                    keep[i - 1]
                });
            }
        }
        self.total = self.words.iter().map(|(_, n)| n).sum();
    }
}

/// A counted word is never empty and holds no whitespace (every
/// pre-tokenizer splits there): such a word could only make tokens that
/// vocab.txt cannot hold, one per line.
pub fn check_word(word: &str) -> std::result::Result<(), String> {
    if word.is_empty() {
        return Err("words must not be empty".into());
    }
    if word.chars().any(char::is_whitespace) {
        return Err(format!("the word {} contains whitespace, which no pre-tokenizer leaves in a word", Quoted(word)));
    }
    Ok(())
}

fn add(a: u64, b: u64) -> Result<u64> {
    a.checked_add(b).ok_or_else(|| Error::invalid("word counts overflow: their total exceeds 2**64 - 1"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(pairs: &[(&str, u64)]) -> WordCounts {
        WordCounts::from_pairs(CountOptions::default(), pairs.iter().map(|(w, n)| (w.to_string(), *n)).collect())
            .unwrap()
    }

    #[test]
    fn merging_counts_of_parts_is_counting_the_whole() {
        let texts = ["Hello, hello!", "HÉLLO world", "a b c", "world peace"];
        let options = Options::default();
        let whole = WordCounts::count_texts(&options, &texts).unwrap();
        let mut merged = WordCounts::count_texts(&options, &texts[..1]).unwrap();
        merged.merge(WordCounts::count_texts(&options, &texts[1..3]).unwrap()).unwrap();
        merged.merge(WordCounts::count_texts(&options, &texts[3..]).unwrap()).unwrap();
        assert_eq!(merged, whole);
        assert_eq!(whole.total(), 11);
        assert_eq!(whole.get("hello"), Some(3));
        assert_eq!(whole.get("nope"), None);
    }

    #[test]
    fn different_options_do_not_merge() {
        let mut a = counts(&[("a", 1)]);
        let mut other = Options::default();
        other.normalizer.lowercase = false;
        let b = WordCounts::count_texts(&other, &["A"]).unwrap();
        let err = a.merge(b).unwrap_err().to_string();
        assert!(err.contains("lowercase=True and lowercase=False"), "{err}");
        // strip_accents=None follows lowercase: the same effect merges.
        let mut explicit = Options::default();
        explicit.normalizer.strip_accents = Some(true);
        a.merge(WordCounts::count_texts(&explicit, &["a"]).unwrap()).unwrap();
        assert_eq!(a.get("a"), Some(2));
    }

    #[test]
    fn most_common_and_prune_are_deterministic() {
        let mut c = counts(&[("b", 2), ("a", 2), ("c", 5), ("d", 1), ("b", 1)]);
        assert_eq!(c.most_common(Some(2)), [("c", 5), ("b", 3)]);
        assert_eq!(c.most_common(None), [("c", 5), ("b", 3), ("a", 2), ("d", 1)]);
        assert_eq!(c.most_common(Some(0)), []);
        let parts = c.clone().split(3).unwrap();
        assert_eq!(parts.iter().map(WordCounts::len).sum::<usize>(), c.len());
        let mut joined = WordCounts::new(*c.options());
        for part in parts {
            joined.merge(part).unwrap();
        }
        assert_eq!(joined, c);
        c.prune(2, Some(2));
        assert_eq!(c.words(), [("b".to_string(), 3), ("c".to_string(), 5)]);
        assert_eq!(c.total(), 8);
        assert!(WordCounts::from_pairs(CountOptions::default(), vec![("x".into(), u64::MAX), ("y".into(), 1)]).is_err());
    }

    #[test]
    fn a_count_of_zero_adds_nothing() {
        let c = counts(&[("a", 0), ("b", 2), ("c", 0), ("c", 0), ("b", 0), ("d", 0), ("d", 3)]);
        assert_eq!(c.words(), [("b".to_string(), 2), ("d".to_string(), 3)]);
        assert_eq!((c.len(), c.total()), (2, 5));
        assert_eq!(c.get("a"), None);
        assert!(counts(&[("a", 0)]).is_empty());
        // The word is still checked.
        let err = WordCounts::from_pairs(CountOptions::default(), vec![("a b".into(), 0)]).unwrap_err().to_string();
        assert_eq!(err, "the word \"a b\" contains whitespace, which no pre-tokenizer leaves in a word");
        assert!(WordCounts::from_pairs(CountOptions::default(), vec![(String::new(), 0)]).is_err());
    }
}
