//! Stage 4: post-processing, Hugging Face's `TemplateProcessing`: special
//! tokens around the sequences, each piece with its type id. BERT's
//! `[CLS] $A:0 [SEP]:0` and `[CLS] $A:0 [SEP]:0 $B:1 [SEP]:1` is one template,
//! plain `$A:0` and `$A:0 $B:1` (no post-processor) another.

use crate::encoding::scratch::Scratch;
use crate::encoding::Encoding;
use crate::error::{Error, Result};

/// One piece of a template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// The tokens of sequence 0 (`$A`) or 1 (`$B`), given `type_id`.
    Sequence { sequence: u8, type_id: u8 },
    /// Special tokens (ids), given `type_id`; left out without
    /// `add_special_tokens`.
    Special { ids: Vec<u32>, type_id: u8 },
}

/// The templates of one text and of a pair: the single one holds sequence 0
/// once, the pair one sequences 0 and 1 once each (checked by [`Self::new`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PostProcessor {
    single: Vec<Piece>,
    pair: Vec<Piece>,
    added_single: usize,
    added_pair: usize,
}

impl PostProcessor {
    /// The template of `single` and `pair` pieces; an error naming the
    /// template (`"single"` or `"pair"`) whose sequences are not once each.
    pub fn new(single: Vec<Piece>, pair: Vec<Piece>) -> std::result::Result<Self, (&'static str, String)> {
        let count = |pieces: &[Piece], k: u8| {
            pieces.iter().filter(|p| matches!(p, Piece::Sequence { sequence, .. } if *sequence == k)).count()
        };
        if count(&single, 0) != 1 || count(&single, 1) != 0 {
            return Err(("single", "must hold $A once and no $B".into()));
        }
        if count(&pair, 0) != 1 || count(&pair, 1) != 1 {
            return Err(("pair", "must hold $A once and $B once".into()));
        }
        let added = |pieces: &[Piece]| {
            pieces.iter().map(|p| if let Piece::Special { ids, .. } = p { ids.len() } else { 0 }).sum()
        };
        Ok(Self { added_single: added(&single), added_pair: added(&pair), single, pair })
    }

    /// BERT's template.
    pub fn bert(cls_id: u32, sep_id: u32) -> Self {
        let special = |id, type_id| Piece::Special { ids: vec![id], type_id };
        let seq = |sequence, type_id| Piece::Sequence { sequence, type_id };
        Self::new(
            vec![special(cls_id, 0), seq(0, 0), special(sep_id, 0)],
            vec![special(cls_id, 0), seq(0, 0), special(sep_id, 0), seq(1, 1), special(sep_id, 1)],
        )
        .expect("BERT's template is valid")
    }

    /// No special tokens: `$A:0` and `$A:0 $B:1`.
    pub fn plain() -> Self {
        let seq = |sequence, type_id| Piece::Sequence { sequence, type_id };
        Self::new(vec![seq(0, 0)], vec![seq(0, 0), seq(1, 1)]).expect("the plain template is valid")
    }

    /// The number of special tokens the template adds to one text or a pair
    /// (Hugging Face's `num_special_tokens_to_add`).
    pub fn added(&self, pair: bool) -> usize {
        if pair {
            self.added_pair
        } else {
            self.added_single
        }
    }

    fn pieces(&self, pair: bool) -> &[Piece] {
        if pair {
            &self.pair
        } else {
            &self.single
        }
    }

    /// The encoding of one text or a pair without intermediate encodings:
    /// `sequence(out, k)` appends the ids and offsets of sequence `k` to
    /// `scratch` (cleared first, reused across calls so that it grows once),
    /// calling [`Scratch::end_word`] after each word; the special tokens go
    /// between them when `specials` is true. The result is copied out at its
    /// exact size, with the masks made whole; `Error::Memory` when there is no
    /// room for the tokens.
    pub fn assemble(
        &self,
        specials: bool,
        pair: bool,
        scratch: &mut Scratch,
        sequence: impl FnMut(&mut Scratch, usize),
    ) -> Result<Encoding> {
        self.fill(specials, pair, scratch, sequence);
        let mut encoding = scratch.to_encoding()?;
        encoding.set_pair(pair);
        Ok(encoding)
    }

