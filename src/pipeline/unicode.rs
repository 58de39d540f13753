//! Character classes shared by the normalizer and the pre-tokenizers.
//!
//! They come from the `unicode_categories` crate, the one Hugging Face's
//! `BertNormalizer` and `BertPreTokenizer` use, so that both agree on every
//! code point (including that crate's quirks). The pure-Python twin reads the
//! same classes from `python/fast_wordpiece/_unicode_tables.py`, which a test
//! below generates and keeps in sync.

use std::sync::atomic::{AtomicU8, Ordering};

use unicode_categories::UnicodeCategories;

const WHITESPACE: u8 = 1;
const OTHER: u8 = 2;
const PUNCTUATION: u8 = 4;
const MARK_NONSPACING: u8 = 8;
const WORD: u8 = 16;
const REGEX_WORD: u8 = 32;
const KNOWN: u8 = 128;

/// The classes of every code point, each looked up in `unicode_categories`'
/// tables (a dozen binary searches) the first time it is seen and remembered
/// here; 0 means not yet seen. Two threads that meet an unseen character
/// store the same value. All of Unicode, not only the Basic Multilingual
/// Plane: a word of emoji looked each one up again (60x slower than a word
/// of accented letters). 1.1 MB of zeroed memory, of which the system maps
/// only the pages of the characters seen.
static SEEN: [AtomicU8; 0x110000] = [const { AtomicU8::new(0) }; 0x110000];

fn lookup(c: char) -> u8 {
    let mut f = KNOWN;
    for (bit, holds) in [
        (WHITESPACE, c.is_whitespace()),
        (OTHER, c.is_other()),
        (PUNCTUATION, c.is_punctuation()),
        (MARK_NONSPACING, c.is_mark_nonspacing()),
        (WORD, c.is_letter() || c.is_number()),
        (REGEX_WORD, regex_word(c)),
    ] {
        if holds {
            f |= bit;
        }
    }
    f
}

/// The class bits of a non-ASCII character.
#[inline]
fn classes(c: char) -> u8 {
    let Some(slot) = SEEN.get(c as usize) else {
        return lookup(c);
    };
    match slot.load(Ordering::Relaxed) {
        0 => {
            let f = lookup(c);
            slot.store(f, Ordering::Relaxed);
            f
        }
        f => f,
    }
}

/// Whitespace as BERT sees it: `\t`, `\n`, `\r` and Rust's `White_Space`.
#[inline]
pub fn is_whitespace(c: char) -> bool {
    if c.is_ascii() {
        return matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c');
    }
    classes(c) & WHITESPACE != 0
}

/// Control and format characters, which `clean_text` removes (but not `\t\n\r`).
#[inline]
pub fn is_control(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_control() && !matches!(c, '\t' | '\n' | '\r');
    }
    classes(c) & OTHER != 0
}

/// A character that the BERT pre-tokenizer isolates: ASCII punctuation or
/// symbols, or a Unicode punctuation character (P*).
#[inline]
pub fn is_punctuation(c: char) -> bool {
    // Every ASCII P* character is ASCII punctuation: skip the table search.
    if c.is_ascii() {
        return c.is_ascii_punctuation();
    }
    classes(c) & PUNCTUATION != 0
}

/// A non-spacing mark (Mn), which `strip_accents` removes after NFD.
#[inline]
pub fn is_mark_nonspacing(c: char) -> bool {
    !c.is_ascii() && classes(c) & MARK_NONSPACING != 0
}

/// A `\w` character of the regex pre-tokenizer: a letter, a number or `_`.
#[inline]
pub fn is_word_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    classes(c) & WORD != 0
}

/// Unicode's `\w` (UTS #18: alphabetic, marks, decimal digits, connector
/// punctuation, joiners) from the `regex` crate's own table, which Hugging
/// Face's `Whitespace` pre-tokenizer matches with.
pub fn regex_word(c: char) -> bool {
    regex_syntax::is_word_character(c)
}

