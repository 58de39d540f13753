//! The result of encoding one text (or one pair of texts): the layer every
//! stage after the WordPiece model reads and writes, below them all.
//!
//! [`Encoding`] keeps its six per-token columns in step: every method adds,
//! removes or reorders the same tokens in all of them, and no field is public.
//! [`scratch::Scratch`] is the buffer the tokens of an encoding are collected
//! in before post-processing makes the whole encoding, and
//! [`column::Column`] writes one column of a batch as rows of int64.

pub mod column;
mod columns;
pub mod ragged;
pub mod scratch;

use self::columns::{Columns, Plain};
use crate::error::{Error, Result};

/// Where tokens are cut (truncation) or added (padding).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Side {
    Left,
    #[default]
    Right,
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if *self == Side::Left { "left" } else { "right" })
    }
}

impl Side {
    /// The side named `"left"` or `"right"` (as `Display` writes it), or None.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "left" => Some(Side::Left),
            "right" => Some(Side::Right),
            _ => None,
        }
    }
}

/// Token ids with their character offsets into the original text, and the
/// masks a BERT model takes. Token strings are looked up from the vocabulary
/// on demand, so encoding allocates no string per token.
///
/// All six columns have one entry per token: a method that changes one
/// changes them all. They live in one allocation ([`columns::Columns`]), and
/// what almost no encoding has (overflowing windows, tokens shown otherwise)
/// in another made only when there is some: an encoding is one allocation.
#[derive(Clone, Default)]
pub struct Encoding {
    columns: Columns<Word>,
    /// Whether this is the encoding of a pair of texts.
    pair: bool,
    /// None when both are empty.
    extra: Option<Box<Extra>>,
}

#[derive(Clone, Default)]
struct Extra {
    overflowing: Vec<Encoding>,
    /// The tokens shown otherwise than the vocabulary's token of their id,
    /// by position, in order: an added token matched with the whitespace it
    /// strips, or in its normalized form (Hugging Face shows the matched
    /// text).
    shown: Vec<(u32, Box<str>)>,
}

impl PartialEq for Encoding {
    fn eq(&self, other: &Self) -> bool {
        self.ids() == other.ids()
            && self.offsets() == other.offsets()
            && self.type_ids() == other.type_ids()
            && self.special_tokens_mask() == other.special_tokens_mask()
            && self.attention_mask() == other.attention_mask()
            && self.words() == other.words()
            && self.pair == other.pair
            && self.overflowing() == other.overflowing()
            && self.shown() == other.shown()
    }
}

impl Eq for Encoding {}

impl std::fmt::Debug for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Encoding")
            .field("ids", &self.ids())
            .field("offsets", &self.offsets())
            .field("type_ids", &self.type_ids())
            .field("special_tokens_mask", &self.special_tokens_mask())
            .field("attention_mask", &self.attention_mask())
            .field("words", &self.words())
            .field("pair", &self.pair)
            .field("overflowing", &self.overflowing())
            .field("shown", &self.shown())
            .finish()
    }
}

/// The word a token belongs to and the sequence of that word, packed in
/// 32 bits: the index of the word within its sequence (counted from 0 in the
/// order the pre-tokenizer gives the words, a special token written in the
/// text counting as one word) in the low 31 bits, the sequence (0 or 1) in
/// the top bit, or [`Word::NONE`] for the tokens post-processing and padding
/// add, which belong to no word and no sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Word(u32);

// SAFETY: a `u32`: any bits are a word (or `Word::NONE`), alignment 4.
unsafe impl Plain for Word {}

impl Word {
    /// No word: a token added by post-processing or padding.
    pub const NONE: Word = Word(u32::MAX);
    const SEQUENCE_BIT: u32 = 1 << 31;

    /// Word `index` (below 2^31) of sequence `sequence` (0 or 1).
    pub fn new(index: u32, sequence: u8) -> Self {
        debug_assert!(index < Self::SEQUENCE_BIT && sequence < 2);
        Word(index | (u32::from(sequence) << 31))
    }

