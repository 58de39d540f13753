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
//!
//! Bounded: at most [`MAX_ENTRIES`] chunks of at most [`MAX_CHUNK`] bytes and
//! [`MAX_TOKENS`] tokens beyond the inline ones per thread; when full, it is
//! emptied and refills.
//!
//! Fast: a hit on a chunk of at most [`INLINE_KEY`] bytes (nearly every one
//! in text with spaces) reads one 64-byte slot of an open-addressing table,
//! which holds the chunk's bytes and up to [`INLINE_TOKENS`] tokens: one
//! cache line, no pointer to follow, no call to compare. Longer chunks go
//! to a map of boxed keys.
//!
//! Safe after fork: each thread has its own; a forked child's one thread
//! keeps the cache its parent's thread had (a thread's cache is only ever
//! touched by that thread, and it is the one that forks).

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rustc_hash::FxHashMap;

use crate::encoding::scratch::{Mark, Scratch};

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
const FIRST_SLOTS: usize = 1 << 12;
const MAX_SLOTS: usize = 1 << 18;

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

/// The chunks of a text, found 64 bytes at a time.
pub struct Chunks<'a> {
    bytes: &'a [u8],
    /// Where the block of `bits` starts (a multiple of 64; MAX: none yet).
    block: usize,
    bits: u64,
    /// Where to look for the next chunk.
    pos: usize,
}

impl<'a> Chunks<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, block: usize::MAX, bits: 0, pos: 0 }
    }

    /// The first byte from `i` on that is a separator (`sep`) or is not one
    /// (`!sep`); `bytes.len()` if none.
    #[inline(always)]
    fn skip(&mut self, mut i: usize, sep: bool) -> usize {
        loop {
            if i >= self.bytes.len() {
                return self.bytes.len();
            }
            let block = i & !63;
            if block != self.block {
                self.block = block;
                self.bits = separator_bits(self.bytes, block);
            }
            let found = if sep { self.bits } else { !self.bits } >> (i - block);
            if found != 0 {
                return (i + found.trailing_zeros() as usize).min(self.bytes.len());
            }
            i = block + 64;
        }
    }
}

impl Iterator for Chunks<'_> {
    /// A chunk's start and end.
    type Item = (usize, usize);

    #[inline(always)]
    fn next(&mut self) -> Option<(usize, usize)> {
        let start = self.skip(self.pos, false);
        if start == self.bytes.len() {
            return None;
        }
        self.pos = self.skip(start, true);
        Some((start, self.pos))
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

/// A chunk as the cache looks it up: its bytes, zero-padded to four
/// words when it has at most [`INLINE_KEY`] (else zero), their hash and its
/// length.
#[derive(Clone, Copy, Debug, Default)]
pub struct Key {
    words: [u64; 4],
    hash: u64,
    len: usize,
}

impl Key {
    /// The key of chunk `text[start..end]`.
    #[inline(always)]
    pub fn new(text: &[u8], start: usize, end: usize) -> Self {
        let len = end - start;
        let words = if len > INLINE_KEY {
            [0; 4]
        } else if let Some(window) = text.get(start..start + INLINE_KEY) {
            // One read of 32 bytes, the chunk's kept.
            let word = |i: usize| {
                let n = len.saturating_sub(8 * i).min(8);
                let mask = if n == 8 { u64::MAX } else { (1u64 << (8 * n)) - 1 };
                u64::from_le_bytes(window[8 * i..8 * i + 8].try_into().unwrap_or_default()) & mask
            };
            [word(0), word(1), word(2), word(3)]
        } else {
            let chunk = &text[start..end];
            let word = |i: usize| partial(&chunk[(8 * i).min(len)..(8 * i + 8).min(len)]);
            [word(0), word(1), word(2), word(3)]
        };
        Self { words, hash: hash(&words, len), len }
    }
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

/// One multiplication: the words past the first 16 bytes, rare, are
/// folded in with a rotation.
#[inline(always)]
fn hash(key: &[u64; 4], len: usize) -> u64 {
    const S: [u64; 2] = [0x243f_6a88_85a3_08d3, 0x1319_8a2e_0370_7344];
    fold(key[0] ^ key[2].rotate_left(23) ^ S[0], key[1] ^ key[3].rotate_left(41) ^ S[1] ^ (len as u64))
}

/// One thread's cache.
#[derive(Default)]
pub struct ChunkCache {
    owner: u64,
    /// Open addressing with linear probing; a power of two long (or empty).
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
        if cache.owner != owner {
            *cache = ChunkCache { owner, ..ChunkCache::default() };
        }
        f(cache)
    })
}

