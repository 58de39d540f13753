//! Stage 1: normalization, identical to Hugging Face's `BertNormalizer`.
//!
//! Every normalized character remembers the index of the original character it
//! came from, so token offsets can point into the user's string even when
//! normalization removes or expands characters.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use unicode_normalization_alignments::char::{canonical_combining_class, decompose_canonical};

use crate::error::{Error, Result};

use super::unicode::{is_chinese_char, is_combining_mark, is_control, is_mark_nonspacing, is_whitespace};

/// What the pipeline does to a BMP character, per configuration, learned the
/// first time the character is seen (`Normalizer::memo_entry`): the low three
/// bits are one of the tags below and the rest is a `char`. Two threads that
/// meet an unseen character store the same value.
static MEMOS: [OnceLock<Box<[AtomicU32]>>; 32] = [const { OnceLock::new() }; 32];
const UNSEEN: u32 = 0;
/// Needs the general path (reordering, or output that is not one character).
const SLOW: u32 = 1;
/// Removed by `clean_text`.
const DROPPED: u32 = 2;
/// Removed later (a non-spacing mark), after becoming the last consumed character.
const VANISHED: u32 = 3;
/// Becomes the one character in the payload.
const ONE: u32 = 4;
/// Becomes the payload character with a space on each side (a CJK ideograph).
const SPACED: u32 = 5;

/// The BERT normalizer's switches. The defaults are bert-base-uncased's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Normalizer {
    /// Drop NUL, U+FFFD, control and format characters; map whitespace to a space.
    pub clean_text: bool,
    /// Put spaces around CJK ideographs.
    pub handle_chinese_chars: bool,
    /// NFD, then drop non-spacing marks. `None` follows `lowercase`.
    pub strip_accents: Option<bool>,
    /// Lowercase every character (full Unicode mapping, no final-sigma rule).
    pub lowercase: bool,
    /// Accent stripping drops every combining mark (M), as Hugging Face's
    /// `NFD` + `StripAccents` do, not only the non-spacing ones (Mn).
    #[serde(default)]
    pub strip_all_marks: bool,
}

impl Default for Normalizer {
    fn default() -> Self {
        Self {
            clean_text: true,
            handle_chinese_chars: true,
            strip_accents: None,
            lowercase: true,
            strip_all_marks: false,
        }
    }
}

/// Normalized text and, per normalized character, the index of the original
/// character it came from. Reused across calls to avoid allocation.
#[derive(Clone, Debug, Default)]
pub struct Normalized {
    pub text: String,
    /// Per normalized character, its original character's index; empty when
    /// `identity` (character `k` came from character `k`).
    origins: Vec<u32>,
    identity: bool,
    /// Pending combining marks awaiting canonical ordering (NFD): class,
    /// character, whether it was inserted by a decomposition (rather than
    /// standing for an input character), and origin.
    marks: Vec<(u8, char, bool, u32)>,
    /// The origins of the marks that stand for input characters, in input
    /// order, while the marks are reordered (kept to be reused).
    consumed: Vec<u32>,
    /// Origin of the last input character the NFD stage consumed.
    last_origin: u32,
}

impl Normalized {
    fn clear(&mut self) {
        self.text.clear();
        self.origins.clear();
        self.marks.clear();
        self.last_origin = 0;
        self.identity = false;
    }

    /// The index of the original character that normalized character `k` came from.
    #[inline]
    pub fn origin(&self, k: usize) -> u32 {
        if self.identity {
            k as u32
        } else {
            self.origins[k]
        }
    }

    /// Room for the `rest` of a text (characters of a byte each, as
    /// likely), and for `least` more characters of up to four bytes each
    /// at least; false when even that cannot be had.
    #[cold]
    #[inline(never)]
    fn reserve(&mut self, rest: usize, least: usize) -> bool {
        let (text, origins) = (&mut self.text, &mut self.origins);
        // Room for all, amortized as a `Vec` grows; else for what must fit.
        (text.try_reserve(rest.max(4 * least)).is_ok() || text.try_reserve_exact(4 * least).is_ok())
            && (origins.try_reserve(rest.max(least)).is_ok() || origins.try_reserve_exact(least).is_ok())
    }

