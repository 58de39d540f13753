//! The normalizers of tokenizer.json files converted from SentencePiece
//! models (T5, ALBERT, XLM-RoBERTa, ...): `Precompiled` (SentencePiece's
//! `precompiled_charsmap`, read by the `spm_precompiled` crate), `Replace`,
//! `Strip`, ALBERT's and XLNet's `NFKD`, `StripAccents` and `Lowercase`,
//! DeBERTa-v2's and Barthez's `NFC` (the `unicode-normalization-alignments`
//! crate's, as Hugging Face's) and `Replace` of the regex
//! `\s{2,}|[\n\r\t]`, and a `Sequence` of them. Each keeps, for every character of the
//! normalized text, the span of original characters it stands for, moved
//! along as Hugging Face's `NormalizedString` moves its alignments, so that
//! token offsets point where Hugging Face's do.

use std::collections::TryReserveError;

use serde_json::Value;
use spm_precompiled::Precompiled;
use unicode_normalization_alignments::UnicodeNormalization;
use unicode_segmentation::UnicodeSegmentation;

use crate::pipeline::unicode::is_combining_mark;

use crate::error::{Error, Quoted, Result};

/// Text being normalized: its characters and, for each, the original
/// characters `(start, end)` it stands for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Aligned {
    pub chars: Vec<char>,
    pub align: Vec<(u32, u32)>,
}

impl Aligned {
    /// `text` as it is, its characters numbered from `char_start`.
    /// `Error::Memory` when there is no room for it.
    pub fn new(text: &str, char_start: u32) -> Result<Self> {
        let n = text.chars().count();
        let mut a = Aligned::default();
        if a.chars.try_reserve(n).is_err() || a.align.try_reserve(n).is_err() {
            return Err(Error::memory(format_args!("normalizing a text of {n} characters")));
        }
        for (i, c) in text.chars().enumerate() {
            a.chars.push(c);
            let at = char_start + i as u32;
            a.align.push((at, at + 1));
        }
        Ok(a)
    }

    /// Replaces the characters `start..end` by `new`, each with its change:
    /// 0 takes the place of the next old character (and its span), `-n`
    /// does that and drops the `n` old characters after it, `1` is a new
    /// character, with the span of the old character before it.
    /// `Error::Memory` when there is no room for the new characters.
    pub fn transform(&mut self, start: usize, end: usize, new: &[(char, isize)]) -> Result<()> {
        let mut next = start;
        let span = |i: usize, align: &[(u32, u32)]| align.get(i).or(align.last()).copied().unwrap_or((0, 0));
        let len = self.chars.len();
        let no_room = || Error::memory(format_args!("normalizing a text of {len} characters"));
        let mut chars = Vec::new();
        let mut align = Vec::new();
        if chars.try_reserve_exact(new.len()).is_err() || align.try_reserve_exact(new.len()).is_err() {
            return Err(no_room());
        }
        for &(c, change) in new {
            let a = if change > 0 {
                if next == 0 {
                    (0, 0)
                } else {
                    span(next - 1, &self.align)
                }
            } else {
                let a = span(next, &self.align);
                next += 1 + change.unsigned_abs();
                a
            };
            chars.push(c);
            align.push(a);
        }
        if start == 0 && end == self.chars.len() {
            (self.chars, self.align) = (chars, align);
            return Ok(());
        }
        // Room for what the new characters add, so that `splice` does not grow the text.
        let more = new.len().saturating_sub(end - start);
        if self.chars.try_reserve(more).is_err() || self.align.try_reserve(more).is_err() {
            return Err(no_room());
        }
        self.chars.splice(start..end, chars);
        self.align.splice(start..end, align);
        Ok(())
    }

