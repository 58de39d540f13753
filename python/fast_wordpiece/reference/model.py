"""Spec section 5: the WordPiece model, greedy longest match first."""

from __future__ import annotations

from collections.abc import Mapping

from fast_wordpiece.reference.common import CONTINUATION


def wordpiece(word: str, ids: Mapping[str, int], unk_token: str, max_chars: int) -> list[tuple[str, int, int]]:
    """The pieces ``(token, start, end)`` of ``word``: greedy longest match first."""
    unknown = [(unk_token, 0, len(word))]
    if len(word) > max_chars:
        return unknown
    pieces = []
    start = 0
    while start < len(word):
        prefix = CONTINUATION if start > 0 else ""
        end = next((end for end in range(len(word), start, -1) if prefix + word[start:end] in ids), None)
        if end is None:
            return unknown
        pieces.append((prefix + word[start:end], start, end))
        start = end
    return pieces
