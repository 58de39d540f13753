//! The merge loop shared by every objective: words as token sequences, pair
//! counts kept up to date incrementally, and one `Ranking` (see `objective`)
//! that picks the next merge.
//!
//! A merge only revisits the words that hold the merged pair, and in each
//! only the pairs in a window around the occurrences; it reports the
//! pairs whose counts changed; the ranking decides what else to re-rank.

use std::ops::Range;

use rustc_hash::{FxHashMap, FxHashSet};

use super::progress::Progress;
use super::reserve::reserve_total;
use crate::error::{Error, Result};
use crate::hint;
use crate::memory::Watch;
use crate::pipeline::model::vocab::CONTINUATION;
use crate::threads;
use crate::tokenizer::objective::Objective;

#[derive(Clone, Debug)]
pub struct TrainerConfig {
    pub vocab_size: usize,
    pub min_frequency: u64,
    pub special_tokens: Vec<String>,
    pub objective: Objective,
    /// Keep only this many characters, the most frequent; words with any
    /// other character are left out of training (they encode as unknown).
    pub limit_alphabet: Option<usize>,
    /// Whether a character inside a word is its own token with the
    /// continuation prefix (`##a`, WordPiece); when false every character is
    /// a token as it is and a merge joins two tokens as they are (BPE).
    pub continuation: bool,
    /// The prefix of the tokens that continue a word (`##`), when
    /// `continuation` is true.
    pub prefix: String,
    /// Characters in the alphabet whether seen or not, as word-initial
    /// tokens (byte-level BPE: all 256 byte characters). `limit_alphabet`
    /// counts them and always keeps them.
    pub initial_alphabet: Vec<char>,
}

impl TrainerConfig {
    pub fn new(vocab_size: usize, min_frequency: u64, special_tokens: Vec<String>) -> Self {
        Self {
            vocab_size,
            min_frequency,
            special_tokens,
            objective: Objective::default(),
            limit_alphabet: None,
            continuation: true,
            prefix: CONTINUATION.to_owned(),
            initial_alphabet: Vec::new(),
        }
    }
}

/// What training learns: the vocabulary in id order and the merges in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trained {
    pub vocab: Vec<String>,
    pub merges: Vec<(String, String)>,
}

pub type TokenId = u32;
pub type PairId = u32;

/// Every word's tokens, back to back in one buffer (a merge only shortens
/// a word, in place), so that the words a merge visits, in id order, are
/// read front to back without a pointer per word.
#[derive(Default)]
struct Words {
    tokens: Vec<TokenId>,
    /// Beside each token but a word's last, the id of the pair it starts
    /// (set by `count_initial_pairs`, kept by merges): a merge reads the
    /// ids of the pairs it removes here, not in the pair-id map.
    pair_at: Vec<PairId>,
    /// Per word, in one record (one cache line to read, not three).
    words: Vec<Word>,
}

/// Where a word's tokens start, how many it has now, and its count.
#[derive(Clone, Copy)]
struct Word {
    start: usize,
    len: usize,
    count: u64,
}

impl Words {
    fn push(&mut self, tokens: impl Iterator<Item = TokenId>, count: u64) {
        let start = self.tokens.len();
        self.tokens.extend(tokens);
        self.words.push(Word { start, len: self.tokens.len() - start, count });
    }

    fn len(&self) -> usize {
        self.words.len()
    }

    #[cfg(test)]
    fn tokens(&self, w: usize) -> &[TokenId] {
        let Word { start, len, .. } = self.words[w];
        &self.tokens[start..start + len]
    }

    #[cfg(test)]
    fn count(&self, w: usize) -> u64 {
        self.words[w].count
    }
}

/// An adjacent pair of tokens and its counts over the corpus.
#[derive(Clone, Copy, Debug)]
pub struct Pair {
    pub a: TokenId,
    pub b: TokenId,
    /// Adjacent occurrences (overlapping ones too when `a == b`).
    pub freq: u64,
    /// Occurrences a merge would replace: left to right, non-overlapping
    /// (equal to `freq` when `a != b`).
    pub k: u64,
    /// The merge under way when the counts were last changed (see `Changes`):
    /// kept with the counts so that a merge touches one place per pair.
    touched: u64,
}

/// The merge that was just made: `a b` became `c`.
#[derive(Clone, Copy, Debug)]
pub struct Merged {
    pub a: TokenId,
    pub b: TokenId,
    pub c: TokenId,
}

/// What an objective plugs into the merge loop: told which counts changed,
/// it answers which pair to merge next.
pub trait Ranking {
    /// Called after counting (`merged` None) and after every merge, with the
    /// pairs whose `freq` or `k` changed (sorted, including new pairs).
    fn update(&mut self, core: &Core, changed: &[PairId], merged: Option<Merged>);

    /// The eligible pair to merge next, or None when there is none.
    fn best(&mut self, core: &Core) -> Option<PairId>;
}

