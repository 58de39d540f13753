"""Spec section 5: the WordPiece model, greedy longest match first."""

from __future__ import annotations

from collections.abc import Mapping

from fast_wordpiece.reference.common import CONTINUATION


def wordpiece(word: str, ids: Mapping[str, int], unk_token: str, max_chars: int,
              prefix: str = CONTINUATION) -> list[tuple[str, int, int]]:  # fmt: skip
    """The pieces ``(token, start, end)`` of ``word``: greedy longest match first; ``ids`` holds
    the model's tokens, and ``prefix`` starts the tokens that continue a word."""
    unknown = [(unk_token, 0, len(word))]
    if len(word) > max_chars:
        return unknown
    pieces = []
    start = 0
    while start < len(word):
        before = prefix if start > 0 else ""
        end = next((end for end in range(len(word), start, -1) if before + word[start:end] in ids), None)
        if end is None:
            return unknown
        pieces.append((before + word[start:end], start, end))
        start = end
    return pieces
