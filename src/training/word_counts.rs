//! Word counting: the first two pipeline stages, run in parallel with rayon.
//! Memory grows with the number of distinct words, never with corpus size.
//!
//! Each worker thread counts into tables of its own, kept from batch to
//! batch and added up once at the end. A text is not normalized and split
//! word by word: it is cut into raw chunks at `' '`, `\t`, `\n` and `\r`
//! (the SIMD scan of `chunk_cache::Chunks`; short texts joined by `'\n'`
//! and scanned as one, see `Shard::add_texts`), and a thread counts its
//! chunks of up to 23 bytes as they are, each its own key, inline (three
//! 64-bit words). Only when the chunk table holds `MAX_CHUNKS` (8 MiB of
//! slots), and at the end, is each distinct chunk expanded once through the
//! pipeline (`AsciiPath`, the table encoding uses, for ASCII; the normalizer
//! and pre-tokenizer otherwise) and its words added, times its count, to the
//! word table; a longer chunk is expanded at once. Exact by construction,
//! for every normalizer and pre-tokenizer, for the reasons the chunk cache
//! is (see `chunk_cache`): every normalizer keeps those four bytes as
//! whitespace and every pre-tokenizer splits there, and normalization works
//! character by character, a mark never reordered across a space; so a
//! text's words are its chunks' words, in order.
//!
//! At the end each shard's words are sorted by key on a thread of their
//! own and the shards merged as sorted lists (see `Sorted`).
//!
//! Both tables are open addressing with linear probing, and a key's slot is
//! prefetched `AHEAD` keys before it is updated, so that the misses of a
//! table larger than the caches overlap. The chunk table hashes apart from
//! the word table (see `KeyTable::chunks`).
//!
//! On 10 MB of GCIDE at one thread (callgrind, counting alone): ~1.23 G
//! instructions with a map of Strings per batch and task, ~0.76 G with
//! inline word keys, ~0.70 G counting chunks, ~0.56 G with the words
//! sorted by their keys (not as Strings) and keys masked by a table (686 M
//! and 561 M in one measurement). GCIDE is a hard case for
//! chunks: its markup makes many chunks unique (`<hw>Ab*lu"tion</hw>`):
//! 664k distinct chunks among 5.4M, 481k of them met once, and the words
//! of the distinct chunks are 30% of all words.

use std::cmp::Ordering;
use std::fs::File;
use std::hash::{Hash, Hasher};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use super::progress::Progress;
use crate::error::{Error, Result};
use crate::memory::Watch;
use crate::pipeline::ascii::{AsciiPath, BYTE_ALONE, BYTE_DROP, BYTE_JOIN, BYTE_PUNCT, BYTE_SPACE, PADDING};
use crate::pipeline::normalizer::Normalized;
use crate::threads;
use crate::tokenizer::chunk_cache::Chunks;
use crate::tokenizer::options::Options;

/// What to do with bytes that are not UTF-8 when reading files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Utf8Errors {
    /// Fail with the file name and byte offset.
    Strict,
    /// Replace each invalid sequence by U+FFFD (which `clean_text` then drops).
    Replace,
}

const CHUNK: usize = 8 << 20;

/// The most lines of a file counted at once (1 MiB of them).
const LINES: usize = 1 << 16;

/// Texts per parallel task: enough to pay for a task, few enough to balance.
const TASK_TEXTS: usize = 256;

/// Words and chunks of up to this many bytes are kept inline in a map's key.
const SHORT: usize = 23;

/// A short word's bytes, zero-padded, and its length in the last byte: its
/// key compares and hashes as three words, with no pointer to follow.
#[derive(Clone, Copy, PartialEq, Eq)]
struct ShortKey([u64; 3]);

impl ShortKey {
    /// Two folded multiplies mix all 24 bytes into one word.
    #[inline(always)]
    fn mix(&self) -> u64 {
        let fold = |x: u64, y: u64| {
            let m = u128::from(x) * u128::from(y);
            (m as u64) ^ ((m >> 64) as u64)
        };
        let [a, b, c] = self.0;
        let h = fold(a ^ 0x243f_6a88_85a3_08d3, b ^ 0x1319_8a2e_0370_7344);
        fold(h ^ c, 0xa409_3822_299f_31d0)
    }
}

impl Hash for ShortKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.mix());
    }
}

fn short_key(word: &[u8]) -> ShortKey {
    let mut bytes = [0u8; 24];
    bytes[..word.len()].copy_from_slice(word);
    short_key_at(&bytes, 0, word.len())
}

/// The masks that keep the first `len` bytes of three little-endian words.
const KEY_MASKS: [[u64; 3]; SHORT + 1] = {
    let mut masks = [[0u64; 3]; SHORT + 1];
    let mut len = 0;
    while len <= SHORT {
        let mut i = 0;
        while i < 3 {
            let bytes = len.saturating_sub(8 * i);
            masks[len][i] = if bytes >= 8 { u64::MAX } else { (1u64 << (8 * bytes)) - 1 };
            i += 1;
        }
        len += 1;
    }
    masks
};

/// The key of the `len` (at most [`SHORT`]) bytes at `start` in `buf`,
/// which has at least 24 bytes from `start` on: three loads, masked.
#[inline(always)]
fn short_key_at(buf: &[u8], start: usize, len: usize) -> ShortKey {
    let word = |i: usize| u64::from_le_bytes(buf[start + 8 * i..start + 8 * i + 8].try_into().expect("8 bytes"));
    let mask = &KEY_MASKS[len];
    ShortKey([word(0) & mask[0], word(1) & mask[1], (word(2) & mask[2]) | (len as u64) << 56])
}

/// A key's 24 bytes: the word's, zero-padded, and its length last.
fn key_bytes(key: &ShortKey) -> [u8; 24] {
    let mut bytes = [0u8; 24];
    for (i, w) in key.0.iter().enumerate() {
        bytes[8 * i..8 * i + 8].copy_from_slice(&w.to_le_bytes());
    }
    bytes
}

fn short_word(key: &ShortKey) -> String {
    let bytes = key_bytes(key);
    let len = bytes[SHORT] as usize;
    key_str(&bytes, len).to_owned()
}

/// The first `len` bytes of a key's: a word or chunk, which was a str.
fn key_str(bytes: &[u8; 24], len: usize) -> &str {
    let text = &bytes[..len];
    debug_assert!(std::str::from_utf8(text).is_ok());
    // SAFETY: keys are made only from the bytes of a str (a chunk is cut
    // at ASCII separators, a word is a str the pipeline made), `len` long;
    // checking (`from_utf8`, a call of ~80 instructions for a few bytes)
    // cost 4% of the counting, once per distinct chunk and word.
    unsafe { std::str::from_utf8_unchecked(text) }
}

/// Word counts: short words by inline key, the rest by their bytes. Every
/// word added is UTF-8 (a str's bytes).
#[derive(Default)]
struct Counts {
    short: KeyTable,
    long: FxHashMap<Box<[u8]>, u64>,
}