    /// Room for [`ROOM_EVERY`] more characters' marks held back (a run of
    /// them may be as long as the text), amortized as a `Vec` grows; false
    /// when it cannot be had.
    #[cold]
    #[inline(never)]
    fn reserve_marks(&mut self) -> bool {
        let more = ROOM_EVERY * MOST_MARKS_PER_CHAR;
        // `consumed` is empty between runs: room for as many as the marks.
        self.marks.try_reserve(more).is_ok() && self.consumed.try_reserve(self.marks.len() + more).is_ok()
    }

    #[inline]
    fn push(&mut self, c: char, origin: u32) {
        self.text.push(c);
        self.origins.push(origin);
    }
}

impl Normalizer {
    /// Whether accents are stripped, resolving `None` to `lowercase`.
    pub fn strips_accents(&self) -> bool {
        self.strip_accents.unwrap_or(self.lowercase)
    }

    /// Normalizes `text` into `out` (cleared first). For short texts:
    /// the room the normalized text needs is not checked (see
    /// [`Self::try_normalize_into`]).
    pub fn normalize_into(&self, text: &str, out: &mut Normalized) {
        self.normalize_with::<false>(text, out, true);
    }

    /// [`Self::normalize_into`], or `Error::Memory` when there is no room
    /// for the normalized text (`out` then holds part of it). The room is
    /// reserved for the whole text at once, and checked again every
    /// [`ROOM_EVERY`] characters (a text may grow in normalization).
    pub fn try_normalize_into(&self, text: &str, out: &mut Normalized) -> Result<()> {
        if self.normalize_with::<true>(text, out, true) {
            Ok(())
        } else {
            Err(Error::memory(format_args!("the normalized text of {} bytes of text", text.len())))
        }
    }

    /// `normalize_into`, with or without the memo of BMP characters; with
    /// `CHECKED`, false when there is no room for the normalized text.
    #[inline(always)]
    fn normalize_with<const CHECKED: bool>(&self, text: &str, out: &mut Normalized, use_memo: bool) -> bool {
        out.clear();
        if text.is_ascii() {
            // The normalized copy of ASCII text is as long as the text.
            if CHECKED && out.text.try_reserve_exact(text.len()).is_err() {
                return false;
            }
            if self.normalize_ascii(text, out) {
                return true;
            }
        }
        let strip = self.strips_accents();
        let memo = self.memo();
        // The character at which the room is next checked.
        let mut check = 0;
        for (i, c) in text.chars().enumerate() {
            if CHECKED && i == check {
                check += ROOM_EVERY;
                // The characters the next ones (and the marks held back)
                // may become, at most; a character of the text is a byte
                // at least, so the rest is no more than `text.len() - i`.
                let least = ROOM_EVERY * MOST_PER_CHAR + out.marks.len();
                let spare = (out.text.capacity() - out.text.len()) / 4;
                if spare.min(out.origins.capacity() - out.origins.len()) < least && !out.reserve(text.len() - i, least)
                {
                    return false;
                }
                // Marks held back grow fallibly too, once a run of them
                // crosses a check (between two checks, a few characters'
                // marks, at most, grow as a `Vec` does).
                let marks = out.marks.len() + ROOM_EVERY * MOST_MARKS_PER_CHAR;
                if !out.marks.is_empty()
                    && out.marks.capacity().min(out.consumed.capacity()) < marks
                    && !out.reserve_marks()
                {
                    return false;
                }
            }
            let origin = i as u32;
            if c.is_ascii() && out.marks.is_empty() {
                out.last_origin = origin;
                self.push_ascii(c, origin, out);
                continue;
            }
            if use_memo && out.marks.is_empty() {
                if let Some(slot) = memo.get(c as usize) {
                    let mut m = slot.load(Ordering::Relaxed);
                    if m == UNSEEN {
                        m = self.memo_entry(c, strip);
                        slot.store(m, Ordering::Relaxed);
                    }
                    if self.push_memo(m, origin, out) {
                        continue;
                    }
                }
            }
            self.push_char(c, origin, strip, out);
        }
        self.flush_marks(out);
        true
    }

