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
//! [`MAX_TOKENS`] tokens per thread; when full, it is emptied and refills.
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
/// The most chunks a thread's cache holds (with their keys, at most 24 MiB).
pub const MAX_ENTRIES: usize = 1 << 18;
/// The most tokens a thread's cache holds (8 bytes each).
pub const MAX_TOKENS: usize = 1 << 21;

/// Whether `b` ends a chunk (see the module's documentation).
#[inline]
pub fn is_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
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

#[derive(Clone, Copy, Debug)]
struct Token {
    id: u32,
    /// Characters from the chunk's start (at most [`MAX_CHUNK`]).
    start: u8,
    end: u8,
    /// How many words on from the previous token (or the chunk's start).
    step: u8,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    at: u32,
    n: u32,
    /// The chunk's characters.
    chars: u32,
    /// How many words on from the last token the next text starts.
    tail: u32,
}

/// One thread's cache.
#[derive(Default)]
pub struct ChunkCache {
    owner: u64,
    map: FxHashMap<Box<[u8]>, Entry>,
    tokens: Vec<Token>,
}

thread_local! {
    static CACHE: RefCell<ChunkCache> = RefCell::new(ChunkCache::default());
}

/// Runs `f` with this thread's cache, emptied first if it held another
/// owner's chunks.
pub fn with<R>(owner: u64, f: impl FnOnce(&mut ChunkCache) -> R) -> R {
    CACHE.with(|cache| {
        let cache = &mut *cache.borrow_mut();
        if cache.owner != owner {
            cache.clear();
            cache.owner = owner;
        }
        f(cache)
    })
}

impl ChunkCache {
    fn clear(&mut self) {
        self.map.clear();
        self.tokens.clear();
    }

    /// Appends the cached tokens of `chunk`, starting at character `base`,
    /// to `out`, and gives the chunk's characters; None if not cached.
    #[inline]
    pub fn replay(&self, chunk: &[u8], base: u32, out: &mut Scratch) -> Option<u32> {
        let e = self.map.get(chunk)?;
        for t in &self.tokens[e.at as usize..(e.at + e.n) as usize] {
            out.skip_words(u32::from(t.step));
            out.push(t.id, (base + u32::from(t.start), base + u32::from(t.end)));
        }
        out.skip_words(e.tail);
        Some(e.chars)
    }

    /// Caches the tokens pushed to `out` since `mark` as those of `chunk`,
    /// of `chars` characters, encoded from character `base`.
    pub fn insert(&mut self, chunk: &[u8], chars: u32, base: u32, out: &Scratch, mark: Mark) {
        let n = out.len_since(mark);
        if self.map.len() >= MAX_ENTRIES || self.tokens.len() + n > MAX_TOKENS {
            self.clear();
        }
        let at = self.tokens.len();
        let tokens = &mut self.tokens;
        let pushed = out.each_since(mark, |id, (start, end), step| {
            // A chunk of at most MAX_CHUNK bytes: every number fits a byte.
            tokens.push(Token { id, start: (start - base) as u8, end: (end - base) as u8, step: step as u8 });
        });
        match pushed {
            Some(tail) => {
                self.map.insert(chunk.into(), Entry { at: at as u32, n: n as u32, chars, tail });
            }
            None => self.tokens.truncate(at),
        }
    }
}