impl Counts {
    /// Adds `n` to the count of `word`; `Error::Memory` when there is no
    /// room for a new long word's copy.
    fn add(&mut self, word: &[u8], n: u64) -> Result<()> {
        if word.len() <= SHORT {
            let key = short_key(word);
            self.short.add(&key, self.short.hash(&key), n);
            Ok(())
        } else {
            self.add_long(word, n)
        }
    }

    fn add_long(&mut self, word: &[u8], n: u64) -> Result<()> {
        match self.long.get_mut(word) {
            Some(c) => *c += n,
            None => {
                // Its copy made fallibly: a word may be as long as a text.
                let mut copy = Vec::new();
                copy.try_reserve_exact(word.len())
                    .map_err(|_| Error::memory(format_args!("the text of a word of {} bytes", word.len())))?;
                copy.extend_from_slice(word);
                // Grown fallibly too: distinct long words may be many.
                if self.long.try_reserve(1).is_err() {
                    return Err(self.no_room());
                }
                self.long.insert(copy.into_boxed_slice(), n);
            }
        }
        Ok(())
    }

    /// The error of a table of words that could not grow.
    #[cold]
    fn no_room(&self) -> Error {
        Error::memory("the table of the distinct words' counts")
    }

    fn contains(&self, word: &[u8]) -> bool {
        if word.len() <= SHORT {
            self.short.get(&short_key(word)).is_some()
        } else {
            self.long.contains_key(word)
        }
    }

    fn len(&self) -> usize {
        self.short.len + self.long.len()
    }

    fn words(&self) -> impl Iterator<Item = Vec<u8>> + '_ {
        self.short.iter().map(|(k, _)| short_word(&k).into_bytes()).chain(self.long.keys().map(|w| w.to_vec()))
    }

    /// The counts sorted by word, the table's memory reused.
    fn into_sorted(self) -> Result<Sorted> {
        let mut short = self.short.slots;
        short.retain(|s| s.key[2] != 0);
        for slot in &mut short {
            slot.key = slot.key.map(u64::swap_bytes);
        }
        let short = sort_slots(short)?;
        let mut long: Vec<(Box<[u8]>, u64)> = sorting_room(self.long.len())?;
        long.extend(self.long);
        long.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        Ok(Sorted { short, long })
    }
}

/// Slots at least this many are sorted by bucket first (see [`sort_slots`]).
const BUCKET_SORT: usize = 1 << 12;

/// `slots` sorted by key: a counting sort by the key's first two bytes, then
/// each bucket on its own (half the instructions of sorting them all with
/// `sort_unstable`, on 10 MB of GCIDE's words).
fn sort_slots(mut slots: Vec<KeySlot>) -> Result<Vec<KeySlot>> {
    if slots.len() < BUCKET_SORT {
        slots.sort_unstable_by_key(|s| s.key);
        return Ok(slots);
    }
    let bucket = |s: &KeySlot| (s.key[0] >> 48) as usize;
    // Each bucket's start, then (once filled) its end.
    let mut at = vec![0usize; 1 << 16];
    for s in &slots {
        at[bucket(s)] += 1;
    }
    let mut start = 0;
    for n in &mut at {
        (*n, start) = (start, start + *n);
    }
    let mut out = sorting_room(slots.len())?;
    out.resize(slots.len(), KeySlot::default());
    for s in &slots {
        let b = bucket(s);
        out[at[b]] = *s;
        at[b] += 1;
    }
    let mut start = 0;
    for &end in &at {
        out[start..end].sort_unstable_by_key(|s| s.key);
        start = end;
    }
    Ok(out)
}

/// An empty vector with room for `n` counts, or `Error::Memory`: the
/// sorted counts do not fit.
fn sorting_room<T>(n: usize) -> Result<Vec<T>> {
    Error::room_for(n, format_args!("sorting the counts of {n} distinct words"))
}

/// Counts sorted by word: the short words' keys with each word turned big
/// endian (so that the keys, compared as integers, compare as the words'
/// bytes: the zero padding and then the length last put a prefix first),
/// and the long words.
struct Sorted {
    short: Vec<KeySlot>,
    long: Vec<(Box<[u8]>, u64)>,
}

/// Merges two lists sorted by `cmp` into one, adding the counts of equal items.
fn merge_sorted<T>(a: Vec<T>, b: Vec<T>, cmp: impl Fn(&T, &T) -> Ordering, add: impl Fn(&mut T, T)) -> Result<Vec<T>> {
    if a.is_empty() || b.is_empty() {
        return Ok(if a.is_empty() { b } else { a });
    }
    let mut out = sorting_room(a.len() + b.len())?;
    let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
    while let (Some(x), Some(y)) = (a.peek(), b.peek()) {
        match cmp(x, y) {
            Ordering::Less => out.extend(a.next()),
            Ordering::Greater => out.extend(b.next()),
            Ordering::Equal => {
                let (mut x, y) = (a.next().expect("peeked"), b.next().expect("peeked"));
                add(&mut x, y);
                out.push(x);
            }
        }
    }
    out.extend(a);
    out.extend(b);
    Ok(out)
}

impl Sorted {
    /// The counts of both.
    fn merge(a: Result<Sorted>, b: Result<Sorted>) -> Result<Sorted> {
        let (a, b) = (a?, b?);
        Ok(Sorted {
            short: merge_sorted(a.short, b.short, |x, y| x.key.cmp(&y.key), |x, y| x.count += y.count)?,
            long: merge_sorted(a.long, b.long, |x, y| x.0.cmp(&y.0), |x, y| x.1 += y.1)?,
        })
    }

    /// The words and their counts, in order.
    fn into_vec(self) -> Result<Vec<(String, u64)>> {
        let word = |slot: &KeySlot| {
            let mut bytes = [0u8; 24];
            for (i, w) in slot.key.iter().enumerate() {
                bytes[8 * i..8 * i + 8].copy_from_slice(&w.to_be_bytes());
            }
            let len = usize::from(bytes[SHORT]);
            (bytes, len)
        };
        let mut out = sorting_room(self.short.len() + self.long.len())?;
        let mut long = self.long.into_iter().peekable();
        for slot in &self.short {
            let (bytes, len) = word(slot);
            while let Some((w, n)) = long.next_if(|(w, _)| **w < bytes[..len]) {
                out.push((String::from_utf8(w.into()).expect("a str's bytes"), n));
            }
            out.push((key_str(&bytes, len).to_owned(), slot.count));
        }
        out.extend(long.map(|(w, n)| (String::from_utf8(w.into()).expect("a str's bytes"), n)));
        Ok(out)
    }
}

/// A slot of [`KeyTable`]: a key (all zero: empty; a key is never that,
/// its length being at least 1) and its count. Two a cache line.
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
struct KeySlot {
    key: [u64; 3],
    count: u64,
}

