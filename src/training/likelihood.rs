//! The `likelihood` objective: merge the pair whose merge most increases the
//! likelihood of the corpus under a unigram model (spec section 4):
//!
//! `ΔL = [f(c(a)−k) − f(c(a))] + [f(c(b)−k) − f(c(b))] + [f(c(ab)+k) − f(c(ab))] − [f(N−k) − f(N)]`
//!
//! with `f(x) = x·ln x`, evaluated in IEEE double in that order (one bracket
//! `f(c(a)−2k) − f(c(a))` when `a = b`); ties: larger `k`, then smaller `a`,
//! then smaller `b`.
//!
//! Lazy max-heap. Every pair in the heap is filed under a key that is an
//! upper bound on its gain now (`ub`, plus some headroom), however old:
//!
//! - a gain computed now is within `slack` of the gain evaluated later with
//!   the same counts and a smaller `N` (in exact arithmetic `f(N) − f(N−k)`
//!   grows with `N`, so the gain can only fall; `slack` covers the rounding);
//! - after a merge of `a b` into `c`, the pairs whose `freq` or `k` changed and
//!   the pairs that would make `c` (its count rose, so may their gain) are
//!   recomputed at once;
//! - the count of `a` (and `b`) fell by `Δ`, which raises the gain of every
//!   pair holding it. Its bracket `f(c−k) − f(c)` rises by at most
//!   `Δ·ln(c'/(c'−k)) ≤ Δ·k/(c'−k)` (`c'` the new count; `2k` for a pair of
//!   two equal tokens). Rather than adding that to every holder after every
//!   merge, each token `t` sums `A_t = Σ Δ/c'` over its falls: while
//!   `8k ≤ c'`, `Δ·k/(c'−k) ≤ (8/7)·k·Δ/c'`, so the rises since a holder was
//!   last looked at add up to at most `(8/7)·k·(A_t − A_t(then))`. A holder
//!   entry (`Holder`) is only looked at when that could pass half the room
//!   left between its `ub` and its key, or when `c' < 8k` (that fall is then
//!   bounded exactly): its rises are added to `ub`, and when `ub` passes the
//!   key the gain is recomputed. Scanning a token's entries is a pass over
//!   contiguous memory that touches few pairs.
//!
//! `best` is the classic lazy greedy: the top entry's gain is recomputed and
//! it is filed under that exact gain, until an entry with an exact key is on
//! top; every other key bounds its gain (ties included), so no pair can beat
//! or tie it. The entries it recomputed then go back under their bounds with
//! headroom (a short move up).
//!
//! Measured on GCIDE (40 MB, vocab 30,000), 1 thread, release build: the
//! training took ~2.95 s with a bound raise on every holder after every
//! merge and `best` popping entries out of the heap and pushing them back;
//! see benches/RESULTS.md for the figures after.

use super::indexed_heap::IndexedHeap;
use super::objective::tie_break;
use super::reserve::reserve_total;
use super::targets::Targets;
use super::trainer::{Core, Merged, Pair, PairId, Ranking, TokenId};
use crate::hint;
use crate::pipeline::model::vocab::CONTINUATION;

const NONE: TokenId = TokenId::MAX;

/// `x·ln x`, with `f(0) = 0`.
pub fn f(x: u64) -> f64 {
    if x == 0 {
        0.0
    } else {
        let x = x as f64;
        x * x.ln()
    }
}

/// `ΔL` of merging `a b` (`same`: `a = b`), counts as in the spec.
pub fn gain(ca: u64, cb: u64, cab: u64, n: u64, k: u64, same: bool) -> f64 {
    let parts = if same { f(ca - 2 * k) - f(ca) } else { (f(ca - k) - f(ca)) + (f(cb - k) - f(cb)) };
    (parts + (f(cab + k) - f(cab))) - (f(n - k) - f(n))
}