    /// The whole pipeline for one non-ASCII character.
    fn push_char(&self, c: char, origin: u32, strip: bool, out: &mut Normalized) {
        let c = if self.clean_text {
            if c == '\0' || c == '\u{FFFD}' || is_control(c) {
                return;
            }
            if is_whitespace(c) {
                ' '
            } else {
                c
            }
        } else {
            c
        };
        if self.handle_chinese_chars && is_chinese_char(c) {
            for piece in [' ', c, ' '] {
                self.accent_stage(piece, origin, strip, out);
            }
        } else {
            self.accent_stage(c, origin, strip, out);
        }
    }

    /// This configuration's memo of BMP characters (see `MEMOS`).
    fn memo(&self) -> &'static [AtomicU32] {
        let key = usize::from(self.clean_text)
            | usize::from(self.handle_chinese_chars) << 1
            | usize::from(self.strips_accents()) << 2
            | usize::from(self.lowercase) << 3
            | usize::from(self.strip_all_marks) << 4;
        MEMOS[key].get_or_init(|| (0..0x10000).map(|_| AtomicU32::new(UNSEEN)).collect())
    }

    /// Applies a memo entry; false for `SLOW`.
    #[inline]
    fn push_memo(&self, m: u32, origin: u32, out: &mut Normalized) -> bool {
        match m & 7 {
            DROPPED => {}
            VANISHED => out.last_origin = origin,
            ONE | SPACED => {
                out.last_origin = origin;
                let c = char::from_u32(m >> 3).unwrap_or('\u{FFFD}');
                if m & 7 == SPACED {
                    out.push(' ', origin);
                    out.push(c, origin);
                    out.push(' ', origin);
                } else {
                    out.push(c, origin);
                }
            }
            _ => return false,
        }
        true
    }

    /// Runs `c` alone through the pipeline, after nothing, and says what it
    /// did if that cannot depend on its neighbours: it left no combining mark
    /// waiting for canonical ordering (other than inserted non-spacing marks,
    /// which the filter drops wherever they sort), and every character it
    /// produced points at it.
    fn memo_entry(&self, c: char, strip: bool) -> u32 {
        let mut n = Normalized { last_origin: u32::MAX, ..Normalized::default() };
        self.push_char(c, 0, strip, &mut n);
        let independent = n.marks.iter().all(|&(_, d, inserted, _)| inserted && self.is_stripped_mark(d));
        if !independent || n.origins.iter().any(|&o| o != 0) {
            return SLOW;
        }
        // Without accent stripping no mark waits for reordering and nothing
        // reads `last_origin`; with it, a character that reaches the NFD stage
        // sets it.
        let set = !strip || n.last_origin == 0;
        let chars: Vec<char> = n.text.chars().collect();
        match (set, chars.as_slice()) {
            (false, []) => DROPPED,
            (true, []) => VANISHED,
            (true, &[one]) => (one as u32) << 3 | ONE,
            (true, &[' ', one, ' ']) => (one as u32) << 3 | SPACED,
            _ => SLOW,
        }
    }

    /// ASCII text that loses no character keeps its alignment: character `k`
    /// comes from character `k`, so no alignment table is built. Returns false
    /// (and does nothing) when a control character must be removed.
    fn normalize_ascii(&self, text: &str, out: &mut Normalized) -> bool {
        let removed = |b: u8| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b == 0x7f;
        if self.clean_text && text.bytes().any(removed) {
            return false;
        }
        let mut bytes = std::mem::take(&mut out.text).into_bytes();
        bytes.extend_from_slice(text.as_bytes());
        if self.lowercase {
            bytes.make_ascii_lowercase();
        }
        if self.clean_text {
            for b in bytes.iter_mut().filter(|b| matches!(**b, b'\t' | b'\n' | b'\r')) {
                *b = b' ';
            }
        }
        out.text = String::from_utf8(bytes).expect("ASCII stays ASCII");
        out.identity = true;
        true
    }

    /// The whole pipeline for an ASCII character: no decomposition applies.
    #[inline]
    fn push_ascii(&self, c: char, origin: u32, out: &mut Normalized) {
        let c = if self.clean_text {
            match c {
                '\t' | '\n' | '\r' | ' ' => ' ',
                '\0'..='\x1f' | '\x7f' => return,
                _ => c,
            }
        } else {
            c
        };
        out.push(if self.lowercase { c.to_ascii_lowercase() } else { c }, origin);
    }

    /// NFD with canonical ordering of combining marks, then the mark filter.
    ///
    /// Alignment follows Hugging Face exactly: after reordering, the k-th
    /// output character that stands for an input character takes the k-th
    /// input character's origin, and an inserted one (a decomposition's
    /// second character onwards) takes the origin of the last one consumed.
    fn accent_stage(&self, c: char, origin: u32, strip: bool, out: &mut Normalized) {
        if !strip {
            self.lowercase_stage(c, origin, out);
            return;
        }
        let mut inserted = false;
        decompose_canonical(c, |d| {
            match canonical_combining_class(d) {
                0 => {
                    self.flush_marks(out);
                    if !inserted {
                        out.last_origin = origin;
                    }
                    let o = out.last_origin;
                    self.mark_filter_stage(d, o, out);
                }
                class => out.marks.push((class, d, inserted, origin)),
            }
            inserted = true;
        });
    }

    fn flush_marks(&self, out: &mut Normalized) {
        if out.marks.is_empty() {
            return;
        }
        let (mut marks, mut consumed) = (std::mem::take(&mut out.marks), std::mem::take(&mut out.consumed));
        // The origins of the consumed input characters, in input order (in
        // room the check of `try_normalize_into` made, for a long run).
        consumed.clear();
        consumed.extend(marks.iter().filter(|m| !m.2).map(|m| m.3));
        // Canonical ordering: by class, a run's marks of a class in the order
        // they came. Each mark's origin, read above, is replaced by its
        // place, so that sorting in place (no buffer, unlike a stable sort)
        // keeps that order.
        for (k, m) in marks.iter_mut().enumerate() {
            m.3 = k as u32;
        }
        marks.sort_unstable_by_key(|&(class, _, _, k)| (class, k));
        let mut consumed_next = consumed.iter();
        for &(_, d, inserted, _) in &marks {
            if !inserted {
                out.last_origin = consumed_next.next().copied().unwrap_or(out.last_origin);
            }
            let o = out.last_origin;
            self.mark_filter_stage(d, o, out);
        }
        marks.clear();
        consumed.clear();
        (out.marks, out.consumed) = (marks, consumed);
    }

    /// A mark that accent stripping drops.
    #[inline]
    fn is_stripped_mark(&self, c: char) -> bool {
        if self.strip_all_marks {
            is_combining_mark(c)
        } else {
            is_mark_nonspacing(c)
        }
    }

    #[inline]
    fn mark_filter_stage(&self, c: char, origin: u32, out: &mut Normalized) {
        if !self.is_stripped_mark(c) {
            self.lowercase_stage(c, origin, out);
        }
    }

    #[inline]
    fn lowercase_stage(&self, c: char, origin: u32, out: &mut Normalized) {
        if self.lowercase {
            for l in c.to_lowercase() {
                out.push(l, origin);
            }
        } else {
            out.push(c, origin);
        }
    }

    /// Convenience for tests and training: the normalized text alone.
    pub fn normalize(&self, text: &str) -> String {
        let mut out = Normalized::default();
        self.normalize_into(text, &mut out);
        out.text
    }
}

