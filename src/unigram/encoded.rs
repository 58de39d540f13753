//! An encoded text: the ids, offsets and unknown tokens' texts that
//! encoding and sampling produce, before the template (`template`).

/// An encoded text: ids and the character offsets of each token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Encoded {
    pub ids: Vec<u32>,
    pub offsets: Vec<(u32, u32)>,
    /// The positions of the tokens shown as a text rather than their piece,
    /// each with where its text ends in `unknown_text`: unknown tokens
    /// (Hugging Face shows the text an unknown token stands for, not the
    /// unknown piece), and special tokens with the whitespace their
    /// `lstrip` or `rstrip` took in; see [`Encoded::unknown_texts`].
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

    /// Appends special token `id` at `span`, shown as `shown` if given
    /// (see `unknown`); false, appending nothing, when there is no room.
    pub(crate) fn push_special(&mut self, id: u32, span: (u32, u32), shown: Option<&str>) -> bool {
        if !self.room(1) {
            return false;
        }
        if let Some(text) = shown {
            if self.unknown.try_reserve(1).is_err() || self.unknown_text.try_reserve(text.len()).is_err() {
                return false;
            }
            self.unknown_text.push_str(text);
            self.unknown.push((self.ids.len() as u32, self.unknown_text.len()));
        }
        self.ids.push(id);
        self.offsets.push(span);
        true
    }

    /// Each shown token's position and text, in order (see `unknown`).
    pub fn unknown_texts(&self) -> impl Iterator<Item = (u32, &str)> + '_ {
        let starts = std::iter::once(0).chain(self.unknown.iter().map(|&(_, end)| end));
        self.unknown.iter().zip(starts).map(|(&(k, end), start)| (k, &self.unknown_text[start..end]))
    }
}