    /// The word's index within its sequence; None for [`Word::NONE`].
    pub fn index(self) -> Option<u32> {
        (self != Self::NONE).then_some(self.0 & !Self::SEQUENCE_BIT)
    }

    /// The word's sequence, 0 or 1; None for [`Word::NONE`].
    pub fn sequence(self) -> Option<u8> {
        (self != Self::NONE).then_some((self.0 >> 31) as u8)
    }

    /// The same word moved to `sequence` (no word stays none).
    pub fn in_sequence(self, sequence: u8) -> Self {
        self.index().map_or(Self::NONE, |index| Self::new(index, sequence))
    }

    /// The next word of the same sequence.
    pub fn next(self) -> Self {
        Word(self.0 + 1)
    }
}

impl Encoding {
    pub fn with_capacity(n: usize) -> Self {
        Self { columns: Columns::with_capacity(n), pair: false, extra: None }
    }

    /// [`Encoding::with_capacity`], or `Error::Memory` when the room for `n`
    /// tokens cannot be reserved (`n` can come from an argument, through
    /// padding or truncation windows).
    pub fn try_with_capacity(n: usize) -> Result<Self> {
        let mut e = Self::default();
        e.try_reserve(n)?;
        Ok(e)
    }

    /// An encoding of the tokens given by their 4-byte columns, with type
    /// id 0, no special token and attention everywhere until `mark`
    /// changes the byte columns: one allocation, at the exact size, each
    /// slot written once (see [`Columns::from_columns`]); `Error::Memory`
    /// when it cannot be had.
    fn made_from(
        ids: &[u32],
        offsets: &[(u32, u32)],
        words: &[Word],
        mark: impl FnOnce(columns::Muts<'_, Word>),
    ) -> Result<Self> {
        let Some(mut columns) = Columns::from_columns(ids, offsets, words, [0, 0, 1]) else {
            return Err(Error::memory(format_args!("an encoding of {} tokens", ids.len())));
        };
        mark(columns.get_mut());
        Ok(Self { columns, pair: false, extra: None })
    }

    /// Checks, before any of them is made, that encodings of `tokens` tokens
    /// in all could have room: their size in bytes is a possible size, and
    /// one allocation of that size (freed at once, never written) succeeds.
    /// For work whose total size comes from arguments (overlapping windows),
    /// so that it fails at once instead of after filling the memory.
    pub fn check_room(tokens: u128) -> Result<()> {
        const TOKEN_BYTES: u128 = 4 + 8 + 3 + 4;
        let bytes = tokens.saturating_mul(TOKEN_BYTES);
        let fits = usize::try_from(bytes).is_ok_and(|b| Vec::<u8>::new().try_reserve_exact(b).is_ok());
        if fits {
            Ok(())
        } else {
            Err(Error::memory(format_args!("encodings of {tokens} tokens in all")))
        }
    }

    /// Reserves room for `n` more tokens in every column, or `Error::Memory`.
    pub fn try_reserve(&mut self, n: usize) -> Result<()> {
        if self.columns.try_reserve_exact(n) {
            Ok(())
        } else {
            Err(Error::memory(format_args!("an encoding of {} tokens", self.len() as u128 + n as u128)))
        }
    }

    /// The number of tokens.
    pub fn len(&self) -> usize {
        self.columns.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Token ids.
    pub fn ids(&self) -> &[u32] {
        self.columns.get().ids
    }

    /// `(start, end)` character offsets into the original string; `(0, 0)`
    /// for the `[CLS]`/`[SEP]` tokens added by post-processing and for padding.
    pub fn offsets(&self) -> &[(u32, u32)] {
        self.columns.get().offsets
    }

    /// 0 for the first sequence, 1 for the second.
    pub fn type_ids(&self) -> &[u8] {
        self.columns.get().type_ids
    }

    /// 1 for the tokens added by post-processing and padding.
    pub fn special_tokens_mask(&self) -> &[u8] {
        self.columns.get().special_tokens_mask
    }

    /// 1 for every token but padding.
    pub fn attention_mask(&self) -> &[u8] {
        self.columns.get().attention_mask
    }

    /// Each token's word and sequence; [`Word::NONE`] for the tokens added by
    /// post-processing and padding.
    pub fn words(&self) -> &[Word] {
        self.columns.get().words
    }

    /// The number of sequences: 2 for a pair of texts, else 1.
    pub fn n_sequences(&self) -> usize {
        1 + usize::from(self.pair)
    }

    /// Marks this as the encoding of a pair (or not).
    pub fn set_pair(&mut self, pair: bool) {
        self.pair = pair;
    }

    /// Whether a token of `word` is looked for when `sequence` is asked for.
    /// As in Hugging Face, asking for a sequence the encoding does not have
    /// looks in all of it.
    fn looked_at(&self, word: Word, sequence: usize) -> bool {
        sequence >= self.n_sequences() || word.sequence() == Some(sequence as u8)
    }

    /// The tokens `(start, end)` of word `index` of `sequence`, None when no
    /// token belongs to it (Hugging Face's `word_to_tokens`): the searched
    /// tokens are read in order up to the first of a later word (a token of
    /// no word is read past), and the range runs from the first of word
    /// `index` to the last.
    pub fn word_to_tokens(&self, index: u32, sequence: usize) -> Option<(usize, usize)> {
        let (mut start, mut end) = (None, 0);
        for (i, &w) in self.words().iter().enumerate().filter(|&(_, &w)| self.looked_at(w, sequence)) {
            match w.index() {
                Some(x) if x > index => break,
                Some(x) if x == index => {
                    start.get_or_insert(i);
                    end = i + 1;
                }
                _ => {}
            }
        }
        start.map(|start| (start, end))
    }

    /// The characters of word `index` of `sequence`: from the start of its
    /// first token to the end of its last (Hugging Face's `word_to_chars`).
    pub fn word_to_chars(&self, index: u32, sequence: usize) -> Option<(u32, u32)> {
        let (start, end) = self.word_to_tokens(index, sequence)?;
        Some((self.offsets()[start].0, self.offsets()[end - 1].1))
    }

    /// The first token whose offsets hold character `pos` of `sequence`'s
    /// text, None when none does (Hugging Face's `char_to_token`).
    pub fn char_to_token(&self, pos: u32, sequence: usize) -> Option<usize> {
        self.offsets()
            .iter()
            .zip(self.words())
            .position(|(&(start, end), &w)| w != Word::NONE && self.looked_at(w, sequence) && start <= pos && pos < end)
    }

    /// The windows that truncation cut off, each a complete encoding (post-
    /// processed and padded like this one); empty unless truncated.
    pub fn overflowing(&self) -> &[Encoding] {
        self.extra.as_ref().map_or(&[], |x| &x.overflowing)
    }

    /// Replaces the overflowing windows.
    pub fn set_overflowing(&mut self, windows: Vec<Encoding>) {
        if !windows.is_empty() || self.extra.is_some() {
            self.extra_mut().overflowing = windows;
        }
    }

    /// Takes the overflowing windows, leaving none.
    pub fn take_overflowing(&mut self) -> Vec<Encoding> {
        self.extra.as_mut().map(|x| std::mem::take(&mut x.overflowing)).unwrap_or_default()
    }

    fn extra_mut(&mut self) -> &mut Extra {
        self.extra.get_or_insert_with(Box::default)
    }

    /// Appends one token with attention and no word: one that post-processing
    /// adds (`special` true), or in tests any token.
    #[inline]
    pub fn push(&mut self, id: u32, offsets: (u32, u32), type_id: u8, special: bool) {
        self.push_word(id, offsets, type_id, special, Word::NONE);
    }

    /// Appends one token of `word` with attention.
    #[inline]
    pub fn push_word(&mut self, id: u32, offsets: (u32, u32), type_id: u8, special: bool, word: Word) {
        self.columns.reserve_one();
        let at = self.len();
        let c = self.columns.full_mut();
        c.ids[at] = id;
        c.offsets[at] = offsets;
        c.type_ids[at] = type_id;
        c.special_tokens_mask[at] = special.into();
        c.attention_mask[at] = 1;
        c.words[at] = word;
        self.columns.set_len(at + 1);
    }

    /// Appends one token with every field given: an encoding read back from
    /// its columns (a pickled one).
    pub fn push_token(&mut self, id: u32, offsets: (u32, u32), type_id: u8, masks: (bool, bool), word: Word) {
        let (special, attention) = masks;
        self.push_word(id, offsets, type_id, special, word);
        let at = self.len() - 1;
        self.columns.get_mut().attention_mask[at] = attention.into();
    }

    /// The tokens shown otherwise than the vocabulary's token of their id:
    /// `(position, text)`, in order of position.
    pub fn shown(&self) -> &[(u32, Box<str>)] {
        self.extra.as_ref().map_or(&[], |x| &x.shown)
    }

    /// Token `i` is shown as `text` (not the vocabulary's token of its id);
    /// `i` comes after every token shown so far.
    pub fn set_shown(&mut self, i: usize, text: &str) {
        debug_assert!(self.shown().last().is_none_or(|&(j, _)| (j as usize) < i));
        self.extra_mut().shown.push((i as u32, text.into()));
    }

    /// Appends `other`'s shown tokens, moved past this encoding's `len` tokens.
    fn append_shown(&mut self, other: &Encoding, len: usize) {
        if !other.shown().is_empty() {
            let moved = other.shown().iter().map(|(i, t)| (i + len as u32, t.clone()));
            self.extra_mut().shown.extend(moved);
        }
    }

    /// Keeps the first `n` tokens.
    pub fn truncate(&mut self, n: usize) {
        if let Some(x) = &mut self.extra {
            x.shown.retain(|&(i, _)| (i as usize) < n);
        }
        self.columns.truncate(n);
    }

    /// Appends all of `other`'s tokens, giving them `type_id` and moving
    /// their words to `sequence`.
    pub fn extend_with_type(&mut self, other: &Encoding, type_id: u8, sequence: u8) {
        let start = self.len();
        self.append(other);
        let c = self.columns.get_mut();
        c.type_ids[start..].fill(type_id);
        for w in &mut c.words[start..] {
            *w = w.in_sequence(sequence);
        }
    }

    /// Appends all of `other`'s tokens as they are (not its overflowing).
    pub fn append(&mut self, other: &Encoding) {
        self.append_shown(other, self.len());
        self.columns.reserve(other.len());
        self.columns.copy_from(&other.columns.get());
    }

    /// Tokens `start..stop` (all six columns; no overflowing), or
    /// `Error::Memory` if there is no room for them.
    pub fn slice(&self, start: usize, stop: usize) -> Result<Encoding> {
        let mut out = Encoding::try_with_capacity(stop - start)?;
        let c = self.columns.get();
        out.columns.copy_from(&columns::Slices {
            offsets: &c.offsets[start..stop],
            ids: &c.ids[start..stop],
            words: &c.words[start..stop],
            type_ids: &c.type_ids[start..stop],
            special_tokens_mask: &c.special_tokens_mask[start..stop],
            attention_mask: &c.attention_mask[start..stop],
        });
        out.pair = self.pair;
        let shown = self.shown().iter().filter(|&&(i, _)| (start..stop).contains(&(i as usize)));
        let shown: Vec<_> = shown.map(|(i, t)| (i - start as u32, t.clone())).collect();
        if !shown.is_empty() {
            out.extra_mut().shown = shown;
        }
        Ok(out)
    }

    /// Pads this encoding and its overflowing windows to `length` tokens on
    /// `side` (an encoding already that long is left alone). A pad token has
    /// the id `pad_id`, type id 0, offsets `(0, 0)`, `special_tokens_mask` 1,
    /// `attention_mask` 0 and no word, as in Hugging Face. `length` comes
    /// from an argument: when there is no room for it, `Error::Memory`.
    pub fn pad(&mut self, length: usize, side: Side, pad_id: u32) -> Result<()> {
        let Some(n) = length.checked_sub(self.len()).filter(|&n| n > 0) else {
            return self.overflowing_mut().iter_mut().try_for_each(|o| o.pad(length, side, pad_id));
        };
        self.try_reserve(n)?;
        for o in self.overflowing_mut() {
            o.pad(length, side, pad_id)?;
        }
        let len = self.len();
        /// The `n` pad slots of `column`, whose first `len` slots are the tokens.
        fn fill<T: Copy>(column: &mut [T], len: usize, n: usize, value: T, side: Side) {
            let pads = match side {
                Side::Right => len..len + n,
                Side::Left => {
                    column.copy_within(0..len, n);
                    0..n
                }
            };
            column[pads].fill(value);
        }
        let c = self.columns.full_mut();
        fill(c.ids, len, n, pad_id, side);
        fill(c.offsets, len, n, (0, 0), side);
        fill(c.type_ids, len, n, 0, side);
        fill(c.special_tokens_mask, len, n, 1, side);
        fill(c.attention_mask, len, n, 0, side);
        fill(c.words, len, n, Word::NONE, side);
        self.columns.set_len(len + n);
        if let (Side::Left, Some(x)) = (side, &mut self.extra) {
            for (i, _) in &mut x.shown {
                *i += n as u32;
            }
        }
        Ok(())
    }

    fn overflowing_mut(&mut self) -> &mut [Encoding] {
        self.extra.as_mut().map_or(&mut [], |x| &mut x.overflowing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seq(ids: &[u32]) -> Encoding {
        let mut e = Encoding::default();
        for &id in ids {
            e.push(id, (id, id + 1), 1, false);
        }
        e
    }

    fn columns_in_step(e: &Encoding) -> bool {
        let n = e.len();
        [
            e.offsets().len(),
            e.type_ids().len(),
            e.special_tokens_mask().len(),
            e.attention_mask().len(),
            e.words().len(),
        ] == [n; 5]
            && e.overflowing().iter().all(columns_in_step)
    }

    #[test]
    fn pads_on_the_right_with_masks_and_empty_offsets() {
        let mut e = seq(&[7, 8]);
        e.pad(4, Side::Right, 0).unwrap();
        assert_eq!(e.ids(), [7, 8, 0, 0]);
        assert_eq!(e.offsets(), [(7, 8), (8, 9), (0, 0), (0, 0)]);
        assert_eq!(e.type_ids(), [1, 1, 0, 0]);
        assert_eq!(e.special_tokens_mask(), [0, 0, 1, 1]);
        assert_eq!(e.attention_mask(), [1, 1, 0, 0]);
    }

    #[test]
    fn pads_on_the_left_and_pads_overflowing_too() {
        let mut e = seq(&[7, 8, 9]);
        e.set_overflowing(vec![seq(&[5])]);
        e.pad(3, Side::Left, 0).unwrap();
        assert_eq!(e.ids(), [7, 8, 9]);
        assert_eq!(e.overflowing()[0].ids(), [0, 0, 5]);
        assert_eq!(e.overflowing()[0].attention_mask(), [0, 0, 1]);
    }

    #[test]
    fn every_change_keeps_the_columns_in_step() {
        let mut e = seq(&[1, 2, 3, 4]);
        e.extend_with_type(&seq(&[5]), 0, 0);
        e.append(&seq(&[6, 7]));
        e.truncate(6);
        e.pad(9, Side::Left, 0).unwrap();
        let mut cut = e.slice(2, 8).unwrap();
        cut.set_overflowing(vec![e.slice(0, 1).unwrap(), e.clone()]);
        assert!(columns_in_step(&e) && columns_in_step(&cut));
        assert_eq!(cut.len(), 6);
        assert_eq!(e.type_ids()[3..], [1, 1, 1, 1, 0, 1]);
        assert_eq!(cut.take_overflowing().len(), 2);
        assert!(cut.overflowing().is_empty());
    }

    #[test]
    fn shown_tokens_follow_their_token() {
        let mut e = seq(&[1, 2, 3]);
        e.set_shown(1, " <x>");
        let mut joined = seq(&[9]);
        joined.append(&e);
        assert_eq!(joined.shown(), [(2, " <x>".into())]);
        joined.pad(6, Side::Left, 0).unwrap();
        assert_eq!(joined.shown(), [(4, " <x>".into())]);
        assert_eq!(joined.slice(3, 6).unwrap().shown(), [(1, " <x>".into())]);
        assert!(joined.slice(0, 4).unwrap().shown().is_empty());
        joined.truncate(4);
        assert!(joined.shown().is_empty());
    }

    #[test]
    fn words_carry_their_sequence_and_map_to_tokens() {
        let mut e = Encoding::default();
        e.push(2, (0, 0), 0, true);
        for (i, w) in [0, 0, 1].into_iter().enumerate() {
            e.push_word(10, (i as u32, i as u32 + 1), 0, false, Word::new(w, 0));
        }
        let mut b = Encoding::default();
        b.push_word(11, (0, 4), 0, false, Word::new(0, 0));
        e.extend_with_type(&b, 1, 1);
        e.set_pair(true);
        e.pad(7, Side::Right, 0).unwrap();
        let indices: Vec<_> = e.words().iter().map(|w| w.index()).collect();
        assert_eq!(indices, [None, Some(0), Some(0), Some(1), Some(0), None, None]);
        let sequences: Vec<_> = e.words().iter().map(|w| w.sequence()).collect();
        assert_eq!(sequences, [None, Some(0), Some(0), Some(0), Some(1), None, None]);
        assert_eq!(e.n_sequences(), 2);
        assert_eq!(e.word_to_tokens(0, 0), Some((1, 3)));
        assert_eq!(e.word_to_tokens(0, 1), Some((4, 5)));
        assert_eq!(e.word_to_tokens(2, 0), None);
        assert_eq!(e.char_to_token(2, 0), Some(3));
        assert_eq!(e.char_to_token(2, 1), Some(4));
        assert_eq!(e.char_to_token(9, 1), None);
        assert!(columns_in_step(&e));
    }

    #[test]
    fn an_encoding_is_small_and_one_allocation() {
        // Held in place by every Python `Encoding`: keep it small.
        assert!(std::mem::size_of::<Encoding>() <= 40);
        let mut e = seq(&[1, 2, 3]);
        e.set_shown(1, "x");
        e.set_overflowing(vec![seq(&[4])]);
        let mut plain = e.clone();
        plain.take_overflowing();
        plain.truncate(1);
        assert!(plain.shown().is_empty() && plain.overflowing().is_empty());
        assert_eq!(plain, seq(&[1]), "emptied extras compare equal to none");
        assert_ne!(e, seq(&[1, 2, 3]));
    }

    #[test]
    fn sizes_beyond_memory_are_errors_not_aborts() {
        let mut e = seq(&[1, 2]);
        for length in [usize::MAX, usize::MAX / 2, 1 << 60] {
            assert!(matches!(e.pad(length, Side::Right, 0), Err(Error::Memory(_))), "{length}");
            assert!(matches!(e.pad(length, Side::Left, 0), Err(Error::Memory(_))), "{length}");
            assert!(Encoding::try_with_capacity(length).is_err());
        }
        assert_eq!(e, seq(&[1, 2]), "a failed pad changes nothing");
    }
}
