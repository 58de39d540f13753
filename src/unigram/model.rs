//! The Unigram model: pieces with their log-probabilities (scores), a byte
//! trie over them, and the Viterbi segmentation of one word (docs/spec.md,
//! "Unigram"). The rules are Hugging Face's `Unigram::encode_optimized`:
//!
//! * positions are visited left to right, character by character; from each,
//!   every piece the text starts with is tried, shortest first, and a piece
//!   ending at `e` replaces the best path ending there only if its total score
//!   `score + best(start)` is strictly greater (the first one tried wins ties);
//! * a character that no one-character piece covers gets an unknown node of
//!   score `min_score - 10`;
//! * consecutive unknown tokens are fused into one.

use super::trie::PieceTrie;
use crate::error::{Error, Quoted, Result};

/// What an unknown character costs below the lowest score (SentencePiece's
/// `kUnkPenalty`).
pub const UNK_PENALTY: f64 = 10.0;

/// The pieces, their scores and the trie to find them.
#[derive(Clone, Debug)]
pub struct Model {
    pieces: Vec<(String, f64)>,
    /// How many of the pieces (the first) the lattice finds in text; the
    /// rest are a file's added tokens past the model's vocabulary, which
    /// Hugging Face's model does not have.
    matched: usize,
    trie: PieceTrie,
    unk_id: u32,
    min_score: f64,
    /// Whether a piece is listed more than once (a loaded file's).
    twice: bool,
}

/// One token of a segmentation: its id and its byte range in the word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub id: u32,
    pub start: usize,
    pub end: usize,
}

/// The best path ending at one byte position.
#[derive(Clone, Copy, Debug)]
struct Best {
    score: f64,
    /// Where its last token starts, or `usize::MAX` when no path ends here.
    start: usize,
    id: u32,
}

const NO_PATH: Best = Best { score: 0.0, start: usize::MAX, id: 0 };

impl Model {
    /// A model of `pieces` (distinct, non-empty, finite scores) whose unknown
    /// token is piece `unk_id`.
    pub fn new(pieces: Vec<(String, f64)>, unk_id: u32) -> Result<Self> {
        let matched = pieces.len();
        Self::build(pieces, unk_id, matched, false)
    }

    /// [`Model::new`] whose pieces from `matched` on are never found in
    /// text: added tokens past the model's vocabulary (split out of the
    /// text as special tokens, and unknown to the model). A piece listed
    /// twice among the first `matched` is found as its last entry (a
    /// tokenizer.json's vocabulary, read as Hugging Face reads it).
    pub fn with_added(pieces: Vec<(String, f64)>, unk_id: u32, matched: usize) -> Result<Self> {
        Self::build(pieces, unk_id, matched, true)
    }

    fn build(pieces: Vec<(String, f64)>, unk_id: u32, matched: usize, last_wins: bool) -> Result<Self> {
        if pieces.len() >= u32::MAX as usize {
            return Err(Error::invalid("too many pieces"));
        }
        if unk_id as usize >= pieces.len() {
            return Err(Error::invalid(format!(
                "unk_id {unk_id} is not below the number of pieces ({})",
                pieces.len()
            )));
        }
        let mut min_score = f64::INFINITY;
        for (i, (piece, score)) in pieces.iter().enumerate() {
            if piece.is_empty() {
                return Err(Error::invalid(format!("piece {i} is empty")));
            }
            if !score.is_finite() {
                return Err(Error::invalid(format!(
                    "the score of piece {i} ({}) is not finite: {score}",
                    Quoted(piece)
                )));
            }
            min_score = min_score.min(*score);
        }
        let matched = matched.min(pieces.len());
        let own: Vec<&str> = pieces[..matched].iter().map(|(p, _)| p.as_str()).collect();
        let (trie, twice) = if last_wins {
            PieceTrie::last_wins(&own)
        } else {
            let trie = PieceTrie::new(&own)
                .map_err(|i| Error::invalid(format!("piece {} appears twice", Quoted(&pieces[i].0))))?;
            (trie, false)
        };
        drop(own);
        Ok(Model { pieces, matched, trie, unk_id, min_score, twice })
    }

    /// The pieces of the model's own vocabulary (the first ones), as a
    /// tokenizer.json's `model.vocab` lists them; the others are added tokens.
    pub fn vocab_len(&self) -> usize {
        self.matched
    }

    pub fn pieces(&self) -> &[(String, f64)] {
        &self.pieces
    }

    /// The piece of `id`, None past the last one.
    pub fn piece(&self, id: u32) -> Option<&str> {
        self.pieces.get(id as usize).map(|(p, _)| p.as_str())
    }

    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    pub fn unk_id(&self) -> u32 {
        self.unk_id
    }

    /// Whether a piece is listed more than once (then found as its last entry).
    pub fn has_duplicates(&self) -> bool {
        self.twice
    }

    /// The id of `piece`, added tokens past the model's vocabulary included.
    pub fn id(&self, piece: &str) -> Option<u32> {
        self.trie.get(piece.as_bytes()).or_else(|| {
            let added = self.pieces[self.matched..].iter().position(|(p, _)| p == piece)?;
            Some((self.matched + added) as u32)
        })
    }

    pub fn score(&self, id: u32) -> f64 {
        self.pieces[id as usize].1
    }

