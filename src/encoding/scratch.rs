//! The buffer an encoding's tokens are collected in: ids, offsets and words,
//! reused from call to call so that it grows once, then copied out into an
//! [`Encoding`] at its exact size with the other columns made whole.
//!
//! A scratch can keep ids only (see [`Scratch::set_ids_only`]): when the
//! caller wants no offsets and no words, pushing a token is one push. It
//! can then collect rows (see [`Scratch::begin_rows`]): each encoding's ids
//! go straight after the previous one's, in the caller's vector.
//!
//! Its columns grow fallibly: when memory for more tokens cannot be had,
//! the scratch takes no more tokens than it has room for (the others are
//! dropped) and [`Scratch::check`] gives `Error::Memory`, so that a text
//! whose tokens do not fit in memory is an error, not an abort. Pushing a
//! token checks the room left as `Vec::push` does, no more; growing is out
//! of line.

use crate::encoding::{Encoding, Word};
use crate::error::{Error, Result};

/// Ids, offsets and words of the tokens of one encoding being assembled (see
/// `BertPostProcessor::assemble`): the tokenizer keeps one per thread.
#[derive(Clone, Debug)]
pub struct Scratch {
    ids: Vec<u32>,
    offsets: Vec<(u32, u32)>,
    words: Vec<Word>,
    /// The word the next token belongs to.
    word: Word,
    /// The pieces of the encoding (see [`Scratch::start_sequence`]).
    pieces: Vec<Piece>,
    /// Tokens shown otherwise than their id's token (see [`Encoding::shown`]).
    shown: Vec<(usize, String)>,
    /// Whether `offsets` and `words` are left empty (see
    /// [`Scratch::set_ids_only`]).
    ids_only: bool,
    /// Where this encoding's ids start in `ids` (0 unless collecting rows,
    /// see [`Scratch::begin_rows`]): the ids before are earlier rows'.
    floor: usize,
    /// The number of ids (earlier rows' included) that room could not be
    /// had for, once growing failed (see [`Scratch::check`]); 0 otherwise.
    short: usize,
    /// The bytes of a text whose normalized text room could not be had for
    /// (see [`Scratch::fail_normalizing`]); 0 otherwise.
    unnormalized: usize,
}

/// A run of tokens that share a type id: a sequence's, or special tokens.
#[derive(Clone, Copy, Debug)]
struct Piece {
    start: usize,
    type_id: u8,
    special: bool,
}

impl Default for Scratch {
    fn default() -> Self {
        Self {
            ids: Vec::new(),
            offsets: Vec::new(),
            words: Vec::new(),
            word: Word::new(0, 0),
            pieces: Vec::new(),
            shown: Vec::new(),
            ids_only: false,
            floor: 0,
            short: 0,
            unnormalized: 0,
        }
    }
}

/// Where a [`Scratch`] was, to go back to (see [`Scratch::rewind`]).
#[derive(Clone, Copy, Debug)]
pub struct Mark {
    len: usize,
    word: Word,
}

impl Scratch {
    pub fn clear(&mut self) {
        self.ids.truncate(self.floor);
        self.offsets.clear();
        self.words.clear();
        self.word = Word::new(0, 0);
        self.pieces.clear();
        self.shown.clear();
    }

    /// Keeps only the ids of the tokens from now on (`on`), or every column;
    /// emptied, as [`clear`](Self::clear) leaves it. With ids only,
    /// [`offsets`](Self::offsets) is empty, the words are not kept,
    /// [`each_since`](Self::each_since) and
    /// [`to_encoding`](Self::to_encoding) are not to be used.
    pub fn set_ids_only(&mut self, on: bool) {
        self.floor = 0;
        self.short = 0;
        self.unnormalized = 0;
        self.clear();
        self.ids_only = on;
        // Every column has room wherever the ids have (see `grow`): ids
        // grown while they were kept alone are let go.
        if !on && self.ids.capacity() > self.offsets.capacity().min(self.words.capacity()) {
            self.ids = Vec::new();
        }
    }