impl ChunkCache {
    fn clear(&mut self) {
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

    /// Starts reading the slot where `key` would be, to look it up soon.
    #[inline(always)]
    pub fn prefetch(&self, key: &Key) {
        #[cfg(target_arch = "x86_64")]
        if key.len <= INLINE_KEY && !self.slots.is_empty() {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let slot = &self.slots[(key.hash >> 32) as usize & (self.slots.len() - 1)];
            // SAFETY: a prefetch only hints the cache; the pointer is a live slot's.
            unsafe { _mm_prefetch::<_MM_HINT_T0>((slot as *const Slot).cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Appends the cached tokens of `chunk`, starting at character `base`,
    /// to `out`, and gives the chunk's characters; None if not cached.
    #[inline]
    pub fn replay(&self, chunk: &[u8], key: &Key, base: u32, out: &mut Scratch) -> Option<u32> {
        let (tokens, chars, tail) = if chunk.len() <= INLINE_KEY {
            if self.slots.is_empty() {
                return None;
            }
            let s = &self.slots[self.find(&key.words, key.hash, key.len)];
            if s.len == 0 {
                return None;
            }
            let n = usize::from(s.n);
            let tokens = if n <= INLINE_TOKENS { &s.inline[..n] } else { &self.tokens[s.at as usize..][..n] };
            (tokens, u32::from(s.chars), u32::from(s.tail))
        } else {
            let e = self.long.get(chunk)?;
            (&self.tokens[e.at as usize..(e.at + e.n) as usize], e.chars, e.tail)
        };
        for t in tokens {
            out.skip_words(u32::from(t.step));
            out.push(t.id, (base + u32::from(t.start), base + u32::from(t.end)));
        }
        out.skip_words(tail);
        Some(chars)
    }

    /// Caches the tokens pushed to `out` since `mark` as those of `chunk`
    /// (at most [`MAX_CHUNK`] bytes, not yet cached), of `chars`
    /// characters, encoded from character `base`.
    pub fn insert(&mut self, chunk: &[u8], key: &Key, chars: u32, base: u32, out: &Scratch, mark: Mark) {
        debug_assert!(!chunk.is_empty() && chunk.len() <= MAX_CHUNK);
        let n = out.len_since(mark);
        let inline = chunk.len() <= INLINE_KEY && n <= INLINE_TOKENS;
        if self.count + self.long.len() >= MAX_ENTRIES || !inline && self.tokens.len() + n > MAX_TOKENS {
            self.clear();
        }
        // Grown (or emptied) before any token is kept.
        if chunk.len() <= INLINE_KEY && (self.slots.is_empty() || 4 * (self.count + 1) > 3 * self.slots.len()) {
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

    /// Doubles the table (rehashing its chunks), or empties it when it is
    /// as large as it gets.
    fn grow(&mut self) {
        if self.slots.len() >= MAX_SLOTS {
            self.clear();
            return;
        }
        let size = (2 * self.slots.len()).max(FIRST_SLOTS);
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); size]);
        for s in old.into_iter().filter(|s| s.len != 0) {
            let i = self.find(&s.key, hash(&s.key, usize::from(s.len)), usize::from(s.len));
            self.slots[i] = s;
        }
    }
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
                    let words: Vec<u64> = bytes.chunks(8).map(|w| u64::from_le_bytes(w.try_into().unwrap())).collect();
                    assert_eq!(exact.words[..], words[..]);
                }
            }
        }
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