/// Keys (raw chunks or words of 1 to [`SHORT`] bytes) → counts: open
/// addressing with linear probing, the home slot in a hash's top bits, so
/// that a slot can be prefetched before it is updated (see
/// [`Shard::add_text`]).
#[derive(Default)]
struct KeyTable {
    /// Whether it stays within [`MAX_SLOTS`] (its owner empties it in time)
    /// and hashes apart from the word table: a chunk table is drained in
    /// slot order into the words', and keys inserted in the order of their
    /// home slots under the same hash would pile up in one long run there.
    chunks: bool,
    /// A power of two long, or empty before first use.
    slots: Vec<KeySlot>,
    len: usize,
    /// 64 less the bits of an index into `slots`.
    shift: u32,
    /// Whether it had to grow and could not: it then takes no new key, and
    /// its owner reports that there was no room (see [`Shard::check_room`]).
    full: bool,
}

/// The chunk table's slots at first, and at most (32 bytes each: 8 MiB).
const FIRST_SLOTS: usize = 1 << 10;
const MAX_SLOTS: usize = 1 << 18;

/// Bytes of text per distinct chunk, as [`WordCounter::add_texts`] guesses
/// to size the chunk tables (GCIDE has one per 45).
const CHUNK_BYTES: usize = 32;

/// The most distinct chunks a shard holds before it expands them into words:
/// the most the largest table holds.
const MAX_CHUNKS: usize = MAX_SLOTS / 4 * 3;

impl KeyTable {
    /// The hash of `key` here (see [`KeyTable::chunks`]).
    #[inline(always)]
    fn hash(&self, key: &ShortKey) -> u64 {
        if self.chunks {
            Self::chunk_hash(key)
        } else {
            key.mix()
        }
    }

    /// The hash of `key` in a chunk table.
    #[inline(always)]
    fn chunk_hash(key: &ShortKey) -> u64 {
        key.mix().rotate_left(32)
    }

    #[inline(always)]
    fn home(&self, hash: u64) -> usize {
        (hash >> self.shift) as usize & (self.slots.len().wrapping_sub(1))
    }

    /// Starts reading the slot where a chunk of hash `hash` goes.
    #[inline(always)]
    fn prefetch(&self, hash: u64) {
        if let Some(slot) = self.slots.get(self.home(hash)) {
            crate::hint::prefetch(slot);
        }
    }