/// The code point ranges of a Unicode class of a regular expression
/// (`\p{L}`), from the `regex-syntax` tables that Hugging Face's regexes
/// match with (GPT-2's pre-tokenizer).
pub fn class_ranges(class: &str) -> Vec<(u32, u32)> {
    use regex_syntax::hir::{Class, HirKind};
    let hir = regex_syntax::Parser::new().parse(class).expect("a valid class");
    match hir.kind() {
        HirKind::Class(Class::Unicode(c)) => c.ranges().iter().map(|r| (r.start() as u32, r.end() as u32)).collect(),
        _ => unreachable!("a Unicode class"),
    }
}

/// A combining mark (M) as Hugging Face's `StripAccents` sees it (the
/// `unicode-normalization-alignments` crate's `is_combining_mark`).
#[inline]
pub fn is_combining_mark(c: char) -> bool {
    !c.is_ascii() && unicode_normalization_alignments::char::is_combining_mark(c)
}

/// A `\w` character of the wordpunct pre-tokenizer (Hugging Face's `Whitespace`).
#[inline]
pub fn is_regex_word_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    classes(c) & REGEX_WORD != 0
}

/// A CJK ideograph, which `handle_chinese_chars` surrounds with spaces.
#[inline]
pub fn is_chinese_char(c: char) -> bool {
    matches!(
        c as u32,
        0x4E00..=0x9FFF
            | 0x3400..=0x4DBF
            | 0x20000..=0x2A6DF
            | 0x2A700..=0x2B73F
            | 0x2B740..=0x2B81F
            | 0x2B920..=0x2CEAF
            | 0xF900..=0xFAFF
            | 0x2F800..=0x2FA1F
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;

    /// Inclusive code-point ranges on which `pred` holds.
    fn ranges(pred: fn(char) -> bool) -> Vec<(u32, u32)> {
        let mut out: Vec<(u32, u32)> = Vec::new();
        for cp in 0..=0x10FFFFu32 {
            let Some(c) = char::from_u32(cp) else {
                continue;
            };
            if !pred(c) {
                continue;
            }
            match out.last_mut() {
                Some(last) if last.1 + 1 == cp => last.1 = cp,
                _ => out.push((cp, cp)),
            }
        }
        out
    }

    fn python_tables() -> String {
        let mut s = String::from(
            "\"\"\"Unicode classes of the Rust engine, for the pure-Python twin.\n\n\
             Generated by `cargo test` (src/pipeline/unicode.rs) from the `unicode_categories`\n\
             crate that Hugging Face's BERT normalizer uses. Do not edit: run\n\
             `FWP_REGEN_TABLES=1 cargo test unicode` to rewrite it.\n\n\
             The class tables are sorted tuples of inclusive (first, last) code-point ranges,\n\
             COMBINING_CLASS adds each range's class, and the mappings are dicts keyed by\n\
             code point.\n\"\"\"\n",
        );
        type Table = (&'static str, fn(char) -> bool);
        let tables: [Table; 6] = [
            ("OTHER", |c| c.is_other()),
            ("PUNCTUATION", |c| c.is_punctuation()),
            ("MARK_NONSPACING", is_mark_nonspacing),
            ("WORD", is_word_char),
            ("REGEX_WORD", regex_word),
            ("MARK", is_combining_mark),
        ];
        let push = |s: &mut String, name: &str, ranges: Vec<(u32, u32)>| {
            let _ = write!(s, "\n{name}: tuple[tuple[int, int], ...] = (\n");
            for (a, b) in ranges {
                let _ = writeln!(s, "    (0x{a:04X}, 0x{b:04X}),");
            }
            s.push_str(")\n");
        };
        for (name, pred) in tables {
            push(&mut s, name, ranges(pred));
        }
        // The general categories Letter and Number of byte-level BPE's
        // pre-tokenizer, from the `regex-syntax` tables (Unicode 16).
        s.push_str("\n# BPE's \\p{L} and \\p{N}: regex-syntax's Letter and Number (Unicode 16).");
        push(&mut s, "LETTER", class_ranges(r"\p{L}"));
        push(&mut s, "NUMBER", class_ranges(r"\p{N}"));
        push_normalization_tables(&mut s);
        s
    }

    /// NFD and NFKD data from `unicode-normalization-alignments` (Unicode 9, as Hugging
    /// Face uses) and Rust's lowercase mapping, so that the twin does not
    /// depend on the Unicode version of Python's `unicodedata`.
    fn push_normalization_tables(s: &mut String) {
        use unicode_normalization_alignments::char::{
            canonical_combining_class, decompose_canonical, decompose_compatible,
        };
        let chars = || (0..=0x10FFFFu32).filter_map(char::from_u32);
        s.push_str(
            "\n# Full canonical decompositions (Hangul syllables excluded: they decompose\n\
             # algorithmically, identically in every Unicode version).\n\
             CANONICAL_DECOMPOSITION: dict[int, tuple[int, ...]] = {\n",
        );
        for c in chars().filter(|c| !('\u{AC00}'..='\u{D7A3}').contains(c)) {
            let mut parts = Vec::new();
            decompose_canonical(c, |d| parts.push(d as u32));
            if parts != [c as u32] {
                let list: Vec<String> = parts.iter().map(|p| format!("0x{p:04X}")).collect();
                let _ = writeln!(s, "    0x{:04X}: ({},),", c as u32, list.join(", "));
            }
        }
        s.push_str(
            "}\n\n# Full compatibility decompositions where they are not the canonical one\n\
             # (Hangul syllables excluded, as above).\n\
             COMPATIBILITY_DECOMPOSITION: dict[int, tuple[int, ...]] = {\n",
        );
        for c in chars().filter(|c| !('\u{AC00}'..='\u{D7A3}').contains(c)) {
            let (mut canonical, mut compatible) = (Vec::new(), Vec::new());
            decompose_canonical(c, |d| canonical.push(d as u32));
            decompose_compatible(c, |d| compatible.push(d as u32));
            if compatible != canonical {
                let list: Vec<String> = compatible.iter().map(|p| format!("0x{p:04X}")).collect();
                let _ = writeln!(s, "    0x{:04X}: ({},),", c as u32, list.join(", "));
            }
        }
        s.push_str("}\n\n# Canonical combining classes other than 0: (first, last, class).\n");
        s.push_str("COMBINING_CLASS: tuple[tuple[int, int, int], ...] = (\n");
        let mut runs: Vec<(u32, u32, u8)> = Vec::new();
        for c in chars() {
            let class = canonical_combining_class(c);
            if class == 0 {
                continue;
            }
            match runs.last_mut() {
                Some(r) if r.1 + 1 == c as u32 && r.2 == class => r.1 = c as u32,
                _ => runs.push((c as u32, c as u32, class)),
            }
        }
        for (a, b, class) in runs {
            let _ = writeln!(s, "    (0x{a:04X}, 0x{b:04X}, {class}),");
        }
        s.push_str(")\n\n# Canonical compositions of two characters (Hangul excluded, as above):\n");
        s.push_str("# (first, second): composed.\nCOMPOSITION: dict[tuple[int, int], int] = {\n");
        for (a, b, c) in compositions() {
            let _ = writeln!(s, "    (0x{a:04X}, 0x{b:04X}): 0x{c:04X},");
        }
        s.push_str("}\n\n# Rust's char::to_lowercase where it is not the character itself.\n");
        s.push_str("LOWERCASE: dict[int, str] = {\n");
        for c in chars() {
            let lower: String = c.to_lowercase().collect();
            if lower != c.to_string() {
                let escaped: String = lower.chars().map(|l| format!("\\U{:08X}", l as u32)).collect();
                let _ = writeln!(s, "    0x{:04X}: \"{escaped}\",", c as u32);
            }
        }
        s.push_str("}\n");
    }

    /// Every pair the crate's `compose` composes, but Hangul's: a composed
    /// character's full decomposition is its first character's then its
    /// second's, and a second character never decomposes, so each pair is
    /// found from a character whose decomposition ends in it.
    fn compositions() -> Vec<(u32, u32, u32)> {
        use std::collections::HashMap;
        use unicode_normalization_alignments::char::{compose, decompose_canonical};
        let hangul = |c: char| ('\u{1100}'..='\u{11FF}').contains(&c) || ('\u{AC00}'..='\u{D7A3}').contains(&c);
        let chars = || (0..=0x10FFFFu32).filter_map(char::from_u32).filter(|&c| !hangul(c));
        let full = |c: char| {
            let mut parts = Vec::new();
            decompose_canonical(c, |d| parts.push(d));
            parts
        };
        let mut by_decomposition: HashMap<Vec<char>, Vec<char>> = HashMap::new();
        for c in chars() {
            by_decomposition.entry(full(c)).or_default().push(c);
        }
        let mut out = Vec::new();
        for c in chars() {
            let d = full(c);
            let Some((&second, first)) = d.split_last().filter(|(_, first)| !first.is_empty()) else { continue };
            for &x in by_decomposition.get(first).map(Vec::as_slice).unwrap_or_default() {
                if let Some(r) = compose(x, second) {
                    out.push((x as u32, second as u32, r as u32));
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    #[test]
    fn the_compositions_are_all_of_the_crates() {
        // unicode-normalization-alignments 0.1.12's table: 928 pairs in the
        // Basic Multilingual Plane, 12 beyond it.
        let pairs = compositions();
        assert_eq!(pairs.len(), 940);
        assert!(pairs.contains(&(0x65, 0x301, 0xE9)) && pairs.contains(&(0x11347, 0x1133E, 0x1134B)));
    }

    #[test]
    fn python_unicode_tables_are_in_sync() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/python/fast_wordpiece/_unicode_tables.py");
        let expected = python_tables();
        if std::env::var_os("FWP_REGEN_TABLES").is_some() {
            std::fs::write(path, &expected).unwrap();
        }
        let actual = std::fs::read_to_string(path).unwrap_or_default();
        assert!(actual == expected, "{path} is stale: run `FWP_REGEN_TABLES=1 cargo test unicode`");
    }

    #[test]
    fn fast_paths_and_the_remembered_classes_agree_with_the_tables() {
        // Twice over every code point: the first pass fills the table, the
        // second reads it back.
        for _ in 0..2 {
            for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
                assert_eq!(is_whitespace(c), c.is_whitespace(), "{c:?}");
                assert_eq!(is_punctuation(c), c.is_ascii_punctuation() || c.is_punctuation(), "{c:?}");
                assert_eq!(is_control(c), !matches!(c, '\t' | '\n' | '\r') && c.is_other(), "{c:?}");
                assert_eq!(is_mark_nonspacing(c), c.is_mark_nonspacing(), "{c:?}");
                assert_eq!(is_word_char(c), c == '_' || c.is_letter() || c.is_number(), "{c:?}");
                assert_eq!(is_regex_word_char(c), regex_word(c), "{c:?}");
            }
        }
    }

    #[test]
    fn bert_classes_match_hugging_face_definitions() {
        assert!(is_whitespace('\t') && is_whitespace('\u{3000}') && !is_whitespace('\u{200B}'));
        assert!(is_control('\u{200B}') && is_control('\u{0}') && !is_control('\n'));
        assert!(is_punctuation('$') && is_punctuation('^') && is_punctuation('¿'));
        assert!(!is_punctuation('a') && !is_punctuation('€'));
        assert!(is_mark_nonspacing('\u{301}'));
        assert!(is_chinese_char('中') && !is_chinese_char('あ'));
        assert!(is_word_char('_') && is_word_char('é') && is_word_char('٣') && !is_word_char('-'));
    }
}
