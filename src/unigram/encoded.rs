//! An encoded text: the ids, offsets and unknown tokens' texts that
//! encoding and sampling produce, before the template (`template`).

/// An encoded text: ids and the character offsets of each token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Encoded {
    pub ids: Vec<u32>,
    pub offsets: Vec<(u32, u32)>,
    /// The unknown tokens' positions, each with where its text ends in
    /// `unknown_text` (Hugging Face shows the text an unknown token stands
    /// for, not the unknown piece); see [`Encoded::unknown_texts`].
    pub unknown: Vec<(u32, usize)>,
    /// The unknown tokens' texts, end to end: one allocation, grown
    /// fallibly, for any number of them.
    pub unknown_text: String,
}

impl Encoded {
    /// Room for `n` more tokens (growing at least twofold, as a `Vec`
    /// does), or false.
    pub(crate) fn room(&mut self, n: usize) -> bool {
        self.ids.try_reserve(n).is_ok() && self.offsets.try_reserve(n).is_ok()
    }

    /// Each unknown token's position and text, in order.
    pub fn unknown_texts(&self) -> impl Iterator<Item = (u32, &str)> + '_ {
        let starts = std::iter::once(0).chain(self.unknown.iter().map(|&(_, end)| end));
        self.unknown.iter().zip(starts).map(|(&(k, end), start)| (k, &self.unknown_text[start..end]))
    }
}