/// `f(x)` for `x` below its length, computed once by `f` (so the same
/// doubles): late merges mostly have small counts, and a lookup is cheaper
/// than the logarithm.
struct SmallF(Box<[f64]>);

/// How many `f(x)` [`SmallF`] holds: 128 KiB of doubles.
const SMALL_F: u64 = 1 << 14;

impl Default for SmallF {
    fn default() -> Self {
        Self((0..SMALL_F).map(f).collect())
    }
}

impl SmallF {
    #[inline(always)]
    fn f(&self, x: u64) -> f64 {
        if x < SMALL_F {
            self.0[x as usize]
        } else {
            f(x)
        }
    }

    /// `gain` with `f(c(a))`, `f(c(b))`, `f(c(ab))` and `f(N)` given: the
    /// same operations in the same order, so the same double.
    #[allow(clippy::too_many_arguments)]
    fn gain_given(&self, ca: u64, cb: u64, cab: u64, n: u64, k: u64, same: bool, fs: [f64; 4]) -> f64 {
        let [fa, fb, fab, fnn] = fs;
        let f = |x| self.f(x);
        let parts = if same { f(ca - 2 * k) - fa } else { (f(ca - k) - fa) + (f(cb - k) - fb) };
        (parts + (f(cab + k) - fab)) - (f(n - k) - fnn)
    }
}

/// More than the rounding error of any gain evaluated with a total of at
/// most `n` tokens: every term is at most `f(n)` in size, and the evaluation
/// errs by a few units in the last place of such terms.
fn slack(n: u64) -> f64 {
    f(n) * (-40f64).exp2() + f64::MIN_POSITIVE
}

/// Whether heap entry `x` (a pair and the key it is filed under) comes out
/// before `y`: larger key, then the tie-break. The tie-break's `a` and `b`
/// come from the pair id (they never change); its `k` is the one the pair
/// was filed with (`filed_k`, read only on equal keys, so that a heap
/// entry is 16 bytes and a node's four children share fewer cache lines).
fn before(vocab: &[String], pairs: &[Pair], filed_k: &[u64], x: &(PairId, f64), y: &(PairId, f64)) -> bool {
    let order = x.1.partial_cmp(&y.1).expect("gains are finite");
    order
        .then_with(|| {
            let (px, py) = (&pairs[x.0 as usize], &pairs[y.0 as usize]);
            let (kx, ky) = (filed_k[x.0 as usize], filed_k[y.0 as usize]);
            tie_break(vocab, (kx, px.a, px.b), (ky, py.a, py.b))
        })
        .is_gt()
}

/// Room added above `ub` when a pair is filed, so that rises of its gain
/// do not move it in the heap: an eighth of the way up to `top` (the last
/// gain merged), at least a hair (`2^-20` of the gain). A pair far below the
/// top then stays put through many raises, and one close to the top is
/// filed close to its gain, so that `best` does not recompute it again at
/// the next merge unless it may be the best. (With a 64th of the gain as the
/// least room, the pairs within 1.5% of the top were recomputed by `best`
/// at every merge: ~127 per merge on GCIDE at vocab 30,000, against ~6 now.)
fn headroom(g: f64, top: f64) -> f64 {
    (g.abs() * (-20f64).exp2()).max((top - g) * 0.125)
}

/// `Δ·k/(c−k)` rounded up: a bound on the rise of `f(c−k) − f(c)` when the
/// count falls by `Δ` to `c` (None when `c ≤ k`).
fn rise(delta: u64, c: u64, k: u64) -> Option<f64> {
    if c <= k {
        return None;
    }
    Some(delta as f64 * k as f64 / (c - k) as f64 * (1.0 + (-30f64).exp2()))
}

/// How a pair is watched through one of its tokens (see `Holder`): rises
/// below `1/(1 − 1/WATCH)` of the exact bound are only counted in bulk.
const WATCH: u64 = 8;

