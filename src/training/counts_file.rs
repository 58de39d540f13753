//! The word counts file (`.fwc`), version 1, as docs/spec.md section 13
//! states it: the magic `FWPCOUNT`, the version, the counting options as
//! JSON, the entries (LEB128 lengths and counts, words in code point order),
//! and a CRC-32 of everything before it. The same bytes pickle a `WordCounts`.

use std::path::Path;

use super::counts::{CountOptions, WordCounts};
use super::crc32::crc32;
use crate::error::{Error, Quoted, Result};
use crate::io::write_atomic;

pub const MAGIC: &[u8; 8] = b"FWPCOUNT";
pub const VERSION: u32 = 1;

fn put_varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8 & 0x7f) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// How many bytes `put_varint` writes for `n`.
fn varint_len(n: u64) -> usize {
    (64 - n.max(1).leading_zeros() as usize).div_ceil(7)
}

/// The file's bytes, in one vector of their exact size reserved at once:
/// `Error::Memory` when there is no room for it.
pub fn to_bytes(counts: &WordCounts) -> Result<Vec<u8>> {
    let options = serde_json::to_vec(counts.options()).expect("options serialize");
    let words = counts.words();
    let entries: usize = words.iter().map(|(w, n)| varint_len(w.len() as u64) + w.len() + varint_len(*n)).sum();
    let size = MAGIC.len() + 4 + 4 + options.len() + varint_len(words.len() as u64) + entries + 4;
    let mut out = Vec::new();
    out.try_reserve_exact(size).map_err(|_| {
        let s = if words.len() == 1 { "" } else { "s" };
        Error::memory(format_args!("the {size} bytes of the word counts file of {} word{s}", words.len()))
    })?;
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(options.len() as u32).to_le_bytes());
    out.extend_from_slice(&options);
    put_varint(&mut out, words.len() as u64);
    for (word, n) in words {
        put_varint(&mut out, word.len() as u64);
        out.extend_from_slice(word.as_bytes());
        put_varint(&mut out, *n);
    }
    let crc = crc32(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    debug_assert_eq!(out.len(), size, "the size reserved is the size written");
    Ok(out)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    /// The size of the whole data (CRC-32 included), for messages.
    size: usize,
}

impl<'a> Reader<'a> {
    /// The next `n` bytes of `what` (for the error when the data ends first).
    fn take(&mut self, n: usize, what: &dyn Fn() -> String) -> std::result::Result<&'a [u8], String> {
        if self.bytes.len() - self.at < n {
            return Err(format!("{TRUNCATED}: the data ends at byte {} inside {}", self.size, what()));
        }
        self.at += n;
        Ok(&self.bytes[self.at - n..self.at])
    }

    fn u32(&mut self, what: &dyn Fn() -> String) -> std::result::Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4, what)?.try_into().expect("4 bytes")))
    }

    fn varint(&mut self, what: &dyn Fn() -> String) -> std::result::Result<u64, String> {
        let start = self.at;
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.take(1, what)?[0];
            let bits = (b & 0x7f) as u64;
            if shift == 63 && bits > 1 {
                break;
            }
            n |= bits << shift;
            if b & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err(format!("invalid number at byte {start} (more than 64 bits)"))
    }
}

/// How the message of data that ends too soon starts.
const TRUNCATED: &str = "truncated";

/// The bytes of the smallest file: the magic, the version, the options'
/// length and the CRC-32.
const HEADER_BYTES: usize = 8 + 4 + 4 + 4;