    /// Replaces each of the ranges `matches` (in order, not overlapping,
    /// none empty) by `content`, whose characters all take the span of the
    /// range's last character: the new text is built in one pass.
    /// `Error::Memory` when there is no room for it.
    fn replace(&mut self, matches: &[(usize, usize)], content: &[char]) -> Result<()> {
        if matches.is_empty() {
            return Ok(());
        }
        let removed: usize = matches.iter().map(|(s, e)| e - s).sum();
        let n = self.chars.len() - removed + matches.len() * content.len();
        let mut chars = Vec::new();
        let mut align = Vec::new();
        if chars.try_reserve_exact(n).is_err() || align.try_reserve_exact(n).is_err() {
            return Err(Error::memory(format_args!("normalizing a text of {n} characters")));
        }
        let mut from = 0;
        for &(s, e) in matches {
            chars.extend_from_slice(&self.chars[from..s]);
            align.extend_from_slice(&self.align[from..s]);
            chars.extend_from_slice(content);
            align.extend(std::iter::repeat_n(self.align[e - 1], content.len()));
            from = e;
        }
        chars.extend_from_slice(&self.chars[from..]);
        align.extend_from_slice(&self.align[from..]);
        self.chars = chars;
        self.align = align;
        Ok(())
    }

    pub fn text(&self) -> String {
        self.chars.iter().collect()
    }
}

/// What a `Replace` looks for.
#[derive(Clone, Debug)]
enum Pattern {
    /// A literal string.
    Literal(Vec<char>),
    /// A regex: alternatives tried in order at each position, the first that
    /// matches there taken (Oniguruma's leftmost-first alternation); with
    /// the characters any of them starts with.
    Regex(Vec<Alternative>, CharSet),
}

/// One alternative of a `Replace` regex: one character of a set, or a
/// greedy run of at least `min` of them.
#[derive(Clone, Debug)]
struct Alternative {
    set: CharSet,
    /// `None`: exactly one character; `Some(min)`: a run of at least `min`.
    run: Option<usize>,
}

/// Characters a regex atom matches: the ASCII ones as bits, the others
/// listed, and Oniguruma's `\s` if `space` (its ASCII ones among the bits).
#[derive(Clone, Debug, Default)]
struct CharSet {
    ascii: u128,
    others: Vec<char>,
    space: bool,
}

impl CharSet {
    #[inline]
    fn contains(&self, c: char) -> bool {
        if c.is_ascii() {
            self.ascii >> (c as u32) & 1 == 1
        } else {
            (self.space && is_regex_space(c)) || self.others.contains(&c)
        }
    }

    fn add(&mut self, c: char) {
        if c.is_ascii() {
            self.ascii |= 1 << (c as u32);
        } else if !self.others.contains(&c) {
            self.others.push(c);
        }
    }

    fn add_space(&mut self) {
        self.space = true;
        (0u8..128).filter(|&b| is_regex_space(b as char)).for_each(|b| self.add(b as char));
    }

    fn is_empty(&self) -> bool {
        self.ascii == 0 && self.others.is_empty() && !self.space
    }

    fn union(&mut self, other: &CharSet) {
        self.ascii |= other.ascii;
        self.space |= other.space;
        other.others.iter().for_each(|&c| self.add(c));
    }
}

/// Oniguruma's `\s` on UTF-8 text, as Hugging Face's `Regex` runs it: the
/// 25 `White_Space` characters (U+0009..U+000D, U+0020, U+0085, U+00A0,
/// U+1680, U+2000..U+200A, U+2028, U+2029, U+202F, U+205F, U+3000).
#[inline]
fn is_regex_space(c: char) -> bool {
    c.is_whitespace()
}

/// Oniguruma's largest repeat count: a larger one is an error there.
const MAX_REPEAT: usize = 100_000;