/// Pair-count changes: `(freq, k)` deltas per pair, added modulo 2^64 (every
/// count and every sum of them fits in 64 bits, so the result is exact).
#[cfg(test)]
type Deltas = FxHashMap<(TokenId, TokenId), (u64, u64)>;

/// The corpus as token sequences and every count the objectives read.
pub struct Core {
    pub vocab: Vec<String>,
    pub ids: FxHashMap<String, TokenId>,
    pub token_freq: Vec<u64>,
    /// `N`: the number of tokens in the segmented corpus.
    pub total: u64,
    /// Pairs ever created that hold each token.
    pub degree: Vec<u32>,
    words: Words,
    pub pairs: Vec<Pair>,
    /// Pair ids by `key(a, b)`.
    pair_ids: FxHashMap<u64, PairId>,
    /// Words that held each pair at some point (may include stale entries).
    pair_words: Vec<Vec<u32>>,
    pub min_frequency: u64,
    continuation: bool,
    /// The continuation prefix (`##`), when `continuation`.
    prefix: String,
    /// The most tokens the vocabulary can end with: `vocab_size`, or fewer
    /// when the words cannot make that many.
    most_tokens: usize,
    /// The pairs the merge under way changed, with their counts before
    /// (kept from merge to merge to reuse the memory).
    changes: Changes,
    /// The pairs of the token a merge makes, when it is new.
    new_pairs: NewPairs,
}

/// The pairs a merge changed: each once, with its counts before the merge.
/// The counts themselves are updated in place, modulo 2^64 (every count and
/// every sum of them fits in 64 bits, so the result is exact); a pair whose
/// counts end where they began did not change.
#[derive(Default)]
struct Changes {
    /// The merge under way (pairs with `touched` equal to it are listed).
    epoch: u64,
    before: Vec<(PairId, u64, u64)>,
}

impl Changes {
    #[inline(always)]
    fn add(&mut self, pairs: &mut [Pair], id: PairId, freq: u64, k: u64) {
        let pair = &mut pairs[id as usize];
        if pair.touched != self.epoch {
            pair.touched = self.epoch;
            self.before.push((id, pair.freq, pair.k));
        }
        pair.freq = pair.freq.wrapping_add(freq);
        pair.k = pair.k.wrapping_add(k);
    }
}

/// The pair tables a merge updates while it walks the words' tokens.
struct PairTable<'a> {
    pair_ids: &'a mut FxHashMap<u64, PairId>,
    pairs: &'a mut Vec<Pair>,
    pair_words: &'a mut Vec<Vec<u32>>,
    degree: &'a mut Vec<u32>,
    /// When the merge made a token that did not exist (`Some(c)`): the ids
    /// of its pairs so far, by the other token (see [`NewPairs`]).
    new: Option<(TokenId, &'a mut NewPairs)>,
}

/// The pairs of a token `c` that a merge has just made, by the other token:
/// `(x, c)` at `left[x]`, `(c, y)` (and `(c, c)`) at `right[y]`, else
/// `NO_PAIR`. No pair holds a new token before its merge, so these are all
/// of its pairs: a merge looks them up here, in two small arrays, not in
/// the map of every pair (one probe into megabytes per occurrence).
#[derive(Default)]
struct NewPairs {
    left: Vec<PairId>,
    right: Vec<PairId>,
    /// The places set, to clear after the merge (true: in `right`).
    set: Vec<(bool, TokenId)>,
}

const NO_PAIR: PairId = PairId::MAX;

impl NewPairs {
    /// Room for a place per token of a vocabulary of `tokens`.
    fn fit(&mut self, tokens: usize) {
        if self.left.len() < tokens {
            self.left.resize(tokens, NO_PAIR);
            self.right.resize(tokens, NO_PAIR);
        }
    }

    fn clear(&mut self) {
        for &(right, t) in &self.set {
            let side = if right { &mut self.right } else { &mut self.left };
            side[t as usize] = NO_PAIR;
        }
        self.set.clear();
    }
}

