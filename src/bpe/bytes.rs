//! GPT-2's byte-to-character mapping: every byte shown as one printable
//! character, so that byte-level tokens are ordinary strings.
//!
//! The bytes `!`..=`~`, `¡`..=`¬` and `®`..=`ÿ` (188 of them) stand for
//! themselves (the character with that code point); the other 68 bytes, in
//! increasing order, map to U+0100, U+0101, ... (`Ā`, `ā`, ...). A space is `Ġ`
//! (U+0120) and a newline `Ċ` (U+010A).

use std::sync::OnceLock;

/// Whether byte `b` is shown as the character with its own code point.
fn printable(b: u8) -> bool {
    matches!(b, b'!'..=b'~' | 0xA1..=0xAC | 0xAE..=0xFF)
}

struct Tables {
    to_char: [char; 256],
    /// Indexed by code point below 0x180; 0xFFFF: not a mapped character.
    to_byte: [u16; 0x180],
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut to_char = ['\0'; 256];
        let mut to_byte = [0xFFFFu16; 0x180];
        let mut next = 0x100u32;
        for b in 0..=255u8 {
            let c = if printable(b) {
                u32::from(b)
            } else {
                next += 1;
                next - 1
            };
            to_char[b as usize] = char::from_u32(c).expect("below 0x180");
            to_byte[c as usize] = u16::from(b);
        }
        Tables { to_char, to_byte }
    })
}

/// The character that shows byte `b`.
#[inline]
pub fn byte_char(b: u8) -> char {
    tables().to_char[b as usize]
}

/// The byte character `c` shows, or None if `c` shows no byte.
#[inline]
pub fn char_byte(c: char) -> Option<u8> {
    let b = *tables().to_byte.get(c as usize)?;
    (b != 0xFFFF).then_some(b as u8)
}

/// `bytes` shown as byte characters, appended to `out`.
pub fn show_bytes(bytes: &[u8], out: &mut String) {
    out.extend(bytes.iter().map(|&b| byte_char(b)));
}

/// The bytes a byte-level token stands for, appended to `out`; false (and
/// `out` partly written) when the token holds a character that shows no byte.
pub fn token_bytes(token: &str, out: &mut Vec<u8>) -> bool {
    for c in token.chars() {
        match char_byte(c) {
            Some(b) => out.push(b),
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mapping_is_a_bijection_with_gpt2_landmarks() {
        let mut seen = std::collections::HashSet::new();
        for b in 0..=255u8 {
            let c = byte_char(b);
            assert!(seen.insert(c));
            assert_eq!(char_byte(c), Some(b));
        }
        assert_eq!(byte_char(b' '), 'Ġ');
        assert_eq!(byte_char(b'\n'), 'Ċ');
        assert_eq!(byte_char(b'a'), 'a');
        assert_eq!(byte_char(0), 'Ā');
        assert_eq!(char_byte('€'), None);
    }
}
