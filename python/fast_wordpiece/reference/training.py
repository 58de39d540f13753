"""Spec section 4: the merge loop, recounting every pair at every merge."""

from __future__ import annotations

import contextlib
import math
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Sized
from fractions import Fraction
from typing import Any

from fast_wordpiece.reference.args import _items, _quoted, _text, _type_name
from fast_wordpiece.reference.common import CONTINUATION, Pair
from fast_wordpiece.reference.unicode import WHITESPACE

OBJECTIVES = ("likelihood", "pmi", "frequency")


def merged_token(a: str, b: str, prefix: str = CONTINUATION) -> str:
    """The token that merging ``a b`` creates: ``b`` loses the continuation prefix ``prefix``."""
    return a + b[len(prefix) :] if b.startswith(prefix) else a + b


class Word:
    """A distinct word of the corpus: its count, its current tokens and their tallies."""

    def __init__(self, text: str, count: int, prefix: str = CONTINUATION) -> None:
        self.count = count
        self.tokens = [c if i == 0 else prefix + c for i, c in enumerate(text)]
        self._tally()

    def _tally(self) -> None:
        self.token_counts = Counter(self.tokens)
        self.pair_counts = Counter(zip(self.tokens, self.tokens[1:]))
        # What merging each pair would replace: every occurrence when a != b.
        self.replaceable = Counter(
            {(a, b): n if a != b else non_overlapping(self.tokens, a, b) for (a, b), n in self.pair_counts.items()}
        )

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


def non_overlapping(tokens: list[str], a: str, b: str) -> int:
    """The occurrences of ``a b`` a left-to-right merge replaces."""
    n = i = 0
    while i + 1 < len(tokens):
        if tokens[i] == a and tokens[i + 1] == b:
            n, i = n + 1, i + 2
        else:
            i += 1
    return n


def _indices(items: list[str], item: str) -> Iterator[int]:
    """The indices of ``item`` in ``items``, found by ``list.index``."""
    i = -1
    with contextlib.suppress(ValueError):
        while True:
            i = items.index(item, i + 1)
            yield i


def count_frequencies(words: list[Word]) -> tuple[Counter[str], Counter[Pair], Counter[Pair]]:
    """``token_freq``, ``pair_freq`` and ``k`` (occurrences a merge replaces), counted afresh over every word."""
    token_freq: Counter[str] = Counter()
    pair_freq: Counter[Pair] = Counter()
    replaced: Counter[Pair] = Counter()
    for word in words:
        for token, n in word.token_counts.items():
            token_freq[token] += n * word.count
        for pair, n in word.pair_counts.items():
            pair_freq[pair] += n * word.count
        for pair, n in word.replaceable.items():
            replaced[pair] += n * word.count
    return token_freq, pair_freq, replaced


def f(x: int) -> float:
    """``x·ln x`` in double precision, ``f(0) = 0``."""
    return 0.0 if x == 0 else float(x) * math.log(float(x))


def likelihood_gain(ca: int, cb: int, cab: int, n: int, k: int, same: bool) -> float:
    """``ΔL`` of spec section 4, evaluated in its order."""
    parts = f(ca - 2 * k) - f(ca) if same else (f(ca - k) - f(ca)) + (f(cb - k) - f(cb))
    return (parts + (f(cab + k) - f(cab))) - (f(n - k) - f(n))


def best_pair(
    objective: str,
    token_freq: Counter[str],
    pair_freq: Counter[Pair],
    replaced: Counter[Pair],
    min_frequency: int,
    prefix: str = CONTINUATION,
) -> Pair | None:
    """The eligible pair that ``objective`` ranks first (spec section 4).

    ``pmi``: the highest ``pair_freq / (freq(a) * freq(b))`` (exact fractions),
    ties to the larger ``pair_freq``. ``frequency``: the largest ``pair_freq``.
    ``likelihood``: the largest ``ΔL``. Ties (after pmi's) go to the larger
    ``k``, then the smaller ``a``, then the smaller ``b`` (code point order).
    """
    total = sum(token_freq.values())

    def rank(pair: Pair) -> tuple[Any, ...]:
        a, b = pair
        k = replaced[pair]
        if objective == "pmi":
            return (-Fraction(pair_freq[pair], token_freq[a] * token_freq[b]), -pair_freq[pair], a, b)
        if objective == "frequency":
            return (-pair_freq[pair], -k, a, b)
        gain = likelihood_gain(token_freq[a], token_freq[b], token_freq[merged_token(a, b, prefix)], total, k, a == b)
        return (-gain, -k, a, b)

    eligible = [pair for pair, freq in pair_freq.items() if freq >= min_frequency and freq > 0]
    return min(eligible, key=rank) if eligible else None