/// `WATCH/(WATCH − 1)` with room for rounding: for `WATCH·k ≤ c`,
/// `Δ·k/(c−k) ≤ SCALE·k·Δ/c`.
const SCALE: f64 = 8.0 / 7.0 * (1.0 + 1.0 / (1u64 << 30) as f64);

/// What the ranking keeps per pair: one cache line, with what watching
/// it through its tokens needs (see `Holder`), so that settling or filing a
/// pair reads no other record of it than its entries' `Watch`es.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Slot {
    /// Its gain when last computed.
    gain: f64,
    /// An upper bound on its gain now, not counting the rises its holder
    /// entries have not settled yet, and the key it is filed under.
    ub: f64,
    filed: f64,
    /// Per side (entry), `acc` of the side's token when its rises were
    /// last settled (see `Holder`), and the room each side may add.
    mark: [f64; 2],
    room: f64,
    /// The epoch of `gain`.
    epoch: u32,
    /// The token its merge makes, if that token exists (`NONE`).
    target: TokenId,
    /// Its entries' places in `holders[a]` and `holders[b]` (one entry when
    /// `a = b`), or `UNLISTED`: it has entries (in the lists of both its
    /// tokens) exactly when eligible.
    pos: [u32; 2],
}

const UNLISTED: u32 = u32::MAX;

impl Slot {
    fn listed(&self) -> bool {
        self.pos[0] != UNLISTED
    }
}

/// An eligible pair in the list of one of its tokens `t`, as side `side`.
///
/// Per token, `acc[t]` sums `Δ/c` over the falls of its count (`Δ` the fall,
/// `c` the count after it, rounded up). While `WATCH·k ≤ c` at every fall,
/// the rises of the pair's gain through `t` since `mark` (`Slot::mark`) add
/// up to at most `SCALE·k·(acc[t] − mark)` (`k` doubled when `a = b`). The
/// entry is only looked at when that could pass `room` (`Slot::room`, half
/// of what is left between `ub` and the key), or when `c < limit = WATCH·k`
/// (then the rise is bounded exactly, as one fall).
#[derive(Clone, Copy)]
struct Holder {
    pair: PairId,
    side: u32,
}

/// What a fall of the token's count reads of each `Holder` (kept apart, in
/// the same order, so that the scan reads 16 bytes per entry): `over`,
/// `mark + room` rounded down, and `limit`. The entry is looked at when
/// `acc > over` (then `acc − mark` may pass `room`) or `c < limit`.
#[derive(Clone, Copy)]
struct Watch {
    over: f64,
    limit: u64,
}

impl Watch {
    /// `over` for `mark` and `room`.
    fn over(mark: f64, room: f64) -> f64 {
        if room == f64::INFINITY {
            return f64::INFINITY;
        }
        let sum = mark + room;
        // Below `mark + room` in exact arithmetic: the sum's rounding error is
        // at most 2^-53 of it, and `(|mark| + room)·2^-50` is more than that
        // and its own rounding.
        sum - (mark.abs() + room) * (-50f64).exp2()
    }

    #[inline(always)]
    fn due(&self, acc: f64, now: u64) -> bool {
        (now < self.limit) | (acc > self.over)
    }
}

/// The index of the first entry from `from` on that is due (or `w.len()`):
/// four at a time without branches between them.
fn first_due(w: &[Watch], from: usize, acc: f64, now: u64) -> usize {
    let mut i = from;
    while i + 4 <= w.len() {
        let q = &w[i..i + 4];
        if q[0].due(acc, now) | q[1].due(acc, now) | q[2].due(acc, now) | q[3].due(acc, now) {
            break;
        }
        i += 4;
    }
    while i < w.len() && !w[i].due(acc, now) {
        i += 1;
    }
    i
}