impl Pattern {
    /// The character ranges it matches in `chars`, leftmost first, not
    /// overlapping; `Error::Memory` when there is no room for them.
    fn matches(&self, chars: &[char]) -> Result<Vec<(usize, usize)>> {
        let mut out = Vec::new();
        // Where the run of each alternative's set that holds position `i` ends, once found.
        let mut run_ends = match self {
            Pattern::Regex(alts, _) => vec![0; alts.len()],
            Pattern::Literal(_) => Vec::new(),
        };
        let mut i = 0;
        while i < chars.len() {
            if out.len() == out.capacity() && out.try_reserve(1).is_err() {
                return Err(Error::memory(format_args!("normalizing a text of {} characters", chars.len())));
            }
            let found = match self {
                Pattern::Literal(p) => chars[i..].starts_with(p).then_some(p.len()),
                Pattern::Regex(_, starts) if !starts.contains(chars[i]) => None,
                Pattern::Regex(alts, _) => alts.iter().zip(&mut run_ends).find_map(|(alt, end)| match alt.run {
                    None => alt.set.contains(chars[i]).then_some(1),
                    Some(min) => {
                        if *end <= i {
                            *end = i + chars[i..].iter().take_while(|&&c| alt.set.contains(c)).count();
                        }
                        (*end - i >= min).then_some(*end - i)
                    }
                }),
            };
            match found {
                Some(n) => {
                    out.push((i, i + n));
                    i += n;
                }
                None => i += 1,
            }
        }
        Ok(out)
    }

    /// A `Replace` normalizer's pattern: `{"String": s}`, or `{"Regex": r}`
    /// whose alternatives are each one character, `\s` or a class of them,
    /// alone, with `+` or with `{n,}` (see [`parse_regex`]).
    fn from_json(v: &Value) -> Result<Self> {
        if let Some(s) = v.get("String").and_then(Value::as_str) {
            if s.is_empty() {
                return Err(Error::invalid("a Replace normalizer with an empty pattern is not supported"));
            }
            return Ok(Pattern::Literal(s.chars().collect()));
        }
        let Some(r) = v.get("Regex").and_then(Value::as_str) else {
            return Err(Error::invalid("a Replace normalizer's pattern must be {\"String\": ...} or {\"Regex\": ...}"));
        };
        let regex = parse_regex(r).map(|alts| {
            let mut starts = CharSet::default();
            alts.iter().for_each(|a| starts.union(&a.set));
            Pattern::Regex(alts, starts)
        });
        regex.ok_or_else(|| {
            Error::invalid(format!(
                "the Replace normalizer's regex {} is not supported (only alternatives `a|b` of one character, \
                 \\s or a class [...] of them, each alone, with + or with {{n,}}, as \" {{2,}}\" or \"\\s{{2,}}|[\\n\\r\\t]\")",
                Quoted(r)
            ))
        })
    }
}

/// The alternatives of a regex of the supported shape, or `None`:
///
/// ```text
/// regex       = alternative ("|" alternative)*
/// alternative = atom ("+" | "{" digits ",}")?        digits: 1 to 100000
/// atom        = item | "[" item+ "]"
/// item        = "\s" | "\t" | "\n" | "\r" | "\" (ASCII punctuation or space)
///             | an ASCII letter or digit, a space, or any non-ASCII character
/// ```
///
/// Each item is one character as Oniguruma reads it (`\t`, `\n`, `\r` the
/// controls, an escaped punctuation character itself).
fn parse_regex(r: &str) -> Option<Vec<Alternative>> {
    let mut it = r.chars().peekable();
    let mut alts = Vec::new();
    loop {
        let mut set = CharSet::default();
        if it.next_if_eq(&'[').is_some() {
            while it.next_if_eq(&']').is_none() {
                regex_item(&mut it, &mut set)?;
            }
            if set.is_empty() {
                return None;
            }
        } else {
            regex_item(&mut it, &mut set)?;
        }
        let run = match it.peek() {
            Some('+') => {
                it.next();
                Some(1)
            }
            Some('{') => {
                it.next();
                let mut digits = String::new();
                while let Some(d) = it.next_if(char::is_ascii_digit) {
                    digits.push(d);
                }
                (it.next() == Some(',') && it.next() == Some('}')).then_some(())?;
                Some(digits.parse::<usize>().ok().filter(|n| (1..=MAX_REPEAT).contains(n))?)
            }
            _ => None,
        };
        alts.push(Alternative { set, run });
        match it.next() {
            None => return Some(alts),
            Some('|') => {}
            Some(_) => return None,
        }
    }
}

