//! The WordPiece trainer: repeatedly merge the adjacent pair with the highest
//! `pair_freq / (freq(a) * freq(b))`.
//!
//! Counts are kept up to date incrementally: a merge only revisits the words
//! that hold the merged pair, and only re-ranks the pairs whose count or whose
//! tokens' counts changed. The ranking is exact (integer arithmetic) and ties
//! are broken by larger pair frequency, then smaller `a`, then smaller `b`.
//!
//! Ranking structure. A merge lowers `freq(a)` and `freq(b)`, which raises the
//! score of every pair holding `a` or `b`; frequent tokens such as `##s` sit in
//! thousands of pairs. So each pair is filed in the group of one of its two
//! tokens, the one with more pairs (its "hub"). Within a group every score
//! shares the factor `1 / freq(hub)`, so the group is ordered by
//! `pair_freq / freq(other)` and a change of `freq(hub)` moves only the
//! group's entry in the global heap. A change of `freq(t)` re-ranks only the
//! pairs filed under another hub whose other token is `t`.

use std::cmp::Ordering;

use rustc_hash::FxHashMap;

use super::group_heaps::GroupHeaps;
use super::indexed_heap::IndexedHeap;
use super::progress::Progress;
use super::score::Score;
use crate::error::{Error, Result};
use crate::pipeline::model::vocab::CONTINUATION;

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

#[derive(Clone, Copy)]
struct Pair {
    a: TokenId,
    b: TokenId,
    freq: u64,
    /// The token whose group holds this pair.
    hub: TokenId,
    /// The other token: its count is part of the order within the group.
    other: TokenId,
    /// Whether the pair is in `dependents[other]`.
    listed: bool,
}

/// What a group is ranked by in the global heap: its best pair's full key.
#[derive(Clone, Copy, Debug)]
struct RankKey {
    score: Score,
    freq: u64,
    a: TokenId,
    b: TokenId,
}

/// The order within a hub's group: `pair_freq / freq(other)`, then `pair_freq`.
#[derive(Clone, Copy, Debug)]
struct GroupKey {
    score: Score,
    freq: u64,
}

struct State {
    vocab: Vec<String>,
    ids: FxHashMap<String, TokenId>,
    token_freq: Vec<u64>,
    /// Pairs ever created that hold each token (only decides hubs).
    degree: Vec<u32>,
    words: Vec<Word>,
    pairs: Vec<Pair>,
    group_keys: Vec<GroupKey>,
    pair_ids: FxHashMap<(TokenId, TokenId), PairId>,
    /// Words that held each pair at some point (may include stale entries).
    pair_words: Vec<Vec<u32>>,
    /// Per token `t`: live pairs whose group order depends on `freq(t)`.
    dependents: Vec<Vec<PairId>>,
    groups: GroupHeaps,
    /// Groups (by hub token), ranked by their best pair.
    heap: IndexedHeap<RankKey>,
    min_frequency: u64,
}

/// Trains on `(word, count)` pairs; words are already normalized and pre-tokenized.
pub fn train(counts: Vec<(String, u64)>, config: &TrainerConfig, progress: &mut Progress) -> Result<Trained> {
    if config.vocab_size == 0 {
        return Err(Error::invalid("vocab_size must be positive"));
    }
    // Every count below is at most the number of character occurrences, so
    // if that fits in 64 bits, no sum can wrap.
    let occurrences =
        counts.iter().try_fold(0u64, |sum, (w, c)| c.checked_mul(w.chars().count() as u64)?.checked_add(sum));
    if occurrences.is_none() {
        return Err(Error::invalid(
            "the word counts add up to more than 2**64 - 1 character occurrences: scale them down",
        ));
    }
    let mut state = State::new(counts, config);
    let target = config.vocab_size.saturating_sub(state.vocab.len()) as u64;
    progress.start("merging", "merges", Some(target));
    let mut merges = Vec::new();
    while state.vocab.len() < config.vocab_size {
        let Some(best) = state.best_pair() else { break };
        let Pair { a, b, .. } = state.pairs[best as usize];
        merges.push((state.vocab[a as usize].clone(), state.vocab[b as usize].clone()));
        let before = state.vocab.len();
        state.merge(best);
        progress.advance((state.vocab.len() - before) as u64)?;
    }
    progress.finish();
    Ok(Trained { vocab: state.vocab, merges })
}