    /// Adds `n` to the count of `key` (whose hash is `hash`).
    #[inline(always)]
    fn add(&mut self, key: &ShortKey, hash: u64, n: u64) {
        if 4 * (self.len + 1) > 3 * self.slots.len() && !self.grow() {
            return;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(hash);
        loop {
            let slot = &mut self.slots[i];
            if slot.key == key.0 {
                slot.count += n;
                return;
            }
            if slot.key[2] == 0 {
                *slot = KeySlot { key: key.0, count: n };
                self.len += 1;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the table (up to [`MAX_SLOTS`]; a shard expands its chunks
    /// before it would need more); false, and [`KeyTable::full`], when
    /// there is no room for it.
    #[cold]
    fn grow(&mut self) -> bool {
        if !self.full && !self.resize(2 * self.slots.len()) {
            self.full = true;
        }
        !self.full
    }

    /// Makes room for `keys` keys in all at once, rather than doubling the
    /// table again and again as they come (a chunk table stays within
    /// [`MAX_SLOTS`]).
    /// A guess: without room for it, the table grows as keys come.
    fn reserve(&mut self, keys: usize) {
        let size = (keys.saturating_mul(4) / 3 + 1).next_power_of_two();
        if size > self.slots.len() {
            self.resize(size);
        }
    }

    /// Moves the keys into a table of `size` slots (a power of two; at
    /// least [`FIRST_SLOTS`], no more than [`MAX_SLOTS`] for chunks). The
    /// keys being distinct, each goes to the first empty slot from its
    /// home, with no key compared. False, the table as it was, when there
    /// is no room for the new one.
    #[cold]
    fn resize(&mut self, size: usize) -> bool {
        let size = size.max(FIRST_SLOTS);
        let size = if self.chunks { size.min(MAX_SLOTS) } else { size };
        if size <= self.slots.len() {
            return true;
        }
        let mut slots = Vec::new();
        if slots.try_reserve_exact(size).is_err() {
            return false;
        }
        slots.resize(size, KeySlot::default());
        let old = std::mem::replace(&mut self.slots, slots);
        self.shift = 64 - size.trailing_zeros();
        let mask = size - 1;
        for slot in old.into_iter().filter(|s| s.key[2] != 0) {
            let mut i = self.home(self.hash(&ShortKey(slot.key)));
            while self.slots[i].key[2] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = slot;
        }
        true
    }

    /// The count of `key`.
    fn get(&self, key: &ShortKey) -> Option<u64> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(self.hash(key));
        loop {
            let slot = &self.slots[i];
            if slot.key == key.0 {
                return Some(slot.count);
            }
            if slot.key[2] == 0 {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    /// Every key held and its count.
    fn iter(&self) -> impl Iterator<Item = (ShortKey, u64)> + '_ {
        self.slots.iter().filter(|s| s.key[2] != 0).map(|s| (ShortKey(s.key), s.count))
    }

    /// Every key held and its count; the table is left empty.
    fn drain(&mut self) -> impl Iterator<Item = (ShortKey, u64)> + '_ {
        self.len = 0;
        self.slots.iter_mut().filter(|s| s.key[2] != 0).map(|s| {
            let KeySlot { key, count } = std::mem::take(s);
            (ShortKey(key), count)
        })
    }
}

/// Texts shorter than this are joined to be scanned (see [`Shard::add_texts`]).
const JOIN_BYTES: usize = 16 << 10;

/// The ASCII path of the two stages ([`AsciiPath`]), and its tables for
/// [`Shard::add_chunk_words`]: each ASCII byte's normalized byte and class
/// (see [`AsciiPath::byte`]).
struct Ascii {
    path: AsciiPath,
    normalized: [u8; 128],
    class: [u8; 128],
    /// By the classes of two bytes in a row (the first's times 16 plus the
    /// second's): 1 if a word starts at the second, plus 2 if one ends
    /// before it.
    bounds: [u8; 256],
}

impl Ascii {
    fn new(options: &Options) -> Self {
        let path = AsciiPath::new(&options.normalizer, options.pre_tokenizer);
        let (mut normalized, mut class) = ([0u8; 128], [0u8; 128]);
        for b in 0..128u8 {
            (normalized[usize::from(b)], class[usize::from(b)]) = path.byte(b);
        }
        // A word starts at a byte that joins one, or stands alone, unless it
        // continues the run (of joining bytes, or of punctuation) of the
        // byte before; it ends likewise before the next byte.
        let mut bounds = [0u8; 256];
        for prev in [BYTE_SPACE, BYTE_JOIN, BYTE_PUNCT, BYTE_ALONE, BYTE_DROP] {
            for next in [BYTE_SPACE, BYTE_JOIN, BYTE_PUNCT, BYTE_ALONE, BYTE_DROP] {
                let word = |c: u8| c & (BYTE_JOIN | BYTE_PUNCT | BYTE_ALONE) != 0;
                let apart = prev != next || next == BYTE_ALONE;
                let (start, end) = (word(next) && apart, word(prev) && apart);
                bounds[usize::from(prev << 4 | next)] = u8::from(start) | u8::from(end) << 1;
            }
        }
        Self { path, normalized, class, bounds }
    }
}

/// Chunks whose slots are prefetched before they are counted.
const AHEAD: usize = 32;

/// One worker thread's counts, kept from batch to batch (so a word is
/// allocated once per thread, not once per batch), its raw chunks not yet
/// expanded into words, and its buffers.
struct Shard {
    counts: Counts,
    /// Raw chunks (see the module's documentation) of at most [`SHORT`]
    /// bytes → how often each was met since the last [`Shard::flush`].
    chunks: KeyTable,
    /// Chunks met, with their hashes, whose slots are being prefetched:
    /// counted [`AHEAD`] at a time.
    pending: Vec<(ShortKey, u64)>,
    /// The same for words of ASCII chunks: key, hash and count.
    words: Vec<(ShortKey, u64, u64)>,
    normalized: Normalized,
    /// For ASCII chunks: the normalized bytes and the words' byte ranges.
    ascii: Vec<u8>,
    spans: Vec<(usize, usize)>,
    /// Short texts of a task joined by `'\n'`, scanned as one (see
    /// [`Shard::add_texts`]).
    joined: String,
    /// Why a text could not be counted (no room for its normalized text or
    /// a word of it): the shard then counts nothing more, and the counter
    /// reports it (see [`WordCounter::add_texts`]).
    failed: Option<Error>,
}

impl Shard {
    fn new() -> Self {
        Self {
            counts: Counts::default(),
            chunks: KeyTable { chunks: true, ..KeyTable::default() },
            pending: Vec::with_capacity(AHEAD),
            words: Vec::with_capacity(AHEAD),
            normalized: Normalized::default(),
            ascii: Vec::new(),
            spans: Vec::new(),
            joined: String::new(),
            failed: None,
        }
    }

    /// Counts the raw chunks of `texts`. Short texts are joined by `'\n'`
    /// and scanned as one text: a separator, so their chunks are the same,
    /// but a text's fixed costs (its last block, its zero-padded tail) are
    /// paid once per join rather than once per text (GCIDE's lines average
    /// 42 bytes).
    fn add_texts<S: AsRef<str>>(&mut self, options: &Options, ascii: &Ascii, texts: &[S], bound: usize) {
        if self.failed.is_some() {
            return;
        }
        let mut joined = std::mem::take(&mut self.joined);
        for text in texts {
            let text = text.as_ref();
            if text.len() >= JOIN_BYTES {
                self.add_text(options, ascii, text, bound);
                continue;
            }
            if joined.len() + text.len() >= JOIN_BYTES {
                self.add_text(options, ascii, &joined, bound);
                joined.clear();
            }
            joined.push_str(text);
            joined.push('\n');
        }
        if !joined.is_empty() {
            self.add_text(options, ascii, &joined, bound);
            joined.clear();
        }
        self.joined = joined;
        self.check_room();
    }

    /// Keeps the error of a table that could not grow (see
    /// [`KeyTable::full`]), if no other came first: the shard then counts
    /// nothing more.
    fn check_room(&mut self) {
        if self.failed.is_none() && (self.counts.short.full || self.chunks.full) {
            self.failed = Some(self.counts.no_room());
        }
    }

    /// Counts the raw chunks of `text`, expanding them into words whenever
    /// `bound` distinct ones are held.
    #[inline]
    fn add_text(&mut self, options: &Options, ascii: &Ascii, text: &str, bound: usize) {
        let bytes = text.as_bytes();
        // The text's last bytes, zero-padded: a chunk's key reads 24 bytes
        // from its start, which a chunk near the text's end does not have.
        let tail_at = bytes.len().saturating_sub(SHORT + 1);
        let mut tail = [0u8; 2 * (SHORT + 1)];
        let mut tail_filled = false;
        for (start, end) in Chunks::new(bytes) {
            let len = end - start;
            if len > SHORT {
                // Rare (a chunk too long for an inline key): its words now.
                self.add_words(options, ascii, &text[start..end], 1);
                continue;
            }
            let key = if start + SHORT < bytes.len() {
                short_key_at(bytes, start, len)
            } else {
                if !tail_filled {
                    // A copy of fixed size (moves, no call) but for a short text.
                    let rest = &bytes[tail_at..];
                    match <&[u8; SHORT + 1]>::try_from(rest) {
                        Ok(last) => tail[..SHORT + 1].copy_from_slice(last),
                        Err(_) => tail[..rest.len()].copy_from_slice(rest),
                    }
                    tail_filled = true;
                }
                short_key_at(&tail, start - tail_at, len)
            };
            let hash = KeyTable::chunk_hash(&key);
            self.chunks.prefetch(hash);
            self.pending.push((key, hash));
            if self.pending.len() == AHEAD {
                self.count_pending(options, ascii, bound);
            }
        }
    }

    /// Counts the chunks pending, expanding them all into words whenever
    /// `bound` distinct ones are held.
    #[inline]
    fn count_pending(&mut self, options: &Options, ascii: &Ascii, bound: usize) {
        let mut pending = std::mem::take(&mut self.pending);
        for (key, hash) in pending.drain(..) {
            self.chunks.add(&key, hash, 1);
            if self.chunks.len >= bound {
                self.flush(options, ascii);
            }
        }
        self.pending = pending;
    }

    /// Adds the words of every chunk held (pending ones too), times its
    /// count, and forgets the chunks.
    fn flush(&mut self, options: &Options, ascii: &Ascii) {
        let mut chunks = std::mem::take(&mut self.chunks);
        if !self.pending.is_empty() {
            let pending = std::mem::take(&mut self.pending);
            for (key, hash) in &pending {
                chunks.add(key, *hash, 1);
            }
            self.pending = pending;
            self.pending.clear();
        }
        // Room for their words at once (a guess: each distinct chunk of
        // GCIDE's brings 0.4 new words).
        self.counts.short.reserve(self.counts.short.len + chunks.len / 2);
        for (key, n) in chunks.drain() {
            self.add_chunk_words(options, ascii, &key, n);
        }
        // Emptied: its memory is kept for the chunks to come.
        self.chunks = chunks;
        for (key, hash, n) in self.words.drain(..) {
            self.counts.short.add(&key, hash, n);
        }
    }

    /// Adds the words of the chunk `key` (held in the chunk table), `n`
    /// times each. An ASCII chunk without a byte the normalizer drops is
    /// split on the stack, its word bounds found as bit masks from the
    /// classes of its bytes (see [`Ascii`]); any other takes `add_words`.
    #[inline]
    fn add_chunk_words(&mut self, options: &Options, ascii: &Ascii, key: &ShortKey, n: u64) {
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let [a, b, c] = key.0;
        let bytes = key_bytes(key);
        let len = usize::from(bytes[SHORT]);
        if (a | b | (c & !(0xff << 56))) & HIGH == 0 {
            // Normalized bytes, zero-padded so that a key reads 24 bytes
            // from any word's start.
            let mut buf = [0u8; 2 * (SHORT + 1)];
            // Bit i of `starts`: a word starts at byte i; of `ends`: one
            // ends before byte i. Each from the classes of bytes i - 1 and
            // i (a space before the chunk and after it).
            let (mut starts, mut ends, mut classes, mut prev) = (0u32, 0u32, 0u8, BYTE_SPACE);
            for (i, (&byte, out)) in bytes[..len].iter().zip(&mut buf).enumerate() {
                let byte = usize::from(byte & 127);
                *out = ascii.normalized[byte];
                let class = ascii.class[byte];
                classes |= class;
                let bounds = ascii.bounds[usize::from(prev << 4 | class)];
                starts |= u32::from(bounds & 1) << i;
                ends |= u32::from(bounds >> 1) << i;
                prev = class;
            }
            ends |= u32::from(ascii.bounds[usize::from(prev << 4 | BYTE_SPACE)] >> 1) << len;
            if classes & BYTE_DROP == 0 {
                while starts != 0 {
                    let start = starts.trailing_zeros() as usize;
                    let end = ends.trailing_zeros() as usize;
                    starts &= starts - 1;
                    ends &= ends - 1;
                    self.push_word(short_key_at(&buf, start, end - start), n);
                }
                return;
            }
        }
        self.add_words(options, ascii, key_str(&bytes, len), n);
    }

    /// Adds `n` to the count of the short word `key`, its slot prefetched
    /// [`AHEAD`] words before.
    #[inline(always)]
    fn push_word(&mut self, key: ShortKey, n: u64) {
        let hash = key.mix();
        self.counts.short.prefetch(hash);
        self.words.push((key, hash, n));
        if self.words.len() == AHEAD {
            for (key, hash, n) in self.words.drain(..) {
                self.counts.short.add(&key, hash, n);
            }
        }
    }

    /// Adds the words of `chunk` (a text or a part of one cut at separators),
    /// `n` times each. Its buffers grow fallibly (a chunk may be as long as a
    /// text): when there is no room, the shard keeps the error (see
    /// [`Shard::failed`]).
    fn add_words(&mut self, options: &Options, ascii: &Ascii, chunk: &str, n: u64) {
        let Shard { counts, normalized, ascii: buf, spans, words, failed, .. } = self;
        if failed.is_some() {
            return;
        }
        // Room for the normalized chunk, its padding and the keys' (reserved
        // here only when the buffer must grow), else the general path, which
        // reports what did not fit.
        buf.clear();
        if chunk.is_ascii() && buf.try_reserve(chunk.len() + PADDING + SHORT + 1).is_ok() {
            // Normalized and split in one pass (the table of the same stages);
            // counted only if the whole chunk took that path and its words'
            // spans had room.
            spans.clear();
            let mut room = true;
            let split = ascii.path.split(chunk, buf, |_, start, end| {
                // Grown fallibly, and only when full.
                if room && (spans.len() < spans.capacity() || spans.try_reserve(spans.len().max(64)).is_ok()) {
                    spans.push((start, end));
                } else {
                    room = false;
                }
            });
            if split && room {
                buf.extend_from_slice(&[0; SHORT + 1]);
                for &(start, end) in spans.iter() {
                    if end - start <= SHORT {
                        let key = short_key_at(buf, start, end - start);
                        let hash = key.mix();
                        counts.short.prefetch(hash);
                        words.push((key, hash, n));
                        if words.len() == AHEAD {
                            for (key, hash, n) in words.drain(..) {
                                counts.short.add(&key, hash, n);
                            }
                        }
                    } else if let Err(e) = counts.add_long(&buf[start..end], n) {
                        *failed = Some(e);
                        return;
                    }
                }
                return;
            }
            if !room {
                // The spans of a chunk that did not fit: not kept for the next.
                *spans = Vec::new();
            }
        }
        let mut error = None;
        let counted = options.try_for_each_word(chunk, normalized, |w| {
            if error.is_none() {
                error = counts.add(w.as_bytes(), n).err();
            }
        });
        if let Err(e) = counted.and(error.map_or(Ok(()), Err)) {
            *failed = Some(e);
        }
    }
}

/// How many threads have finished their share of a batch
/// ([`WordCounter::add_texts_meanwhile`]), and a wait for them all.
#[derive(Default)]
struct Finished {
    count: AtomicUsize,
    lock: Mutex<()>,
    done: Condvar,
}

/// Counts its thread as finished when dropped, even by a panic (the caller,
/// waiting for all of them, then returns, and the scope re-raises it).
struct OnDrop<'a>(&'a Finished);

impl Drop for OnDrop<'_> {
    fn drop(&mut self) {
        self.0.count.fetch_add(1, AtomicOrdering::Release);
        let _lock = self.0.lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        self.0.done.notify_all();
    }
}

impl Finished {
    fn on_drop(&self) -> OnDrop<'_> {
        OnDrop(self)
    }

    /// Returns once `threads` have finished: spinning a little (the others
    /// are usually a task from the end), then asleep.
    fn wait_for(&self, threads: usize) {
        let spin_until = Instant::now() + Duration::from_micros(100);
        while self.count.load(AtomicOrdering::Acquire) < threads {
            if Instant::now() < spin_until {
                std::hint::spin_loop();
                continue;
            }
            let lock = self.lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            // Checked under the lock a finishing thread takes to notify: no
            // notification is missed.
            if self.count.load(AtomicOrdering::Acquire) < threads {
                drop(self.done.wait(lock).unwrap_or_else(|poisoned| poisoned.into_inner()));
            }
        }
    }
}

pub struct WordCounter {
    options: Options,
    ascii: Ascii,
    /// One per worker thread of the pool (by `rayon::current_thread_index`);
    /// added up in `into_counts`.
    shards: Vec<Mutex<Shard>>,
    /// The most distinct chunks a shard holds before expanding them.
    bound: usize,
}

impl WordCounter {
    pub fn new(options: &Options) -> Self {
        let ascii = Ascii::new(options);
        Self { options: options.clone(), ascii, shards: Vec::new(), bound: MAX_CHUNKS }
    }

    /// A counter whose shards expand their chunks whenever they hold `bound`
    /// (to test the expansion).
    #[cfg(test)]
    fn with_bound(options: &Options, bound: usize) -> Self {
        Self { bound: bound.clamp(1, MAX_CHUNKS), ..Self::new(options) }
    }

    /// Counts the words of every text, in parallel; `Error::Memory` when a
    /// text's normalized text or a word of it has no room.
    pub fn add_texts<S: AsRef<str> + Sync>(&mut self, texts: &[S]) -> Result<()> {
        let (options, ascii, bound) = (&self.options, &self.ascii, self.bound);
        let shards = &mut self.shards;
        threads::run(|| {
            let workers = rayon::current_num_threads();
            if shards.len() < workers {
                shards.resize_with(workers, || Mutex::new(Shard::new()));
            }
            let shards = &*shards;
            // Each shard's chunk table sized at once for the distinct
            // chunks it may meet (a guess from the bytes).
            let bytes: usize = texts.iter().map(|t| t.as_ref().len()).sum();
            let distinct = bytes / CHUNK_BYTES / workers;
            texts.par_chunks(TASK_TEXTS).for_each(|chunk| {
                // A worker runs one task at a time and takes no other while
                // it holds its shard, so the lock is never contended.
                let at = rayon::current_thread_index().unwrap_or(0) % shards.len();
                let mut shard = shards[at].lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                shard.chunks.reserve(distinct);
                shard.add_texts(options, ascii, chunk, bound);
            });
        });
        self.failure()
    }

    /// The error a shard kept (the first shard's, of those that kept one).
    fn failure(&mut self) -> Result<()> {
        let mut shards = self.shards.iter_mut();
        let failed = shards.find_map(|s| s.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner()).failed.take());
        failed.map_or(Ok(()), Err)
    }

    /// Counts the words of every text on `threads` threads, the calling
    /// thread one of them, while the calling thread first runs `meanwhile`
    /// (the bindings pull the next texts from Python then): the pool's
    /// threads start on the texts at once and the caller joins them when
    /// `meanwhile` returns, so that two threads keep two cores busy. The
    /// caller's share runs inside `count_here` (which the bindings wrap in
    /// a release of the GIL); it returns once every text is counted, with
    /// what `meanwhile` returned, or `Error::Memory` as `add_texts` does.
    ///
    /// Measured on GCIDE (40 MB of short lines) at two threads: pulling, then
    /// counting in the pool, left a core idle ~20% of the time (`perf sched
    /// timehist`); counting this way took 0.177 s against 0.198 s (medians
    /// of 10 processes each, alternating).
    pub fn add_texts_meanwhile<S: AsRef<str> + Sync, R>(
        &mut self,
        texts: &[S],
        threads: usize,
        meanwhile: impl FnOnce() -> R,
        count_here: impl FnOnce(&(dyn Fn() + Sync)),
    ) -> Result<R> {
        // Without a pool (one thread, or none could start), the caller
        // counts alone, then runs `meanwhile`.
        let pool = if threads > 1 { threads::pool_for(Some(threads - 1)).ok() } else { None };
        let threads = if pool.is_some() { threads } else { 1 };
        if self.shards.len() < threads {
            self.shards.resize_with(threads, || Mutex::new(Shard::new()));
        }
        let (options, ascii, bound, shards) = (&self.options, &self.ascii, self.bound, &self.shards);
        let bytes: usize = texts.iter().map(|t| t.as_ref().len()).sum();
        let distinct = bytes / CHUNK_BYTES / threads;
        let tasks = texts.len().div_ceil(TASK_TEXTS);
        let next = AtomicUsize::new(0);
        let finished = Finished::default();
        // Thread `at` (the caller is the last) counts into shard `at`, so a
        // lock is never contended; each takes tasks until none is left.
        let take_tasks = |at: usize| {
            let _finished = finished.on_drop();
            let mut shard = shards[at].lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            shard.chunks.reserve(distinct);
            loop {
                let k = next.fetch_add(1, AtomicOrdering::Relaxed);
                if k >= tasks {
                    break;
                }
                let end = ((k + 1) * TASK_TEXTS).min(texts.len());
                shard.add_texts(options, ascii, &texts[k * TASK_TEXTS..end], bound);
            }
        };
        let Some(pool) = pool else {
            count_here(&|| take_tasks(0));
            let out = meanwhile();
            return self.failure().map(|()| out);
        };
        let out = pool.in_place_scope(|scope| {
            for at in 0..threads - 1 {
                let take_tasks = &take_tasks;
                scope.spawn(move |_| take_tasks(at));
            }
            let out = meanwhile();
            count_here(&|| {
                take_tasks(threads - 1);
                // The others' last tasks (a few texts each); waiting here,
                // not at the end of the scope, keeps the GIL released.
                finished.wait_for(threads);
            });
            out
        });
        self.failure().map(|()| out)
    }

    /// Streams files in chunks of whole lines. Every file is opened before any
    /// is read, so a missing one fails before work starts. A FIFO no one
    /// writes to yet is waited for, asking `progress` whether to stop.
    pub fn add_files(&mut self, paths: &[PathBuf], errors: Utf8Errors, progress: &mut Progress) -> Result<()> {
        let mut files = Vec::with_capacity(paths.len());
        // The bytes to read, unknown when one input is not a regular file
        // (standard input, a pipe: its length is 0).
        let mut total = Some(0u64);
        for path in paths {
            let file = crate::io::open_to_read(path, &|| progress.check().is_err())?;
            let meta = file.metadata().map_err(|e| Error::io(path, e))?;
            if meta.is_dir() {
                return Err(Error::io(path, std::io::Error::new(std::io::ErrorKind::IsADirectory, "Is a directory")));
            }
            total = total.filter(|_| meta.is_file()).map(|n| n + meta.len());
            files.push(file);
        }
        progress.start("counting words", "bytes", total);
        for (path, file) in paths.iter().zip(files) {
            self.add_reader(path, file, errors, progress)?;
        }
        progress.finish();
        Ok(())
    }

    fn add_reader(&mut self, path: &Path, mut file: File, errors: Utf8Errors, progress: &mut Progress) -> Result<()> {
        // Grown fallibly: a line may be longer than memory.
        let mut buf: Vec<u8> = Vec::new();
        buf.try_reserve_exact(CHUNK * 2)
            .map_err(|_| Error::memory(format_args!("{}: its text read in blocks of {CHUNK} bytes", path.display())))?;
        let mut offset = 0u64; // file offset of buf[0]
        loop {
            let filled = buf.len();
            buf.try_reserve(CHUNK).map_err(|_| {
                Error::memory(format_args!("{}: a line of text of more than {filled} bytes", path.display()))
            })?;
            buf.resize(filled + CHUNK, 0);
            let n = read_full(path, &mut file, &mut buf[filled..], &|| progress.check().is_err())?;
            buf.truncate(filled + n);
            let at_end = n == 0;
            // Process whole lines only; the tail waits for the next read. The
            // tail kept before holds no newline: only the new bytes are
            // searched (a line of gigabytes is read in linear time).
            let cut = if at_end {
                buf.len()
            } else {
                buf[filled..].iter().rposition(|&b| b == b'\n').map_or(0, |i| filled + i + 1)
            };
            if cut > 0 {
                self.add_bytes(path, &buf[..cut], offset, errors)?;
                buf.drain(..cut);
                offset += cut as u64;
            }
            // Also while a line goes on without end (/dev/zero): Ctrl-C stops it.
            progress.advance(cut as u64)?;
            if at_end {
                return Ok(());
            }
        }
    }

    fn add_bytes(&mut self, path: &Path, bytes: &[u8], offset: u64, errors: Utf8Errors) -> Result<()> {
        let text = match std::str::from_utf8(bytes) {
            Ok(text) => std::borrow::Cow::Borrowed(text),
            Err(e) if errors == Utf8Errors::Strict => {
                return Err(Error::invalid_file(
                    path,
                    format!(
                        "invalid UTF-8 at byte offset {} (pass errors=\"replace\" to replace it)",
                        offset + e.valid_up_to() as u64
                    ),
                ))
            }
            Err(_) => String::from_utf8_lossy(bytes),
        };
        // Counted in batches of lines: a block of short lines is many. A
        // line without room is named by its file.
        let in_file = |e: Error| match e {
            Error::Memory(what) => Error::Memory(format!("{}: {what}", path.display())),
            e => e,
        };
        let mut lines: Vec<&str> = Vec::with_capacity(LINES);
        for line in text.lines() {
            lines.push(line);
            if lines.len() == LINES {
                self.add_texts(&lines).map_err(in_file)?;
                lines.clear();
            }
        }
        self.add_texts(&lines).map_err(in_file)
    }

    /// Expands every shard's chunks into words, the shards in parallel.
    fn flush(&mut self) {
        let (options, ascii) = (&self.options, &self.ascii);
        let shards = &mut self.shards;
        threads::run(|| {
            shards.par_iter_mut().for_each(|shard| {
                let shard = shard.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner());
                shard.flush(options, ascii);
                shard.check_room();
            });
        });
    }