pub struct LikelihoodRanking {
    heap: IndexedHeap<f64>,
    /// Per pair, in one place, and the `k` it is filed with in the heap
    /// (changed only with its key).
    slots: Vec<Slot>,
    filed_k: Vec<u64>,
    /// Per token: the eligible pairs holding it, and what a fall reads of them.
    holders: Vec<Vec<Holder>>,
    watches: Vec<Vec<Watch>>,
    /// Per token `t`: `c(t)` as of the last update, `c(t)` now and `f(c(t))`
    /// side by side (what a gain reads), and the accumulated falls (see `Holder`).
    counts: Vec<u64>,
    token_cf: Vec<(u64, f64)>,
    acc: Vec<f64>,
    /// Entries `best` popped, to put back.
    popped: Vec<PairId>,
    /// Pairs to recompute at the end of an update, and the entries due in a
    /// fall (kept to reuse the memory).
    exact: Vec<PairId>,
    due: Vec<(Holder, u64)>,
    /// The epoch: the number of merges so far plus one.
    epoch: u32,
    /// The gain of the last pair `best` picked (-inf before the first).
    top: f64,
    /// `N` of the current epoch, `f(N)` and `slack(N)`.
    total: u64,
    total_f: f64,
    margin: f64,
    piece: String,
    small_f: SmallF,
    /// What each pair's merge makes, by hash (see `targets`).
    targets: Targets,
}

impl Default for LikelihoodRanking {
    fn default() -> Self {
        Self {
            heap: IndexedHeap::default(),
            slots: Vec::new(),
            filed_k: Vec::new(),
            holders: Vec::new(),
            watches: Vec::new(),
            counts: Vec::new(),
            token_cf: Vec::new(),
            acc: Vec::new(),
            popped: Vec::new(),
            exact: Vec::new(),
            due: Vec::new(),
            epoch: 0,
            top: f64::NEG_INFINITY,
            total: 0,
            total_f: 0.0,
            margin: 0.0,
            piece: String::new(),
            small_f: SmallF::default(),
            targets: Targets::new(CONTINUATION),
        }
    }
}

/// `x` rounded up by a little more than any one rounding error.
fn up(x: f64) -> f64 {
    x + x.abs() * (-50f64).exp2()
}

/// The pair's `k` as its brackets use it (`2k` when `a = b`).
fn k_of(pair: &Pair) -> u64 {
    if pair.a == pair.b {
        2 * pair.k
    } else {
        pair.k
    }
}

impl LikelihoodRanking {
    fn gain_of(&self, core: &Core, p: PairId) -> f64 {
        let Pair { a, b, k, .. } = core.pairs[p as usize];
        let target = self.slots[p as usize].target;
        let (cab, fab) = if target == NONE { (0, 0.0) } else { self.token_cf[target as usize] };
        let ((ca, fa), (cb, fb)) = (self.token_cf[a as usize], self.token_cf[b as usize]);
        let fs = [fa, fb, fab, self.total_f];
        self.small_f.gain_given(ca, cb, cab, core.total, k, a == b, fs)
    }

    /// The tokens of pair `p` with an entry each (one when `a = b`).
    fn sides(core: &Core, p: PairId) -> ([TokenId; 2], usize) {
        let Pair { a, b, .. } = core.pairs[p as usize];
        ([a, b], if a == b { 1 } else { 2 })
    }

    /// Files `p`, whose gain is current, under its gain plus slack and headroom.
    fn file(&mut self, core: &Core, p: PairId) {
        let g = self.slots[p as usize].gain;
        let ub = g + self.margin;
        let key = ub + headroom(g, self.top);
        self.slots[p as usize].ub = ub;
        self.slots[p as usize].filed = key;
        self.filed_k[p as usize] = core.pairs[p as usize].k;
        let (vocab, pairs, filed_k) = (&core.vocab, &core.pairs, &self.filed_k);
        self.heap.upsert(p, key, &|x: &(u32, f64), y: &(u32, f64)| before(vocab, pairs, filed_k, x, y));
        if self.slots[p as usize].listed() {
            let (tokens, n) = Self::sides(core, p);
            for (s, &tok) in tokens[..n].iter().enumerate() {
                self.slots[p as usize].mark[s] = self.acc[tok as usize];
            }
            self.watch(core, p);
        }
    }