/// Whether `x` comes before `y` in code point order of their token strings.
fn string_order(vocab: &[String], x: TokenId, y: TokenId) -> Ordering {
    if x == y {
        Ordering::Equal
    } else {
        vocab[x as usize].cmp(&vocab[y as usize])
    }
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
                    set.insert(if i == 0 { c.to_string() } else { format!("{CONTINUATION}{c}") });
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
                Word { tokens, count: *count }
            })
            .collect();
        drop(counts);
        let n = vocab.len();
        let mut state = State {
            token_freq: vec![0; n],
            degree: vec![0; n],
            dependents: vec![Vec::new(); n],
            vocab,
            ids,
            words,
            pairs: Vec::new(),
            group_keys: Vec::new(),
            pair_ids: FxHashMap::default(),
            pair_words: Vec::new(),
            groups: GroupHeaps::default(),
            heap: IndexedHeap::default(),
            min_frequency: config.min_frequency,
        };
        state.count_initial_pairs();
        state
    }

    fn count_initial_pairs(&mut self) {
        let mut deltas: FxHashMap<(TokenId, TokenId), i128> = FxHashMap::default();
        for word in &self.words {
            for &t in &word.tokens {
                self.token_freq[t as usize] += word.count;
            }
            for p in word.tokens.windows(2) {
                *deltas.entry((p[0], p[1])).or_default() += word.count as i128;
            }
        }
        // Degrees first, so that hubs are chosen knowing every initial pair.
        for &(a, b) in deltas.keys() {
            self.degree[a as usize] += 1;
            self.degree[b as usize] += 1;
        }
        let mut sorted: Vec<(TokenId, TokenId)> = deltas.keys().copied().collect();
        sorted.sort_unstable();
        for (a, b) in sorted {
            self.create_pair(a, b);
        }
        for w in 0..self.words.len() {
            for i in 1..self.words[w].tokens.len() {
                let (a, b) = (self.words[w].tokens[i - 1], self.words[w].tokens[i]);
                let id = self.pair_ids[&(a, b)];
                let list = &mut self.pair_words[id as usize];
                if list.last() != Some(&(w as u32)) {
                    list.push(w as u32);
                }
            }
        }
        self.apply(deltas, &[]);
    }

    /// Registers pair `(a, b)` and files it under its hub.
    fn create_pair(&mut self, a: TokenId, b: TokenId) -> PairId {
        let id = self.pairs.len() as PairId;
        let (hub, other) = if self.degree[a as usize] >= self.degree[b as usize] { (a, b) } else { (b, a) };
        self.pairs.push(Pair { a, b, freq: 0, hub, other, listed: true });
        self.group_keys.push(GroupKey { score: Score::new(0, 1, 1), freq: 0 });
        self.pair_words.push(Vec::new());
        self.dependents[other as usize].push(id);
        self.pair_ids.insert((a, b), id);
        id
    }

    /// The id of pair `(a, b)`, created (and counted in the degrees) on first sight.
    fn pair_id(&mut self, a: TokenId, b: TokenId) -> PairId {
        match self.pair_ids.get(&(a, b)) {
            Some(&id) => id,
            None => {
                self.degree[a as usize] += 1;
                self.degree[b as usize] += 1;
                self.create_pair(a, b)
            }
        }
    }

    fn best_pair(&self) -> Option<PairId> {
        self.heap.peek().and_then(|hub| self.groups.top(hub))
    }

    fn rank_key(&self, p: PairId) -> RankKey {
        let Pair { a, b, freq, .. } = self.pairs[p as usize];
        RankKey { score: Score::new(freq, self.token_freq[a as usize], self.token_freq[b as usize]), freq, a, b }
    }

    /// Whether key `x` ranks above key `y`: higher score, then higher pair
    /// frequency, then smaller `a`, then smaller `b` (code point order).
    fn ranks_before(vocab: &[String], x: &RankKey, y: &RankKey) -> bool {
        let order = x
            .score
            .cmp(&y.score)
            .then(x.freq.cmp(&y.freq))
            .then_with(|| string_order(vocab, y.a, x.a))
            .then_with(|| string_order(vocab, y.b, x.b));
        order == Ordering::Greater
    }

    /// The same order as `ranks_before`, for two pairs of one group.
    fn group_before(vocab: &[String], pairs: &[Pair], keys: &[GroupKey], x: PairId, y: PairId) -> bool {
        let (kx, ky) = (keys[x as usize], keys[y as usize]);
        let (px, py) = (pairs[x as usize], pairs[y as usize]);
        let order = kx
            .score
            .cmp(&ky.score)
            .then(kx.freq.cmp(&ky.freq))
            .then_with(|| string_order(vocab, py.a, px.a))
            .then_with(|| string_order(vocab, py.b, px.b));
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
                self.degree.push(0);
                self.dependents.push(Vec::new());
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
            let id = self.pair_id(x, y);
            let list = &mut self.pair_words[id as usize];
            if list.last() != Some(&w) {
                list.push(w);
            }
        }
        self.apply(deltas, &[a, b, c]);
    }

    /// Applies pair-count changes, then re-ranks what they and the count
    /// changes of the `retokened` tokens affect.
    fn apply(&mut self, deltas: FxHashMap<(TokenId, TokenId), i128>, retokened: &[TokenId]) {
        let mut touched: Vec<PairId> = Vec::with_capacity(deltas.len());
        for ((x, y), d) in deltas {
            if d == 0 {
                continue;
            }
            let id = self.pair_id(x, y);
            let pair = &mut self.pairs[id as usize];
            pair.freq = (pair.freq as i128 + d) as u64;
            if pair.freq > 0 && !pair.listed {
                pair.listed = true;
                self.dependents[pair.other as usize].push(id);
            }
            touched.push(id);
        }
        let mut dirty: Vec<TokenId> = retokened.to_vec();
        for &t in retokened {
            let mut list = std::mem::take(&mut self.dependents[t as usize]);
            list.retain(|&p| {
                let pair = &mut self.pairs[p as usize];
                pair.listed = pair.freq > 0;
                pair.listed
            });
            touched.extend_from_slice(&list);
            self.dependents[t as usize] = list;
        }
        touched.sort_unstable();
        touched.dedup();
        for p in touched {
            let Pair { hub, other, freq, .. } = self.pairs[p as usize];
            let eligible = self.eligible(p);
            if eligible {
                self.group_keys[p as usize] =
                    GroupKey { score: Score::new(freq, self.token_freq[other as usize], 1), freq };
            }
            let (vocab, pairs, keys) = (&self.vocab, &self.pairs, &self.group_keys);
            let before = |x: PairId, y: PairId| Self::group_before(vocab, pairs, keys, x, y);
            if eligible {
                self.groups.upsert(hub, p, &before);
            } else {
                self.groups.remove(hub, p, &before);
            }
            dirty.push(hub);
        }
        dirty.sort_unstable();
        dirty.dedup();
        for hub in dirty {
            let vocab = &self.vocab;
            let before = |x: &RankKey, y: &RankKey| Self::ranks_before(vocab, x, y);
            match self.groups.top(hub) {
                Some(p) => {
                    let key = self.rank_key(p);
                    self.heap.upsert(hub, key, &before);
                }
                None => self.heap.remove(hub, &before),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_with(words: &[(&str, u64)], vocab_size: usize, min_frequency: u64, specials: &[&str]) -> Trained {
        let counts = words.iter().map(|&(w, c)| (w.to_string(), c)).collect();
        let special_tokens = specials.iter().map(|s| s.to_string()).collect();
        let config = TrainerConfig { vocab_size, min_frequency, special_tokens };
        train(counts, &config, &mut Progress::disabled()).unwrap()
    }

    fn run(words: &[(&str, u64)], vocab_size: usize, min_frequency: u64) -> Trained {
        run_with(words, vocab_size, min_frequency, &["[UNK]"])
    }

    #[test]
    fn seed_corpus_alphabet_and_first_merges() {
        let words = [("hug", 10), ("pug", 5), ("pun", 12), ("bun", 4), ("hugs", 5)];
        let t = run(&words, 9, 2);
        assert_eq!(t.vocab, ["[UNK]", "##g", "##n", "##s", "##u", "b", "h", "p", "##gs"]);
        // ##g ##s: 5 / (20 * 5) = 1/20 beats every other pair (u-g: 20/(36*20)=1/36, ...).
        assert_eq!(t.merges, [("##g".to_string(), "##s".to_string())]);
    }

    #[test]
    fn counts_whose_sums_would_wrap_are_refused() {
        let counts = vec![("ab".to_string(), 1u64 << 63), ("cd".to_string(), 1)];
        let config = TrainerConfig { vocab_size: 10, min_frequency: 0, special_tokens: vec![] };
        let err = train(counts, &config, &mut Progress::disabled()).unwrap_err();
        assert!(err.to_string().contains("2**64"), "{err}");
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
