"""Spec section 4: the merge loop, recounting every pair at every merge."""

from __future__ import annotations

import contextlib
import sys
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction

from fast_wordpiece.reference.common import CONTINUATION, Pair


def merged_token(a: str, b: str) -> str:
    """The token that merging ``a b`` creates."""
    return a + b[len(CONTINUATION) :] if b.startswith(CONTINUATION) else a + b


class Word:
    """A distinct word of the corpus: its count, its current tokens and their tallies."""

    def __init__(self, text: str, count: int) -> None:
        self.count = count
        self.tokens = [c if i == 0 else CONTINUATION + c for i, c in enumerate(text)]
        self._tally()

    def _tally(self) -> None:
        self.token_counts = Counter(self.tokens)
        self.pair_counts = Counter(zip(self.tokens, self.tokens[1:]))

    def merge(self, a: str, b: str, new: str) -> None:
        """Replaces each ``a b`` by ``new``, left to right, without overlap."""
        if (a, b) not in self.pair_counts:
            return
        out: list[str] = []
        done = 0  # self.tokens[:done] are in out
        for i in _indices(self.tokens, a):
            if i >= done and self.tokens[i + 1 : i + 2] == [b]:
                out += [*self.tokens[done:i], new]
                done = i + 2
        self.tokens = out + self.tokens[done:]
        self._tally()


def _indices(items: list[str], item: str) -> Iterator[int]:
    """The indices of ``item`` in ``items``, found by ``list.index``."""
    i = -1
    with contextlib.suppress(ValueError):
        while True:
            i = items.index(item, i + 1)
            yield i


def count_frequencies(words: list[Word]) -> tuple[Counter[str], Counter[Pair]]:
    """``token_freq`` and ``pair_freq``, counted afresh over every word."""
    token_freq: Counter[str] = Counter()
    pair_freq: Counter[Pair] = Counter()
    for word in words:
        for token, n in word.token_counts.items():
            token_freq[token] += n * word.count
        for pair, n in word.pair_counts.items():
            pair_freq[pair] += n * word.count
    return token_freq, pair_freq


def best_pair(token_freq: Counter[str], pair_freq: Counter[Pair], min_frequency: int) -> Pair | None:
    """The eligible pair with the highest ``pair_freq / (freq(a) * freq(b))``.

    Scores are exact fractions. Ties go to the larger ``pair_freq``, then the
    smaller ``a``, then the smaller ``b`` (code point order).
    """

    def rank(pair: Pair) -> tuple[Fraction, int, str, str]:
        a, b = pair
        return (-Fraction(pair_freq[pair], token_freq[a] * token_freq[b]), -pair_freq[pair], a, b)

    eligible = [pair for pair, freq in pair_freq.items() if freq >= min_frequency]
    return min(eligible, key=rank) if eligible else None


def learn(
    counts: Mapping[str, int], vocab_size: int, min_frequency: int, special_tokens: Sequence[str], show_progress: bool
) -> tuple[list[str], list[Pair]]:
    """Steps 2 to 5 of spec section 4: the vocabulary in id order, and the merges in order."""
    words = [Word(text, count) for text, count in counts.items()]
    alphabet = sorted({token for word in words for token in word.tokens})
    vocab = list(dict.fromkeys([*special_tokens, *alphabet]))
    in_vocab = set(vocab)
    merges: list[Pair] = []
    while len(vocab) < vocab_size:
        pair = best_pair(*count_frequencies(words), min_frequency)
        if pair is None:
            break
        merges.append(pair)
        new = merged_token(*pair)
        if new not in in_vocab:
            vocab.append(new)
            in_vocab.add(new)
        for word in words:
            word.merge(*pair, new)
        if show_progress and len(merges) % 100 == 0:
            print(f"[merging] {len(merges)} merges, {len(vocab)}/{vocab_size} tokens", file=sys.stderr)
    return vocab, merges
