//! Stages 1 and 2 in one pass, for ASCII text.
//!
//! On ASCII input the normalizer can only lowercase a byte, turn it into a
//! space, or drop it, and the pre-tokenizer only asks whether a byte is a
//! space, joins a word, or stands alone. Both answers are read from one
//! 256-entry table built by running the real stages on every ASCII byte, so
//! the fast path cannot drift from them. No alignment table is built: an
//! ASCII string's character offsets are its byte offsets.

use super::normalizer::Normalizer;
use super::pre_tokenizer::{Class, PreTokenizer};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    /// The normalizer removes the byte. The fast path gives up: the word
    /// around it would no longer be a slice of the input.
    Drop,
    /// The byte (once normalized) ends any word.
    Space,
    /// The byte joins the word around it.
    Join,
    /// The byte joins a run of `JoinPunct` bytes, and ends a `Join` word.
    JoinPunct,
    /// The byte is a word of its own.
    Alone,
}

/// The classes of [`AsciiPath::byte`]: one bit each, none for a space.
pub const BYTE_SPACE: u8 = 0;
pub const BYTE_JOIN: u8 = 1;
pub const BYTE_PUNCT: u8 = 2;
pub const BYTE_ALONE: u8 = 4;
pub const BYTE_DROP: u8 = 8;

/// Zero bytes after the normalized text in [`AsciiPath::split`]'s buffer.
pub const PADDING: usize = 16;

/// The normalizer and pre-tokenizer, tabulated for the 128 ASCII bytes.
#[derive(Clone, Debug)]
pub struct AsciiPath {
    normalized: [u8; 128],
    action: [Action; 128],
}

impl AsciiPath {
    pub fn new(normalizer: &Normalizer, pre_tokenizer: PreTokenizer) -> Self {
        let mut normalized = [0u8; 128];
        let mut action = [Action::Drop; 128];
        for b in 0..128u8 {
            let out = normalizer.normalize(&char::from(b).to_string());
            let mut chars = out.chars();
            let Some(c) = chars.next() else { continue };
            assert!(c.is_ascii() && chars.next().is_none(), "the normalizer maps ASCII to at most one ASCII char");
            normalized[b as usize] = c as u8;
            action[b as usize] = match pre_tokenizer.class(c) {
                Class::Space => Action::Space,
                Class::Run => Action::Join,
                Class::PunctRun => Action::JoinPunct,
                Class::Alone => Action::Alone,
            };
        }
        Self { normalized, action }
    }

    /// What [`AsciiPath::split`] does with ASCII byte `b`: the byte it
    /// normalizes to, and one of [`BYTE_DROP`], [`BYTE_SPACE`],
    /// [`BYTE_JOIN`], [`BYTE_PUNCT`] (joins a run of such bytes, ends a
    /// `BYTE_JOIN` word) and [`BYTE_ALONE`].
    pub fn byte(&self, b: u8) -> (u8, u8) {
        let i = b as usize & 127;
        let class = match self.action[i] {
            Action::Drop => BYTE_DROP,
            Action::Space => BYTE_SPACE,
            Action::Join => BYTE_JOIN,
            Action::JoinPunct => BYTE_PUNCT,
            Action::Alone => BYTE_ALONE,
        };
        (self.normalized[i], class)
    }

    /// Normalizes ASCII `text` into `buf` and calls `f(buf, start, end)` with
    /// the byte range of every word; `buf` ends with [`PADDING`] zero bytes
    /// after the text, so that 16 bytes can be read from any word's start.
    /// Returns false, having called `f` for some words only, if the text
    /// holds a byte the normalizer removes, or (calling `f` for none) if
    /// there is no room for `buf`; the caller then takes the general path,
    /// which reports a lack of room.
    #[inline]
    pub fn split(&self, text: &str, buf: &mut Vec<u8>, mut f: impl FnMut(&[u8], usize, usize)) -> bool {
        debug_assert!(text.is_ascii());
        buf.clear();
        // Room for the text and its padding at once, not twice as a `Vec` grows.
        if buf.try_reserve_exact(text.len() + PADDING).is_err() {
            return false;
        }
        buf.extend(text.bytes().map(|b| self.normalized[b as usize & 127]));
        buf.extend_from_slice(&[0; PADDING]);
        // The open word: its start and whether it is a punctuation run.
        let mut start: Option<(usize, bool)> = None;
        for (i, &b) in text.as_bytes().iter().enumerate() {
            let punct = match self.action[b as usize & 127] {
                Action::Join => false,
                Action::JoinPunct => true,
                Action::Space => {
                    if let Some((s, _)) = start.take() {
                        f(buf, s, i);
                    }
                    continue;
                }
                Action::Alone => {
                    if let Some((s, _)) = start.take() {
                        f(buf, s, i);
                    }
                    f(buf, i, i + 1);
                    continue;
                }
                Action::Drop => return false,
            };
            match start {
                Some((_, open)) if open == punct => {}
                Some((s, _)) => {
                    f(buf, s, i);
                    start = Some((i, punct));
                }
                None => start = Some((i, punct)),
            }
        }
        if let Some((s, _)) = start {
            f(buf, s, text.len());
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(normalizer: Normalizer, pre: PreTokenizer, text: &str) -> Option<Vec<String>> {
        let path = AsciiPath::new(&normalizer, pre);
        let mut out = Vec::new();
        let mut buf = Vec::new();
        let whole = path.split(text, &mut buf, |b, s, e| out.push(String::from_utf8(b[s..e].to_vec()).unwrap()));
        whole.then_some(out)
    }

    #[test]
    fn agrees_with_the_two_stages_it_fuses() {
        let text = "Hello, World!\tIt's  a_b-c+42 \r\n(x)...?!x\x1b";
        let lenient = Normalizer { clean_text: false, ..Normalizer::default() };
        for normalizer in [Normalizer::default(), lenient, Normalizer { lowercase: false, ..lenient }] {
            for pre in [PreTokenizer::Bert, PreTokenizer::Whitespace, PreTokenizer::Regex, PreTokenizer::WordPunct] {
                let expected: Vec<String> =
                    pre.words(&normalizer.normalize(text)).into_iter().map(str::to_owned).collect();
                let fused = words(normalizer, pre, text);
                if normalizer.clean_text {
                    assert_eq!(fused, None, "ESC is dropped: the general path takes over");
                    let text = text.trim_end_matches('\x1b');
                    let expected: Vec<String> =
                        pre.words(&normalizer.normalize(text)).into_iter().map(str::to_owned).collect();
                    assert_eq!(words(normalizer, pre, text), Some(expected));
                } else {
                    assert_eq!(fused, Some(expected), "{normalizer:?} {pre:?}");
                }
            }
        }
    }
}
