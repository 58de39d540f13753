//! A cache of chunks already encoded: a chunk of raw text (the bytes
//! between two whitespace bytes, before normalization) → its tokens (ids,
//! character offsets from the chunk's start, and where words end), one per
//! thread, for one tokenizer at a time.
//!
//! Why: the words of real text repeat; a hit skips normalization,
//! pre-tokenization and the vocabulary's lookups of a whole chunk for one
//! hash and one compare of its bytes.
//!
//! Exact by construction: a chunk's tokens do not depend on its neighbours.
//! The chunks are cut only at `' '`, `\t`, `\n` and `\r`, which every
//! normalizer keeps as whitespace (`clean_text` maps them to `' '`) and every
//! pre-tokenizer splits at; normalization works character by character
//! (cleaning, Chinese characters, accents, lowercase: a mark never reorders
//! across a space, a starter); and the cache is used only on text the
//! added-token matcher left alone, and only when no added token is matched
//! in the normalized text (one could span a space). An entry holds exactly
//! what the encoder gave for that very chunk (whole key compared), and
//! belongs to one tokenizer: a thread's cache is emptied when it is used for
//! another one (every tokenizer made or cloned has its own owner number).
//! Every entry holds every column (ids, offsets, word steps), whoever made
//! it: an encode that keeps ids only encodes a chunk it misses in full, on
//! the side, caches that, and takes its ids; so an entry read in either mode
//! is the one the other mode would have made.
//!
//! Bounded: at most [`MAX_ENTRIES`] chunks of at most [`MAX_CHUNK`] bytes and
//! [`MAX_TOKENS`] tokens beyond the inline ones per thread; when full, it is
//! emptied and refills.
//!
//! Fast: a hit on a chunk of at most [`SHORT_KEY`] bytes (nearly every one
//! in text with spaces) reads one 32-byte slot of an open-addressing table,
//! which holds the chunk's bytes and length as one 16-byte word (one
//! compare) and up to [`SHORT_TOKENS`] tokens (their ids, and their offsets
//! and word steps packed in 4 bits each); a chunk of at most [`INLINE_KEY`]
//! bytes reads one 64-byte slot of a second table, with up to
//! [`INLINE_TOKENS`] tokens: one cache line, no pointer to follow, no call
//! to compare. Tokens that do not fit a slot are kept apart, where the
//! slot points. Longer chunks go to a map of boxed keys. A caller that
//! wants the ids alone reads only them.
//!
//! Safe after fork: each thread has its own; a forked child's one thread
//! keeps the cache its parent's thread had (a thread's cache is only ever
//! touched by that thread, and it is the one that forks).

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rustc_hash::FxHashMap;

use crate::encoding::scratch::{Mark, Scratch};
use crate::hint;

/// The longest chunk cached, in bytes.
pub const MAX_CHUNK: usize = 64;
/// The most chunks a thread's cache holds.
pub const MAX_ENTRIES: usize = 3 << 16;
/// The most tokens a thread's cache holds beyond the inline ones (8 bytes each).
pub const MAX_TOKENS: usize = 1 << 20;
/// The longest chunk whose bytes are held in its slot.
pub const INLINE_KEY: usize = 32;
/// The most tokens held in a slot.
pub const INLINE_TOKENS: usize = 3;
/// The table's slots at first, and at most (64 bytes each: 16 MiB).
const FIRST_SLOTS: usize = 1 << 10;
const MAX_SLOTS: usize = 1 << 18;
/// The longest chunk held in the short table.
pub const SHORT_KEY: usize = 15;
/// The most tokens held in a short slot.
pub const SHORT_TOKENS: usize = 2;
/// The short table's slots at first, and at most (32 bytes each: 16 MiB).
const FIRST_SHORT: usize = 1 << 13;
const MAX_SHORT: usize = 1 << 19;

/// Whether `b` ends a chunk (see the module's documentation).
#[inline]
pub fn is_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The separators among the 64 bytes from `at` (past the end: all), one
/// bit each.
#[inline(always)]
fn separator_bits(bytes: &[u8], at: usize) -> u64 {
    let mut block = [b' '; 64];
    let window = match bytes.get(at..at + 64) {
        Some(window) => window,
        None => {
            let tail = &bytes[at.min(bytes.len())..];
            block[..tail.len()].copy_from_slice(tail);
            &block
        }
    };
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
        };
        let mut bits = 0u64;
        for k in 0..4 {
            // SAFETY: reads 16 bytes of the 64 of `window`; SSE2 is part of
            // x86_64, so every target of this arch has these instructions.
            let m = unsafe {
                let v = _mm_loadu_si128(window[16 * k..].as_ptr().cast::<__m128i>());
                let is = |c: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
                _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(is(b' '), is(b'\t')), _mm_or_si128(is(b'\n'), is(b'\r'))))
            };
            bits |= u64::from(m as u16) << (16 * k);
        }
        bits
    }
    #[cfg(not(target_arch = "x86_64"))]
    window.iter().enumerate().fold(0u64, |bits, (k, &b)| bits | u64::from(is_separator(b)) << k)
}