    pub fn unk_score(&self) -> f64 {
        self.min_score - UNK_PENALTY
    }

    /// Calls `f(id, end, score)` for every lattice node starting at byte
    /// `start` of `word`, in the order the rules try them: the pieces found
    /// there, shortest first, then the unknown node if no piece is one
    /// character long. `start` is on a character boundary.
    #[inline]
    pub fn for_each_node(&self, word: &str, start: usize, mut f: impl FnMut(u32, usize, f64)) {
        let bytes = word.as_bytes();
        let char_len = utf8_len(bytes[start]);
        let mut single = false;
        self.trie.for_each_prefix(&bytes[start..], |id, len| {
            single |= len == char_len;
            f(id, start + len, self.pieces[id as usize].1);
        });
        if !single {
            f(self.unk_id, start + char_len, self.unk_score());
        }
    }

    /// The Viterbi segmentation of `word`, appended to `out`; `best` is
    /// scratch space.
    pub fn viterbi(&self, word: &str, best: &mut Vec<BestPath>, out: &mut Vec<Piece>) {
        let n = word.len();
        if n == 0 {
            return;
        }
        best.clear();
        best.resize(n + 1, BestPath(NO_PATH));
        best[0] = BestPath(Best { score: 0.0, start: 0, id: 0 });
        let bytes = word.as_bytes();
        let mut start = 0;
        while start < n {
            let here = best[start].0.score;
            self.for_each_node(word, start, |id, end, score| {
                let candidate = score + here;
                let target = &mut best[end].0;
                if target.start == usize::MAX || candidate > target.score {
                    *target = Best { score: candidate, start, id };
                }
            });
            start += utf8_len(bytes[start]);
        }
        let first = out.len();
        let mut end = n;
        while end > 0 {
            let node = best[end].0;
            out.push(Piece { id: node.id, start: node.start, end });
            end = node.start;
        }
        out[first..].reverse();
        self.fuse_unknown(word, out, first);
    }

    /// Fuses each run of unknown tokens in `out[first..]` into one; a fused
    /// run whose text is itself a piece becomes that piece (Hugging Face looks
    /// the fused string up).
    pub fn fuse_unknown(&self, word: &str, out: &mut Vec<Piece>, first: usize) {
        let unk = self.unk_id;
        if !out[first..].iter().any(|p| p.id == unk) {
            return;
        }
        let mut w = first;
        for r in first..out.len() {
            let p = out[r];
            if p.id == unk && w > first && out[w - 1].id == unk {
                out[w - 1].end = p.end;
            } else {
                out[w] = p;
                w += 1;
            }
        }
        out.truncate(w);
        // A piece of the model's own vocabulary only: an added token past it
        // is not the model's (Hugging Face's model does not know it).
        for p in &mut out[first..] {
            if p.id == unk {
                if let Some(id) = self.trie.get(&word.as_bytes()[p.start..p.end]) {
                    p.id = id;
                }
            }
        }
    }
}

/// Scratch space for [`Model::viterbi`].
#[derive(Clone, Copy, Debug)]
pub struct BestPath(Best);

/// The byte length of the UTF-8 character that starts with `lead`.
#[inline]
pub fn utf8_len(lead: u8) -> usize {
    match lead {
        0..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(pieces: &[(&str, f64)]) -> Model {
        Model::new(pieces.iter().map(|&(p, s)| (p.to_string(), s)).collect(), 0).unwrap()
    }

    fn segment(m: &Model, word: &str) -> Vec<String> {
        let mut out = Vec::new();
        m.viterbi(word, &mut Vec::new(), &mut out);
        out.iter().map(|p| word[p.start..p.end].to_string()).collect()
    }

    #[test]
    fn picks_the_most_likely_segmentation() {
        let m = model(&[("<unk>", 0.0), ("a", -1.0), ("b", -1.0), ("ab", -1.5), ("abc", -5.0), ("c", -2.0)]);
        assert_eq!(segment(&m, "abc"), ["ab", "c"]);
        assert_eq!(segment(&m, "ab"), ["ab"]);
    }

    #[test]
    fn ties_go_to_the_first_piece_tried() {
        // "ab" and "a"+"b" both score -2: the path through "ab" (start 0) is tried first.
        let m = model(&[("<unk>", 0.0), ("a", -1.0), ("b", -1.0), ("ab", -2.0)]);
        assert_eq!(segment(&m, "ab"), ["ab"]);
    }

    #[test]
    fn unknown_characters_are_fused() {
        let m = model(&[("<unk>", 0.0), ("a", -1.0)]);
        let mut out = Vec::new();
        m.viterbi("axé€a", &mut Vec::new(), &mut out);
        let ids: Vec<u32> = out.iter().map(|p| p.id).collect();
        assert_eq!(ids, [1, 0, 1]);
        assert_eq!((out[1].start, out[1].end), (1, 7));
    }

    #[test]
    fn rejects_bad_pieces() {
        assert!(Model::new(vec![("a".into(), 0.0), ("a".into(), -1.0)], 0).is_err());
        assert!(Model::new(vec![("".into(), 0.0)], 0).is_err());
        assert!(Model::new(vec![("a".into(), f64::NAN)], 0).is_err());
        assert!(Model::new(vec![("a".into(), 0.0)], 1).is_err());
    }
}
