"""Spec section 1: the Unicode character classes, read from ``_unicode_tables``."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from fast_wordpiece import _unicode_tables


class CharClass:
    """A set of code points given as sorted inclusive ``(first, last)`` ranges."""

    def __init__(self, ranges: Sequence[tuple[int, int]]) -> None:
        self.ranges = tuple(ranges)
        self._firsts = [first for first, _ in self.ranges]

    def __contains__(self, c: str) -> bool:
        i = bisect_right(self._firsts, ord(c)) - 1
        return i >= 0 and ord(c) <= self.ranges[i][1]

    def regex_set(self) -> str:
        """The ranges as the inside of a regular expression's ``[...]``."""
        return "".join(f"{re.escape(chr(first))}-{re.escape(chr(last))}" for first, last in self.ranges)


OTHER = CharClass(_unicode_tables.OTHER)
PUNCTUATION = CharClass(_unicode_tables.PUNCTUATION)
MARK_NONSPACING = CharClass(_unicode_tables.MARK_NONSPACING)
WORD = CharClass(_unicode_tables.WORD)
REGEX_WORD = CharClass(_unicode_tables.REGEX_WORD)
MARK = CharClass(_unicode_tables.MARK)
#: Byte-level BPE's ``\p{L}`` and ``\p{N}``, as the engine's regex tables have them (not Python's
#: ``unicodedata``, whose Unicode version is the interpreter's).
LETTER = CharClass(_unicode_tables.LETTER)
NUMBER = CharClass(_unicode_tables.NUMBER)
CHINESE = CharClass([(0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
                     (0x2B740, 0x2B81F), (0x2B920, 0x2CEAF), (0x2F800, 0x2FA1F)])  # fmt: skip
WHITESPACE = "\t\n\v\f\r \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"