/// The chunks of a text, found 64 bytes at a time: each chunk starts where
/// a separator is followed by a byte that is not one (or at the text's
/// start) and ends where the reverse happens (or at the text's end), so
/// the chunks' bounds are the bits of `s ^ (s << 1)` over the separator
/// bits `s`, alternately a start and an end.
pub struct Chunks<'a> {
    bytes: &'a [u8],
    /// Where the block after the current one starts (a multiple of 64).
    next: usize,
    /// The bounds not yet given in the current block, one bit each.
    bounds: u64,
    /// Whether the byte before the next block is a separator (as if the
    /// text had one before its start).
    carry: u64,
}

impl<'a> Chunks<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, next: 0, bounds: 0, carry: 1 }
    }

    /// The next bound (see [`Chunks`]); None past the text's end. Past the
    /// last block the text is taken as followed by separators, so a chunk
    /// that ends the text ends at its length.
    #[inline(always)]
    fn bound(&mut self) -> Option<usize> {
        while self.bounds == 0 {
            if self.next >= self.bytes.len() {
                return None;
            }
            let bits = separator_bits(self.bytes, self.next);
            self.bounds = bits ^ (bits << 1 | self.carry);
            self.carry = bits >> 63;
            self.next += 64;
        }
        let at = self.next - 64 + self.bounds.trailing_zeros() as usize;
        self.bounds &= self.bounds - 1;
        Some(at)
    }
}

impl Iterator for Chunks<'_> {
    /// A chunk's start and end.
    type Item = (usize, usize);

    #[inline(always)]
    fn next(&mut self) -> Option<(usize, usize)> {
        let start = self.bound()?;
        // A text that ends in a chunk a multiple of 64 bytes long has no
        // bound past it.
        let end = self.bound().unwrap_or(self.bytes.len());
        Some((start, end))
    }
}

/// A tokenizer's switch and owner number (see the module's documentation).
#[derive(Debug)]
pub struct CacheSwitch {
    enabled: AtomicBool,
    owner: u64,
}

static OWNERS: AtomicU64 = AtomicU64::new(1);

impl CacheSwitch {
    pub fn new(enabled: bool) -> Self {
        Self { enabled: AtomicBool::new(enabled), owner: OWNERS.fetch_add(1, Ordering::Relaxed) }
    }

    #[inline]
    pub fn enabled(&self) -> bool {
        self.enabled.load(Ordering::Relaxed)
    }

    pub fn set_enabled(&self, on: bool) {
        self.enabled.store(on, Ordering::Relaxed);
    }

    pub fn owner(&self) -> u64 {
        self.owner
    }
}