/// Reads the file's bytes; an error says what is wrong, for a ValueError.
pub fn from_bytes(bytes: &[u8]) -> std::result::Result<WordCounts, String> {
    // Data cut short within the magic (even empty) is still the start of one.
    let start = &bytes[..bytes.len().min(MAGIC.len())];
    if start != &MAGIC[..start.len()] {
        return Err("not a word counts file (it does not start with \"FWPCOUNT\")".into());
    }
    let short = || {
        format!(
            "{TRUNCATED}: {} bytes, fewer than the {HEADER_BYTES} of the header, the options' length and the CRC-32",
            bytes.len()
        )
    };
    let version = bytes.get(8..12).ok_or_else(short)?;
    let version = u32::from_le_bytes(version.try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(format!("unsupported word counts file version {version} (this fast_wordpiece reads version 1)"));
    }
    if bytes.len() < HEADER_BYTES {
        return Err(short());
    }
    let (body, tail) = bytes.split_at(bytes.len() - 4);
    let stored = u32::from_le_bytes(tail.try_into().expect("4 bytes"));
    let actual = crc32(body);
    let parsed = parse(body, bytes.len());
    if stored != actual {
        // Data cut short ends inside something the header promised; other
        // damage is told by the CRC-32 alone.
        return Err(match parsed {
            Err(message) if message.starts_with(TRUNCATED) => message,
            _ => {
                format!("corrupted: its CRC-32 is {actual:08x} but the file says {stored:08x} ({} bytes)", bytes.len())
            }
        });
    }
    let (options, words) = parsed?;
    WordCounts::from_sorted(options, words).map_err(|e| e.to_string())
}

/// The options and the entries of the bytes before the CRC-32.
fn parse(body: &[u8], size: usize) -> std::result::Result<(CountOptions, Vec<(String, u64)>), String> {
    let mut r = Reader { bytes: body, at: 12, size };
    let length = r.u32(&|| "the length of the options".into())? as usize;
    let options: CountOptions = serde_json::from_slice(r.take(length, &|| "the options".into())?)
        .map_err(|e| format!("invalid options: {e}"))?;
    let entries = r.varint(&|| "the number of entries".into())?;
    // Each entry takes 3 bytes at least: never reserve more than the data holds.
    let mut words: Vec<(String, u64)> = Vec::with_capacity((entries as usize).min((body.len() - r.at) / 3));
    let mut last: Option<&str> = None;
    for i in 0..entries {
        let what = || format!("entry {i} of {entries}");
        let length = r.varint(&what)?;
        let raw = r.take(usize::try_from(length).map_err(|_| format!("entry {i}: word too long"))?, &what)?;
        let word = std::str::from_utf8(raw).map_err(|e| format!("entry {i}: the word is not UTF-8 ({e})"))?;
        let count = r.varint(&what)?;
        super::counts::check_word(word).map_err(|e| format!("entry {i}: {e}"))?;
        if last.is_some_and(|last| last >= word) {
            return Err(format!("entry {i} ({}): words must be distinct and in code point order", Quoted(word)));
        }
        last = Some(word);
        // A count of 0 (a word not seen) is read and left out, as training ignores it.
        if count > 0 {
            words.push((word.to_owned(), count));
        }
    }
    if r.at != body.len() {
        return Err(format!("{} bytes after the last entry", body.len() - r.at));
    }
    Ok((options, words))
}

/// Writes the file atomically: a reader sees the old file or the new one.
pub fn save(counts: &WordCounts, path: &Path) -> Result<()> {
    write_atomic(path, &to_bytes(counts)?)
}