/// Adds one item of a regex to `set`: see [`parse_regex`].
fn regex_item(it: &mut std::iter::Peekable<std::str::Chars>, set: &mut CharSet) -> Option<()> {
    let c = match it.next()? {
        '\\' => match it.next()? {
            's' => {
                set.add_space();
                return Some(());
            }
            't' => '\t',
            'n' => '\n',
            'r' => '\r',
            c if c.is_ascii_punctuation() || c == ' ' => c,
            _ => return None,
        },
        c if c.is_ascii_alphanumeric() || c == ' ' || !c.is_ascii() => c,
        _ => return None,
    };
    set.add(c);
    Some(())
}

/// One normalizer of a `Sequence`.
#[derive(Clone, Debug)]
enum Step {
    Precompiled(Box<Precompiled>),
    Replace { pattern: Pattern, content: Vec<char> },
    Strip { left: bool, right: bool },
    Nfc,
    Nfkd,
    StripAccents,
    Lowercase,
}

/// A tokenizer.json normalizer: its steps, and its JSON to write back.
#[derive(Clone, Debug)]
pub struct Normalizer {
    steps: Vec<Step>,
    json: Value,
}

impl Normalizer {
    /// The normalizer of a tokenizer.json's `"normalizer"` value (not null).
    pub fn from_json(v: &Value) -> Result<Self> {
        let mut steps = Vec::new();
        add_steps(v, &mut steps)?;
        Ok(Normalizer { steps, json: v.clone() })
    }

    /// The tokenizer.json value it was read from.
    pub fn json(&self) -> &Value {
        &self.json
    }

    /// Normalizes `text` in place, step by step; `Error::Memory` when there
    /// is no room for a step's text (the text is then left as it was after
    /// the steps before).
    pub fn normalize(&self, text: &mut Aligned) -> Result<()> {
        for step in &self.steps {
            match step {
                Step::Precompiled(p) => precompiled(p, text)?,
                Step::Replace { pattern, content } => {
                    let matches = pattern.matches(&text.chars)?;
                    text.replace(&matches, content)?;
                }
                Step::Nfc => {
                    let new = changes(text.chars.len(), text.chars.iter().copied().nfc())?;
                    text.transform(0, text.chars.len(), &new)?;
                }
                Step::Nfkd => {
                    let new = changes(text.chars.len(), text.chars.iter().copied().nfkd())?;
                    text.transform(0, text.chars.len(), &new)?;
                }
                Step::Lowercase => {
                    let lower = |c: &char| c.to_lowercase().enumerate().map(|(i, l)| (l, isize::from(i > 0)));
                    let new = changes(text.chars.len(), text.chars.iter().flat_map(lower))?;
                    text.transform(0, text.chars.len(), &new)?;
                }
                Step::StripAccents => strip_accents(text)?,
                Step::Strip { left, right } => {
                    let n = text.chars.len();
                    let lead = if *left { text.chars.iter().take_while(|c| c.is_whitespace()).count() } else { 0 };
                    let trail = if *right {
                        text.chars[lead..].iter().rev().take_while(|c| c.is_whitespace()).count()
                    } else {
                        0
                    };
                    if lead + trail > 0 {
                        text.chars.truncate(n - trail);
                        text.align.truncate(n - trail);
                        text.chars.drain(..lead);
                        text.align.drain(..lead);
                    }
                }
            }
        }
        Ok(())
    }
}