impl PairTable<'_> {
    /// The id of pair `(a, b)`, created (and counted in the degrees) on first sight.
    #[inline(always)]
    fn id(&mut self, a: TokenId, b: TokenId) -> PairId {
        let Some((c, new)) = self.new.as_mut() else { return self.lookup(a, b) };
        let c = *c;
        if a != c && b != c {
            return self.lookup(a, b);
        }
        let (right, t) = if a == c { (true, b) } else { (false, a) };
        let side = if right { &new.right } else { &new.left };
        let known = side[t as usize];
        if known != NO_PAIR {
            return known;
        }
        let id = self.lookup(a, b);
        if let Some((_, new)) = self.new.as_mut() {
            let side = if right { &mut new.right } else { &mut new.left };
            side[t as usize] = id;
            new.set.push((right, t));
        }
        id
    }

    /// [`Self::id`] through the map of every pair.
    #[inline(always)]
    fn lookup(&mut self, a: TokenId, b: TokenId) -> PairId {
        let full = |len: usize, capacity: usize| len == capacity;
        if (full(self.pair_ids.len(), self.pair_ids.capacity())
            || full(self.pairs.len(), self.pairs.capacity())
            || full(self.pair_words.len(), self.pair_words.capacity()))
            && !self.grow()
        {
            // No room for a new pair: the merge loop ends with a MemoryError
            // at its next check; until then, pair 0 stands in.
            crate::memory::ran_out();
            return 0;
        }
        let slot = match self.pair_ids.entry(key(a, b)) {
            std::collections::hash_map::Entry::Occupied(e) => return *e.get(),
            std::collections::hash_map::Entry::Vacant(e) => e,
        };
        self.degree[a as usize] += 1;
        self.degree[b as usize] += 1;
        let id = self.pairs.len() as PairId;
        self.pairs.push(Pair { a, b, freq: 0, k: 0, touched: 0 });
        self.pair_words.push(Vec::new());
        slot.insert(id);
        id
    }

    /// Room for more pairs in every table, reserved fallibly (twice as many);
    /// false when there is none.
    #[cold]
    fn grow(&mut self) -> bool {
        let more = |len: usize| len.max(16);
        self.pair_ids.try_reserve(more(self.pair_ids.len())).is_ok()
            && self.pairs.try_reserve(more(self.pairs.len())).is_ok()
            && self.pair_words.try_reserve(more(self.pair_words.len())).is_ok()
    }

    /// Adds `count` times the pairs of `tokens` to `changes` and writes
    /// their ids into `pair_at` (beside `tokens`); also records `w` as
    /// holding the pairs with token `c`.
    fn add(
        &mut self,
        tokens: &[TokenId],
        pair_at: &mut [PairId],
        count: u64,
        changes: &mut Changes,
        word: (u32, TokenId),
    ) {
        each_pair(tokens, count, |at, t, u, freq, k| {
            let id = self.id(t, u);
            pair_at[at].fill(id);
            let (w, c) = word;
            if t == c || u == c {
                let list = &mut self.pair_words[id as usize];
                if list.last() != Some(&w) {
                    list.push(w);
                }
            }
            changes.add(self.pairs, id, freq, k);
        });
    }
}

/// Trains on `(word, count)` pairs (words already normalized and
/// pre-tokenized), merging the pairs that `ranking` picks.
pub fn train<R: Ranking + Send + 'static>(
    counts: Vec<(String, u64)>,
    config: &TrainerConfig,
    ranking: R,
    progress: &mut Progress,
) -> Result<Trained> {
    if config.vocab_size == 0 {
        return Err(Error::invalid("vocab_size must be positive"));
    }
    super::occurrences::check(counts.iter().map(|(w, c)| (w.as_str(), *c)))?;
    // Memory that runs out in a small allocation of the merge loop is a
    // MemoryError at the next merge (see `crate::memory`).
    let watch = Watch::start();
    let words = counts.len();
    let what = || format!("training on {words} distinct words");
    watch.check(what)?;
    let (mut core, mut ranking) = (Core::new(counts, config)?, ranking);
    let changed = core.count_initial_pairs()?;
    ranking.update(&core, &changed, None);
    watch.check(what)?;
    let target = config.vocab_size.saturating_sub(core.vocab.len()) as u64;
    progress.start("merging", "merges", Some(target));
    let mut merges = Vec::new();
    reserve_total(&mut merges, core.most_tokens() - core.vocab.len());
    while core.vocab.len() < config.vocab_size {
        let Some(best) = ranking.best(&core) else { break };
        let Pair { a, b, .. } = core.pairs[best as usize];
        merges.push((core.vocab[a as usize].clone(), core.vocab[b as usize].clone()));
        let before = core.vocab.len();
        let (changed, merged) = core.merge(best);
        ranking.update(&core, &changed, Some(merged));
        watch.check(what)?;
        progress.advance((core.vocab.len() - before) as u64)?;
    }
    progress.finish_merging(core.vocab.len(), config.vocab_size, config.min_frequency);
    let vocab = std::mem::take(&mut core.vocab);
    // Freeing the pair tables and the ranking's lists (~70 ms on GCIDE) can
    // overlap building the tokenizer.
    threads::drop_in_background((core, ranking));
    Ok(Trained { vocab, merges })
}

/// The words whose characters are all among the `limit` kept ones: the
/// characters of `initial` (all of them, even beyond `limit`), then the most
/// frequent others (by occurrences weighted by word counts; ties: smaller
/// code point) up to `limit` characters in all.
fn limit_alphabet(counts: &mut Vec<(String, u64)>, limit: usize, initial: &[char]) {
    let kept: FxHashSet<char> = initial.iter().copied().collect();
    let mut freq: FxHashMap<char, u64> = FxHashMap::default();
    for (word, count) in counts.iter() {
        for c in word.chars().filter(|c| !kept.contains(c)) {
            *freq.entry(c).or_default() += count;
        }
    }
    let room = limit.saturating_sub(kept.len());
    if freq.len() <= room {
        return;
    }
    let mut chars: Vec<(char, u64)> = freq.into_iter().collect();
    chars.sort_unstable_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
    let mut kept = kept;
    kept.extend(chars[..room].iter().map(|&(c, _)| c));
    counts.retain(|(word, _)| word.chars().all(|c| kept.contains(&c)));
}

