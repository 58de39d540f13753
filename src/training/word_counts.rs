//! Word counting: the first two pipeline stages, run in parallel with rayon.
//! Memory grows with the number of distinct words, never with corpus size.
//!
//! Each worker thread counts into a map of its own, kept from batch to batch
//! and added up once at the end. An ASCII text is normalized and split in
//! one pass (`AsciiPath`, the table encoding uses). A word of up to 23 bytes
//! is its own key, inline (three 64-bit words: no allocation, no pointer to
//! follow); longer words are keyed by their bytes. On 10 MB of GCIDE at one
//! thread that took counting from ~1.23 G instructions (a map of Strings per
//! batch and task, merged batch by batch) to ~0.73 G.

use std::fs::File;
use std::hash::{Hash, Hasher};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use super::progress::Progress;
use crate::error::{Error, Result};
use crate::pipeline::ascii::AsciiPath;
use crate::pipeline::normalizer::Normalized;
use crate::threads;
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

/// Texts per parallel task: enough to pay for a task, few enough to balance.
const TASK_TEXTS: usize = 256;

/// Words of up to this many bytes are kept inline in the map's key.
const SHORT: usize = 23;

/// A short word's bytes, zero-padded, and its length in the last byte: its
/// key compares and hashes as three words, with no pointer to follow.
#[derive(Clone, Copy, PartialEq, Eq)]
struct ShortKey([u64; 3]);

impl Hash for ShortKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // Two folded multiplies mix all 24 bytes into one word.
        let fold = |x: u64, y: u64| {
            let m = u128::from(x) * u128::from(y);
            (m as u64) ^ ((m >> 64) as u64)
        };
        let [a, b, c] = self.0;
        let h = fold(a ^ 0x243f_6a88_85a3_08d3, b ^ 0x1319_8a2e_0370_7344);
        state.write_u64(fold(h ^ c, 0xa409_3822_299f_31d0));
    }
}

fn short_key(word: &[u8]) -> ShortKey {
    let mut bytes = [0u8; 24];
    bytes[..word.len()].copy_from_slice(word);
    short_key_at(&bytes, 0, word.len())
}

/// The key of the `len` bytes at `start` in `buf`, which has at least 24
/// bytes from `start` on: three loads, masked.
fn short_key_at(buf: &[u8], start: usize, len: usize) -> ShortKey {
    let word = |i: usize| {
        let w = u64::from_le_bytes(buf[start + 8 * i..start + 8 * i + 8].try_into().expect("8 bytes"));
        let bytes = len.saturating_sub(8 * i).min(8);
        if bytes == 8 {
            w
        } else {
            w & ((1u64 << (8 * bytes)) - 1)
        }
    };
    ShortKey([word(0), word(1), word(2) | (len as u64) << 56])
}

fn short_word(key: &ShortKey) -> String {
    let mut bytes = [0u8; 24];
    for (i, w) in key.0.iter().enumerate() {
        bytes[8 * i..8 * i + 8].copy_from_slice(&w.to_le_bytes());
    }
    let len = bytes[SHORT] as usize;
    // The key was made from a str: its first `len` bytes are that str.
    String::from_utf8(bytes[..len].to_vec()).expect("a key holds a whole str")
}

/// Word counts: short words by inline key, the rest by their bytes. Every
/// word added is UTF-8 (a str's bytes).
#[derive(Default)]
struct Counts {
    short: FxHashMap<ShortKey, u64>,
    long: FxHashMap<Box<[u8]>, u64>,
}

impl Counts {
    fn add(&mut self, word: &[u8], n: u64) {
        if word.len() <= SHORT {
            *self.short.entry(short_key(word)).or_default() += n;
        } else {
            self.add_long(word, n);
        }
    }

    fn add_long(&mut self, word: &[u8], n: u64) {
        match self.long.get_mut(word) {
            Some(c) => *c += n,
            None => {
                self.long.insert(word.into(), n);
            }
        }
    }

    fn contains(&self, word: &[u8]) -> bool {
        if word.len() <= SHORT {
            self.short.contains_key(&short_key(word))
        } else {
            self.long.contains_key(word)
        }
    }

