//! The WordPiece trainer: repeatedly merge the adjacent pair with the highest
//! `pair_freq / (freq(a) * freq(b))`.
//!
//! Counts are kept up to date incrementally: a merge only revisits the words
//! that hold the merged pair, and only re-ranks the pairs whose count or whose
//! tokens' counts changed. The ranking is exact (integer arithmetic) and ties
//! are broken by larger pair frequency, then smaller `a`, then smaller `b`.

use std::cmp::Ordering;

use rustc_hash::FxHashMap;

use super::indexed_heap::IndexedHeap;
use super::progress::Progress;
use super::score::Score;
use crate::error::{Error, Result};
use crate::tokenizer::vocab::CONTINUATION;

#[derive(Clone, Debug)]
pub struct TrainerConfig {
    pub vocab_size: usize,
    pub min_frequency: u64,
    pub special_tokens: Vec<String>,
}

/// What training learns: the vocabulary in id order and the merges in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trained {
    pub vocab: Vec<String>,
    pub merges: Vec<(String, String)>,
}

type TokenId = u32;
type PairId = u32;

struct Word {
    tokens: Vec<TokenId>,
    count: u64,
}

/// What a pair is ranked by, cached in the heap.
#[derive(Clone, Copy, Debug)]
struct RankKey {
    score: Score,
    freq: u64,
    a: TokenId,
    b: TokenId,
}

#[derive(Clone, Copy)]
struct Pair {
    a: TokenId,
    b: TokenId,
    freq: u64,
}

struct State {
    vocab: Vec<String>,
    ids: FxHashMap<String, TokenId>,
    token_freq: Vec<u64>,
    words: Vec<Word>,
    pairs: Vec<Pair>,
    pair_ids: FxHashMap<(TokenId, TokenId), PairId>,
    /// Words that held each pair at some point (may include stale entries).
    pair_words: Vec<Vec<u32>>,
    /// Pairs that hold each token, as `a` or `b` (may include stale entries).
    token_pairs: Vec<Vec<PairId>>,
    heap: IndexedHeap<RankKey>,
    min_frequency: u64,
}

/// Trains on `(word, count)` pairs; words are already normalized and pre-tokenized.
pub fn train(
    counts: Vec<(String, u64)>,
    config: &TrainerConfig,
    progress: &mut Progress,
) -> Result<Trained> {
    if config.vocab_size == 0 {
        return Err(Error::invalid("vocab_size must be positive"));
    }
    let mut state = State::new(counts, config);
    let target = config.vocab_size.saturating_sub(state.vocab.len()) as u64;
    progress.start("merging", "merges", Some(target));
    let mut merges = Vec::new();
    while state.vocab.len() < config.vocab_size {
        let Some(best) = state.heap.peek() else { break };
        let Pair { a, b, .. } = state.pairs[best as usize];
        merges.push((
            state.vocab[a as usize].clone(),
            state.vocab[b as usize].clone(),
        ));
        let before = state.vocab.len();
        state.merge(best);
        progress.advance((state.vocab.len() - before) as u64)?;
    }
    progress.finish();
    Ok(Trained {
        vocab: state.vocab,
        merges,
    })
}

impl State {
    fn new(mut counts: Vec<(String, u64)>, config: &TrainerConfig) -> Self {
        counts.retain(|(w, c)| !w.is_empty() && *c > 0);
        let mut vocab: Vec<String> = Vec::new();
        let mut ids: FxHashMap<String, TokenId> = FxHashMap::default();
        let mut intern = |t: &str, vocab: &mut Vec<String>| -> TokenId {
            if let Some(&id) = ids.get(t) {
                return id;
            }
            vocab.push(t.to_owned());
            ids.insert(t.to_owned(), (vocab.len() - 1) as TokenId);
            (vocab.len() - 1) as TokenId
        };
        for t in &config.special_tokens {
            intern(t, &mut vocab);
        }
        let mut alphabet: Vec<String> = {
            let mut set = rustc_hash::FxHashSet::default();
            for (word, _) in &counts {
                for (i, c) in word.char_indices() {
                    set.insert(if i == 0 {
                        c.to_string()
                    } else {
                        format!("{CONTINUATION}{c}")
                    });
                }
            }
            set.into_iter().collect()
        };
        alphabet.sort_unstable();
        for t in &alphabet {
            intern(t, &mut vocab);
        }
        let mut piece = String::new();
        let words: Vec<Word> = counts
            .iter()
            .map(|(word, count)| {
                let tokens = word
                    .char_indices()
                    .map(|(i, c)| {
                        piece.clear();
                        if i > 0 {
                            piece.push_str(CONTINUATION);
                        }
                        piece.push(c);
                        intern(&piece, &mut vocab)
                    })
                    .collect();
                Word {
                    tokens,
                    count: *count,
                }
            })
            .collect();
        drop(intern);
        let mut state = State {
            token_freq: vec![0; vocab.len()],
            token_pairs: vec![Vec::new(); vocab.len()],
            vocab,
            ids,
            words,
            pairs: Vec::new(),
            pair_ids: FxHashMap::default(),
            pair_words: Vec::new(),
            heap: IndexedHeap::default(),
            min_frequency: config.min_frequency,
        };
        state.count_initial_pairs();
        state
    }

