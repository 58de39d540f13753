"""Spec section 2: Hugging Face's ``BertNormalizer``, keeping each character's origin."""

from __future__ import annotations

import unicodedata
from bisect import bisect_right
from collections.abc import Iterable
from functools import cache
from itertools import groupby
from typing import Callable

from fast_wordpiece import _unicode_tables
from fast_wordpiece.reference.unicode import CHINESE, MARK, MARK_NONSPACING, OTHER, WHITESPACE, CharClass


class Normalizer:
    """Hugging Face's ``BertNormalizer``, remembering the original index of every character.

    Stages 1, 2 and 4 map each character on its own, so their result is
    computed once per distinct character and remembered.
    """

    def __init__(
        self,
        clean_text: bool,
        handle_chinese_chars: bool,
        strip_accents: bool,
        lowercase: bool,
        all_marks: bool = False,
    ) -> None:
        self.clean_text = clean_text
        self.marks = MARK if all_marks else MARK_NONSPACING
        self.handle_chinese_chars = handle_chinese_chars
        self.strip_accents = strip_accents
        self.lowercase = lowercase
        self._cleaned: dict[str, str] = {}
        self._lowered: dict[str, str] = {}

    def normalize(self, text: str) -> tuple[str, list[int]]:
        """The normalized text and, for each of its characters, the index of the original one."""
        chars, origins = _map_chars(text, range(len(text)), self.clean_and_space, self._cleaned)
        if self.strip_accents:
            chars, origins = strip_accents(chars, origins, self.marks)
        if self.lowercase:
            chars, origins = _map_chars(chars, origins, lowercase, self._lowered)
        return chars, origins

    def clean_and_space(self, c: str) -> str:
        """Stages 1 (``clean_text``) and 2 (``handle_chinese_chars``) for one character."""
        if self.clean_text:
            if c in "\x00\ufffd" or (c in OTHER and c not in "\t\n\r"):
                return ""
            c = " " if c in WHITESPACE else c
        return f" {c} " if self.handle_chinese_chars and c in CHINESE else c


def _map_chars(
    chars: Iterable[str], origins: Iterable[int], stage: Callable[[str], str], memo: dict[str, str]
) -> tuple[str, list[int]]:
    """Replaces each character by ``stage(character)``; what it becomes keeps its origin."""
    out: list[str] = []
    out_origins: list[int] = []
    for c, origin in zip(chars, origins):
        if c not in memo:
            memo[c] = stage(c)
        out.append(memo[c])
        out_origins += [origin] * len(memo[c])
    return "".join(out), out_origins


_HANGUL_SYLLABLES = range(0xAC00, 0xD7A4)
_CLASS_STARTS = [first for first, _, _ in _unicode_tables.COMBINING_CLASS]


@cache
def _nfd(c: str) -> str:
    """Full canonical decomposition, from the engine's (and Hugging Face's)
    Unicode 9 tables; Hangul syllables decompose algorithmically."""
    if ord(c) in _HANGUL_SYLLABLES:
        return unicodedata.normalize("NFD", c)
    return "".join(map(chr, _unicode_tables.CANONICAL_DECOMPOSITION.get(ord(c), (ord(c),))))


@cache
def combining_class(c: str) -> int:
    """The canonical combining class, from the same tables."""
    i = bisect_right(_CLASS_STARTS, ord(c)) - 1
    if i >= 0:
        first, last, klass = _unicode_tables.COMBINING_CLASS[i]
        if first <= ord(c) <= last:
            return klass
    return 0


def lowercase(c: str) -> str:
    """Rust's ``char::to_lowercase``, which the engine and Hugging Face use."""
    return _unicode_tables.LOWERCASE.get(ord(c), c)


def strip_accents(chars: str, origins: list[int], marks: CharClass = MARK_NONSPACING) -> tuple[str, list[int]]:
    """Stage 3: canonical decomposition (NFD), then drop the non-spacing marks (or all ``marks``).

    NFD decomposes each character, then stably sorts each run of combining
    marks by combining class. As in Hugging Face, the sort moves characters
    but not origins: the k-th character that begins a decomposition takes the
    k-th origin, a character that a decomposition adds (the accent of ``é``)
    takes the origin before it. So a mark that the sort moves takes the origin
    of the place it moves to.
    """
    decomposed = [(d, i == 0) for c in chars for i, d in enumerate(_nfd(c))]
    kept: list[str] = []
    kept_origins: list[int] = []
    remaining_origins, origin = iter(origins), 0
    for d, begins_decomposition in canonical_order(decomposed):
        if begins_decomposition:
            origin = next(remaining_origins)
        if d not in marks:
            kept.append(d)
            kept_origins.append(origin)
    return "".join(kept), kept_origins


def canonical_order(chars: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """Unicode canonical ordering: each run of combining marks stably sorted by combining class."""
    ordered: list[tuple[str, bool]] = []
    for is_mark, group in groupby(chars, key=lambda item: combining_class(item[0]) > 0):
        run = list(group)
        ordered += sorted(run, key=lambda item: combining_class(item[0])) if is_mark else run
    return ordered