/// Reads the file at `path`; a FIFO no one writes to yet is waited for,
/// asking `stop` whether to give up (`Error::Interrupted`), as
/// [`crate::io::open_to_read`] says.
pub fn load(path: &Path, stop: &dyn Fn() -> bool) -> Result<WordCounts> {
    let bytes = crate::io::read_bytes(path, stop)?;
    from_bytes(&bytes).map_err(|message| Error::invalid_file(path, message))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizer::options::Options;

    #[test]
    fn bytes_round_trip_and_damage_is_reported() {
        let texts = ["Größe matters", "a a a a a b", &"long ".repeat(300)];
        let counts = WordCounts::count_texts(&Options::default(), &texts).unwrap();
        let bytes = to_bytes(&counts).unwrap();
        assert_eq!(from_bytes(&bytes).unwrap(), counts);
        let cut = from_bytes(&bytes[..bytes.len() - 2]).unwrap_err();
        assert!(cut.starts_with("truncated: the data ends at byte") && cut.contains("inside entry"), "{cut}");
        for cut in [0, 5, 12, 19, bytes.len() / 2, bytes.len() - 1] {
            assert!(from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x10;
            assert!(from_bytes(&bad).is_err(), "flipped byte {i}");
        }
        let mut newer = bytes.clone();
        newer[8] = 2;
        assert!(from_bytes(&newer).unwrap_err().contains("version 2"));
    }

    #[test]
    fn data_shorter_than_the_header_is_truncated_if_it_starts_as_a_file_does() {
        let bytes = to_bytes(&WordCounts::count_texts(&Options::default(), &["a b"]).unwrap()).unwrap();
        for cut in 0..HEADER_BYTES {
            let expected =
                format!("truncated: {cut} bytes, fewer than the 20 of the header, the options' length and the CRC-32");
            assert_eq!(from_bytes(&bytes[..cut]).unwrap_err(), expected, "cut at {cut}");
        }
        let not_ours = "not a word counts file (it does not start with \"FWPCOUNT\")";
        for other in [&b"FWPX"[..], b"PK\x03\x04", b"FWPCOUNX\x01\0\0\0", b"{\"vocab\": {}} and more bytes"] {
            assert_eq!(from_bytes(other).unwrap_err(), not_ours, "{other:?}");
        }
        // A version the reader cannot read is said before the length.
        assert!(from_bytes(b"FWPCOUNT\x02\0\0\0").unwrap_err().starts_with("unsupported word counts file version 2"));
    }

    /// A file of `entries` as they are, count 0 included (which `to_bytes` never writes).
    fn written(entries: &[(&str, u64)]) -> Vec<u8> {
        let mut body = to_bytes(&WordCounts::new(CountOptions::default())).unwrap();
        body.truncate(body.len() - 5); // the CRC-32 and the number of entries (0)
        put_varint(&mut body, entries.len() as u64);
        for (word, n) in entries {
            put_varint(&mut body, word.len() as u64);
            body.extend_from_slice(word.as_bytes());
            put_varint(&mut body, *n);
        }
        let crc = crc32(&body);
        body.extend_from_slice(&crc.to_le_bytes());
        body
    }

    #[test]
    fn entries_with_a_count_of_zero_are_read_and_left_out() {
        let counts = from_bytes(&written(&[("a", 0), ("b", 2), ("c", 0)])).unwrap();
        assert_eq!(counts.words(), [("b".to_string(), 2)]);
        assert_eq!(counts.total(), 2);
        assert_eq!(to_bytes(&counts).unwrap(), written(&[("b", 2)]));
        // Such an entry is checked as any other.
        let order = from_bytes(&written(&[("b", 0), ("a", 1)])).unwrap_err();
        assert_eq!(order, "entry 1 (\"a\"): words must be distinct and in code point order");
        let twice = from_bytes(&written(&[("a", 1), ("a", 0)])).unwrap_err();
        assert_eq!(twice, "entry 1 (\"a\"): words must be distinct and in code point order");
        let space = from_bytes(&written(&[("a\tb", 0)])).unwrap_err();
        assert_eq!(space, "entry 0: the word \"a\\tb\" contains whitespace, which no pre-tokenizer leaves in a word");
    }

    #[test]
    fn varints_take_every_u64() {
        for n in [0, 1, 127, 128, 300, 16383, 16384, u32::MAX as u64, 1 << 63, u64::MAX] {
            let mut out = Vec::new();
            put_varint(&mut out, n);
            assert_eq!(varint_len(n), out.len(), "{n}");
            assert_eq!(Reader { bytes: &out, at: 0, size: out.len() }.varint(&String::new).unwrap(), n);
        }
        let over = [0xff; 10];
        assert!(Reader { bytes: &over, at: 0, size: 10 }.varint(&String::new).is_err());
    }
}
