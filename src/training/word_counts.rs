//! Word counting: the first two pipeline stages, run in parallel with rayon.
//! Memory grows with the number of distinct words, never with corpus size.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::progress::Progress;
use crate::error::{Error, Result};
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

type Counts = FxHashMap<String, u64>;

pub struct WordCounter {
    options: Options,
    counts: Counts,
}

impl WordCounter {
    pub fn new(options: &Options) -> Self {
        Self { options: options.clone(), counts: Counts::default() }
    }

    /// Counts the words of every text, in parallel.
    pub fn add_texts<S: AsRef<str> + Sync>(&mut self, texts: &[S]) {
        let options = &self.options;
        let batch = threads::run(|| {
            texts
                .par_chunks(256)
                .fold(
                    || (Counts::default(), Normalized::default()),
                    |(mut counts, mut normalized), chunk| {
                        for text in chunk {
                            options.for_each_word(text.as_ref(), &mut normalized, |w| match counts.get_mut(w) {
                                Some(c) => *c += 1,
                                None => {
                                    counts.insert(w.to_owned(), 1);
                                }
                            });
                        }
                        (counts, normalized)
                    },
                )
                .map(|(counts, _)| counts)
                .reduce(Counts::default, merge)
        });
        self.counts = merge(std::mem::take(&mut self.counts), batch);
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
        self.counts.len()
    }

    /// The counts, sorted by word so that what follows never depends on
    /// hashing or thread scheduling.
    pub fn into_counts(self) -> Vec<(String, u64)> {
        let mut counts: Vec<(String, u64)> = self.counts.into_iter().collect();
        counts.par_sort_unstable_by(|x, y| x.0.cmp(&y.0));
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

/// Adds the smaller map into the larger.
fn merge(a: Counts, b: Counts) -> Counts {
    let (mut big, small) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    for (word, count) in small {
        *big.entry(word).or_default() += count;
    }
    big
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
}
