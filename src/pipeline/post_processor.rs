//! Stage 4: post-processing, BERT's `[CLS] A [SEP]` and `[CLS] A [SEP] B [SEP]`.

use crate::encoding::scratch::Scratch;
use crate::encoding::Encoding;
use crate::error::{Error, Result};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BertPostProcessor {
    pub cls_id: u32,
    pub sep_id: u32,
}

impl BertPostProcessor {
    /// Joins the sequences, with the special tokens when `processor` is given.
    /// Type ids: 0 for the first sequence, 1 for the second.
    pub fn process(processor: Option<Self>, a: &Encoding, b: Option<&Encoding>) -> Encoding {
        let extra = if processor.is_some() { 3 } else { 0 };
        let mut out = Encoding::with_capacity(a.len() + b.map_or(0, Encoding::len) + extra);
        if let Some(p) = processor {
            out.push(p.cls_id, (0, 0), 0, true);
        }
        out.extend_with_type(a, 0, 0);
        if let Some(p) = processor {
            out.push(p.sep_id, (0, 0), 0, true);
        }
        if let Some(b) = b {
            out.extend_with_type(b, 1, 1);
            if let Some(p) = processor {
                out.push(p.sep_id, (0, 0), 1, true);
            }
        }
        out.set_pair(b.is_some());
        out
    }

    /// [`process`](Self::process) without intermediate encodings: `sequence(out, k)`
    /// appends the ids and offsets of sequence `k` (0, then 1 if `pair`) to
    /// `scratch` (cleared first, reused across calls so that it grows once),
    /// calling [`Scratch::end_word`] after each word;
    /// the result is copied out at its exact size, with the masks made whole.
    pub fn assemble(
        processor: Option<Self>,
        pair: bool,
        scratch: &mut Scratch,
        mut sequence: impl FnMut(&mut Scratch, usize),
    ) -> Encoding {
        let out = scratch;
        out.clear();
        let mut specials = [usize::MAX; 3];
        if let Some(p) = processor {
            specials[0] = out.len();
            out.push(p.cls_id, (0, 0));
        }
        out.start_sequence(0);
        sequence(out, 0);
        if let Some(p) = processor {
            specials[1] = out.len();
            out.push(p.sep_id, (0, 0));
        }
        let second = out.len();
        if pair {
            out.start_sequence(1);
            sequence(out, 1);
            if let Some(p) = processor {
                specials[2] = out.len();
                out.push(p.sep_id, (0, 0));
            }
        }
        let mut encoding = out.to_encoding(second, &specials);
        encoding.set_pair(pair);
        encoding
    }

    /// [`process`](Self::process) for sequences that truncation may have cut
    /// into windows, as Hugging Face's `BertProcessing` does it: every window
    /// of `a` becomes `[CLS] window [SEP]`, every window of `b` becomes
    /// `window [SEP]` (type id 1), and the two are joined by [`merge`].
    pub fn process_windows(processor: Option<Self>, mut a: Encoding, b: Option<Encoding>) -> Result<Encoding> {
        let a_windows = a.take_overflowing();
        let mut first = Self::process(processor, &a, None);
        first.set_overflowing(try_map(&a_windows, |w| Ok(Self::process(processor, w, None)))?);
        let Some(mut b) = b else { return Ok(first) };
        let b_windows = b.take_overflowing();
        let mut second = Self::second(processor, &b);
        second.set_overflowing(try_map(&b_windows, |w| Ok(Self::second(processor, w)))?);
        // A pair of windowed texts gives about `windows(a) * windows(b)`
        // encodings: their count and size are checked before any is made.
        let encodings = (first.overflowing().len() as u128 + 1) * (second.overflowing().len() as u128 + 1);
        Encoding::check_room(2 * encodings * (first.len() + second.len()) as u128).map_err(|_| {
            Error::memory(format_args!("{encodings} windows of a pair of texts (max_length and stride)"))
        })?;
        merge(&first, &second)
    }