    fn count_initial_pairs(&mut self) {
        let mut deltas: FxHashMap<(TokenId, TokenId), i128> = FxHashMap::default();
        for (w, word) in self.words.iter().enumerate() {
            for &t in &word.tokens {
                self.token_freq[t as usize] += word.count;
            }
            for pair in word.tokens.windows(2) {
                *deltas.entry((pair[0], pair[1])).or_default() += word.count as i128;
                let id = Self::pair_id(
                    &mut self.pairs,
                    &mut self.pair_ids,
                    &mut self.pair_words,
                    &mut self.token_pairs,
                    pair[0],
                    pair[1],
                );
                let list = &mut self.pair_words[id as usize];
                if list.last() != Some(&(w as u32)) {
                    list.push(w as u32);
                }
            }
        }
        self.apply(deltas, &[]);
    }

    /// The id of pair `(a, b)`, created on first sight.
    fn pair_id(
        pairs: &mut Vec<Pair>,
        pair_ids: &mut FxHashMap<(TokenId, TokenId), PairId>,
        pair_words: &mut Vec<Vec<u32>>,
        token_pairs: &mut [Vec<PairId>],
        a: TokenId,
        b: TokenId,
    ) -> PairId {
        *pair_ids.entry((a, b)).or_insert_with(|| {
            let id = pairs.len() as PairId;
            pairs.push(Pair { a, b, freq: 0 });
            pair_words.push(Vec::new());
            token_pairs[a as usize].push(id);
            if b != a {
                token_pairs[b as usize].push(id);
            }
            id
        })
    }

    fn rank_key(&self, p: PairId) -> RankKey {
        let Pair { a, b, freq } = self.pairs[p as usize];
        RankKey {
            score: Score::new(
                freq,
                self.token_freq[a as usize],
                self.token_freq[b as usize],
            ),
            freq,
            a,
            b,
        }
    }

    /// Whether key `x` ranks above key `y`: higher score, then higher pair
    /// frequency, then smaller `a`, then smaller `b` (code point order).
    fn ranks_before(vocab: &[String], x: &RankKey, y: &RankKey) -> bool {
        let order = x
            .score
            .cmp(&y.score)
            .then(x.freq.cmp(&y.freq))
            .then_with(|| vocab[y.a as usize].cmp(&vocab[x.a as usize]))
            .then_with(|| vocab[y.b as usize].cmp(&vocab[x.b as usize]));
        order == Ordering::Greater
    }

    fn eligible(&self, p: PairId) -> bool {
        let freq = self.pairs[p as usize].freq;
        freq > 0 && freq >= self.min_frequency
    }

    /// Merges pair `best` in every word that holds it and updates all counts.
    fn merge(&mut self, best: PairId) {
        let Pair { a, b, .. } = self.pairs[best as usize];
        let merged = {
            let (sa, sb) = (&self.vocab[a as usize], &self.vocab[b as usize]);
            format!("{sa}{}", sb.strip_prefix(CONTINUATION).unwrap_or(sb))
        };
        let c = match self.ids.get(&merged) {
            Some(&id) => id,
            None => {
                self.vocab.push(merged.clone());
                self.ids.insert(merged, (self.vocab.len() - 1) as TokenId);
                self.token_freq.push(0);
                self.token_pairs.push(Vec::new());
                (self.vocab.len() - 1) as TokenId
            }
        };
        let mut deltas: FxHashMap<(TokenId, TokenId), i128> = FxHashMap::default();
        let mut new_tokens = Vec::new();
        let mut touched: Vec<(u32, (TokenId, TokenId))> = Vec::new();
        let mut words = std::mem::take(&mut self.pair_words[best as usize]);
        words.sort_unstable();
        words.dedup();
        for &w in &words {
            let word = &mut self.words[w as usize];
            new_tokens.clear();
            let mut i = 0;
            let mut replaced = 0u64;
            while i < word.tokens.len() {
                if i + 1 < word.tokens.len() && word.tokens[i] == a && word.tokens[i + 1] == b {
                    new_tokens.push(c);
                    replaced += 1;
                    i += 2;
                } else {
                    new_tokens.push(word.tokens[i]);
                    i += 1;
                }
            }
            if replaced == 0 {
                continue; // stale entry: an earlier merge already changed this word
            }
            let count = word.count;
            for p in word.tokens.windows(2) {
                *deltas.entry((p[0], p[1])).or_default() -= count as i128;
            }
            for p in new_tokens.windows(2) {
                *deltas.entry((p[0], p[1])).or_default() += count as i128;
                if p[0] == c || p[1] == c {
                    touched.push((w, (p[0], p[1])));
                }
            }
            self.token_freq[a as usize] -= replaced * count;
            self.token_freq[b as usize] -= replaced * count;
            self.token_freq[c as usize] += replaced * count;
            std::mem::swap(&mut word.tokens, &mut new_tokens);
        }
        for (w, (x, y)) in touched {
            let id = Self::pair_id(
                &mut self.pairs,
                &mut self.pair_ids,
                &mut self.pair_words,
                &mut self.token_pairs,
                x,
                y,
            );
            let list = &mut self.pair_words[id as usize];
            if list.last() != Some(&w) {
                list.push(w);
            }
        }
        self.apply(deltas, &[a, b, c]);
    }