/// A clone has its own owner number, with the same setting.
impl Clone for CacheSwitch {
    fn clone(&self) -> Self {
        Self::new(self.enabled())
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Token {
    id: u32,
    /// Characters from the chunk's start (at most [`MAX_CHUNK`]).
    start: u8,
    end: u8,
    /// How many words on from the previous token (or the chunk's start).
    step: u8,
}

/// What a chunk gives, beyond its tokens.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Where its tokens start in `tokens` (when not inline).
    at: u32,
    n: u32,
    /// The chunk's characters.
    chars: u32,
    /// How many words on from the last token the next text starts.
    tail: u32,
}

/// A slot of the table: a chunk of at most [`INLINE_KEY`] bytes, zero-padded
/// (`len` 0: empty), and its tokens, inline when at most [`INLINE_TOKENS`].
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Slot {
    key: [u64; 4],
    len: u8,
    n: u8,
    chars: u8,
    tail: u8,
    /// Where the tokens start in `tokens` when there are more than fit here.
    at: u32,
    inline: [Token; INLINE_TOKENS],
}

/// A slot of the short table: a chunk of at most [`SHORT_KEY`] bytes (`key`
/// 0: empty) and its tokens, their ids here when at most [`SHORT_TOKENS`]
/// and each of their start, end and step fits 4 bits.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(32))]
struct ShortSlot {
    /// The chunk's bytes, zero-padded, and its length in the top byte.
    key: u128,
    /// The ids (`here`), or where the tokens start in `tokens` (`ids[0]`).
    ids: [u32; SHORT_TOKENS],
    n: u8,
    chars: u8,
    tail: u8,
    here: bool,
    /// Token k's start, end and step in bits 12k.., 4 bits each (`here`).
    spans: u32,
}

/// A chunk as the cache looks it up: its bytes, zero-padded to four
/// words when it has at most [`INLINE_KEY`] (else zero), with its length in
/// the top byte of the second word when it has at most [`SHORT_KEY`], their
/// hash, and where the chunk is in its text.
#[derive(Clone, Copy, Debug, Default)]
pub struct Key {
    words: [u64; 4],
    hash: u64,
    start: usize,
    len: usize,
}

impl Key {
    /// The key of chunk `text[start..end]`.
    #[inline(always)]
    pub fn new(text: &[u8], start: usize, end: usize) -> Self {
        let len = end - start;
        let mut words = if len > INLINE_KEY {
            [0; 4]
        } else if let Some(window) = text.get(start..start + INLINE_KEY) {
            // One read of 32 bytes, the chunk's kept: two halves, masked.
            let half = |i: usize| {
                let n = len.saturating_sub(16 * i);
                let mask = if n >= 16 { u128::MAX } else { (1u128 << (8 * n)) - 1 };
                u128::from_le_bytes(window[16 * i..16 * i + 16].try_into().unwrap_or_default()) & mask
            };
            let (lo, hi) = (half(0), half(1));
            [lo as u64, (lo >> 64) as u64, hi as u64, (hi >> 64) as u64]
        } else {
            let chunk = &text[start..end];
            let word = |i: usize| partial(&chunk[(8 * i).min(len)..(8 * i + 8).min(len)]);
            [word(0), word(1), word(2), word(3)]
        };
        let hash = if len <= SHORT_KEY {
            words[1] |= (len as u64) << 56;
            short_hash(u128::from(words[0]) | u128::from(words[1]) << 64)
        } else {
            hash(&words, len)
        };
        Self { words, hash, start, len }
    }

    /// The key of chunk `start..end` of its text, of 1 to [`SHORT_KEY`]
    /// bytes, from its short key and that key's hash (as [`short_key`] and
    /// [`short_hash`] give them): `Key::new` of the same chunk.
    #[inline(always)]
    pub fn from_short(key: u128, hash: u64, start: usize, end: usize) -> Self {
        debug_assert!((1..=SHORT_KEY).contains(&(end - start)));
        Self { words: [key as u64, (key >> 64) as u64, 0, 0], hash, start, len: end - start }
    }

    /// The short table's key (see [`ShortSlot::key`]).
    #[inline(always)]
    fn short(&self) -> u128 {
        u128::from(self.words[0]) | u128::from(self.words[1]) << 64
    }

    /// Where the chunk starts in its text.
    #[inline(always)]
    pub fn start(&self) -> usize {
        self.start
    }

