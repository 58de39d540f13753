//! A cache of words already tokenized: a normalized word of at most
//! [`SHORT`] bytes → its WordPiece pieces (ids and where each ends), shared
//! by every thread and call that encodes with one tokenizer.
//!
//! Why: the vocabulary's hash table and trie are megabytes, and a word's
//! lookup waits on memory; the words of real text repeat (a few thousand
//! make most of any text), and this table of [`SLOTS`] cache lines keeps
//! them close. A hit gives the pieces in one load of one line.
//!
//! Exact by construction: an entry is written only with what
//! [`super::wordpiece::WordPiece`] gave for that very word (its whole key is
//! compared on every hit), and a tokenizer's vocabulary and model never
//! change after it is made (a clone starts with an empty cache).
//!
//! Off by default: on this project's benchmarks it did not win (a slot's
//! line misses the processor's cache as often as the vocabulary's entry).
//!
//! Bounded: a fixed table, direct-mapped (a word has one slot; a new word
//! replaces the old one there), made when the tokenizer is made.
//!
//! Shared without locks: each slot is a seqlock over atomics. A writer makes
//! the sequence odd (skipping the slot if another writer holds it), writes,
//! and makes it even again; a reader takes an entry only if the sequence was
//! even and unchanged across its reads. No thread ever waits, and a fork in
//! the middle of a write (the writer thread does not exist in the child)
//! only leaves that one slot odd, so unused, forever.

use std::sync::atomic::{fence, AtomicBool, AtomicU64, Ordering};

use super::vocab::SHORT;

/// Slots in the table: 8,192 lines of 64 bytes, 512 KiB.
pub const SLOTS: usize = 1 << 13;
/// The most pieces an entry holds; words with more are not cached.
pub const MAX_PIECES: usize = 6;

/// One entry: `n` pieces, piece `i` with id `ids[i]`, ending at character
/// `ends[i]` of the word (and starting where the previous one ends).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pieces {
    pub n: usize,
    pub ids: [u32; MAX_PIECES],
    pub ends: [u8; MAX_PIECES],
}

#[repr(align(64))]
#[derive(Default)]
struct Slot {
    /// Even: the slot is stable; odd: a writer is in it.
    seq: AtomicU64,
    key: [AtomicU64; 2],
    ids: [AtomicU64; 3],
    /// The number of pieces (low byte; 0 for an empty slot) and their ends.
    meta: AtomicU64,
}

/// The cache (see the module's documentation).
pub struct WordCache {
    slots: Box<[Slot]>,
    enabled: AtomicBool,
}

impl std::fmt::Debug for WordCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WordCache").field("enabled", &self.enabled()).finish_non_exhaustive()
    }
}

impl Default for WordCache {
    fn default() -> Self {
        Self::new()
    }
}

/// A clone is a new, empty cache with the same setting: an entry belongs to
/// the tokenizer that wrote it.
impl Clone for WordCache {
    fn clone(&self) -> Self {
        let cache = Self::new();
        cache.set_enabled(self.enabled());
        cache
    }
}

/// The key of a word: its bytes, zero-padded, and its length in the last
/// byte (as the vocabulary's short keys); None for an empty or long word.
#[inline]
pub fn key_of(word: &[u8]) -> Option<u128> {
    if word.is_empty() || word.len() > SHORT {
        return None;
    }
    let mut key = [0u8; 16];
    key[..word.len()].copy_from_slice(word);
    key[15] = word.len() as u8;
    Some(u128::from_le_bytes(key))
}

/// [`key_of`] `buf[start..end]`, read in one load from `buf`, which holds
/// at least 16 bytes from `start`.
#[inline]
pub fn key_in(buf: &[u8], start: usize, end: usize) -> Option<u128> {
    let len = end.checked_sub(start)?;
    let window: [u8; 16] = buf.get(start..start + 16)?.try_into().ok()?;
    if len == 0 || len > SHORT {
        return None;
    }
    Some(u128::from_le_bytes(window) & ((1u128 << (8 * len)) - 1) | (len as u128) << 120)
}

impl WordCache {
    /// An empty cache, off (see [`Self::set_enabled`]).
    pub fn new() -> Self {
        Self { slots: (0..SLOTS).map(|_| Slot::default()).collect(), enabled: AtomicBool::new(false) }
    }

    pub fn enabled(&self) -> bool {
        self.enabled.load(Ordering::Relaxed)
    }

    /// Turns the cache on or off (its entries stay valid either way).
    pub fn set_enabled(&self, on: bool) {
        self.enabled.store(on, Ordering::Relaxed);
    }

