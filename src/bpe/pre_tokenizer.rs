//! GPT-2's pre-tokenization regex, coded by hand:
//!
//! ```text
//! 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//! ```
//!
//! tried left to right at each position, the first alternative that matches
//! wins (as in a backtracking regex engine). `\s` is Unicode `White_Space`;
//! `\p{L}` and `\p{N}` are the general categories Letter and Number. The
//! pieces cover the text with no gap, so their bytes are the text's bytes.

use std::sync::OnceLock;

use crate::pipeline::unicode::class_ranges;

const LETTER: u8 = 1;
const NUMBER: u8 = 2;
const SPACE: u8 = 4;

/// Class bits of every code point below 0x40000 (where all letters and
/// numbers of current Unicode lie, beyond the BMP in planes 1 to 3: CJK
/// Extensions G and H are in plane 3), one byte each.
const TABLE_SIZE: usize = 0x40000;

fn table() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = vec![0u8; TABLE_SIZE];
        for (class, bit) in [(r"\p{L}", LETTER), (r"\p{N}", NUMBER)] {
            for (lo, hi) in class_ranges(class) {
                for c in lo..=hi.min(TABLE_SIZE as u32 - 1) {
                    table[c as usize] |= bit;
                }
            }
        }
        for (c, slot) in table.iter_mut().enumerate() {
            if char::from_u32(c as u32).is_some_and(char::is_whitespace) {
                *slot |= SPACE;
            }
        }
        table
    })
}

#[inline]
fn class(c: char) -> u8 {
    let t = table();
    match t.get(c as usize) {
        Some(&f) => f,
        // Beyond plane 3: no letters or numbers, and no whitespace.
        None => 0,
    }
}

/// Classes of the character at byte `i` of `s` and its length in bytes.
#[inline]
fn at(s: &str, i: usize) -> (u8, usize, char) {
    let b = s.as_bytes()[i];
    if b < 0x80 {
        let c = b as char;
        let f = if b.is_ascii_alphabetic() {
            LETTER
        } else if b.is_ascii_digit() {
            NUMBER
        } else if matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r') {
            SPACE
        } else {
            0
        };
        return (f, 1, c);
    }
    let c = s[i..].chars().next().expect("a char boundary");
    (class(c), c.len_utf8(), c)
}

/// The end of the run of characters starting at `i` whose classes satisfy `keep`.
#[inline]
fn run(s: &str, mut i: usize, keep: impl Fn(u8) -> bool) -> usize {
    while i < s.len() {
        let (f, n, _) = at(s, i);
        if !keep(f) {
            break;
        }
        i += n;
    }
    i
}

/// The end of the piece that starts at byte `i` (< `s.len()`).
pub fn piece_end(s: &str, i: usize) -> usize {
    let bytes = s.as_bytes();
    if bytes[i] == b'\'' {
        let rest = &bytes[i + 1..];
        for suffix in [&b"s"[..], b"t", b"re", b"ve", b"m", b"ll", b"d"] {
            if rest.starts_with(suffix) {
                return i + 1 + suffix.len();
            }
        }
    }
    let f = at(s, i).0;
    // ` ?X+`: an optional space, then a run of one class.
    let (start, f) = if bytes[i] == b' ' && i + 1 < s.len() { (i + 1, at(s, i + 1).0) } else { (i, f) };
    if f & LETTER != 0 {
        return run(s, start, |g| g & LETTER != 0);
    }
    if f & NUMBER != 0 {
        return run(s, start, |g| g & NUMBER != 0);
    }
    if f & SPACE == 0 {
        return run(s, start, |g| g & (LETTER | NUMBER | SPACE) == 0);
    }
    // A run of whitespace: `\s+(?!\S)` keeps all of it at the end of the text,
    // otherwise all but its last character (which goes with what follows),
    // unless that leaves nothing; then `\s+` takes the whole run.
    let end = run(s, i, |g| g & SPACE != 0);
    if end == s.len() {
        return end;
    }
    let last = s[..end].chars().next_back().expect("a non-empty run").len_utf8();
    if end - last > i {
        end - last
    } else {
        end
    }
}

/// The pieces of `text`, as byte ranges, in order.
pub fn pieces(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        if i >= text.len() {
            return None;
        }
        let end = piece_end(text, i);
        let piece = (i, end);
        i = end;
        Some(piece)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Vec<&str> {
        pieces(text).map(|(a, b)| &text[a..b]).collect()
    }

    #[test]
    fn the_seed_example() {
        assert_eq!(
            split("Hello've world123 how's are you!!!? "),
            ["Hello", "'ve", " world", "123", " how", "'s", " are", " you", "!!!?", " "]
        );
    }

    #[test]
    fn whitespace_runs_leave_one_space_for_the_next_word() {
        assert_eq!(split("a   b"), ["a", "  ", " b"]);
        assert_eq!(split("a\n\nb"), ["a", "\n", "\n", "b"]);
        assert_eq!(split("a\r\n  "), ["a", "\r\n  "]);
        assert_eq!(split(" \u{3000}x"), [" ", "\u{3000}", "x"]);
    }

    #[test]
    fn every_letter_and_number_is_in_the_table() {
        for class in [r"\p{L}", r"\p{N}"] {
            let last = class_ranges(class).last().map(|&(_, hi)| hi);
            assert!(last.is_some_and(|hi| (hi as usize) < TABLE_SIZE), "{class} ends at {last:x?}");
        }
        // CJK Extension G (plane 3), a letter as in Hugging Face's regex.
        assert_eq!(split("x\u{30000}1"), ["x\u{30000}", "1"]);
    }

    #[test]
    fn contractions_case_and_punctuation() {
        assert_eq!(split("I'LL don't"), ["I", "'", "LL", " don", "'t"]);
        assert_eq!(split("x!!'s"), ["x", "!!'", "s"]);
        assert_eq!(split("café 北京 ٣٤"), ["café", " 北京", " ٣٤"]);
    }
}