    /// Where the chunk ends in its text.
    #[inline(always)]
    pub fn end(&self) -> usize {
        self.start + self.len
    }
}

/// `LOW[n]`: the low `n` bytes of a word set.
const LOW: [u128; 16] = {
    let mut masks = [0u128; 16];
    let mut n = 1;
    while n < 16 {
        masks[n] = (1u128 << (8 * n)) - 1;
        n += 1;
    }
    masks
};

/// The short key of chunk `text[start..end]`, of 1 to [`SHORT_KEY`] bytes
/// (`Key::new(text, start, end).short()`, see [`ShortSlot::key`]): one
/// read of 16 bytes, masked, when the text has them from the chunk's start
/// or up to its end (as at the end of a short text).
#[inline(always)]
pub fn short_key(text: &[u8], start: usize, end: usize) -> u128 {
    let len = end - start;
    debug_assert!((1..=SHORT_KEY).contains(&len));
    let word = |at: usize| u128::from_le_bytes(text[at..at + 16].try_into().unwrap_or_default());
    let bytes = if start + 16 <= text.len() {
        word(start) & LOW[len & 15]
    } else if end >= 16 {
        // The chunk's bytes are the top `len` of the 16 that end with it.
        word(end - 16) >> (8 * (16 - len))
    } else {
        let chunk = &text[start..end];
        let half = len.min(8);
        u128::from(partial(&chunk[..half])) | u128::from(partial(&chunk[half..])) << 64
    };
    bytes | (len as u128) << 120
}

/// The hash of a short key (also [`Key`]'s hash of the same chunk): its
/// halves folded with a rotation, times an odd constant; the short table
/// takes its top bits (see `ChunkCache::short_shift`), which every bit of
/// the key reaches. The length is in the key: keys of different lengths
/// differ.
#[inline(always)]
pub fn short_hash(key: u128) -> u64 {
    ((key as u64) ^ ((key >> 64) as u64).rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Up to 8 bytes as a little-endian word, zero-padded, in at most two reads.
#[inline(always)]
fn partial(p: &[u8]) -> u64 {
    let n = p.len();
    let u32_at = |i: usize| u64::from(u32::from_le_bytes(p[i..i + 4].try_into().unwrap_or_default()));
    match n {
        8 => u64::from_le_bytes(p.try_into().unwrap_or_default()),
        4..=7 => u32_at(0) | u32_at(n - 4) << (8 * (n - 4)),
        1..=3 => u64::from(p[0]) | u64::from(p[n / 2]) << (8 * (n / 2)) | u64::from(p[n - 1]) << (8 * (n - 1)),
        _ => 0,
    }
}

/// The full product of `a` and `b`, folded to 64 bits.
#[inline(always)]
fn fold(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    (p as u64) ^ ((p >> 64) as u64)
}

/// The hash of a key of more than [`SHORT_KEY`] bytes (see [`Key`]): one
/// multiplication, the words past the first 16 bytes folded in with a
/// rotation.
#[inline(always)]
fn hash(key: &[u64; 4], len: usize) -> u64 {
    const S: [u64; 2] = [0x243f_6a88_85a3_08d3, 0x1319_8a2e_0370_7344];
    fold(key[0] ^ key[2].rotate_left(23) ^ S[0], key[1] ^ key[3].rotate_left(41) ^ S[1] ^ (len as u64))
}

/// A chunk found in the cache.
enum Found<'a> {
    Short(&'a ShortSlot),
    /// Its tokens, characters and tail (see [`Entry`]).
    Tokens(&'a [Token], u32, u32),
}

/// A view of a cache's short table (see [`ChunkCache::short_table`]).
pub struct ShortTable<'a> {
    slots: &'a [ShortSlot],
    /// The tokens kept apart (see [`ShortSlot::ids`]).
    tokens: &'a [Token],
    mask: usize,
    shift: u32,
}

/// What [`ShortTable::ids_into`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Looked {
    /// The chunk's ids were written.
    Written,
    /// The chunk is cached, but its ids do not fit in what is left.
    NoRoom,
    /// The chunk is not cached.
    Missing,
}

impl ShortTable<'_> {
    /// Starts reading the slot where a key of hash `hash` would be.
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        let i = (hash >> self.shift) as usize & self.mask;
        // `wrapping_add` makes no claim on the pointer (a live slot's:
        // `i <= mask`, the table's length less one).
        hint::prefetch(self.slots.as_ptr().wrapping_add(i));
    }

    /// Writes the ids of the cached chunk whose short key is `key` (hashed
    /// to `hash`) to `buf` from `*at`, and moves `*at` past them. Ids held
    /// in the slot are written as a pair (the second zero when there is
    /// one), so two places must be left.
    #[inline(always)]
    pub fn ids_into(&self, key: u128, hash: u64, buf: &mut [u32], at: &mut usize) -> Looked {
        let mut i = (hash >> self.shift) as usize & self.mask;
        let s = loop {
            let Some(s) = self.slots.get(i) else { return Looked::Missing };
            if s.key == key {
                break s;
            }
            if s.key == 0 {
                return Looked::Missing;
            }
            i = (i + 1) & self.mask;
        };
        let n = usize::from(s.n);
        if s.here {
            let Some(pair) = buf.get_mut(*at..*at + SHORT_TOKENS) else { return Looked::NoRoom };
            pair.copy_from_slice(&s.ids);
        } else {
            let tokens = &self.tokens[s.ids[0] as usize..][..n];
            let Some(dst) = buf.get_mut(*at..*at + n) else { return Looked::NoRoom };
            for (d, t) in dst.iter_mut().zip(tokens) {
                *d = t.id;
            }
        }
        *at += n;
        Looked::Written
    }
}