#[cfg(test)]
/// Adds `count` times the pairs of `tokens` to `deltas`: every adjacent
/// pair to `freq`; to `k`, every pair of distinct tokens, and `r / 2` for a
/// run of `r` equal tokens (what a left-to-right merge replaces).
fn add_pairs(tokens: &[TokenId], count: u64, deltas: &mut Deltas) {
    each_pair(tokens, count, |_, a, b, freq, k| {
        let e = deltas.entry((a, b)).or_default();
        e.0 = e.0.wrapping_add(freq);
        e.1 = e.1.wrapping_add(k);
    });
}

/// Calls `f(at, a, b, freq, k)` for the pairs of `tokens`, `count` times
/// each: every adjacent pair of distinct tokens with `freq = k = count`; a
/// run of `r` equal tokens once, with `freq = (r - 1) * count` and `k = r /
/// 2 * count` (what a left-to-right merge replaces), all modulo 2^64. `at`:
/// the places of the pair's first tokens (one, or the run's but its last).
#[inline(always)]
fn each_pair(tokens: &[TokenId], count: u64, mut f: impl FnMut(Range<usize>, TokenId, TokenId, u64, u64)) {
    let mut i = 0;
    while i + 1 < tokens.len() {
        let (t, u) = (tokens[i], tokens[i + 1]);
        if u != t {
            f(i..i + 1, t, u, count, count);
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < tokens.len() && tokens[j] == t {
            j += 1;
        }
        let run = (j - i) as u64;
        f(i..j - 1, t, t, (run - 1).wrapping_mul(count), (run / 2).wrapping_mul(count));
        i = j - 1;
    }
}

/// Merges `a b` into `c` in one word's `tokens`, left to right and without
/// overlap, and moves the pair ids kept beside them (`pair_at`) along; calls
/// `removed(id, freq, k)` for the pairs of the window that changes, as they
/// were. Returns the window after (`lo..out` of the tokens now) and how many
/// occurrences were replaced, or None when the word no longer holds the
/// pair (a stale entry: an earlier merge already changed it).
#[inline(always)]
fn merge_word(
    tokens: &mut [TokenId],
    pair_at: &mut [PairId],
    (a, b, c): (TokenId, TokenId, TokenId),
    count: u64,
    mut removed: impl FnMut(PairId, u64, u64),
) -> Option<(usize, usize, u64)> {
    let n = tokens.len();
    let first = (0..n.saturating_sub(1)).find(|&i| tokens[i] == a && tokens[i + 1] == b)?;
    // The occurrences, left to right and not overlapping: the last one's place and how many.
    let (mut i, mut last, mut replaced) = (first, first, 0u64);
    while i + 1 < n {
        if tokens[i] == a && tokens[i + 1] == b {
            (last, replaced) = (i, replaced + 1);
            i += 2;
        } else {
            i += 1;
        }
    }
    // Only the pairs in a window around the occurrences change: from the
    // token before the first to the token after the last, widened to
    // whole runs of equal tokens (whose `k` depends on their length).
    let mut lo = first.saturating_sub(1);
    while lo > 0 && tokens[lo - 1] == tokens[lo] {
        lo -= 1;
    }
    let mut hi = (last + 3).min(n);
    while hi < n && tokens[hi] == tokens[hi - 1] {
        hi += 1;
    }
    // The pairs before: their ids are kept beside the tokens.
    each_pair(&tokens[lo..hi], count.wrapping_neg(), |at, _, _, freq, k| removed(pair_at[lo + at.start], freq, k));
    let (mut r, mut out) = (first, first);
    while r < hi {
        if r + 1 < hi && tokens[r] == a && tokens[r + 1] == b {
            tokens[out] = c;
            r += 2;
        } else {
            tokens[out] = tokens[r];
            r += 1;
        }
        out += 1;
    }
    tokens.copy_within(hi..n, out);
    // The pair from the window's last token on, and those after, move along.
    pair_at.copy_within(hi - 1..n - 1, out - 1);
    Some((lo, out, replaced))
}

/// The key of pair `(a, b)` in `Core::pair_ids`: one word to hash.
#[inline(always)]
fn key(a: TokenId, b: TokenId) -> u64 {
    (a as u64) << 32 | b as u64
}

/// The token that merging `a b` makes, written into `out`: `b` loses the
/// continuation prefix `prefix`.
pub fn merged_into(a: &str, b: &str, prefix: &str, out: &mut String) {
    out.clear();
    out.push_str(a);
    out.push_str(b.strip_prefix(prefix).unwrap_or(b));
}

/// The token that merging `a b` makes: `a b` joined as they are when there
/// is no continuation prefix, else [`merged_into`].
fn merge_tokens(a: &str, b: &str, continuation: Option<&str>, out: &mut String) {
    if let Some(prefix) = continuation {
        merged_into(a, b, prefix, out);
    } else {
        out.clear();
        out.push_str(a);
        out.push_str(b);
    }
}

/// The error of `words` words of `size` `unit`s in all (their text's bytes,
/// or their tokens) that there is no room to train on.
#[cold]
fn no_room_for_words(words: usize, size: usize, unit: &str) -> Error {
    let s = if words == 1 { "" } else { "s" };
    Error::memory(format_args!("training on {words} distinct word{s} of {size} {unit} in all"))
}

impl Core {
    /// The words of `counts` as tokens of their characters; `Error::Memory`
    /// when there is no room for them.
    fn new(mut counts: Vec<(String, u64)>, config: &TrainerConfig) -> Result<Self> {
        counts.retain(|(w, c)| !w.is_empty() && *c > 0);
        if let Some(limit) = config.limit_alphabet {
            limit_alphabet(&mut counts, limit, &config.initial_alphabet);
        }
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
        // The alphabet: every (character, continuation?) seen, interned in
        // string order; words then map each character through a small table.
        // ASCII characters go through a flat table (`ascii_slot`), others a set.
        let ascii_slot = |c: char, continuation: bool| (c as usize) * 2 + continuation as usize;
        let mut ascii_seen = [false; 256];
        let mut chars: FxHashSet<(char, bool)> = FxHashSet::default();
        let continuation = config.continuation;
        for (word, _) in &counts {
            for (i, c) in word.char_indices() {
                if c.is_ascii() {
                    ascii_seen[ascii_slot(c, continuation && i > 0)] = true;
                } else {
                    chars.insert((c, continuation && i > 0));
                }
            }
        }
        chars.extend(config.initial_alphabet.iter().map(|&c| (c, false)));
        chars.extend((0..256).filter(|&s| ascii_seen[s]).map(|s| ((s / 2) as u8 as char, s % 2 == 1)));
        let prefix = config.prefix.as_str();
        let piece = |(c, continuation): (char, bool)| {
            if continuation {
                format!("{prefix}{c}")
            } else {
                c.to_string()
            }
        };
        let mut alphabet: Vec<(String, (char, bool))> = chars.into_iter().map(|k| (piece(k), k)).collect();
        alphabet.sort_unstable();
        let mut char_ids: FxHashMap<(char, bool), TokenId> = FxHashMap::default();
        let mut ascii_ids = [TokenId::MAX; 256];
        for (t, (c, cont)) in &alphabet {
            let (c, cont) = (*c, *cont);
            let id = intern(t, &mut vocab);
            if c.is_ascii() {
                ascii_ids[ascii_slot(c, cont)] = id;
            } else {
                char_ids.insert((c, cont), id);
            }
        }
        // Reserved at once, as large as the words' text: fallibly.
        let mut words = Words::default();
        let bytes: usize = counts.iter().map(|(w, _)| w.len()).sum();
        if words.tokens.try_reserve_exact(bytes).is_err() || words.words.try_reserve_exact(counts.len()).is_err() {
            return Err(no_room_for_words(counts.len(), bytes, "bytes of text"));
        }
        for (word, count) in &counts {
            let id = |(i, c): (usize, char)| {
                let cont = continuation && i > 0;
                if c.is_ascii() {
                    ascii_ids[ascii_slot(c, cont)]
                } else {
                    char_ids[&(c, cont)]
                }
            };
            words.push(word.char_indices().map(id), *count);
        }
        threads::drop_in_background(counts);
        let n = vocab.len();
        let mut core = Core {
            token_freq: vec![0; n],
            total: 0,
            degree: vec![0; n],
            vocab,
            ids,
            words,
            pairs: Vec::new(),
            pair_ids: FxHashMap::default(),
            pair_words: Vec::new(),
            min_frequency: config.min_frequency,
            continuation,
            prefix: config.prefix.clone(),
            changes: Changes::default(),
            new_pairs: NewPairs::default(),
            most_tokens: 0,
        };
        // A merge adds one token at most, and takes away one occurrence at least.
        core.most_tokens = config.vocab_size.clamp(core.vocab.len(), core.vocab.len() + core.words.tokens.len());
        let most = core.most_tokens;
        reserve_total(&mut core.vocab, most);
        reserve_total(&mut core.token_freq, most);
        reserve_total(&mut core.degree, most);
        let _ = core.ids.try_reserve(most.saturating_sub(core.ids.len()));
        Ok(core)
    }

    /// The prefix of the tokens that continue a word.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The most tokens the vocabulary can end with, for the tables of
    /// tokens to reserve.
    pub fn most_tokens(&self) -> usize {
        self.most_tokens
    }

    /// About how many pairs the pair table ends with, for the tables of
    /// pairs to reserve: a quarter of the token positions. Measured on GCIDE
    /// and the multilingual fortunes at vocabularies of 8,000 to 60,000: 19
    /// to 27% with `likelihood` and `frequency`, 1 to 13% with `pmi`.
    pub fn expected_pairs(&self) -> usize {
        self.words.tokens.len() / 4
    }

    /// Whether pair `p` may be merged: it occurs, at least `min_frequency` times.
    pub fn eligible(&self, p: PairId) -> bool {
        let freq = self.pairs[p as usize].freq;
        freq > 0 && freq >= self.min_frequency
    }

    /// The id of pair `(a, b)` if it was ever seen.
    pub fn pair_of(&self, a: TokenId, b: TokenId) -> Option<PairId> {
        self.pair_ids.get(&key(a, b)).copied()
    }

    /// Counts every token and pair; returns the pairs (all of them).
    ///
    /// One pass over the words gives each pair a first id in order of first
    /// sight, its counts and its words (in word order); the pairs then get
    /// their ids in sorted order, so that ids do not depend on hashing.
    /// `Error::Memory` when there is no room for a pair id per token.
    fn count_initial_pairs(&mut self) -> Result<Vec<PairId>> {
        let expected = self.expected_pairs();
        let _ = self.pair_ids.try_reserve(expected);
        let mut keys: Vec<u64> = Vec::new();
        let mut counts: Vec<(u64, u64)> = Vec::new();
        let mut lists: Vec<Vec<u32>> = Vec::new();
        let tokens = self.words.tokens.len();
        let mut pair_at = Vec::new();
        if pair_at.try_reserve_exact(tokens).is_err() {
            return Err(no_room_for_words(self.words.len(), tokens, "tokens"));
        }
        pair_at.resize(tokens, 0 as PairId);
        for w in 0..self.words.len() {
            let Word { start, len, count } = self.words.words[w];
            let tokens = &self.words.tokens[start..start + len];
            for &t in tokens {
                self.token_freq[t as usize] += count;
                self.total += count;
            }
            let at = &mut pair_at[start..start + len];
            each_pair(tokens, count, |places, a, b, freq, k| {
                let first = *self.pair_ids.entry(key(a, b)).or_insert_with(|| {
                    keys.push(key(a, b));
                    counts.push((0, 0));
                    lists.push(Vec::new());
                    (keys.len() - 1) as PairId
                }) as usize;
                at[places].fill(first as PairId);
                let e = &mut counts[first];
                (e.0, e.1) = (e.0.wrapping_add(freq), e.1.wrapping_add(k));
                // Each word once: its pairs are seen while it is the last word.
                if lists[first].last() != Some(&(w as u32)) {
                    lists[first].push(w as u32);
                }
            });
        }
        let mut order: Vec<(u64, PairId)> =
            keys.iter().enumerate().map(|(first, &key)| (key, first as PairId)).collect();
        order.sort_unstable();
        let mut id_of = vec![0 as PairId; keys.len()];
        reserve_total(&mut self.pairs, keys.len().max(expected));
        reserve_total(&mut self.pair_words, keys.len().max(expected));
        for (id, &(key, first)) in order.iter().enumerate() {
            let first = first as usize;
            id_of[first] = id as PairId;
            let (a, b) = ((key >> 32) as TokenId, key as TokenId);
            self.degree[a as usize] += 1;
            self.degree[b as usize] += 1;
            let (freq, k) = counts[first];
            self.pairs.push(Pair { a, b, freq, k, touched: 0 });
            self.pair_words.push(std::mem::take(&mut lists[first]));
        }
        for id in self.pair_ids.values_mut() {
            *id = id_of[*id as usize];
        }
        // The last token of a word starts no pair: its place holds 0, a
        // first id only if there is a pair at all.
        if !id_of.is_empty() {
            for id in pair_at.iter_mut() {
                *id = id_of[*id as usize];
            }
        }
        self.words.pair_at = pair_at;
        Ok((0..self.pairs.len() as PairId).collect())
    }

    /// Merges pair `best` in every word that holds it and updates all counts.
    /// Returns the pairs whose counts changed, and what was merged.
    fn merge(&mut self, best: PairId) -> (Vec<PairId>, Merged) {
        let Pair { a, b, .. } = self.pairs[best as usize];
        let mut merged = String::new();
        let prefix = self.continuation.then_some(self.prefix.as_str());
        merge_tokens(&self.vocab[a as usize], &self.vocab[b as usize], prefix, &mut merged);
        let (c, new) = match self.ids.get(&merged) {
            Some(&id) => (id, false),
            None => {
                self.vocab.push(merged.clone());
                self.ids.insert(merged, (self.vocab.len() - 1) as TokenId);
                self.token_freq.push(0);
                self.degree.push(0);
                ((self.vocab.len() - 1) as TokenId, true)
            }
        };
        let mut changes = std::mem::take(&mut self.changes);
        changes.epoch += 1;
        let mut words = std::mem::take(&mut self.pair_words[best as usize]);
        words.sort_unstable();
        words.dedup();
        let replaced_all = self.merge_words(&words, (a, b, c), new, &mut changes);
        self.token_freq[a as usize] -= replaced_all;
        self.token_freq[b as usize] -= replaced_all;
        self.token_freq[c as usize] += replaced_all;
        self.total -= replaced_all;
        let changed = self.apply(&mut changes);
        self.changes = changes;
        (changed, Merged { a, b, c })
    }

    /// Merges `a b` into `c` (`new`: made by this merge) in `words`
    /// (sorted), one after another, and updates the pair tables; returns
    /// the occurrences replaced (weighted).
    fn merge_words(
        &mut self,
        words: &[u32],
        (a, b, c): (TokenId, TokenId, TokenId),
        new: bool,
        changes: &mut Changes,
    ) -> u64 {
        if new {
            self.new_pairs.fit(self.vocab.len());
        }
        let mut table = PairTable {
            pair_ids: &mut self.pair_ids,
            pairs: &mut self.pairs,
            pair_words: &mut self.pair_words,
            degree: &mut self.degree,
            new: new.then_some((c, &mut self.new_pairs)),
        };
        let mut replaced_all = 0u64;
        for (i, &w) in words.iter().enumerate() {
            // The words of a small merge are scattered: start reading the
            // record of a word a few ahead, and the tokens of the one after
            // the next.
            if let Some(&ahead) = words.get(i + 8) {
                hint::prefetch(&self.words.words[ahead as usize]);
            }
            if let Some(&after) = words.get(i + 2) {
                let start = self.words.words[after as usize].start;
                if let Some(t) = self.words.tokens.get(start) {
                    hint::prefetch(t);
                    hint::prefetch(&self.words.pair_at[start]);
                }
            }
            // And the counts of the next word's pairs (its ids were asked for
            // at the last word): the window read below is among them.
            if let Some(&next) = words.get(i + 1) {
                let Word { start, len, .. } = self.words.words[next as usize];
                for &id in &self.words.pair_at[start..start + len.saturating_sub(1)] {
                    hint::prefetch(table.pairs.as_ptr().wrapping_add(id as usize));
                }
            }
            let Word { start, len: n, count } = self.words.words[w as usize];
            let tokens = &mut self.words.tokens[start..start + n];
            let pair_at = &mut self.words.pair_at[start..start + n];
            let Some((lo, out, replaced)) =
                merge_word(tokens, pair_at, (a, b, c), count, |id, freq, k| changes.add(table.pairs, id, freq, k))
            else {
                continue; // stale entry: an earlier merge already changed this word
            };
            self.words.words[w as usize].len = n - replaced as usize;
            // The pairs after, and the word in the lists of those with `c`.
            table.add(&tokens[lo..out], &mut pair_at[lo..out], count, changes, (w, c));
            replaced_all = replaced_all.wrapping_add(replaced * count);
        }
        self.new_pairs.clear();
        replaced_all
    }

    /// Ends the changes of a merge; returns the pairs that changed, sorted.
    fn apply(&mut self, changes: &mut Changes) -> Vec<PairId> {
        changes.before.sort_unstable_by_key(|&(id, _, _)| id);
        let changed = changes
            .before
            .iter()
            .filter(|&&(id, freq, k)| {
                let pair = &self.pairs[id as usize];
                (pair.freq, pair.k) != (freq, k)
            })
            .map(|&(id, _, _)| id)
            .collect();
        changes.before.clear();
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_with(words: &[(&str, u64)], vocab_size: usize, min_frequency: u64, specials: &[&str]) -> Trained {
        let counts = words.iter().map(|&(w, c)| (w.to_string(), c)).collect();
        let special_tokens = specials.iter().map(|s| s.to_string()).collect();
        let config = TrainerConfig {
            objective: Objective::Pmi,
            ..TrainerConfig::new(vocab_size, min_frequency, special_tokens)
        };
        crate::training::train(counts, &config, &mut Progress::disabled()).unwrap()
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
        let config = TrainerConfig::new(10, 0, vec![]);
        let err = crate::training::train(counts, &config, &mut Progress::disabled()).unwrap_err();
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
    fn words_of_one_character_hold_no_pair_and_train_to_the_alphabet() {
        let t = run(&[("a", 3), ("b", 1)], 100, 0);
        assert_eq!(t.vocab, ["[UNK]", "a", "b"]);
        assert!(t.merges.is_empty());
    }

    #[test]
    fn a_vocab_size_beyond_what_the_corpus_allows_reserves_no_more() {
        // The tables reserve room for the tokens the words can make, not for
        // `vocab_size`: this neither overflows nor asks for exabytes.
        let t = run(&[("abab", 3), ("ba", 2)], usize::MAX, 0);
        assert_eq!(t.vocab.len(), 1 + 4 + t.merges.len());
        let core = Core::new(vec![("abab".to_string(), 3)], &TrainerConfig::new(usize::MAX, 0, vec![])).unwrap();
        assert_eq!(core.most_tokens(), core.vocab.len() + 4);
    }

    #[test]
    fn another_prefix_marks_the_continuation_tokens_and_merges_drop_it() {
        let counts = vec![("hug".to_string(), 10), ("pug".to_string(), 5)];
        let config = TrainerConfig {
            prefix: "@@".to_string(),
            objective: Objective::Frequency,
            ..TrainerConfig::new(7, 0, vec![])
        };
        let t = crate::training::train(counts, &config, &mut Progress::disabled()).unwrap();
        assert_eq!(t.vocab, ["@@g", "@@u", "h", "p", "@@ug", "hug", "pug"]);
        assert_eq!(t.merges[0], ("@@u".to_string(), "@@g".to_string()));
    }

    #[test]
    fn limit_alphabet_counts_and_keeps_the_initial_alphabet() {
        let counts = || vec![("aa".to_string(), 10), ("bb".to_string(), 8), ("cq".to_string(), 1)];
        let config = |limit, initial: &str| TrainerConfig {
            limit_alphabet: Some(limit),
            initial_alphabet: initial.chars().collect(),
            ..TrainerConfig::new(1, 0, vec![])
        };
        let alphabet =
            |c: &TrainerConfig| crate::training::train(counts(), c, &mut Progress::disabled()).unwrap().vocab;
        assert_eq!(alphabet(&config(2, "z")), ["##a", "a", "z"]);
        assert_eq!(alphabet(&config(1, "cqz")), ["##q", "c", "q", "z"]);
        assert_eq!(alphabet(&config(9, "z")), ["##a", "##b", "##q", "a", "b", "c", "z"]);
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

    /// Every pair's `freq` and `k` recounted from the words as they are now.
    fn recount(core: &Core) -> FxHashMap<(TokenId, TokenId), (u64, u64)> {
        let mut deltas = Deltas::default();
        for w in 0..core.words.len() {
            add_pairs(core.words.tokens(w), core.words.count(w), &mut deltas);
        }
        deltas.retain(|_, v| *v != (0, 0));
        deltas
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(300))]

        /// The counts a merge updates in its window equal a recount of the
        /// whole corpus, through runs of equal tokens and repeated merges, and
        /// it reports exactly the pairs whose counts changed.
        #[test]
        fn incremental_pair_counts_match_a_recount(
            words in proptest::collection::vec(("[ab]{1,9}|[abc]{1,14}", 1u64..4), 1..12),
            picks in proptest::collection::vec(0usize..1000, 1..14),
        ) {
            let counts = words.iter().map(|(w, c)| (w.clone(), *c)).collect();
            let mut core = Core::new(counts, &TrainerConfig::new(1000, 0, vec![])).unwrap();
            core.count_initial_pairs().unwrap();
            for pick in picks {
                let live: Vec<PairId> = (0..core.pairs.len() as PairId).filter(|&p| core.eligible(p)).collect();
                if live.is_empty() {
                    break;
                }
                let before: Vec<(u64, u64)> = core.pairs.iter().map(|p| (p.freq, p.k)).collect();
                let (changed, _) = core.merge(live[pick % live.len()]);
                // Exactly the pairs whose counts differ, sorted, new ones included.
                let differ: Vec<PairId> = (0..core.pairs.len())
                    .filter(|&p| before.get(p).copied().unwrap_or((0, 0)) != (core.pairs[p].freq, core.pairs[p].k))
                    .map(|p| p as PairId)
                    .collect();
                proptest::prop_assert_eq!(changed, differ);
                let expected = recount(&core);
                for (p, pair) in core.pairs.iter().enumerate() {
                    let want = expected.get(&(pair.a, pair.b)).copied().unwrap_or((0, 0));
                    proptest::prop_assert_eq!((pair.freq, pair.k), want, "pair {}", p);
                }
                for &(a, b) in expected.keys() {
                    proptest::prop_assert!(core.pair_of(a, b).is_some());
                }
                // The ids kept beside the tokens are those of the pairs there.
                for w in 0..core.words.len() {
                    let Word { start, len, .. } = core.words.words[w];
                    for i in start..(start + len).saturating_sub(1) {
                        let (a, b) = (core.words.tokens[i], core.words.tokens[i + 1]);
                        proptest::prop_assert_eq!(Some(core.words.pair_at[i]), core.pair_of(a, b));
                    }
                }
                let total: u64 = (0..core.words.len()).map(|w| core.words.tokens(w).len() as u64 * core.words.count(w)).sum();
                proptest::prop_assert_eq!(core.total, total);
            }
        }
    }
}