    /// Sets the entries of `p` from its `ub`, key and `k`: each side may
    /// add up to half of the room left before it must be looked at.
    fn watch(&mut self, core: &Core, p: PairId) {
        let kk = k_of(&core.pairs[p as usize]);
        let slot = self.slots[p as usize];
        let room = (slot.filed - slot.ub) * 0.5 * (1.0 - (-30f64).exp2()) / (kk as f64 * SCALE);
        self.slots[p as usize].room = room;
        let limit = kk.saturating_mul(WATCH);
        let (tokens, n) = Self::sides(core, p);
        for (s, &tok) in tokens[..n].iter().enumerate() {
            let at = slot.pos[s] as usize;
            self.watches[tok as usize][at] = Watch { over: Watch::over(slot.mark[s], room), limit };
        }
    }

    /// Adds to `ub` the rises of `p` counted in its entries (side `skip`
    /// up to `skip_acc` only, marked `skip_mark`), rounded up.
    fn settle(&mut self, core: &Core, p: PairId, skip: Option<(usize, f64, f64)>) {
        let w = k_of(&core.pairs[p as usize]) as f64 * SCALE;
        let (tokens, n) = Self::sides(core, p);
        let slot = &mut self.slots[p as usize];
        let mut ub = slot.ub;
        for (s, &tok) in tokens[..n].iter().enumerate() {
            let t = tok as usize;
            let at = slot.pos[s] as usize;
            let (acc, mark) = match skip {
                Some((side, acc, mark)) if side == s => (acc, mark),
                _ => (self.acc[t], self.acc[t]),
            };
            let d = acc - slot.mark[s];
            if d > 0.0 {
                ub = up(ub + up(d * w));
            }
            slot.mark[s] = mark;
            self.watches[t][at].over = Watch::over(mark, slot.room);
        }
        slot.ub = ub;
    }

    /// After `ub` of `p` rose: recomputes its gain if `ub` passed the key,
    /// else resets its entries' room.
    fn check(&mut self, core: &Core, p: PairId) {
        if self.slots[p as usize].ub > self.slots[p as usize].filed {
            self.refresh(core, p);
        } else {
            self.watch(core, p);
        }
    }

    /// Recomputes the gain of `p` now and files it (or takes it out of the
    /// heap if it is no longer eligible).
    fn refresh(&mut self, core: &Core, p: PairId) {
        if !core.eligible(p) {
            let (vocab, pairs, filed_k) = (&core.vocab, &core.pairs, &self.filed_k);
            self.heap.remove(p, &|x: &(u32, f64), y: &(u32, f64)| before(vocab, pairs, filed_k, x, y));
            return;
        }
        self.slots[p as usize].gain = self.gain_of(core, p);
        self.slots[p as usize].epoch = self.epoch;
        self.file(core, p);
    }

    /// Adds entries for `p` to the lists of its tokens (to be set by `file`).
    fn list(&mut self, core: &Core, p: PairId) {
        let (tokens, n) = Self::sides(core, p);
        let slot = &mut self.slots[p as usize];
        slot.mark = [0.0; 2];
        slot.room = f64::INFINITY;
        for (s, &tok) in tokens[..n].iter().enumerate() {
            let list = &mut self.holders[tok as usize];
            slot.pos[s] = list.len() as u32;
            list.push(Holder { pair: p, side: s as u32 });
            self.watches[tok as usize].push(Watch { over: f64::INFINITY, limit: 0 });
        }
    }

    /// Takes the entries of `p` out of its tokens' lists.
    fn unlist(&mut self, core: &Core, p: PairId) {
        let (tokens, n) = Self::sides(core, p);
        for (s, &tok) in tokens[..n].iter().enumerate() {
            let list = &mut self.holders[tok as usize];
            let at = self.slots[p as usize].pos[s] as usize;
            list.swap_remove(at);
            self.watches[tok as usize].swap_remove(at);
            if let Some(&moved) = list.get(at) {
                self.slots[moved.pair as usize].pos[moved.side as usize] = at as u32;
            }
        }
        self.slots[p as usize].pos = [UNLISTED; 2];
    }

