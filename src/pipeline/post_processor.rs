//! Stage 4: post-processing, BERT's `[CLS] A [SEP]` and `[CLS] A [SEP] B [SEP]`.

use crate::tokenizer::encoding::Encoding;

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
        out.extend_with_type(a, 0);
        if let Some(p) = processor {
            out.push(p.sep_id, (0, 0), 0, true);
        }
        if let Some(b) = b {
            out.extend_with_type(b, 1);
            if let Some(p) = processor {
                out.push(p.sep_id, (0, 0), 1, true);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seq(ids: &[u32]) -> Encoding {
        let mut e = Encoding::default();
        for (i, &id) in ids.iter().enumerate() {
            e.push(id, (i as u32, i as u32 + 1), 0, false);
        }
        e
    }

    #[test]
    fn pairs_get_cls_and_two_seps_with_type_ids() {
        let p = BertPostProcessor { cls_id: 2, sep_id: 3 };
        let out = BertPostProcessor::process(Some(p), &seq(&[7, 8]), Some(&seq(&[9])));
        assert_eq!(out.ids, [2, 7, 8, 3, 9, 3]);
        assert_eq!(out.type_ids, [0, 0, 0, 0, 1, 1]);
        assert_eq!(out.special_tokens_mask, [1, 0, 0, 1, 0, 1]);
        assert_eq!(out.offsets, [(0, 0), (0, 1), (1, 2), (0, 0), (0, 1), (0, 0)]);
        assert_eq!(out.attention_mask, [1; 6]);
    }

    #[test]
    fn without_special_tokens_only_type_ids_change() {
        let out = BertPostProcessor::process(None, &seq(&[7]), Some(&seq(&[9])));
        assert_eq!(out.ids, [7, 9]);
        assert_eq!(out.type_ids, [0, 1]);
    }
}