fn add_steps(v: &Value, steps: &mut Vec<Step>) -> Result<()> {
    let kind = v.get("type").and_then(Value::as_str).unwrap_or("");
    match kind {
        "Sequence" => {
            let parts = v
                .get("normalizers")
                .and_then(Value::as_array)
                .ok_or_else(|| Error::invalid("the Sequence normalizer has no \"normalizers\" list"))?;
            for part in parts {
                add_steps(part, steps)?;
            }
        }
        "Precompiled" => {
            let bad = || {
                Error::invalid(
                    "the Precompiled normalizer's precompiled_charsmap is not a SentencePiece charsmap in base64",
                )
            };
            let map = v.get("precompiled_charsmap").and_then(Value::as_str).ok_or_else(bad)?;
            let bytes = base64::decode(map).map_err(|_| bad())?;
            if !charsmap_is_sound(&bytes) {
                return Err(bad());
            }
            let p = Precompiled::from(&bytes).map_err(|_| bad())?;
            steps.push(Step::Precompiled(Box::new(p)));
        }
        "Replace" => {
            let pattern = Pattern::from_json(
                v.get("pattern").ok_or_else(|| Error::invalid("a Replace normalizer has no pattern"))?,
            )?;
            let content = v
                .get("content")
                .and_then(Value::as_str)
                .ok_or_else(|| Error::invalid("a Replace normalizer has no \"content\" string"))?;
            steps.push(Step::Replace { pattern, content: content.chars().collect() });
        }
        "Strip" => {
            let flag = |k: &str| v.get(k).and_then(Value::as_bool).unwrap_or(true);
            steps.push(Step::Strip { left: flag("strip_left"), right: flag("strip_right") });
        }
        "NFC" => steps.push(Step::Nfc),
        "NFKD" => steps.push(Step::Nfkd),
        "StripAccents" => steps.push(Step::StripAccents),
        "Lowercase" => steps.push(Step::Lowercase),
        _ => {
            return Err(Error::invalid(format!(
                "the {} normalizer is not supported (only Precompiled, Replace, Strip, NFC, NFKD, StripAccents, Lowercase and a Sequence of them)",
                Quoted(kind)
            )))
        }
    }
    Ok(())
}

/// Hugging Face's `StripAccents`: the combining marks dropped, each kept
/// character with its span, as its `NormalizedString::filter` moves them.
fn strip_accents(text: &mut Aligned) -> Result<()> {
    let lead = text.chars.iter().take_while(|&&c| is_combining_mark(c)).count();
    text.chars.drain(..lead);
    text.align.drain(..lead);
    let mut new = changes(text.chars.len(), std::iter::empty())?;
    for &c in &text.chars {
        match new.last_mut() {
            Some(last) if is_combining_mark(c) => last.1 -= 1,
            _ if is_combining_mark(c) => {}
            _ => new.push((c, 0)),
        }
    }
    text.transform(0, text.chars.len(), &new)
}

/// A step's changes (see [`Aligned::transform`]) for a text of `n`
/// characters, collected with room reserved for `n` and grown fallibly:
/// `Error::Memory` when there is no room.
fn changes(n: usize, iter: impl Iterator<Item = (char, isize)>) -> Result<Vec<(char, isize)>> {
    let no_room = || Error::memory(format_args!("normalizing a text of {n} characters"));
    let mut out = Vec::new();
    out.try_reserve_exact(n).map_err(|_| no_room())?;
    for change in iter {
        if out.len() == out.capacity() {
            out.try_reserve(out.len().max(1)).map_err(|_| no_room())?;
        }
        out.push(change);
    }
    Ok(out)
}

/// Whether every lookup in the charsmap `bytes` stays inside it: a
/// little-endian u32 byte size of the trie, its u32 units, then the
/// normalized strings (UTF-8). In a darts-clone double array, a unit whose
/// bit 31 is clear is a node: its label in the low byte, a has-leaf flag in
/// bit 8, and the offset of its children (bits 10 and up, shifted 8 more
/// when bit 9 is set); a unit whose bit 31 is set holds a value. A lookup
/// reads the 256 units from a node's index XOR its offset (one per byte), and
/// a has-leaf node's value at that index: the block must be inside the
/// array, and the value an offset into the strings, at a character.
fn charsmap_is_sound(bytes: &[u8]) -> bool {
    let Some(size) = bytes.get(..4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize / 4) else {
        return false;
    };
    let Some(trie) = bytes.get(4..4 + 4 * size) else { return false };
    let strings = &bytes[4 + 4 * size..];
    let units: Vec<u32> = trie.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
    let offset = |u: u32| ((u >> 10) as usize) << ((u & (1 << 9)) >> 6);
    let at_char = |v: usize| v == strings.len() || strings.get(v).is_some_and(|&b| b & 0xC0 != 0x80);
    !units.is_empty()
        && units[0] >> 31 == 0
        && units.iter().enumerate().filter(|(_, &u)| u >> 31 == 0).all(|(i, &u)| {
            let base = i ^ offset(u);
            (base | 0xFF) < units.len() && ((u >> 8) & 1 == 0 || at_char((units[base] & 0x7FFF_FFFF) as usize))
        })
}