    /// The count of `t` fell by `delta` to `now`: raises the bounds of the
    /// pairs holding it, in bulk (`acc`) or one by one.
    fn fall(&mut self, core: &Core, t: TokenId, delta: u64, now: u64) {
        let t = t as usize;
        let old = self.acc[t];
        if now > 0 {
            let step = up(delta as f64 / now as f64);
            self.acc[t] = up(old + step);
        }
        let new = self.acc[t];
        // The entries due, found first and their pairs' records started
        // reading, so that their misses overlap. Looking at one entry only
        // changes its own pair's entries, so the list of those due is the
        // same as if each were looked at as it is found.
        let mut due = std::mem::take(&mut self.due);
        due.clear();
        let mut i = 0;
        loop {
            i = first_due(&self.watches[t], i, new, now);
            let Some(&h) = self.holders[t].get(i) else { break };
            let limit = self.watches[t][i].limit;
            i += 1;
            hint::prefetch(&self.slots[h.pair as usize]);
            hint::prefetch(&core.pairs[h.pair as usize]);
            due.push((h, limit));
        }
        for &(h, limit) in &due {
            if now < limit {
                // Counted exactly: what was counted in bulk before, then this fall.
                let p = h.pair;
                self.settle(core, p, Some((h.side as usize, old, new)));
                let kk = k_of(&core.pairs[p as usize]);
                match rise(delta, now, kk) {
                    Some(r) => {
                        let u = &mut self.slots[p as usize].ub;
                        *u = up(*u + r);
                        self.check(core, p);
                    }
                    None => self.refresh(core, p),
                }
            } else {
                self.settle(core, h.pair, None);
                self.check(core, h.pair);
            }
        }
        self.due = due;
    }

    /// Registers the pairs created since the last update.
    fn add_new_pairs(&mut self, core: &Core) {
        self.targets.extend(&core.vocab);
        for p in self.slots.len()..core.pairs.len() {
            let Pair { a, b, .. } = core.pairs[p];
            let target = self.targets.of(&core.vocab, a, b, &mut self.piece);
            self.slots.push(Slot {
                gain: 0.0,
                ub: 0.0,
                filed: 0.0,
                mark: [0.0; 2],
                room: f64::INFINITY,
                epoch: 0,
                target,
                pos: [UNLISTED; 2],
            });
            self.filed_k.push(0);
        }
    }

    /// The existing pairs whose merge makes token `c`: every split of its
    /// string into a token and a continuation token.
    fn makers_of(&mut self, core: &Core, c: TokenId, out: &mut Vec<PairId>) {
        let slots = &mut self.slots;
        self.targets.splits(&core.vocab, c, |x, y| {
            if let Some(p) = core.pair_of(x, y) {
                slots[p as usize].target = c;
                out.push(p);
            }
        });
    }

    fn recount(&mut self, core: &Core, t: TokenId) {
        let c = core.token_freq[t as usize];
        self.token_cf[t as usize] = (c, self.small_f.f(c));
    }
}