/// One thread's cache.
#[derive(Default)]
pub struct ChunkCache {
    owner: u64,
    /// Open addressing with linear probing; a power of two long (or empty
    /// before first use).
    short: Vec<ShortSlot>,
    /// Chunks in `short`.
    short_count: usize,
    /// 64 less the bits of an index into `short`: a chunk's first slot
    /// there is its hash shifted right by this much.
    short_shift: u32,
    /// As `short`, for chunks of more than [`SHORT_KEY`] bytes.
    slots: Vec<Slot>,
    /// Chunks in `slots`.
    count: usize,
    /// Chunks longer than [`INLINE_KEY`] bytes.
    long: FxHashMap<Box<[u8]>, Entry>,
    tokens: Vec<Token>,
}

thread_local! {
    static CACHE: RefCell<ChunkCache> = RefCell::new(ChunkCache::default());
}

/// Runs `f` with this thread's cache, dropped first if it held another
/// owner's chunks (a new one starts small: a thread that alternates
/// between tokenizers does not clear a large table each time).
pub fn with<R>(owner: u64, f: impl FnOnce(&mut ChunkCache) -> R) -> R {
    CACHE.with(|cache| {
        let cache = &mut *cache.borrow_mut();
        cache.own(owner);
        // Never empty when used: a lookup need not check.
        if cache.slots.is_empty() {
            cache.grow();
        }
        if cache.short.is_empty() {
            cache.grow_short();
        }
        f(cache)
    })
}

/// Readies this thread's cache (for `owner`) to take the chunks of about
/// `bytes` of text without regrowing: its short table is made as large as
/// their distinct short chunks are expected to need at once (see
/// [`short_slots_for`]), instead of doubling, each time rewriting the whole
/// table, as they come. Nothing to do on a cache already that large.
pub fn reserve(owner: u64, bytes: usize) {
    let slots = short_slots_for(bytes);
    if slots <= FIRST_SHORT {
        // The table every cache starts with (a small batch: nothing to do).
        return;
    }
    CACHE.with(|cache| {
        let cache = &mut *cache.borrow_mut();
        cache.own(owner);
        // Without room for it, the table stays as it is and grows as it
        // fills (or is emptied): a cache is never worth a MemoryError.
        if cache.short.len() < slots {
            cache.resize_short(slots);
        }
    });
}

/// The short table's slots for the chunks of `bytes` of text: room at
/// three quarters full (when it grows) for one distinct short chunk per 40
/// bytes of the first MiB and one per 80 beyond (the benchmark sets have
/// one per 27 to 48 bytes in their first MiB, one per 24 to 41 in their
/// first half MiB, and fewer new ones after: a text's vocabulary grows
/// slower than it), a power of two within [`FIRST_SHORT`] and
/// [`MAX_SHORT`]. A table larger than the chunks need costs the writing
/// of its empty slots (two pages of 4 KiB per 256 chunks).
fn short_slots_for(bytes: usize) -> usize {
    const MIB: usize = 1 << 20;
    let chunks = bytes.min(MIB) / 40 + bytes.saturating_sub(MIB) / 80;
    (chunks * 4 / 3 + 1).next_power_of_two().clamp(FIRST_SHORT, MAX_SHORT)
}

impl ChunkCache {
    /// Drops the cache if it held another owner's chunks.
    fn own(&mut self, owner: u64) {
        if self.owner != owner {
            *self = ChunkCache { owner, ..ChunkCache::default() };
        }
    }

    fn clear(&mut self) {
        self.short.fill(ShortSlot::default());
        self.short_count = 0;
        self.slots.fill(Slot::default());
        self.count = 0;
        self.long.clear();
        self.tokens.clear();
    }

