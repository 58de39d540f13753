//! The result of encoding one text (or one pair of texts).

/// Token ids with their character offsets into the original text, and the
/// masks a BERT model takes. Token strings are looked up from the vocabulary
/// on demand, so encoding allocates no string per token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Encoding {
    pub ids: Vec<u32>,
    /// `(start, end)` character offsets into the original string; `(0, 0)`
    /// for the `[CLS]`/`[SEP]` tokens added by post-processing.
    pub offsets: Vec<(u32, u32)>,
    /// 0 for the first sequence, 1 for the second.
    pub type_ids: Vec<u8>,
    /// 1 for the tokens added by post-processing.
    pub special_tokens_mask: Vec<u8>,
    pub attention_mask: Vec<u8>,
    /// The windows that truncation cut off, each a complete encoding (post-
    /// processed and padded like this one); empty unless truncated.
    pub overflowing: Vec<Encoding>,
}

impl Encoding {
    pub fn with_capacity(n: usize) -> Self {
        Self {
            ids: Vec::with_capacity(n),
            offsets: Vec::with_capacity(n),
            type_ids: Vec::with_capacity(n),
            special_tokens_mask: Vec::with_capacity(n),
            attention_mask: Vec::with_capacity(n),
            overflowing: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    #[inline]
    pub fn push(&mut self, id: u32, offsets: (u32, u32), type_id: u8, special: bool) {
        self.ids.push(id);
        self.offsets.push(offsets);
        self.type_ids.push(type_id);
        self.special_tokens_mask.push(special as u8);
        self.attention_mask.push(1);
    }

    /// Appends a token's id and offsets only: the caller fills in the other
    /// columns for the whole sequence (see `BertPostProcessor::assemble`).
    #[inline]
    pub fn push_token(&mut self, id: u32, offsets: (u32, u32)) {
        self.ids.push(id);
        self.offsets.push(offsets);
    }

    /// Keeps the first `n` tokens.
    pub fn truncate(&mut self, n: usize) {
        self.ids.truncate(n);
        self.offsets.truncate(n);
        self.type_ids.truncate(n);
        self.special_tokens_mask.truncate(n);
        self.attention_mask.truncate(n);
    }

    /// Appends all of `other`'s tokens, giving them `type_id`.
    pub fn extend_with_type(&mut self, other: &Encoding, type_id: u8) {
        self.ids.extend_from_slice(&other.ids);
        self.offsets.extend_from_slice(&other.offsets);
        self.type_ids.extend(std::iter::repeat_n(type_id, other.len()));
        self.special_tokens_mask.extend_from_slice(&other.special_tokens_mask);
        self.attention_mask.extend_from_slice(&other.attention_mask);
    }

    /// Tokens `start..stop` (all five columns; no overflowing).
    pub fn slice(&self, start: usize, stop: usize) -> Encoding {
        Encoding {
            ids: self.ids[start..stop].to_vec(),
            offsets: self.offsets[start..stop].to_vec(),
            type_ids: self.type_ids[start..stop].to_vec(),
            special_tokens_mask: self.special_tokens_mask[start..stop].to_vec(),
            attention_mask: self.attention_mask[start..stop].to_vec(),
            overflowing: Vec::new(),
        }
    }

    /// Appends all of `other`'s tokens as they are (not its overflowing).
    pub fn append(&mut self, other: &Encoding) {
        self.ids.extend_from_slice(&other.ids);
        self.offsets.extend_from_slice(&other.offsets);
        self.type_ids.extend_from_slice(&other.type_ids);
        self.special_tokens_mask.extend_from_slice(&other.special_tokens_mask);
        self.attention_mask.extend_from_slice(&other.attention_mask);
    }
}
