//! Short keys of words: a word of at most [`SHORT`] bytes in one `u128`,
//! as the vocabulary's short keys (see `Vocab::short_id`), to look a whole
//! word up in one load.

use super::vocab::SHORT;

/// The key of a word: its bytes, zero-padded, and its length in the last
/// byte (as the vocabulary's short keys); None for an empty or long word.
#[inline]
pub fn key_of(word: &[u8]) -> Option<u128> {
    if word.is_empty() || word.len() > SHORT {
        return None;
    }
    let mut key = [0u8; 16];
    key[..word.len()].copy_from_slice(word);
    key[15] = word.len() as u8;
    Some(u128::from_le_bytes(key))
}

/// [`key_of`] `buf[start..end]`, read in one load from `buf`, which holds
/// at least 16 bytes from `start`.
#[inline]
pub fn key_in(buf: &[u8], start: usize, end: usize) -> Option<u128> {
    let len = end.checked_sub(start)?;
    let window: [u8; 16] = buf.get(start..start + 16)?.try_into().ok()?;
    if len == 0 || len > SHORT {
        return None;
    }
    Some(u128::from_le_bytes(window) & ((1u128 << (8 * len)) - 1) | (len as u128) << 120)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_hold_the_bytes_and_the_length() {
        let a = key_of(b"hello").unwrap();
        assert_ne!(Some(a), key_of(b"hellp"));
        assert_eq!(key_of(b""), None);
        assert_eq!(key_of(&[b'a'; SHORT + 1]), None);
        let buf = b"xhello\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0";
        assert_eq!(key_in(buf, 1, 6), Some(a));
        assert_eq!(key_in(buf, 1, 1), None);
        assert_eq!(key_in(&buf[..10], 1, 6), None, "fewer than 16 bytes to read");
    }
}