    /// [`assemble`](Self::assemble) without the copy: the tokens are left
    /// in `scratch` (for a caller that copies them elsewhere itself).
    pub fn fill(
        &self,
        specials: bool,
        pair: bool,
        scratch: &mut Scratch,
        mut sequence: impl FnMut(&mut Scratch, usize),
    ) {
        let out = scratch;
        out.clear();
        for piece in self.pieces(pair) {
            match *piece {
                Piece::Sequence { sequence: k, type_id } => {
                    out.start_sequence(k, type_id);
                    sequence(out, usize::from(k));
                }
                Piece::Special { ref ids, type_id } if specials => out.push_special(ids, type_id),
                Piece::Special { .. } => {}
            }
        }
    }

    /// [`assemble`](Self::assemble) for sequences that truncation may have
    /// cut into windows, as Hugging Face does it: the template's pieces are
    /// joined left to right by [`merge`], a sequence's windows being its
    /// overflowing encodings. In a window, the tokens of a sequence keep type
    /// id 0 (first) or 1 (second) whatever the template gives them (only the
    /// kept window gets the template's), as in Hugging Face.
    pub fn process_windows(&self, specials: bool, mut a: Encoding, b: Option<Encoding>) -> Result<Encoding> {
        let pair = b.is_some();
        let a_windows = a.take_overflowing();
        let (b, b_windows) = match b {
            Some(mut b) => {
                let windows = b.take_overflowing();
                (Some(b), windows)
            }
            None => (None, Vec::new()),
        };
        // A pair of windowed texts gives about `windows(a) * windows(b)`
        // encodings: their count and size are checked before any is made.
        let encodings = (a_windows.len() as u128 + 1) * (b_windows.len() as u128 + 1);
        let tokens = (a.len() + b.as_ref().map_or(0, Encoding::len) + self.added(pair)) as u128;
        Encoding::check_room(2 * encodings * tokens).map_err(|_| {
            Error::memory(format_args!("{encodings} windows of a pair of texts (max_length and stride)"))
        })?;
        let windows = [a_windows, b_windows];
        let mut out: Option<Encoding> = None;
        for piece in self.pieces(pair) {
            let part = match *piece {
                Piece::Sequence { sequence: k, type_id } => {
                    let s = if k == 0 { &a } else { b.as_ref().expect("a pair template is used for a pair") };
                    let mut part = Encoding::try_with_capacity(s.len())?;
                    part.extend_with_type(s, type_id, k);
                    let overflowing = try_map(&windows[usize::from(k)], |w| {
                        let mut window = Encoding::try_with_capacity(w.len())?;
                        window.extend_with_type(w, k, k);
                        Ok(window)
                    })?;
                    part.set_overflowing(overflowing);
                    part
                }
                Piece::Special { ref ids, type_id } if specials => {
                    let mut part = Encoding::with_capacity(ids.len());
                    for &id in ids {
                        part.push(id, (0, 0), type_id, true);
                    }
                    part
                }
                Piece::Special { .. } => continue,
            };
            out = Some(match out {
                None => part,
                Some(x) => merge(&x, &part, pair)?,
            });
        }
        let mut out = out.unwrap_or_default();
        out.set_pair(pair);
        Ok(out)
    }
}

/// `f` of each item, in a vector whose room is reserved fallibly.
fn try_map<T, U>(items: &[T], f: impl FnMut(&T) -> Result<U>) -> Result<Vec<U>> {
    let mut out = Vec::new();
    out.try_reserve_exact(items.len())
        .map_err(|_| Error::memory(format_args!("{} windows (max_length and stride)", items.len())))?;
    for item in items.iter().map(f) {
        out.push(item?);
    }
    Ok(out)
}