    fn len(&self) -> usize {
        self.short.len() + self.long.len()
    }

    fn words(&self) -> impl Iterator<Item = Vec<u8>> + '_ {
        self.short.keys().map(|k| short_word(k).into_bytes()).chain(self.long.keys().map(|w| w.to_vec()))
    }

    /// Adds the smaller map into the larger.
    fn merge(a: Counts, b: Counts) -> Counts {
        let (mut big, small) = if a.len() >= b.len() { (a, b) } else { (b, a) };
        for (key, count) in small.short {
            *big.short.entry(key).or_default() += count;
        }
        for (word, count) in small.long {
            *big.long.entry(word).or_default() += count;
        }
        big
    }

    fn into_vec(self) -> Vec<(String, u64)> {
        let mut out = Vec::with_capacity(self.len());
        out.extend(self.short.iter().map(|(k, &c)| (short_word(k), c)));
        out.extend(self.long.into_iter().map(|(w, c)| (String::from_utf8(w.into()).expect("a str's bytes"), c)));
        out
    }
}

/// One worker thread's counts, kept from batch to batch (so a word is
/// allocated once per thread, not once per batch), with its normalization
/// buffer.
#[derive(Default)]
struct Shard {
    counts: Counts,
    normalized: Normalized,
    /// For ASCII texts: the normalized bytes and the words' byte ranges.
    ascii: Vec<u8>,
    spans: Vec<(usize, usize)>,
}

impl Shard {
    fn add_text(&mut self, options: &Options, ascii: &AsciiPath, text: &str) {
        let Shard { counts, normalized, ascii: buf, spans } = self;
        if text.is_ascii() {
            // Normalized and split in one pass (the table of the same stages);
            // counted only if the whole text took that path.
            spans.clear();
            if ascii.split(text, buf, |_, start, end| spans.push((start, end))) {
                buf.extend_from_slice(&[0; 24]);
                for &(start, end) in spans.iter() {
                    if end - start <= SHORT {
                        *counts.short.entry(short_key_at(buf, start, end - start)).or_default() += 1;
                    } else {
                        counts.add_long(&buf[start..end], 1);
                    }
                }
                return;
            }
        }
        options.for_each_word(text, normalized, |w| counts.add(w.as_bytes(), 1));
    }
}

pub struct WordCounter {
    options: Options,
    ascii: AsciiPath,
    /// One per worker thread of the pool (by `rayon::current_thread_index`);
    /// added up in `into_counts`.
    shards: Vec<Mutex<Shard>>,
}

impl WordCounter {
    pub fn new(options: &Options) -> Self {
        let ascii = AsciiPath::new(&options.normalizer, options.pre_tokenizer);
        Self { options: options.clone(), ascii, shards: Vec::new() }
    }

    /// Counts the words of every text, in parallel.
    pub fn add_texts<S: AsRef<str> + Sync>(&mut self, texts: &[S]) {
        let (options, ascii) = (&self.options, &self.ascii);
        let shards = &mut self.shards;
        threads::run(|| {
            let workers = rayon::current_num_threads();
            if shards.len() < workers {
                shards.resize_with(workers, Mutex::default);
            }
            let shards = &*shards;
            texts.par_chunks(TASK_TEXTS).for_each(|chunk| {
                // A worker runs one task at a time and takes no other while
                // it holds its shard, so the lock is never contended.
                let at = rayon::current_thread_index().unwrap_or(0) % shards.len();
                let mut shard = shards[at].lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                for text in chunk {
                    shard.add_text(options, ascii, text.as_ref());
                }
            });
        });
    }