/// SentencePiece's normalization as Hugging Face's `Precompiled` does it:
/// each grapheme cluster shorter than 6 bytes is looked up whole, else
/// character by character; a match is replaced by its normalized string.
/// Every table it builds grows fallibly: `Error::Memory` when there is no
/// room (a long text's changes are 16 bytes a character).
fn precompiled(p: &Precompiled, text: &mut Aligned) -> Result<()> {
    let n = text.chars.len();
    let no_room = || Error::memory(format_args!("normalizing a text of {n} characters"));
    let bytes: usize = text.chars.iter().map(|c| c.len_utf8()).sum();
    let mut s = String::new();
    s.try_reserve_exact(bytes).map_err(|_| no_room())?;
    s.extend(&text.chars);
    let mut new: Vec<(char, isize)> = Vec::new();
    new.try_reserve_exact(n).map_err(|_| no_room())?;
    let mut changed = false;
    for g in s.graphemes(true) {
        if g.len() < 6 {
            if let Some(to) = p.transform(g) {
                changed = true;
                rewrite(&mut new, g, to).map_err(|_| no_room())?;
                continue;
            }
        }
        for (i, c) in g.char_indices() {
            let one = &g[i..i + c.len_utf8()];
            match p.transform(one) {
                Some(to) => {
                    changed = true;
                    rewrite(&mut new, one, to).map_err(|_| no_room())?;
                }
                None => {
                    new.try_reserve(1).map_err(|_| no_room())?;
                    new.push((c, 0));
                }
            }
        }
    }
    if changed {
        text.transform(0, n, &new)?;
    }
    Ok(())
}