    /// The second sequence's part of a pair: `b [SEP]`, all type id 1.
    fn second(processor: Option<Self>, b: &Encoding) -> Encoding {
        let mut out = Encoding::with_capacity(b.len() + 1);
        out.extend_with_type(b, 1, 1);
        if let Some(p) = processor {
            out.push(p.sep_id, (0, 0), 1, true);
        }
        out.set_pair(true);
        out
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
/// `yo` of `y` gives `merge(x, yo)`. So windows of a pair nest one level deep,
/// and some combinations appear twice, exactly as in Hugging Face. Their
/// number comes from arguments (max_length, stride): memory for them is
/// reserved fallibly (`Error::Memory`).
pub fn merge(x: &Encoding, y: &Encoding) -> Result<Encoding> {
    let mut overflowing = Vec::new();
    let count = x.overflowing().len() * (y.overflowing().len() + 1) + y.overflowing().len();
    overflowing
        .try_reserve_exact(count)
        .map_err(|_| Error::memory(format_args!("{count} windows of a pair of texts (max_length and stride)")))?;
    for xo in x.overflowing() {
        overflowing.push(merge(xo, y)?);
        for yo in y.overflowing() {
            overflowing.push(merge(xo, yo)?);
        }
    }
    for yo in y.overflowing() {
        overflowing.push(merge(x, yo)?);
    }
    let mut out = Encoding::try_with_capacity(x.len() + y.len())?;
    out.append(x);
    out.append(y);
    out.set_pair(true);
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

    #[test]
    fn pairs_get_cls_and_two_seps_with_type_ids() {
        let p = BertPostProcessor { cls_id: 2, sep_id: 3 };
        let out = BertPostProcessor::process(Some(p), &seq(&[7, 8]), Some(&seq(&[9])));
        assert_eq!(out.ids(), [2, 7, 8, 3, 9, 3]);
        assert_eq!(out.type_ids(), [0, 0, 0, 0, 1, 1]);
        assert_eq!(out.special_tokens_mask(), [1, 0, 0, 1, 0, 1]);
        assert_eq!(out.offsets(), [(0, 0), (0, 1), (1, 2), (0, 0), (0, 1), (0, 0)]);
        assert_eq!(out.attention_mask(), [1; 6]);
    }

    #[test]
    fn windows_of_a_pair_combine_like_hugging_face() {
        let p = BertPostProcessor { cls_id: 2, sep_id: 3 };
        let mut a = seq(&[10]);
        a.set_overflowing(vec![seq(&[11])]);
        let mut b = seq(&[20]);
        b.set_overflowing(vec![seq(&[21])]);
        let out = BertPostProcessor::process_windows(Some(p), a, Some(b)).unwrap();
        let ids = |e: &Encoding| e.ids().to_vec();
        assert_eq!(out.ids(), [2, 10, 3, 20, 3]);
        assert_eq!(out.type_ids(), [0, 0, 0, 1, 1]);
        let top: Vec<_> = out.overflowing().iter().map(ids).collect();
        assert_eq!(top, [vec![2, 11, 3, 20, 3], vec![2, 11, 3, 21, 3], vec![2, 10, 3, 21, 3]]);
        let nested: Vec<Vec<_>> = out.overflowing().iter().map(|o| o.overflowing().iter().map(ids).collect()).collect();
        assert_eq!(nested, [vec![vec![2, 11, 3, 21, 3]], vec![], vec![vec![2, 11, 3, 21, 3]]]);
    }

    #[test]
    fn assemble_equals_process() {
        let p = BertPostProcessor { cls_id: 2, sep_id: 3 };
        let (a, b) = (seq(&[7, 8]), seq(&[9]));
        let fill = |out: &mut Scratch, k: usize| {
            for (&id, &o) in [&a, &b][k].ids().iter().zip([&a, &b][k].offsets()) {
                out.push(id, o);
                out.end_word();
            }
        };
        for processor in [Some(p), None] {
            assert_eq!(
                BertPostProcessor::assemble(processor, true, &mut Scratch::default(), fill),
                BertPostProcessor::process(processor, &a, Some(&b))
            );
            assert_eq!(
                BertPostProcessor::assemble(processor, false, &mut Scratch::default(), fill),
                BertPostProcessor::process(processor, &a, None)
            );
        }
    }

    #[test]
    fn without_special_tokens_only_type_ids_change() {
        let out = BertPostProcessor::process(None, &seq(&[7]), Some(&seq(&[9])));
        assert_eq!(out.ids(), [7, 9]);
        assert_eq!(out.type_ids(), [0, 1]);
    }
}