    /// Streams files in chunks of whole lines. Every file is opened before any
    /// is read, so a missing one fails before work starts.
    pub fn add_files(&mut self, paths: &[PathBuf], errors: Utf8Errors, progress: &mut Progress) -> Result<()> {
        let mut files = Vec::with_capacity(paths.len());
        let mut total = 0u64;
        for path in paths {
            let file = File::open(path).map_err(|e| Error::io(path, e))?;
            let meta = file.metadata().map_err(|e| Error::io(path, e))?;
            if meta.is_dir() {
                return Err(Error::io(path, std::io::Error::other("is a directory")));
            }
            total += meta.len();
            files.push(file);
        }
        progress.start("counting words", "bytes", Some(total));
        for (path, file) in paths.iter().zip(files) {
            self.add_reader(path, file, errors, progress)?;
        }
        progress.finish();
        Ok(())
    }

    fn add_reader(&mut self, path: &Path, mut file: File, errors: Utf8Errors, progress: &mut Progress) -> Result<()> {
        let mut buf: Vec<u8> = Vec::with_capacity(CHUNK * 2);
        let mut offset = 0u64; // file offset of buf[0]
        loop {
            let filled = buf.len();
            buf.resize(filled + CHUNK, 0);
            let n = read_full(&mut file, &mut buf[filled..]).map_err(|e| Error::io(path, e))?;
            buf.truncate(filled + n);
            let at_end = n == 0;
            // Process whole lines only; the tail waits for the next read.
            let cut = if at_end { buf.len() } else { buf.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1) };
            if cut > 0 {
                self.add_bytes(path, &buf[..cut], offset, errors)?;
                progress.advance(cut as u64)?;
                buf.drain(..cut);
                offset += cut as u64;
            }
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
        let lines: Vec<&str> = text.lines().collect();
        self.add_texts(&lines);
        Ok(())
    }

    pub fn distinct_words(&self) -> usize {
        let shards: Vec<_> = self.shards.iter().map(|s| s.lock().unwrap_or_else(|p| p.into_inner())).collect();
        let Some((first, rest)) = shards.split_first() else { return 0 };
        let mut seen: FxHashSet<Vec<u8>> = FxHashSet::default();
        for shard in rest {
            seen.extend(shard.counts.words().filter(|w| !first.counts.contains(w)));
        }
        first.counts.len() + seen.len()
    }

    /// The counts, sorted by word so that what follows never depends on
    /// hashing or thread scheduling.
    pub fn into_counts(self) -> Vec<(String, u64)> {
        let shards = self.shards.into_iter().map(|s| s.into_inner().unwrap_or_else(|p| p.into_inner()).counts);
        let mut counts = shards.reduce(Counts::merge).unwrap_or_default().into_vec();
        threads::run(|| counts.par_sort_unstable_by(|x, y| x.0.cmp(&y.0)));
        counts
    }
}

fn read_full(file: &mut File, mut buf: &mut [u8]) -> std::io::Result<usize> {
    let mut total = 0;
    while !buf.is_empty() {
        match file.read(buf) {
            Ok(0) => break,
            Ok(n) => {
                total += n;
                buf = &mut buf[n..];
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
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
        counter.add_texts(&["Hello, hello!", "HÉLLO world"]);
        assert_eq!(counter.into_counts(), [("!".into(), 1), (",".into(), 1), ("hello".into(), 3), ("world".into(), 1)]);
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

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(200))]

        /// The ASCII path, the inline keys and the per-thread shards count
        /// exactly what the pipeline's two stages produce.
        #[test]
        fn counts_equal_the_pipeline_words(
            texts in proptest::collection::vec("[a-cA-C .,!\\-\t\u{0}\u{7f}\u{1}é日]{0,40}|[a-z]{20,30}( [a-z]{1,3})?", 0..60),
        ) {
            let options = Options::default();
            let mut expected = std::collections::BTreeMap::<String, u64>::new();
            let mut normalized = Normalized::default();
            for t in &texts {
                options.for_each_word(t, &mut normalized, |w| *expected.entry(w.to_owned()).or_default() += 1);
            }
            let mut counter = WordCounter::new(&options);
            counter.add_texts(&texts[..texts.len() / 2]);
            counter.add_texts(&texts[texts.len() / 2..]);
            proptest::prop_assert_eq!(counter.distinct_words(), expected.len());
            proptest::prop_assert_eq!(counter.into_counts(), expected.into_iter().collect::<Vec<_>>());
        }
    }
}