impl Ranking for LikelihoodRanking {
    fn update(&mut self, core: &Core, changed: &[PairId], merged: Option<Merged>) {
        let n = core.vocab.len();
        self.holders.resize_with(n, Vec::new);
        self.watches.resize_with(n, Vec::new);
        self.counts.resize(n, 0);
        self.token_cf.resize(n, (0, 0.0));
        self.acc.resize(n, 0.0);
        match merged {
            None => {
                let pairs = core.expected_pairs().max(core.pairs.len());
                reserve_total(&mut self.slots, pairs);
                reserve_total(&mut self.filed_k, pairs);
                self.heap.reserve(pairs);
                let tokens = core.most_tokens();
                reserve_total(&mut self.holders, tokens);
                reserve_total(&mut self.watches, tokens);
                reserve_total(&mut self.counts, tokens);
                reserve_total(&mut self.token_cf, tokens);
                reserve_total(&mut self.acc, tokens);
                self.targets = Targets::new(core.prefix());
                self.targets.reserve(tokens);
                (0..n as TokenId).for_each(|t| self.recount(core, t));
            }
            Some(Merged { a, b, c }) => [a, b, c].into_iter().for_each(|t| self.recount(core, t)),
        }
        self.add_new_pairs(core);
        self.epoch += 1;
        self.total = core.total;
        self.total_f = f(core.total);
        self.margin = slack(core.total);
        // A pair becomes eligible or not only through a change of its own counts.
        for &p in changed {
            let (eligible, listed) = (core.eligible(p), self.slots[p as usize].listed());
            if eligible && !listed {
                self.list(core, p);
            } else if !eligible && listed {
                self.unlist(core, p);
            }
        }
        let mut exact = std::mem::take(&mut self.exact);
        exact.clear();
        exact.extend_from_slice(changed);
        if let Some(Merged { a, b, c }) = merged {
            for t in [a, b].into_iter().take(if a == b { 1 } else { 2 }) {
                let now = core.token_freq[t as usize];
                let delta = self.counts[t as usize] - now;
                self.fall(core, t, delta, now);
            }
            self.makers_of(core, c, &mut exact);
            for t in [a, b, c] {
                self.counts[t as usize] = core.token_freq[t as usize];
            }
        } else {
            self.counts.copy_from_slice(&core.token_freq);
        }
        for (i, &p) in exact.iter().enumerate() {
            if let Some(&ahead) = exact.get(i + 4) {
                hint::prefetch(&self.slots[ahead as usize]);
                self.heap.prefetch(ahead);
            }
            self.refresh(core, p);
        }
        self.exact = exact;
    }