    /// `Error::Memory` if room for a token could not be had since the
    /// scratch was last emptied by [`set_ids_only`](Self::set_ids_only),
    /// [`begin_rows`](Self::begin_rows) or [`start_after`](Self::start_after)
    /// (the tokens it holds are then not all the tokens pushed).
    pub fn check(&self) -> Result<()> {
        if self.unnormalized != 0 {
            let bytes = self.unnormalized;
            return Err(Error::memory(format_args!("the normalized text of {bytes} bytes of text")));
        }
        match self.short {
            0 => Ok(()),
            // Rows before this encoding's: their tokens count too.
            n if self.floor > 0 => Err(Error::memory(format_args!("encodings of {n} tokens in all"))),
            n => Err(Error::memory(format_args!("an encoding of {n} tokens"))),
        }
    }

    /// Marks this scratch as failed (see [`check`](Self::check)): there was
    /// no room to normalize a text of `bytes` bytes, whose tokens are left
    /// out.
    #[cold]
    pub fn fail_normalizing(&mut self, bytes: usize) {
        self.unnormalized = self.unnormalized.max(bytes.max(1));
        self.short = self.short.max(self.ids.len().max(1));
    }

    /// Whether a token was dropped for want of room (see [`check`](Self::check)).
    #[inline]
    pub fn failed(&self) -> bool {
        self.short != 0
    }