    pub fn distinct_words(&mut self) -> usize {
        self.flush();
        let shards: Vec<_> = self.shards.iter().map(|s| s.lock().unwrap_or_else(|p| p.into_inner())).collect();
        let Some((first, rest)) = shards.split_first() else { return 0 };
        let mut seen: FxHashSet<Vec<u8>> = FxHashSet::default();
        for shard in rest {
            seen.extend(shard.counts.words().filter(|w| !first.counts.contains(w)));
        }
        first.counts.len() + seen.len()
    }

    /// The counts, sorted by word so that what follows never depends on
    /// hashing or thread scheduling; `Error::Memory` when the words held
    /// until now did not all fit.
    pub fn into_counts(mut self) -> Result<Vec<(String, u64)>> {
        self.flush();
        self.failure()?;
        let shards = self.shards;
        // Each shard sorted on a thread of its own, then merged in pairs.
        let watch = Watch::start();
        let sorted = threads::run(|| {
            shards
                .into_par_iter()
                .map(|s| s.into_inner().unwrap_or_else(|p| p.into_inner()).counts.into_sorted())
                .reduce_with(Sorted::merge)
        });
        let counts = sorted.map_or_else(|| Ok(Vec::new()), |s| s?.into_vec())?;
        // The words' strings, made one by one.
        watch.check(|| format!("the {} distinct words counted", counts.len()))?;
        Ok(counts)
    }
}