    fn best(&mut self, core: &Core) -> Option<PairId> {
        // Classic lazy greedy: the top entry, recomputed and filed under its
        // exact gain (and tie-break), until an exact entry is on top: every
        // other key bounds its gain, so no pair can beat or tie it.
        let (vocab, pairs) = (&core.vocab, &core.pairs);
        let best = loop {
            let top = self.heap.peek()?;
            if self.popped.contains(&top) {
                break top;
            }
            if self.slots[top as usize].epoch != self.epoch {
                self.slots[top as usize].gain = self.gain_of(core, top);
                self.slots[top as usize].epoch = self.epoch;
            }
            self.filed_k[top as usize] = pairs[top as usize].k;
            let (exact, filed_k) = (self.slots[top as usize].gain, &self.filed_k);
            self.heap.upsert(top, exact, &|x: &(u32, f64), y: &(u32, f64)| before(vocab, pairs, filed_k, x, y));
            self.popped.push(top);
        };
        self.top = self.slots[best as usize].gain;
        // Back under their bounds with headroom (a short move up).
        let mut popped = std::mem::take(&mut self.popped);
        for &p in &popped {
            self.file(core, p);
        }
        popped.clear();
        self.popped = popped;
        Some(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gain_follows_the_formula() {
        // Merging the 3 occurrences of "a b" in a corpus of 10 tokens where
        // c(a) = 4, c(b) = 3 and "ab" is new.
        let expected = (f(1) - f(4)) + (f(0) - f(3)) + (f(3) - f(0)) - (f(7) - f(10));
        assert_eq!(gain(4, 3, 0, 10, 3, false), expected);
        let ln = |x: f64| x.ln();
        assert!(
            (expected - (-4.0 * ln(4.0) - 3.0 * ln(3.0) + 3.0 * ln(3.0) - 7.0 * ln(7.0) + 10.0 * ln(10.0))).abs()
                < 1e-9
        );
        // a = b: one bracket with 2k.
        assert_eq!(gain(5, 5, 0, 9, 2, true), ((f(1) - f(5)) + (f(2) - f(0))) - (f(7) - f(9)));
    }

    #[test]
    fn the_table_of_small_f_gives_the_same_doubles_as_f() {
        let table = SmallF::default();
        for x in (0..SMALL_F + 3).chain([1 << 20, u64::MAX >> 12]) {
            assert_eq!(table.f(x).to_bits(), f(x).to_bits(), "f({x})");
        }
        let (ca, cb, cab, n, k) = (9000, 20_000, 7, 1 << 24, 300);
        let fs = [f(ca), f(cb), f(cab), f(n)];
        assert_eq!(table.gain_given(ca, cb, cab, n, k, false, fs), gain(ca, cb, cab, n, k, false));
        assert_eq!(table.gain_given(ca, ca, cab, n, k, true, fs), gain(ca, ca, cab, n, k, true));
    }

    #[test]
    fn a_stale_gain_plus_slack_bounds_the_gain_at_a_smaller_total() {
        // Same pair counts, N falling one token at a time.
        for &(ca, cb, cab, k) in &[(5000u64, 7000u64, 0u64, 300u64), (40, 40, 3, 17), (1 << 40, 1 << 41, 5, 1 << 30)] {
            let mut n = ca + cb + cab + (1 << 20);
            let mut old = gain(ca, cb, cab, n, k, false) + slack(n);
            for _ in 0..2000 {
                n -= 1;
                let now = gain(ca, cb, cab, n, k, false);
                assert!(now <= old, "{now} > {old} at N = {n}");
                old = now + slack(n);
            }
        }
    }

    #[test]
    fn rise_bounds_how_much_a_bracket_grows_when_its_count_falls() {
        let bracket = |c: u64, k: u64| f(c - k) - f(c);
        for &(old, new, k) in
            &[(100u64, 90u64, 5u64), (1000, 999, 998), (1 << 30, (1 << 30) - 12345, 1 << 20), (7, 3, 2)]
        {
            let grown = bracket(new, k) - bracket(old, k);
            let bound = rise(old - new, new, k).unwrap();
            assert!(grown > 0.0 && grown <= bound, "{old} -> {new}, k = {k}: {grown} > {bound}");
        }
        assert_eq!(rise(3, 5, 5), None);
    }

    #[test]
    fn a_watch_is_due_no_later_than_its_entry() {
        for &(mark, room) in &[(0.0, 1e-9), (50.0, 1e-12), (1e6, 3.0), (0.5, 0.25), (7.0, f64::INFINITY)] {
            let w = Watch { over: Watch::over(mark, room), limit: 10 };
            // Every acc past what the entry tolerates is due.
            for step in [0.0, 1e-300, 1e-15, 1e-9, 1.0] {
                let acc = mark + room + step;
                if acc - mark > room {
                    assert!(w.due(acc, 10), "mark {mark} room {room} acc {acc}");
                }
            }
            assert!(w.due(mark, 9) && !w.due(mark, 10));
        }
    }

    #[test]
    fn a_slot_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Slot>(), 64);
        assert_eq!(std::mem::align_of::<Slot>(), 64);
    }

    proptest::proptest! {
        /// The scan four at a time finds the first due entry, as one at a time.
        #[test]
        fn first_due_is_the_first_due_entry(
            entries in proptest::collection::vec((0.0f64..4.0, 0u64..8), 0..40),
            from in 0usize..44,
            acc in 0.0f64..4.0,
            now in 0u64..8,
        ) {
            let w: Vec<Watch> = entries.iter().map(|&(over, limit)| Watch { over, limit }).collect();
            let from = from.min(w.len());
            let expected = (from..w.len()).find(|&i| now < w[i].limit || acc > w[i].over).unwrap_or(w.len());
            proptest::prop_assert_eq!(first_due(&w, from, acc, now), expected);
        }
    }
}
