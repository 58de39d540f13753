//! Stage 1: normalization, identical to Hugging Face's `BertNormalizer`.
//!
//! Every normalized character remembers the index of the original character it
//! came from, so token offsets can point into the user's string even when
//! normalization removes or expands characters.

use serde::{Deserialize, Serialize};
use unicode_normalization_alignments::char::{canonical_combining_class, decompose_canonical};

use super::unicode::{is_chinese_char, is_control, is_mark_nonspacing, is_whitespace};

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
}

impl Default for Normalizer {
    fn default() -> Self {
        Self { clean_text: true, handle_chinese_chars: true, strip_accents: None, lowercase: true }
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

    /// Normalizes `text` into `out` (cleared first).
    pub fn normalize_into(&self, text: &str, out: &mut Normalized) {
        out.clear();
        if text.is_ascii() && self.normalize_ascii(text, out) {
            return;
        }
        let strip = self.strips_accents();
        for (i, c) in text.chars().enumerate() {
            let origin = i as u32;
            if c.is_ascii() && out.marks.is_empty() {
                out.last_origin = origin;
                self.push_ascii(c, origin, out);
                continue;
            }
            let c = if self.clean_text {
                if c == '\0' || c == '\u{FFFD}' || is_control(c) {
                    continue;
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
        self.flush_marks(out);
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
        let mut marks = std::mem::take(&mut out.marks);
        // The origins of the consumed input characters, in input order.
        let mut consumed = marks.iter().filter(|m| !m.2).map(|m| m.3).collect::<Vec<u32>>().into_iter();
        marks.sort_by_key(|&(class, ..)| class); // stable: canonical ordering
        for &(_, d, inserted, _) in &marks {
            if !inserted {
                out.last_origin = consumed.next().unwrap_or(out.last_origin);
            }
            let o = out.last_origin;
            self.mark_filter_stage(d, o, out);
        }
        marks.clear();
        out.marks = marks;
    }

    #[inline]
    fn mark_filter_stage(&self, c: char, origin: u32, out: &mut Normalized) {
        if !is_mark_nonspacing(c) {
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
        let n = Normalizer { clean_text: false, handle_chinese_chars: false, strip_accents: None, lowercase: false };
        assert_eq!(n.normalize("Ä\0中"), "Ä\0中");
    }

    #[test]
    fn combining_marks_are_canonically_ordered_before_filtering() {
        // U+0F71 (ccc 129) + U+0F72 (ccc 130) are Mn and vanish; the base stays.
        assert_eq!(norm("a\u{0F72}\u{0F71}").0, "a");
        // Hangul syllables decompose into jamo (starters) and survive.
        assert_eq!(norm("한").0.chars().count(), 3);
    }
}