def check_initial_alphabet(value: object) -> tuple[str, ...]:
    """The ``initial_alphabet`` argument: an iterable of one-character str, none of them whitespace
    (None: none)."""
    if value is None:
        return ()
    items = _items(value, "initial_alphabet", "one-character str")
    if type(value) not in (list, tuple) and isinstance(value, Mapping):
        raise TypeError(f"initial_alphabet must be an iterable of one-character str, not a mapping "
                        f"({_type_name(value)}): its keys would be read as the characters")  # fmt: skip
    chars = []
    for i, c in enumerate(items):
        _text(c, f"initial_alphabet[{i}]")
        if len(c) != 1:
            raise ValueError(f"initial_alphabet[{i}] must be one character, not {_quoted(c)}")
        if c in WHITESPACE:
            raise ValueError(f"initial_alphabet[{i}] is whitespace, which no pre-tokenizer leaves in a word")
        chars.append(c)
    return tuple(chars)


def check_prefix(prefix: str) -> None:
    """Training's ``continuing_subword_prefix``: no whitespace, which tokens never hold."""
    if any(c in WHITESPACE for c in prefix):
        raise ValueError(f"continuing_subword_prefix {_quoted(prefix)} contains whitespace, "
                         "which training keeps out of every token")  # fmt: skip


def limit_alphabet(counts: Mapping[str, int], limit: int | None, initial: Sequence[str] = ()) -> dict[str, int]:
    """The words whose characters are all among the ``limit`` kept ones: those of ``initial`` (all of
    them, even beyond ``limit``), then the most frequent others (occurrences weighted by word counts;
    ties: smaller code point) up to ``limit`` characters in all."""
    if limit is None:
        return dict(counts)
    freq: Counter[str] = Counter()
    for word, count in counts.items():
        for c in word:
            freq[c] += count
    others = sorted((c for c in freq if c not in initial), key=lambda c: (-freq[c], c))
    kept = set(initial) | set(others[: max(limit - len(set(initial)), 0)])
    return {word: count for word, count in counts.items() if set(word) <= kept}


def check_occurrences(counts: Iterable[tuple[Sized, int]]) -> None:
    """Word counts whose character occurrences add up to more than 2**64 - 1 are a ValueError: every
    count a trainer keeps is at most that many, so the engine's 64-bit counts never wrap."""
    if sum(n * len(w) for w, n in counts) > 2**64 - 1:
        raise ValueError("the word counts add up to more than 2**64 - 1 character occurrences: scale them down")


def learn(
    counts: Mapping[str, int],
    vocab_size: int,
    min_frequency: int,
    special_tokens: Sequence[str],
    show_progress: bool,
    objective: str = "likelihood",
    alphabet_limit: int | None = None,
    initial_alphabet: Sequence[str] = (),
    prefix: str = CONTINUATION,
) -> tuple[list[str], list[Pair]]:
    """Steps 2 to 5 of spec section 4: the vocabulary in id order, and the merges in order. No word
    at all (an empty or a used-up corpus) is a ValueError. ``initial_alphabet``: characters in the
    alphabet (as word-initial tokens) whether seen or not; ``prefix``: that of continuation tokens."""
    if not any(w and n > 0 for w, n in counts.items()):
        raise ValueError("the corpus has no words to train on")
    check_occurrences(counts.items())
    counts = limit_alphabet({w: n for w, n in counts.items() if w and n > 0}, alphabet_limit, initial_alphabet)
    words = [Word(text, count, prefix) for text, count in counts.items()]
    alphabet = sorted({token for word in words for token in word.tokens} | set(initial_alphabet))
    vocab = list(dict.fromkeys([*special_tokens, *alphabet]))
    in_vocab = set(vocab)
    merges: list[Pair] = []
    report: Callable[[str], None] = lambda line: print(line, file=sys.stderr)  # noqa: E731
    while len(vocab) < vocab_size:
        pair = best_pair(objective, *count_frequencies(words), min_frequency, prefix)
        if pair is None:
            break
        merges.append(pair)
        new = merged_token(*pair, prefix)
        if new not in in_vocab:
            vocab.append(new)
            in_vocab.add(new)
        for word in words:
            word.merge(*pair, new)
        if show_progress and len(merges) % 100 == 0:
            report(f"[merging] {len(merges)} merges, {len(vocab)}/{vocab_size} tokens")
    if show_progress and len(vocab) < vocab_size:
        report(f"[merging] {ran_out_of_pairs(len(vocab), vocab_size, min_frequency)}")
    return vocab, merges


def ran_out_of_pairs(tokens: int, asked: int, min_frequency: int) -> str:
    """Why training stopped at ``tokens`` of the ``asked`` vocabulary size: no pair was left to merge
    (none occurring ``min_frequency`` times). The engine's progress says it in the same words."""
    why = f" (none occurs min_frequency={min_frequency} times)" if min_frequency > 1 else ""
    return f"stopped at {tokens} tokens of the {asked} asked: no pairs left to merge{why}"