/// Fills `buf` from `file` as far as it goes. A read that a signal
/// interrupts (a FIFO whose writer is slow to write) asks `stop` whether to
/// give up (`Error::Interrupted`) before it reads again.
fn read_full(path: &Path, file: &mut File, mut buf: &mut [u8], stop: &dyn Fn() -> bool) -> Result<usize> {
    let mut total = 0;
    while !buf.is_empty() {
        match file.read(buf) {
            Ok(0) => break,
            Ok(n) => {
                total += n;
                buf = &mut buf[n..];
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {
                if stop() {
                    return Err(Error::Interrupted);
                }
            }
            Err(e) => return Err(Error::io(path, e)),
        }
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_normalized_words_across_texts() {
        let mut counter = WordCounter::new(&Options::default());
        counter.add_texts(&["Hello, hello!", "HÉLLO world"]).unwrap();
        assert_eq!(
            counter.into_counts().unwrap(),
            [("!".into(), 1), (",".into(), 1), ("hello".into(), 3), ("world".into(), 1)]
        );
    }

    #[test]
    fn counting_meanwhile_counts_as_add_texts_and_runs_meanwhile_once() {
        // Enough texts for many tasks, and words that differ between them.
        let texts: Vec<String> = (0..5000).map(|i| format!("Word{} shared, text {i}", i % 37)).collect();
        let mut plain = WordCounter::new(&Options::default());
        plain.add_texts(&texts).unwrap();
        let expected = plain.into_counts().unwrap();
        for threads in [1, 2, 3] {
            let mut counter = WordCounter::new(&Options::default());
            let mut ran = 0;
            // Two units, as the bindings count them, the second pulled meanwhile.
            let (first, second) = texts.split_at(1234);
            let out = counter
                .add_texts_meanwhile(
                    first,
                    threads,
                    || {
                        ran += 1;
                        second
                    },
                    |count| count(),
                )
                .unwrap();
            assert_eq!(ran, 1);
            counter.add_texts_meanwhile(out, threads, || (), |count| count()).unwrap();
            assert_eq!(counter.into_counts().unwrap(), expected, "{threads} threads");
        }
    }

    #[test]
    fn a_panic_while_counting_meanwhile_reaches_the_caller() {
        let texts = vec!["a b c"; 2000];
        let mut counter = WordCounter::new(&Options::default());
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            counter.add_texts_meanwhile(&texts, 2, || (), |_| panic!("in the caller's share"))
        }));
        assert!(caught.is_err());
    }

    /// A text that panics when read on any thread but the one that made it,
    /// saying so in `READ_AWAY` first.
    struct ReadOnlyHere(std::thread::ThreadId);

    static READ_AWAY: AtomicUsize = AtomicUsize::new(0);

    impl AsRef<str> for ReadOnlyHere {
        fn as_ref(&self) -> &str {
            if std::thread::current().id() != self.0 {
                READ_AWAY.fetch_add(1, AtomicOrdering::SeqCst);
                panic!("read on a pool thread");
            }
            "a b c"
        }
    }

    #[test]
    fn a_panic_in_a_pool_threads_share_reaches_the_caller_without_a_hang() {
        let texts: Vec<ReadOnlyHere> = (0..4 * TASK_TEXTS).map(|_| ReadOnlyHere(std::thread::current().id())).collect();
        let mut counter = WordCounter::new(&Options::default());
        // The caller counts only once the pool's thread has taken a task.
        let wait_for_the_pool = || {
            let start = std::time::Instant::now();
            while READ_AWAY.load(AtomicOrdering::SeqCst) == 0 && start.elapsed().as_secs() < 10 {
                std::thread::yield_now();
            }
        };
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            counter.add_texts_meanwhile(&texts, 2, wait_for_the_pool, |count| count())
        }));
        assert!(READ_AWAY.load(AtomicOrdering::SeqCst) > 0, "the pool's thread took no task");
        assert!(caught.is_err(), "the pool thread's panic was lost");
    }

    #[test]
    fn files_stream_and_report_bad_utf8_with_offset() {
        let dir = std::env::temp_dir().join(format!("fwp-wc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bad.txt");
        std::fs::write(&path, b"ok line\nbad \xff byte\n").unwrap();
        let mut counter = WordCounter::new(&Options::default());
        let err =
            counter.add_files(std::slice::from_ref(&path), Utf8Errors::Strict, &mut Progress::disabled()).unwrap_err();
        assert!(err.to_string().contains("invalid UTF-8 at byte offset 12"), "{err}");
        let mut counter = WordCounter::new(&Options::default());
        counter.add_files(std::slice::from_ref(&path), Utf8Errors::Replace, &mut Progress::disabled()).unwrap();
        assert_eq!(counter.distinct_words(), 4);
        let missing = dir.join("missing.txt");
        let err = WordCounter::new(&Options::default())
            .add_files(&[path, missing], Utf8Errors::Strict, &mut Progress::disabled())
            .unwrap_err();
        assert!(matches!(err, Error::Io { .. }));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn short_keys_round_trip_and_tell_words_apart() {
        let words = ["", "a", "a\0", "\0", "abcdefgh", "abcdefghi", "héllo", "12345678901234567890123", "日本語"];
        let mut keys = FxHashSet::default();
        for w in words {
            let key = short_key(w.as_bytes());
            assert_eq!(short_word(&key), w);
            let mut padded = b"xy".to_vec();
            padded.extend_from_slice(w.as_bytes());
            padded.extend_from_slice(&[0xff; 24]);
            assert!(short_key_at(&padded, 2, w.len()) == key, "{w:?}");
            assert!(keys.insert(key), "{w:?}");
        }
    }

    /// Short texts are joined (by `'\n'`) to be scanned, long ones scanned
    /// alone: the counts are the pipeline's either way, a join never
    /// merging the end of one text with the start of the next.
    #[test]
    fn joined_and_long_texts_count_as_the_pipeline_does() {
        let options = Options::default();
        let long = "Ab*lu\"tion x ".repeat(JOIN_BYTES / 8);
        let near = "y".repeat(JOIN_BYTES - 3);
        let texts = ["end", "start", long.as_str(), "end", near.as_str(), "start", "Zz", "", "\r\n"];
        let mut expected = std::collections::BTreeMap::<String, u64>::new();
        let mut normalized = Normalized::default();
        for t in texts {
            options.for_each_word(t, &mut normalized, |w| *expected.entry(w.to_owned()).or_default() += 1);
        }
        let mut counter = WordCounter::new(&options);
        counter.add_texts(&texts).unwrap();
        assert_eq!(counter.into_counts().unwrap(), expected.into_iter().collect::<Vec<_>>());
    }

    #[test]
    fn bucket_sort_orders_as_a_plain_sort() {
        // Keys sharing their first two bytes and not, in buckets big and small.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let slots: Vec<KeySlot> = (0..3 * BUCKET_SORT)
            .map(|i| {
                let first = if i % 3 == 0 { 0x6162 << 48 | next() >> 16 } else { next() };
                KeySlot { key: [first, next() % 4, 1 + i as u64 % 23], count: i as u64 }
            })
            .collect();
        let mut expected = slots.clone();
        expected.sort_unstable_by_key(|s| s.key);
        let sorted = sort_slots(slots).unwrap();
        assert!(sorted.iter().map(|s| (s.key, s.count)).eq(expected.iter().map(|s| (s.key, s.count))));
    }

    /// Options of every kind: each normalizer switch and pre-tokenizer.
    fn any_options() -> impl proptest::strategy::Strategy<Value = Options> {
        use crate::pipeline::pre_tokenizer::PreTokenizer;
        use proptest::prelude::*;
        let pre = prop_oneof![
            Just(PreTokenizer::Bert),
            Just(PreTokenizer::Whitespace),
            Just(PreTokenizer::Regex),
            Just(PreTokenizer::WordPunct)
        ];
        (any::<[bool; 4]>(), proptest::option::of(any::<bool>()), pre).prop_map(|(flags, strip_accents, pre)| {
            let mut options = Options::default();
            let n = &mut options.normalizer;
            [n.clean_text, n.handle_chinese_chars, n.lowercase, n.strip_all_marks] = flags;
            n.strip_accents = strip_accents;
            options.pre_tokenizer = pre;
            options
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(300))]

        /// Counting raw chunks and expanding each once (at the end, or
        /// whenever a shard holds `bound` of them), the ASCII path, the
        /// inline keys and the per-thread shards count exactly what the
        /// pipeline's two stages produce from whole texts, under every
        /// option: texts with every separator, other whitespace and control
        /// characters, marks after spaces, CJK, punctuation, long chunks.
        #[test]
        fn counts_equal_the_pipeline_words(
            texts in proptest::collection::vec(
                "[a-cA-C .,!'_\\-\t\n\r\u{0}\u{1}\u{7f}\u{b}\u{c}\u{85}\u{a0}\u{2028}\u{3000}\u{301}\u{308}\u{fffd}é日Σİ]{0,40}\
                 |[a-zé]{20,30}( [a-z]{1,3})?|[a-z.]{1,30}",
                0..40,
            ),
            options in any_options(),
            bound in proptest::prop_oneof![1usize..8, proptest::strategy::Just(MAX_CHUNKS)],
            copies in 1usize..20,
        ) {
            let mut expected = std::collections::BTreeMap::<String, u64>::new();
            let mut normalized = Normalized::default();
            for t in &texts {
                options.for_each_word(t, &mut normalized, |w| *expected.entry(w.to_owned()).or_default() += copies as u64);
            }
            // Copies of the texts, in tasks that the pool's threads share.
            let all: Vec<&str> = (0..copies).flat_map(|_| texts.iter().map(String::as_str)).collect();
            let mut counter = WordCounter::with_bound(&options, bound);
            counter.add_texts(&all[..all.len() / 3]).unwrap();
            proptest::prop_assert!(counter.distinct_words() <= expected.len());
            counter.add_texts(&all[all.len() / 3..]).unwrap();
            proptest::prop_assert_eq!(counter.distinct_words(), expected.len());
            proptest::prop_assert_eq!(counter.into_counts().unwrap(), expected.into_iter().collect::<Vec<_>>());
        }
    }
}