    /// Room for `n` more tokens in every column kept, or false (tokens are
    /// then dropped, see [`check`](Self::check)). The columns grow at least
    /// twofold, as a `Vec` does, or by an eighth when that is all there is
    /// room for. The ids grow last, and only once the other columns have
    /// room: wherever the ids have room, so have they, and a failure leaves
    /// the ids full, so that every later push comes here and is dropped.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, n: usize) -> bool {
        if self.short != 0 {
            return false;
        }
        let (len, floor) = (self.ids.len(), self.floor);
        let Some(need) = len.checked_add(n) else {
            self.short = usize::MAX;
            return false;
        };
        let doubled = need.max(2 * self.ids.capacity()).max(8);
        let mut to = |cap: usize| {
            // Capacities as the ids count them (earlier rows included).
            let room = |column_len: usize| cap - floor - column_len;
            (self.ids_only
                || self.offsets.try_reserve_exact(room(self.offsets.len())).is_ok()
                    && self.words.try_reserve_exact(room(self.words.len())).is_ok())
                && self.ids.try_reserve_exact(cap - len).is_ok()
        };
        // Short of room for twice as many, an eighth more: growing by so
        // little each time would copy the tokens once per token.
        let ok = to(doubled) || to(need.max(len + len / 8));
        if !ok {
            self.short = need;
        }
        ok
    }

    /// Room for `n` more tokens (see [`grow`](Self::grow)).
    #[inline]
    fn room(&mut self, n: usize) -> bool {
        self.ids.capacity() - self.ids.len() >= n || self.grow(n)
    }

    /// Keeps ids only, collecting rows after the ids in `ids`: each
    /// encoding's ids (from one [`clear`](Self::clear) to the next
    /// [`next_row`](Self::next_row)) follow the previous one's, no copy.
    /// [`end_rows`](Self::end_rows) gives the vector back.
    pub fn begin_rows(&mut self, ids: Vec<u32>) {
        self.set_ids_only(true);
        self.floor = ids.len();
        self.ids = ids;
    }

    /// Ends the current row, and gives its number of tokens; the next
    /// encoding is the next row.
    pub fn next_row(&mut self) -> usize {
        let n = self.len();
        self.floor = self.ids.len();
        n
    }

    /// The ids of every row since [`begin_rows`](Self::begin_rows), and
    /// those it was given before them; this scratch is left empty.
    pub fn end_rows(&mut self) -> Vec<u32> {
        self.floor = 0;
        let ids = std::mem::take(&mut self.ids);
        self.clear();
        ids
    }

    /// Whether only ids are kept (see [`set_ids_only`](Self::set_ids_only)).
    #[inline]
    pub fn ids_only(&self) -> bool {
        self.ids_only
    }

    /// Empties this scratch to collect every column of tokens that follow
    /// those of `other`: the next token belongs to `other`'s current word.
    pub fn start_after(&mut self, other: &Scratch) {
        self.set_ids_only(false);
        self.word = other.word;
    }

    /// Appends `other`'s tokens (their ids alone when this scratch keeps ids
    /// only), and goes on at its current word.
    pub fn append_ids(&mut self, other: &Scratch) {
        if other.failed() || !self.room(other.len()) {
            self.unnormalized = self.unnormalized.max(other.unnormalized);
            self.short = self.short.max(other.short).max(self.ids.len() + other.len());
            return;
        }
        // Most often a chunk's one or two tokens (see `Tokenizer::encode_chunk_ids`):
        // pushed, with no call to copy.
        match *other.ids() {
            [a] => self.ids.push(a),
            [a, b] => {
                self.ids.push(a);
                self.ids.push(b);
            }
            ref ids => self.ids.extend_from_slice(ids),
        }
        if !self.ids_only {
            self.offsets.extend_from_slice(&other.offsets);
            self.words.extend_from_slice(&other.words);
        }
        self.word = other.word;
    }

    /// Appends tokens by id alone; only for a scratch that keeps ids only.
    #[inline]
    pub fn extend_ids(&mut self, ids: impl ExactSizeIterator<Item = u32>) {
        debug_assert!(self.ids_only);
        if self.room(ids.len()) {
            self.ids.extend(ids);
        }
    }

    /// Appends tokens by id alone; only for a scratch that keeps ids only.
    #[inline]
    pub fn extend_ids_from(&mut self, ids: &[u32]) {
        debug_assert!(self.ids_only);
        if !self.room(ids.len()) {
            return;
        }
        match *ids {
            [] => {}
            [a] => self.ids.push(a),
            [a, b] => {
                self.ids.push(a);
                self.ids.push(b);
            }
            _ => self.ids.extend_from_slice(ids),
        }
    }

    /// The next tokens belong to word 0 of `sequence` and have `type_id`.
    pub fn start_sequence(&mut self, sequence: u8, type_id: u8) {
        self.word = Word::new(0, sequence);
        self.pieces.push(Piece { start: self.len(), type_id, special: false });
    }

    /// Appends special tokens added by post-processing: `ids`, with
    /// `type_id`, offsets `(0, 0)`, no word and `special_tokens_mask` 1.
    #[inline(always)]
    pub fn push_special(&mut self, ids: &[u32], type_id: u8) {
        self.pieces.push(Piece { start: self.len(), type_id, special: true });
        // Most often one id (BERT's): pushed, with no call to copy or fill
        // (a one-token `extend` costs a memset call per column).
        for &id in ids {
            if !self.room(1) {
                return;
            }
            self.ids.push(id);
            if !self.ids_only {
                self.offsets.push((0, 0));
                self.words.push(Word::NONE);
            }
        }
    }

    /// The next tokens belong to the next word.
    #[inline]
    pub fn end_word(&mut self) {
        self.word = self.word.next();
    }

    /// The current length and word, to [`rewind`](Self::rewind) to.
    pub fn mark(&self) -> Mark {
        Mark { len: self.len(), word: self.word }
    }

    /// Makes the tokens pushed since `mark` all word `index` of the current
    /// sequence; the next tokens belong to word `index + 1`.
    pub fn make_word_since(&mut self, mark: Mark, index: u32) {
        let word = Word::new(index, self.word.sequence().unwrap_or(0));
        if !self.ids_only {
            self.words[mark.len..].fill(word);
        }
        self.word = word.next();
    }

    /// Drops the tokens pushed since `mark` and goes back to its word.
    pub fn rewind(&mut self, mark: Mark) {
        self.truncate(mark.len);
        self.word = mark.word;
    }

    /// The next tokens belong to the word `n` words on.
    #[inline]
    pub fn skip_words(&mut self, n: u32) {
        self.word = Word(self.word.0 + n);
    }

    /// The number of tokens pushed since `mark`.
    pub fn len_since(&self, mark: Mark) -> usize {
        self.len() - mark.len
    }

    /// Calls `f(id, offsets, step)` for each token pushed since `mark`,
    /// `step` being how many words on from the previous token (or from
    /// `mark`'s word) it is; then gives how many words on from the last one
    /// the next token will be. None, calling nothing, if one of them is
    /// shown otherwise than its id's token.
    pub fn each_since(&self, mark: Mark, mut f: impl FnMut(u32, (u32, u32), u32)) -> Option<u32> {
        debug_assert!(!self.ids_only);
        if self.shown.last().is_some_and(|&(i, _)| i >= mark.len) {
            return None;
        }
        let mut prev = mark.word.0;
        for i in mark.len..self.len() {
            let w = self.words[i].0;
            f(self.ids[self.floor + i], self.offsets[i], w - prev);
            prev = w;
        }
        Some(self.word.0 - prev)
    }

    /// The number of tokens.
    #[inline]
    pub fn len(&self) -> usize {
        self.ids.len() - self.floor
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends a token's id and its character offsets, in the current word.
    #[inline]
    pub fn push(&mut self, id: u32, offsets: (u32, u32)) {
        // The check `Vec::push` makes, made first: growing is fallible.
        if self.ids.len() == self.ids.capacity() && !self.grow(1) {
            return;
        }
        self.ids.push(id);
        if !self.ids_only {
            self.offsets.push(offsets);
            self.words.push(self.word);
        }
    }

    /// Appends a token, in the current word, shown as `text` (see
    /// [`Encoding::shown`]).
    pub fn push_shown(&mut self, id: u32, offsets: (u32, u32), text: &str) {
        self.shown.push((self.len(), text.to_owned()));
        self.push(id, offsets);
    }

    /// Keeps the first `n` tokens.
    pub fn truncate(&mut self, n: usize) {
        self.shown.retain(|&(i, _)| i < n);
        self.ids.truncate(self.floor + n);
        self.offsets.truncate(n);
        self.words.truncate(n);
    }

    pub fn ids(&self) -> &[u32] {
        &self.ids[self.floor..]
    }

    pub fn offsets(&self) -> &[(u32, u32)] {
        &self.offsets
    }

    /// Calls `f(count, type_id, special)` for each run of tokens that share
    /// a type id and `special_tokens_mask`, in order (as
    /// [`to_encoding`](Self::to_encoding) gives them).
    pub fn for_each_run(&self, mut f: impl FnMut(usize, u8, bool)) {
        let n = self.len();
        let first = self.pieces.first().map_or(n, |p| p.start);
        if first > 0 {
            f(first, 0, false);
        }
        for (i, piece) in self.pieces.iter().enumerate() {
            let end = self.pieces.get(i + 1).map_or(n, |next| next.start);
            f(end - piece.start, piece.type_id, piece.special);
        }
    }

    /// The tokens as an encoding of exactly their number: each piece's
    /// tokens (see [`Scratch::start_sequence`], [`Scratch::push_special`])
    /// with its type id (0 before the first piece), `special_tokens_mask` 1
    /// on the special pieces, and attention on every token.
    /// `Error::Memory` if there is no room for it, or if tokens were
    /// dropped for want of room (see [`check`](Self::check)).
    pub fn to_encoding(&self) -> Result<Encoding> {
        debug_assert!(!self.ids_only);
        self.check()?;
        let n = self.len();
        let mut encoding = Encoding::made_from(&self.ids, &self.offsets, &self.words, |c| {
            // Type id 0 and no special token unless a piece says otherwise
            // (a call to fill a few bytes costs more than the bytes).
            for (i, piece) in self.pieces.iter().enumerate() {
                let end = self.pieces.get(i + 1).map_or(n, |next| next.start);
                if piece.type_id != 0 {
                    c.type_ids[piece.start..end].fill(piece.type_id);
                }
                match &mut c.special_tokens_mask[piece.start..end] {
                    _ if !piece.special => {}
                    [one] => *one = 1, // [CLS], [SEP]: no call to fill a byte
                    many => many.fill(1),
                }
            }
        })?;
        for (i, text) in &self.shown {
            encoding.set_shown(*i, text);
        }
        Ok(encoding)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn makes_an_encoding_with_every_column_whole() {
        let mut s = Scratch::default();
        s.push_special(&[7], 2);
        s.start_sequence(0, 0);
        for id in 0..2 {
            s.push(id, (id, id + 1));
            s.end_word();
        }
        s.push_special(&[8, 9], 0);
        s.start_sequence(1, 1);
        s.push(2, (0, 1));
        let e = s.to_encoding().unwrap();
        assert_eq!(e.ids(), [7, 0, 1, 8, 9, 2]);
        assert_eq!(e.offsets(), [(0, 0), (0, 1), (1, 2), (0, 0), (0, 0), (0, 1)]);
        assert_eq!(e.type_ids(), [2, 0, 0, 0, 0, 1]);
        assert_eq!(e.special_tokens_mask(), [1, 0, 0, 1, 1, 0]);
        assert_eq!(e.attention_mask(), [1; 6]);
        let words: Vec<_> = e.words().iter().map(|w| (w.index(), w.sequence())).collect();
        assert_eq!(
            words,
            [(None, None), (Some(0), Some(0)), (Some(1), Some(0)), (None, None), (None, None), (Some(0), Some(1))]
        );
        s.clear();
        for id in 0..6 {
            s.push(id, (id, id + 1));
            if id % 2 == 1 {
                s.end_word();
            }
        }
        s.truncate(5);
        let mark = s.mark();
        s.push(9, (9, 10));
        s.end_word();
        s.rewind(mark);
        s.push(9, (9, 10));
        assert_eq!((s.len(), s.to_encoding().unwrap().words()[5].index()), (6, Some(3)));
        let mark = s.mark();
        s.push(10, (0, 1));
        s.end_word();
        s.push(11, (2, 3));
        s.make_word_since(mark, 7);
        s.push(12, (0, 1));
        let words: Vec<_> = s.to_encoding().unwrap().words()[6..].iter().map(|w| w.index()).collect();
        assert_eq!(words, [Some(7), Some(7), Some(8)]);
        s.clear();
        assert!(s.is_empty() && s.to_encoding().unwrap().is_empty());
    }

    #[test]
    fn tokens_without_room_are_dropped_and_an_error() {
        for ids_only in [false, true] {
            let mut s = Scratch::default();
            s.set_ids_only(ids_only);
            s.push(1, (0, 1));
            assert!(s.check().is_ok() && !s.failed());
            // No allocation can be that large: growing fails, as it does
            // when memory runs out.
            assert!(!s.room(usize::MAX / 2));
            let room = s.ids.capacity();
            for id in 2..100 {
                s.push(id, (0, 1));
            }
            s.push_special(&[7, 8], 0);
            assert_eq!(s.len(), room, "no more tokens than there was room for");
            assert_eq!(s.ids()[..2], [1, 2]);
            assert!(s.ids.capacity() == room && s.offsets.len() <= room && s.words.len() <= room);
            assert!(matches!(s.check(), Err(Error::Memory(_))), "{:?}", s.check());
            // Emptied for the next encoding, it takes tokens again.
            s.set_ids_only(ids_only);
            assert!(s.check().is_ok());
            for id in 0..100 {
                s.push(id, (id, id + 1));
            }
            assert_eq!(s.ids(), (0..100).collect::<Vec<_>>());
        }
        let mut rows = Scratch::default();
        rows.begin_rows(vec![5]);
        assert!(!rows.room(usize::MAX - 1));
        rows.extend_ids_from(&[1, 2, 3]);
        assert!(rows.failed());
        assert_eq!(rows.end_rows(), [5]);
    }

    #[test]
    fn rows_follow_each_other_in_the_given_vector() {
        let mut s = Scratch::default();
        s.push(1, (0, 1));
        s.begin_rows(vec![7, 8]);
        assert!(s.ids_only() && s.is_empty());
        let mut lengths = vec![];
        for row in [&[1, 2, 3][..], &[], &[4]] {
            s.clear();
            s.push_special(&[9], 0);
            let mark = s.mark();
            for &id in row {
                s.push(id, (0, 0));
                s.end_word();
            }
            s.push(5, (0, 0));
            s.rewind(mark);
            s.extend_ids_from(row);
            assert_eq!(s.ids().len(), s.len());
            assert_eq!(s.ids()[1..], *row);
            lengths.push(s.next_row());
        }
        assert_eq!(lengths, [4, 1, 2]);
        assert_eq!(s.end_rows(), [7, 8, 9, 1, 2, 3, 9, 9, 4]);
        assert!(s.is_empty());
        // Back to every column, from an empty scratch.
        s.set_ids_only(false);
        s.push(3, (1, 2));
        assert_eq!(s.to_encoding().unwrap().ids(), [3]);
    }
}
