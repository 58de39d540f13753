"""Spec section 9, truncation: Hugging Face's ``truncate_encodings`` and ``Encoding::truncate``."""

from __future__ import annotations

import json

from fast_wordpiece.reference.encoding import Encoding
from fast_wordpiece.reference.options import EncodeOptions


def windows(length: int, max_len: int, stride: int, side: str) -> list[tuple[int, int]]:
    """The ``(start, stop)`` windows of ``max_len`` tokens, overlapping by ``stride``, that cover
    ``length`` tokens; from the start (side "right") or from the end (side "left"), kept window first."""
    step = max_len - stride
    if side == "right":
        spans = [(start, min(start + max_len, length)) for start in range(0, length, step)]
        last = next(i for i, (_, stop) in enumerate(spans) if stop == length)
    else:
        spans = [(max(0, stop - max_len), stop) for stop in range(length, 0, -step)]
        last = next(i for i, (start, _) in enumerate(spans) if start == 0)
    return spans[: last + 1]


def cut(sequence: Encoding, max_len: int, stride: int, side: str, what: str) -> Encoding:
    """The kept window of ``sequence``, with the other windows as its overflowing encodings."""
    if max_len >= len(sequence):
        return sequence
    if max_len == 0:  # everything overflows
        return Encoding([], [], [], [], [], overflowing=[sequence])
    if stride >= max_len:
        raise ValueError(f"stride ({stride}) must be less than the {max_len} tokens that truncation leaves for {what}")
    kept, *rest = (sequence._slice(start, stop) for start, stop in windows(len(sequence), max_len, stride, side))
    return Encoding._from_columns(kept._columns(), rest, n_sequences=sequence.n_sequences)


def longest_first_lengths(len1: int, len2: int, budget: int) -> tuple[int, int]:
    """How ``longest_first`` shares ``budget`` tokens between a pair: the shorter sequence keeps what
    it has if the longer one can make room, else each gets half (the longer one the odd token)."""
    short = min(len1, len2)
    n_short, n_long = short, short if short > budget else max(short, budget - short)
    if n_short + n_long > budget:
        n_short, n_long = budget // 2, budget // 2 + budget % 2
    return (n_long, n_short) if len1 > len2 else (n_short, n_long)


def truncate(first: Encoding, second: Encoding | None, options: EncodeOptions,
             added: int) -> tuple[Encoding, Encoding | None]:  # fmt: skip
    """Cuts the raw sequences so that, with ``added`` special tokens, they fit in ``max_length``."""
    assert options.max_length is not None
    if options.max_length < added:
        what = "a pair" if second is not None else "a single text"
        raise ValueError(f"max_length must be at least {added}, the number of special tokens added to {what}, "
                         f"got {options.max_length}")  # fmt: skip
    budget, strategy = options.max_length - added, options.truncation

    def cut_to(sequence: Encoding, max_len: int, what: str) -> Encoding:
        return cut(sequence, max_len, options.stride, options.truncation_side, what)

    if budget == 0:
        return cut_to(first, 0, "the first text"), None if second is None else cut_to(second, 0, "the second text")
    to_remove = len(first) + (len(second) if second is not None else 0) - budget
    if to_remove <= 0:
        return first, second
    if strategy == "longest_first":
        if second is None:
            return cut_to(first, budget, "the text"), None
        n1, n2 = longest_first_lengths(len(first), len(second), budget)
        return cut_to(first, n1, "the first text"), cut_to(second, n2, "the second text")
    if second is None and strategy == "only_second":
        raise ValueError('truncation="only_second" needs a pair of texts, but got a single text longer than max_length')
    which = "second" if strategy == "only_second" else "first"
    target = second if which == "second" else first
    assert target is not None
    if len(target) <= to_remove:
        raise ValueError(f"truncation={json.dumps(strategy)} cannot fit the pair in max_length={options.max_length}: "
                         f"the {which} text has {len(target)} tokens and {to_remove} must go")  # fmt: skip
    target = cut_to(target, len(target) - to_remove, f"the {which} text")
    return (first, target) if which == "second" else (target, second)


def merge(x: Encoding, y: Encoding, n_sequences: int = 2) -> Encoding:
    """``x`` then ``y``, their overflowing windows combined as Hugging Face's ``Encoding::merge_with``:
    each window of ``x`` with ``y`` (nesting the window with ``y``'s windows), then with each window
    of ``y``; then ``x`` (with its windows nested) with each window of ``y``. Every encoding made has
    ``n_sequences``."""
    overflowing = []
    for x_window in x.overflowing:
        overflowing.append(merge(x_window, y, n_sequences))
        overflowing += [merge(x_window, y_window, n_sequences) for y_window in y.overflowing]
    overflowing += [merge(x, y_window, n_sequences) for y_window in y.overflowing]
    return x._joined(y, overflowing, n_sequences)