    #[inline]
    fn slot(&self, key: u128) -> &Slot {
        let (lo, hi) = (key as u64, (key >> 64) as u64);
        let h = (lo ^ hi.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        &self.slots[(h >> (64 - SLOTS.trailing_zeros())) as usize]
    }

    /// The pieces cached for the word of `key`, if any.
    #[inline]
    pub fn get(&self, key: u128) -> Option<Pieces> {
        let slot = self.slot(key);
        let seq = slot.seq.load(Ordering::Acquire);
        if seq & 1 == 1 {
            return None;
        }
        let (k0, k1) = (slot.key[0].load(Ordering::Relaxed), slot.key[1].load(Ordering::Relaxed));
        let meta = slot.meta.load(Ordering::Relaxed);
        let ids = [0, 1, 2].map(|i| slot.ids[i].load(Ordering::Relaxed));
        fence(Ordering::Acquire);
        if slot.seq.load(Ordering::Relaxed) != seq || (k0, k1) != (key as u64, (key >> 64) as u64) {
            return None;
        }
        let n = (meta & 0xff) as usize;
        if n == 0 || n > MAX_PIECES {
            return None;
        }
        let mut pieces = Pieces { n, ..Pieces::default() };
        for i in 0..MAX_PIECES {
            pieces.ids[i] = (ids[i / 2] >> (32 * (i % 2))) as u32;
            pieces.ends[i] = (meta >> (8 * (i + 1))) as u8;
        }
        Some(pieces)
    }

    /// Caches `pieces` as the word of `key`'s, unless another thread is
    /// writing that slot (then nothing is cached).
    #[inline]
    pub fn put(&self, key: u128, pieces: &Pieces) {
        if pieces.n == 0 || pieces.n > MAX_PIECES {
            return;
        }
        let slot = self.slot(key);
        let seq = slot.seq.load(Ordering::Relaxed);
        if seq & 1 == 1 || slot.seq.compare_exchange(seq, seq + 1, Ordering::Acquire, Ordering::Relaxed).is_err() {
            return;
        }
        // The odd sequence is seen before any of the writes below.
        fence(Ordering::Release);
        slot.key[0].store(key as u64, Ordering::Relaxed);
        slot.key[1].store((key >> 64) as u64, Ordering::Relaxed);
        for (i, word) in slot.ids.iter().enumerate() {
            word.store(u64::from(pieces.ids[2 * i]) | u64::from(pieces.ids[2 * i + 1]) << 32, Ordering::Relaxed);
        }
        let ends = pieces.ends.iter().enumerate().fold(0u64, |m, (i, &e)| m | u64::from(e) << (8 * (i + 1)));
        slot.meta.store(pieces.n as u64 | ends, Ordering::Relaxed);
        slot.seq.store(seq + 2, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    fn pieces(n: usize, base: u32) -> Pieces {
        let mut p = Pieces { n, ..Pieces::default() };
        for i in 0..n {
            p.ids[i] = base + i as u32;
            p.ends[i] = 2 * (i as u8 + 1);
        }
        p
    }

    #[test]
    fn gives_back_what_was_put_for_that_very_word() {
        let cache = WordCache::new();
        let (a, b) = (key_of(b"hello").unwrap(), key_of(b"hellp").unwrap());
        assert_eq!(cache.get(a), None);
        cache.put(a, &pieces(3, 7));
        assert_eq!(cache.get(a), Some(pieces(3, 7)));
        assert_eq!(cache.get(b), None);
        cache.put(a, &pieces(MAX_PIECES, u32::MAX - 9));
        assert_eq!(cache.get(a), Some(pieces(MAX_PIECES, u32::MAX - 9)));
        cache.put(b, &Pieces { n: MAX_PIECES + 1, ..pieces(MAX_PIECES, 1) });
        assert_eq!(cache.get(b), None, "too many pieces: not cached");
        assert_eq!(key_of(b""), None);
        assert_eq!(key_of(&[b'a'; SHORT + 1]), None);
        let buf = b"xhello\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0";
        assert_eq!(key_in(buf, 1, 6), Some(a));
        assert_eq!(key_in(buf, 1, 1), None);
        assert_eq!(key_in(&buf[..10], 1, 6), None, "fewer than 16 bytes to read");
        assert!(cache.clone().get(a).is_none(), "a clone starts empty");
    }

    #[test]
    fn threads_never_see_a_torn_entry() {
        let cache = Arc::new(WordCache::new());
        // Words that share slots, each always cached with pieces made from
        // its own number: a reader checks every hit against it.
        let words: Vec<Vec<u8>> = (0..4 * SLOTS as u32).map(|i| format!("w{i}").into_bytes()).collect();
        let words = Arc::new(words);
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let (cache, words) = (Arc::clone(&cache), Arc::clone(&words));
                std::thread::spawn(move || {
                    for round in 0..20 {
                        for (i, w) in words.iter().enumerate().skip(t).step_by(1 + round % 3) {
                            let key = key_of(w).unwrap();
                            match cache.get(key) {
                                Some(p) => assert_eq!(p, pieces(1 + i % MAX_PIECES, 1000 * i as u32)),
                                None => cache.put(key, &pieces(1 + i % MAX_PIECES, 1000 * i as u32)),
                            }
                        }
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
    }
}