/// `x` followed by `y`, with Hugging Face's overflowing (`Encoding::merge_with`):
/// each overflowing window `xo` of `x` gives `merge(xo, y)` and then `xo`
/// followed by each overflowing window of `y`; then each overflowing window
/// `yo` of `y` gives `merge(x, yo)`. So windows nest, and some combinations
/// appear twice, exactly as in Hugging Face. Their number comes from
/// arguments (max_length, stride): memory for them is reserved fallibly
/// (`Error::Memory`). Every encoding made is marked `pair` or not.
pub fn merge(x: &Encoding, y: &Encoding, pair: bool) -> Result<Encoding> {
    let mut overflowing = Vec::new();
    let count = x.overflowing().len() * (y.overflowing().len() + 1) + y.overflowing().len();
    overflowing
        .try_reserve_exact(count)
        .map_err(|_| Error::memory(format_args!("{count} windows of a pair of texts (max_length and stride)")))?;
    for xo in x.overflowing() {
        overflowing.push(merge(xo, y, pair)?);
        for yo in y.overflowing() {
            overflowing.push(merge(xo, yo, pair)?);
        }
    }
    for yo in y.overflowing() {
        overflowing.push(merge(x, yo, pair)?);
    }
    let mut out = Encoding::try_with_capacity(x.len() + y.len())?;
    out.append(x);
    out.append(y);
    out.set_pair(pair);
    out.set_overflowing(overflowing);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::Word;

    fn seq(ids: &[u32]) -> Encoding {
        let mut e = Encoding::default();
        for (i, &id) in ids.iter().enumerate() {
            e.push_word(id, (i as u32, i as u32 + 1), 0, false, Word::new(i as u32, 0));
        }
        e
    }

    fn fill<'a>(a: &'a Encoding, b: &'a Encoding) -> impl FnMut(&mut Scratch, usize) + 'a {
        move |out: &mut Scratch, k: usize| {
            for (&id, &o) in [a, b][k].ids().iter().zip([a, b][k].offsets()) {
                out.push(id, o);
                out.end_word();
            }
        }
    }

    #[test]
    fn pairs_get_cls_and_two_seps_with_type_ids() {
        let p = PostProcessor::bert(2, 3);
        let (a, b) = (seq(&[7, 8]), seq(&[9]));
        let out = p.assemble(true, true, &mut Scratch::default(), fill(&a, &b)).unwrap();
        assert_eq!(out.ids(), [2, 7, 8, 3, 9, 3]);
        assert_eq!(out.type_ids(), [0, 0, 0, 0, 1, 1]);
        assert_eq!(out.special_tokens_mask(), [1, 0, 0, 1, 0, 1]);
        assert_eq!(out.offsets(), [(0, 0), (0, 1), (1, 2), (0, 0), (0, 1), (0, 0)]);
        assert_eq!(out.attention_mask(), [1; 6]);
        assert_eq!(p.added(false), 2);
        assert_eq!(p.added(true), 3);
    }

    #[test]
    fn any_template_with_its_type_ids() {
        // <s> $A:1 </s> and $B:0 <s> </s>:2 $A:1 </s> </s> with a two-token special.
        let special = |ids: &[u32], type_id| Piece::Special { ids: ids.to_vec(), type_id };
        let s = |sequence, type_id| Piece::Sequence { sequence, type_id };
        let p = PostProcessor::new(
            vec![special(&[4], 0), s(0, 1), special(&[5], 0)],
            vec![s(1, 0), special(&[4, 5], 2), s(0, 1), special(&[5], 0), special(&[5], 0)],
        )
        .unwrap();
        assert_eq!((p.added(false), p.added(true)), (2, 4));
        let (a, b) = (seq(&[7, 8]), seq(&[9]));
        let out = p.assemble(true, true, &mut Scratch::default(), fill(&a, &b)).unwrap();
        assert_eq!(out.ids(), [9, 4, 5, 7, 8, 5, 5]);
        assert_eq!(out.type_ids(), [0, 2, 2, 1, 1, 0, 0]);
        assert_eq!(out.special_tokens_mask(), [0, 1, 1, 0, 0, 1, 1]);
        let words: Vec<_> = out.words().iter().map(|w| w.sequence()).collect();
        assert_eq!(words, [Some(1), None, None, Some(0), Some(0), None, None]);
        // Without special tokens, the sequences keep the template's type ids.
        let out = p.assemble(false, true, &mut Scratch::default(), fill(&a, &b)).unwrap();
        assert_eq!((out.ids(), out.type_ids()), (&[9, 7, 8][..], &[0, 1, 1][..]));
        let windowed = p.process_windows(true, a.clone(), Some(b.clone())).unwrap();
        assert_eq!(windowed, p.assemble(true, true, &mut Scratch::default(), fill(&a, &b)).unwrap());
    }

    #[test]
    fn templates_hold_each_sequence_once() {
        let s = |sequence| Piece::Sequence { sequence, type_id: 0 };
        assert_eq!(PostProcessor::new(vec![s(0), s(0)], vec![s(0), s(1)]).unwrap_err().0, "single");
        assert_eq!(PostProcessor::new(vec![s(1)], vec![s(0), s(1)]).unwrap_err().0, "single");
        assert_eq!(PostProcessor::new(vec![s(0)], vec![s(0)]).unwrap_err().0, "pair");
    }

    #[test]
    fn windows_of_a_pair_combine_like_hugging_face() {
        let p = PostProcessor::bert(2, 3);
        let mut a = seq(&[10]);
        a.set_overflowing(vec![seq(&[11])]);
        let mut b = seq(&[20]);
        b.set_overflowing(vec![seq(&[21])]);
        let out = p.process_windows(true, a, Some(b)).unwrap();
        let ids = |e: &Encoding| e.ids().to_vec();
        assert_eq!(out.ids(), [2, 10, 3, 20, 3]);
        assert_eq!(out.type_ids(), [0, 0, 0, 1, 1]);
        let top: Vec<_> = out.overflowing().iter().map(ids).collect();
        assert_eq!(top, [vec![2, 11, 3, 20, 3], vec![2, 11, 3, 21, 3], vec![2, 10, 3, 21, 3]]);
        let nested: Vec<Vec<_>> = out.overflowing().iter().map(|o| o.overflowing().iter().map(ids).collect()).collect();
        assert_eq!(nested, [vec![vec![2, 11, 3, 21, 3]], vec![], vec![vec![2, 11, 3, 21, 3]]]);
    }

    #[test]
    fn windows_keep_the_type_id_of_their_sequence() {
        let s = |sequence, type_id| Piece::Sequence { sequence, type_id };
        let p = PostProcessor::new(vec![s(0, 1), Piece::Special { ids: vec![5], type_id: 2 }], vec![s(0, 1), s(1, 0)])
            .unwrap();
        let mut a = seq(&[10]);
        a.set_overflowing(vec![seq(&[11])]);
        let out = p.process_windows(true, a, None).unwrap();
        assert_eq!((out.ids(), out.type_ids()), (&[10, 5][..], &[1, 2][..]));
        let window = &out.overflowing()[0];
        assert_eq!((window.ids(), window.type_ids(), window.n_sequences()), (&[11, 5][..], &[0, 2][..], 1));
    }

    #[test]
    fn assemble_equals_process_windows() {
        let (a, b) = (seq(&[7, 8]), seq(&[9]));
        for processor in [PostProcessor::bert(2, 3), PostProcessor::plain()] {
            for specials in [true, false] {
                assert_eq!(
                    processor.assemble(specials, true, &mut Scratch::default(), fill(&a, &b)).unwrap(),
                    processor.process_windows(specials, a.clone(), Some(b.clone())).unwrap()
                );
                assert_eq!(
                    processor.assemble(specials, false, &mut Scratch::default(), fill(&a, &b)).unwrap(),
                    processor.process_windows(specials, a.clone(), None).unwrap()
                );
            }
        }
    }

    #[test]
    fn without_special_tokens_only_type_ids_change() {
        let (a, b) = (seq(&[7]), seq(&[9]));
        let out = PostProcessor::bert(2, 3).assemble(false, true, &mut Scratch::default(), fill(&a, &b)).unwrap();
        assert_eq!(out.ids(), [7, 9]);
        assert_eq!(out.type_ids(), [0, 1]);
    }
}