/// Appends the changes that turn `old` into `to`: the new characters take
/// the old ones' places in order; any beyond them are new (the last ones),
/// and old ones beyond the new are dropped after the last character so far.
/// An error when `new` has no room for them.
fn rewrite(new: &mut Vec<(char, isize)>, old: &str, to: &str) -> std::result::Result<(), TryReserveError> {
    let grown = to.chars().count() as isize - old.chars().count() as isize;
    new.try_reserve(to.len())?;
    new.extend(to.chars().map(|c| (c, 0)));
    if grown > 0 {
        let n = new.len();
        for change in &mut new[n - grown as usize..] {
            change.1 = 1;
        }
    } else if grown < 0 {
        if let Some(last) = new.last_mut() {
            last.1 += grown;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(v: Value, text: &str) -> (String, Vec<(u32, u32)>) {
        let n = Normalizer::from_json(&v).unwrap();
        let mut a = Aligned::new(text, 0).unwrap();
        n.normalize(&mut a).unwrap();
        (a.text(), a.align)
    }

    #[test]
    fn a_replaced_run_stands_for_its_last_character() {
        let v = json!({"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": "\u{2581}"});
        assert_eq!(run(v, "a   b c"), ("a\u{2581}b c".into(), vec![(0, 1), (3, 4), (4, 5), (5, 6), (6, 7)]));
    }

    #[test]
    fn every_match_is_replaced_with_the_span_of_its_last_character() {
        let v = json!({"type": "Replace", "pattern": {"String": "``"}, "content": "\""});
        let (text, align) = run(v, "``a````b`");
        assert_eq!(text, "\"a\"\"b`");
        assert_eq!(align, vec![(1, 2), (2, 3), (4, 5), (6, 7), (7, 8), (8, 9)]);
        let v = json!({"type": "Replace", "pattern": {"Regex": " +"}, "content": ""});
        assert_eq!(run(v, " a  b "), ("ab".into(), vec![(1, 2), (4, 5)]));
    }

    #[test]
    fn strip_keeps_the_inner_spans() {
        let v =
            json!({"type": "Sequence", "normalizers": [{"type": "Strip", "strip_left": true, "strip_right": true}]});
        assert_eq!(run(v, " ab\t"), ("ab".into(), vec![(1, 2), (2, 3)]));
    }

    #[test]
    fn unsupported_parts_are_named() {
        let e = Normalizer::from_json(&json!({"type": "NFKC"})).unwrap_err().to_string();
        assert!(e.contains("\"NFKC\" normalizer is not supported"), "{e}");
        let v = json!({"type": "Replace", "pattern": {"Regex": "[a-z]+"}, "content": ""});
        let e = Normalizer::from_json(&v).unwrap_err().to_string();
        assert!(e.contains("regex \"[a-z]+\" is not supported"), "{e}");
    }

    #[test]
    fn debertas_regex_takes_whitespace_runs_and_single_controls() {
        let v = json!({"type": "Replace", "pattern": {"Regex": "\\s{2,}|[\\n\\r\\t]"}, "content": " "});
        let (text, align) = run(v, "a\u{3000}\u{a0}b\nc d\u{1c}\u{1c}e\u{2028}f\t");
        assert_eq!(text, "a b c d\u{1c}\u{1c}e\u{2028}f ");
        assert_eq!(align[1], (2, 3));
        assert_eq!(align[3], (4, 5));
        // the first alternative that matches at a position wins, not the longest
        let v = json!({"type": "Replace", "pattern": {"Regex": "a|a+|[\\s\\.]{2,}"}, "content": "x"});
        assert_eq!(run(v, "aa . b").0, "xxxb");
    }

    #[test]
    fn regex_space_is_the_25_white_space_characters() {
        let listed: Vec<u32> = (0x9..=0xD).chain([0x20, 0x85, 0xA0, 0x1680]).chain(0x2000..=0x200A).collect();
        let listed = [listed, vec![0x2028, 0x2029, 0x202F, 0x205F, 0x3000]].concat();
        let found: Vec<u32> = (0..=0x10FFFF).filter(|&c| char::from_u32(c).is_some_and(is_regex_space)).collect();
        assert_eq!(found, listed);
    }

    #[test]
    fn other_regexes_are_refused() {
        for r in ["\\s*", "\\S", "[^a]", "a{2,3}", "a{0,}", "a{+2,}", "a{100001,}", "(a)", "a|", "ab", "[]", "-", "\\d"]
        {
            let v = json!({"type": "Replace", "pattern": {"Regex": r}, "content": ""});
            assert!(Normalizer::from_json(&v).is_err(), "{r}");
        }
        let v = json!({"type": "Replace", "pattern": {"Regex": "\\|+|[é\\.\u{3000}]{100000,}"}, "content": ""});
        assert!(Normalizer::from_json(&v).is_ok());
    }

    #[test]
    fn nfc_composes_and_keeps_the_starters_span() {
        let (text, align) = run(json!({"type": "NFC"}), "e\u{302}\u{323}x\u{1100}\u{1161}\u{212b}");
        assert_eq!(text, "\u{1ec7}x\u{ac00}\u{c5}");
        assert_eq!(align, vec![(0, 1), (3, 4), (4, 5), (6, 7)]);
    }

    #[test]
    fn growing_and_shrinking_rewrites_move_the_spans_as_hugging_face_does() {
        let mut new = Vec::new();
        rewrite(&mut new, "x", "ab").unwrap();
        rewrite(&mut new, "yz", "c").unwrap();
        assert_eq!(new, [('a', 0), ('b', 1), ('c', -1)]);
        let mut a = Aligned::new("xyz", 0).unwrap();
        a.transform(0, 3, &new).unwrap();
        assert_eq!((a.text().as_str(), a.align), ("abc", vec![(0, 1), (0, 1), (1, 2)]));
    }
}