    /// The slot holding `words` (of `len` bytes, hashed to `hash`), or the
    /// empty one where it would go.
    #[inline(always)]
    fn find(&self, words: &[u64; 4], hash: u64, len: usize) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = (hash >> 32) as usize & mask;
        loop {
            let s = &self.slots[i];
            if s.len == 0 || usize::from(s.len) == len && s.key == *words {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// The short slot holding `key`, or the empty one where it would go.
    #[inline(always)]
    fn find_short(&self, key: u128, hash: u64) -> usize {
        let mask = self.short.len() - 1;
        let mut i = self.short_home(hash);
        loop {
            let k = self.short[i].key;
            if k == key || k == 0 {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// The first slot of `short` for a chunk whose hash is `hash`.
    #[inline(always)]
    fn short_home(&self, hash: u64) -> usize {
        // The shift is below 64: the table is never empty when used.
        (hash >> self.short_shift) as usize & (self.short.len() - 1)
    }

    /// Starts reading the slot where `key` would be, to look it up soon.
    #[inline(always)]
    pub fn prefetch(&self, key: &Key) {
        if key.len <= SHORT_KEY {
            hint::prefetch(&self.short[self.short_home(key.hash)]);
        } else if key.len <= INLINE_KEY {
            hint::prefetch(&self.slots[(key.hash >> 32) as usize & (self.slots.len() - 1)]);
        }
    }

    /// The short table as it is now, to look many chunks up in a row (its
    /// bounds and shift held in registers); taken anew after an insert.
    #[inline(always)]
    pub fn short_table(&self) -> ShortTable<'_> {
        ShortTable { slots: &self.short, tokens: &self.tokens, mask: self.short.len() - 1, shift: self.short_shift }
    }

    /// The cached tokens of the chunk of `text` that `key` is of, its
    /// characters and how many words on from its last token the next text
    /// starts; None if not cached.
    #[inline(always)]
    fn lookup(&self, text: &[u8], key: &Key) -> Option<Found<'_>> {
        if key.len <= SHORT_KEY {
            let s = &self.short[self.find_short(key.short(), key.hash)];
            if s.key == 0 {
                return None;
            }
            if s.here {
                return Some(Found::Short(s));
            }
            let tokens = &self.tokens[s.ids[0] as usize..][..usize::from(s.n)];
            Some(Found::Tokens(tokens, u32::from(s.chars), u32::from(s.tail)))
        } else if key.len <= INLINE_KEY {
            let s = &self.slots[self.find(&key.words, key.hash, key.len)];
            if s.len == 0 {
                return None;
            }
            let n = usize::from(s.n);
            let tokens = if n <= INLINE_TOKENS { &s.inline[..n] } else { &self.tokens[s.at as usize..][..n] };
            Some(Found::Tokens(tokens, u32::from(s.chars), u32::from(s.tail)))
        } else {
            let e = self.long.get(&text[key.start..key.end()])?;
            Some(Found::Tokens(&self.tokens[e.at as usize..(e.at + e.n) as usize], e.chars, e.tail))
        }
    }

    /// Appends the cached tokens of the chunk of `text` that `key` is of,
    /// starting at character `base`, to `out`, and gives the chunk's
    /// characters; None if not cached.
    #[inline]
    pub fn replay(&self, text: &[u8], key: &Key, base: u32, out: &mut Scratch) -> Option<u32> {
        let (chars, tail) = match self.lookup(text, key)? {
            Found::Short(s) => {
                for (k, &id) in s.ids[..usize::from(s.n)].iter().enumerate() {
                    let span = |i: usize| (s.spans >> (12 * k + 4 * i)) & 15;
                    out.skip_words(span(2));
                    out.push(id, (base + span(0), base + span(1)));
                }
                (s.chars, s.tail)
            }
            Found::Tokens(tokens, chars, tail) => {
                for t in tokens {
                    out.skip_words(u32::from(t.step));
                    out.push(t.id, (base + u32::from(t.start), base + u32::from(t.end)));
                }
                out.skip_words(tail);
                return Some(chars);
            }
        };
        out.skip_words(u32::from(tail));
        Some(u32::from(chars))
    }

    /// Appends the ids of the cached tokens of the chunk of `text` that
    /// `key` is of to `out`, which keeps ids only; false if not cached.
    #[inline]
    pub fn replay_ids(&self, text: &[u8], key: &Key, out: &mut Scratch) -> bool {
        match self.lookup(text, key) {
            Some(Found::Short(s)) => out.extend_ids_from(&s.ids[..usize::from(s.n)]),
            Some(Found::Tokens(tokens, _, _)) => out.extend_ids(tokens.iter().map(|t| t.id)),
            None => return false,
        }
        true
    }

    /// Caches the tokens pushed to `out` since `mark` as those of `chunk`
    /// (at most [`MAX_CHUNK`] bytes, not yet cached), of `chars`
    /// characters, encoded from character `base`.
    pub fn insert(&mut self, chunk: &[u8], key: &Key, chars: u32, base: u32, out: &Scratch, mark: Mark) {
        debug_assert!(!chunk.is_empty() && chunk.len() <= MAX_CHUNK);
        let n = out.len_since(mark);
        let short = chunk.len() <= SHORT_KEY;
        let room = if short { SHORT_TOKENS } else { INLINE_TOKENS };
        let inline = chunk.len() <= INLINE_KEY && n <= room;
        if self.short_count + self.count + self.long.len() >= MAX_ENTRIES
            || !inline && self.tokens.len() + n > MAX_TOKENS
            || short && n > 0 && self.tokens.len() + n > MAX_TOKENS
        {
            self.clear();
        }
        // Grown (or emptied) before any token is kept.
        if short {
            if self.short.is_empty() || 4 * (self.short_count + 1) > 3 * self.short.len() {
                self.grow_short();
            }
        } else if chunk.len() <= INLINE_KEY && (self.slots.is_empty() || 4 * (self.count + 1) > 3 * self.slots.len()) {
            self.grow();
        }
        let mut new = [Token::default(); INLINE_TOKENS];
        let at = self.tokens.len();
        let (tokens, mut k) = (&mut self.tokens, 0);
        let pushed = out.each_since(mark, |id, (start, end), step| {
            // A chunk of at most MAX_CHUNK bytes: every number fits a byte.
            let t = Token { id, start: (start - base) as u8, end: (end - base) as u8, step: step as u8 };
            if inline {
                new[k] = t;
                k += 1;
            } else {
                tokens.push(t);
            }
        });
        let Some(tail) = pushed else {
            self.tokens.truncate(at);
            return;
        };
        if chunk.len() > INLINE_KEY {
            self.long.insert(chunk.into(), Entry { at: at as u32, n: n as u32, chars, tail });
            return;
        }
        if short {
            let new = &new[..n.min(room)];
            let here = inline && new.iter().all(|t| t.start < 16 && t.end < 16 && t.step < 16);
            let mut slot = ShortSlot {
                key: key.short(),
                n: n as u8,
                chars: chars as u8,
                tail: tail as u8,
                here,
                ..ShortSlot::default()
            };
            if here {
                for (k, t) in new.iter().enumerate() {
                    slot.ids[k] = t.id;
                    let span = u32::from(t.start) | u32::from(t.end) << 4 | u32::from(t.step) << 8;
                    slot.spans |= span << (12 * k);
                }
            } else {
                if inline {
                    self.tokens.extend_from_slice(new);
                }
                slot.ids[0] = at as u32;
            }
            let i = self.find_short(slot.key, key.hash);
            self.short[i] = slot;
            self.short_count += 1;
            return;
        }
        let i = self.find(&key.words, key.hash, key.len);
        self.slots[i] = Slot {
            key: key.words,
            len: chunk.len() as u8,
            n: n as u8,
            chars: chars as u8,
            tail: tail as u8,
            at: at as u32,
            inline: new,
        };
        self.count += 1;
    }

    /// Doubles the short table (rehashing its chunks), or empties the cache
    /// when it is as large as it gets.
    fn grow_short(&mut self) {
        if self.short.len() >= MAX_SHORT {
            self.clear();
            return;
        }
        if !self.resize_short((2 * self.short.len()).max(FIRST_SHORT)) {
            self.clear();
        }
    }

    /// Makes the short table `size` slots long (a power of two, at least
    /// its length), rehashing its chunks; false (the table as it was) when
    /// there is no room for it. The first table, which a lookup needs, is
    /// made in any case.
    fn resize_short(&mut self, size: usize) -> bool {
        debug_assert!(size.is_power_of_two() && size >= self.short.len());
        let Some(table) = table(size, self.short.is_empty() && size <= FIRST_SHORT) else { return false };
        let old = std::mem::replace(&mut self.short, table);
        self.short_shift = 64 - size.trailing_zeros();
        for s in old.into_iter().filter(|s| s.key != 0) {
            let i = self.find_short(s.key, short_hash(s.key));
            self.short[i] = s;
        }
        true
    }

    /// Doubles the table (rehashing its chunks), or empties it when it is
    /// as large as it gets or there is no room for it larger.
    fn grow(&mut self) {
        let size = (2 * self.slots.len()).max(FIRST_SLOTS);
        let table = if self.slots.len() >= MAX_SLOTS { None } else { table(size, self.slots.is_empty()) };
        let Some(table) = table else {
            self.clear();
            return;
        };
        let old = std::mem::replace(&mut self.slots, table);
        for s in old.into_iter().filter(|s| s.len != 0) {
            let i = self.find(&s.key, hash(&s.key, usize::from(s.len)), usize::from(s.len));
            self.slots[i] = s;
        }
    }
}

/// A table of `size` empty slots, or None when there is no room for it
/// (unless it is `needed`: the first, small table, which a lookup reads).
fn table<T: Clone + Default>(size: usize, needed: bool) -> Option<Vec<T>> {
    let mut table = Vec::new();
    if table.try_reserve_exact(size).is_err() && !needed {
        return None;
    }
    table.resize(size, T::default());
    Some(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_in_one_window_equal_keys_read_in_parts() {
        let text: Vec<u8> = (0..200u32).map(|i| (i * 37 % 251) as u8 + 1).collect();
        for start in 0..40 {
            for len in 1..=INLINE_KEY + 2 {
                let windowed = Key::new(&text, start, start + len);
                let exact = Key::new(&text[start..start + len], 0, len);
                assert_eq!((windowed.words, windowed.hash), (exact.words, exact.hash), "{start} {len}");
                if len <= INLINE_KEY {
                    let mut bytes = [0u8; 32];
                    bytes[..len].copy_from_slice(&text[start..start + len]);
                    if len <= SHORT_KEY {
                        bytes[15] = len as u8;
                    }
                    let words: Vec<u64> = bytes.chunks(8).map(|w| u64::from_le_bytes(w.try_into().unwrap())).collect();
                    assert_eq!(exact.words[..], words[..]);
                }
            }
        }
    }

    #[test]
    fn short_keys_are_the_keys_short_part_with_its_hash() {
        let text: Vec<u8> = (0..60u32).map(|i| (i * 37 % 251) as u8 + 1).collect();
        // Texts shorter than a read of 16 bytes, and chunks at their end.
        for size in [1, 2, 7, 15, 16, 17, 31, 60] {
            let text = &text[..size];
            for start in 0..size {
                for end in start + 1..=(start + SHORT_KEY).min(size) {
                    let key = Key::new(text, start, end);
                    let short = short_key(text, start, end);
                    assert_eq!((short, short_hash(short)), (key.short(), key.hash), "{size} {start} {end}");
                    let from = Key::from_short(short, short_hash(short), start, end);
                    assert_eq!((from.words, from.hash, from.start(), from.end()), (key.words, key.hash, start, end));
                }
            }
        }
    }

    #[test]
    fn reserving_sizes_the_short_table_once_for_the_text_expected() {
        let mut last = 0;
        for bytes in [0, 1, 1 << 10, 300 << 10, 1 << 20, 3 << 20, 64 << 20, usize::MAX / 2] {
            let slots = short_slots_for(bytes);
            assert!(slots.is_power_of_two() && (FIRST_SHORT..=MAX_SHORT).contains(&slots), "{bytes}: {slots}");
            assert!(slots >= last, "{bytes}: {slots} < {last}");
            last = slots;
        }
        let owner = CacheSwitch::new(true).owner();
        let text = b"alpha beta";
        let key = Key::new(text, 0, 5);
        let mut out = Scratch::default();
        let mark = out.mark();
        out.push(7, (0, 5));
        out.end_word();
        with(owner, |cache| cache.insert(b"alpha", &key, 5, 0, &out, mark));
        reserve(owner, 2 << 20);
        let size = short_slots_for(2 << 20);
        assert!(size > FIRST_SHORT);
        with(owner, |cache| {
            assert_eq!(cache.short.len(), size);
            // The chunk cached before is found in the larger table.
            let mut again = Scratch::default();
            assert_eq!(cache.replay(text, &key, 0, &mut again), Some(5));
            assert_eq!(again.ids(), [7]);
        });
        // Less text, or the same again: nothing to do.
        reserve(owner, 1 << 10);
        reserve(owner, 2 << 20);
        with(owner, |cache| assert_eq!((cache.short.len(), cache.short_count), (size, 1)));
        // Another owner's cache starts over.
        let other = CacheSwitch::new(true).owner();
        reserve(other, 2 << 20);
        with(other, |cache| assert_eq!((cache.short.len(), cache.short_count), (size, 0)));
    }

    #[test]
    fn chunks_are_the_runs_between_separators() {
        let pieces = ["a", "bb", " ", "\t", "\n", "\r", "\x0b", "é", "   ", &"x".repeat(70), &" ".repeat(65)];
        let mut seed = 7u64;
        for _ in 0..300 {
            let mut text = String::new();
            for _ in 0..(seed % 60) {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                text.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            let bytes = text.as_bytes();
            let mut expected = vec![];
            let mut i = 0;
            while i < bytes.len() {
                if is_separator(bytes[i]) {
                    i += 1;
                    continue;
                }
                let start = i;
                while i < bytes.len() && !is_separator(bytes[i]) {
                    i += 1;
                }
                expected.push((start, i));
            }
            assert_eq!(Chunks::new(bytes).collect::<Vec<_>>(), expected, "{text:?}");
        }
    }
}