    /// Applies pair-count changes, then re-ranks every pair whose count
    /// changed or that holds one of `retokened` (tokens whose count changed).
    fn apply(&mut self, deltas: FxHashMap<(TokenId, TokenId), i128>, retokened: &[TokenId]) {
        let mut changed: Vec<PairId> = Vec::with_capacity(deltas.len());
        for ((x, y), d) in deltas {
            if d == 0 {
                continue;
            }
            let id = Self::pair_id(
                &mut self.pairs,
                &mut self.pair_ids,
                &mut self.pair_words,
                &mut self.token_pairs,
                x,
                y,
            );
            let pair = &mut self.pairs[id as usize];
            pair.freq = (pair.freq as i128 + d) as u64;
            changed.push(id);
        }
        for &t in retokened {
            let mut list = std::mem::take(&mut self.token_pairs[t as usize]);
            list.retain(|&p| self.pairs[p as usize].freq > 0);
            changed.extend_from_slice(&list);
            self.token_pairs[t as usize] = list;
        }
        let vocab = &self.vocab;
        let before = |x: &RankKey, y: &RankKey| Self::ranks_before(vocab, x, y);
        for p in changed {
            if self.eligible(p) {
                let key = self.rank_key(p);
                self.heap.upsert(p, key, &before);
            } else {
                self.heap.remove(p, &before);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_with(
        words: &[(&str, u64)],
        vocab_size: usize,
        min_frequency: u64,
        specials: &[&str],
    ) -> Trained {
        let counts = words.iter().map(|&(w, c)| (w.to_string(), c)).collect();
        let special_tokens = specials.iter().map(|s| s.to_string()).collect();
        let config = TrainerConfig {
            vocab_size,
            min_frequency,
            special_tokens,
        };
        train(counts, &config, &mut Progress::disabled()).unwrap()
    }

    fn run(words: &[(&str, u64)], vocab_size: usize, min_frequency: u64) -> Trained {
        run_with(words, vocab_size, min_frequency, &["[UNK]"])
    }

    #[test]
    fn seed_corpus_alphabet_and_first_merges() {
        let words = [
            ("hug", 10),
            ("pug", 5),
            ("pun", 12),
            ("bun", 4),
            ("hugs", 5),
        ];
        let t = run(&words, 9, 2);
        assert_eq!(
            t.vocab,
            ["[UNK]", "##g", "##n", "##s", "##u", "b", "h", "p", "##gs"]
        );
        // ##g ##s: 5 / (20 * 5) = 1/20 beats every other pair (u-g: 20/(36*20)=1/36, ...).
        assert_eq!(t.merges, [("##g".to_string(), "##s".to_string())]);
    }

    #[test]
    fn alphabet_larger_than_vocab_size_is_kept_whole() {
        let t = run(&[("abc", 5)], 2, 0);
        assert_eq!(t.vocab, ["[UNK]", "##b", "##c", "a"]);
        assert!(t.merges.is_empty());
    }

    #[test]
    fn repeated_tokens_merge_left_to_right_without_overlap() {
        // x is frequent, so (x, ##a) scores 1/44 and (##a, ##a) scores 3/16.
        let t = run(&[("xaaaa", 1), ("x", 10)], 4, 0);
        assert_eq!(t.merges, [("##a".to_string(), "##a".to_string())]);
        assert_eq!(t.vocab, ["[UNK]", "##a", "x", "##aa"]);
        // ##a ##a ##a ##a became ##aa ##aa, so the next best pair is (##aa, ##aa).
        let t = run(&[("xaaaa", 1), ("x", 10)], 5, 0);
        assert_eq!(t.merges[1], ("##aa".to_string(), "##aa".to_string()));
    }

    #[test]
    fn min_frequency_stops_training() {
        let t = run(&[("ab", 1), ("cd", 1)], 100, 2);
        assert!(t.merges.is_empty());
    }

    #[test]
    fn merge_into_an_existing_token_adds_nothing() {
        // The special token "ab" is already there when ("a", "##b") merges.
        let t = run_with(&[("ab", 3)], 100, 1, &["[UNK]", "ab"]);
        assert_eq!(t.merges, [("a".to_string(), "##b".to_string())]);
        assert_eq!(t.vocab, ["[UNK]", "ab", "##b", "a"]);
    }
}