/// How often (in characters of the text) [`Normalizer::try_normalize_into`]
/// checks that the normalized text has room.
const ROOM_EVERY: usize = 64;

/// The most combining marks one character of a text holds back: its
/// canonical decomposition (4 characters at most).
const MOST_MARKS_PER_CHAR: usize = 4;

/// The most characters one character of a text becomes in normalization:
/// a canonical decomposition (4 at most), each lowercased (3 at most), or a
/// Chinese character and the spaces around it.
const MOST_PER_CHAR: usize = 12;

#[cfg(test)]
mod room {
    use super::*;

    #[test]
    fn checked_normalization_gives_the_same_text_and_origins() {
        let n = Normalizer::default();
        let text = "Ä中İ\u{1F82}x ".repeat(100);
        let (mut a, mut b) = (Normalized::default(), Normalized::default());
        n.normalize_into(&text, &mut a);
        n.try_normalize_into(&text, &mut b).unwrap();
        assert_eq!(a.text, b.text);
        assert_eq!(a.origins, b.origins);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origins(out: &Normalized) -> Vec<u32> {
        (0..out.text.chars().count()).map(|k| out.origin(k)).collect()
    }

    fn norm(text: &str) -> (String, Vec<u32>) {
        let mut out = Normalized::default();
        Normalizer::default().normalize_into(text, &mut out);
        let o = origins(&out);
        (out.text, o)
    }

    #[test]
    fn lowercases_and_strips_accents_by_default() {
        assert_eq!(norm("Héllo WÖRLD").0, "hello world");
    }

    #[test]
    fn dotted_capital_i_expands_but_points_to_one_original_char() {
        let n = Normalizer { strip_accents: Some(false), ..Normalizer::default() };
        let mut out = Normalized::default();
        n.normalize_into("İx", &mut out);
        assert_eq!(out.text, "i\u{307}x");
        assert_eq!(origins(&out), vec![0, 0, 1]);
    }

    #[test]
    fn clean_text_drops_controls_and_maps_whitespace() {
        let (text, origins) = norm("a\0b\u{FFFD}c\u{200B}d\te\u{0B}f\u{A0}g");
        assert_eq!(text, "abcd ef g");
        assert_eq!(origins, vec![0, 2, 4, 6, 7, 8, 10, 11, 12]);
    }

    #[test]
    fn chinese_chars_get_surrounding_spaces() {
        let (text, origins) = norm("a中b");
        assert_eq!(text, "a 中 b");
        assert_eq!(origins, vec![0, 1, 1, 1, 2]);
    }

    #[test]
    fn ascii_text_keeps_its_alignment_unless_a_character_is_dropped() {
        assert_eq!(norm("Hi\tYOU\n"), ("hi you ".into(), vec![0, 1, 2, 3, 4, 5, 6]));
        assert_eq!(norm("a\x07b"), ("ab".into(), vec![0, 2]));
    }

    #[test]
    fn options_can_be_switched_off() {
        let n = Normalizer {
            clean_text: false,
            handle_chinese_chars: false,
            strip_accents: None,
            lowercase: false,
            strip_all_marks: false,
        };
        assert_eq!(n.normalize("Ä\0中"), "Ä\0中");
    }

    #[test]
    fn the_memo_of_bmp_characters_changes_nothing() {
        let contexts = ["", "a", "\u{301}", "\u{F72}\u{F71}", "\u{1D165}", "中", "İ", "\u{85}", "\x07", "\u{334}"];
        let configs = (0..32u8).filter(|bits| bits & 16 == 0 || bits & 4 != 0).map(|bits| Normalizer {
            clean_text: bits & 1 != 0,
            handle_chinese_chars: bits & 2 != 0,
            strip_accents: Some(bits & 4 != 0),
            lowercase: bits & 8 != 0,
            strip_all_marks: bits & 16 != 0,
        });
        let (mut fast, mut slow) = (Normalized::default(), Normalized::default());
        for n in configs {
            for c in (0x80..0x10000u32).filter_map(char::from_u32) {
                // Three of the context pairs per character, rotating, so that
                // every pair meets every configuration (all pairs for every
                // character take a minute in a debug build).
                let k = c as usize;
                for (i, j) in [(0, 0), (k % 10, (k / 10) % 10), ((k / 100) % 10, k % 10)] {
                    let (before, after) = (contexts[i], contexts[j]);
                    let text = format!("{before}{c}{after}{c}");
                    n.normalize_with::<true>(&text, &mut fast, true);
                    n.normalize_with::<false>(&text, &mut slow, false);
                    assert_eq!((&fast.text, origins(&fast)), (&slow.text, origins(&slow)), "{n:?} {text:?}");
                }
            }
        }
    }

    #[test]
    fn combining_marks_are_canonically_ordered_before_filtering() {
        // U+0F71 (ccc 129) + U+0F72 (ccc 130) are Mn and vanish; the base stays.
        assert_eq!(norm("a\u{0F72}\u{0F71}").0, "a");
        // Hangul syllables decompose into jamo (starters) and survive.
        assert_eq!(norm("한").0.chars().count(), 3);
    }
}
