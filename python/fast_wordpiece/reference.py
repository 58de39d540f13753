"""The pure-Python twin of the engine: docs/spec.md, written out plainly.

This module is the oracle the Rust engine is tested against. It has the
engine's API (``PyTokenizer``, ``Encoding``, ``DEFAULT_SPECIAL_TOKENS``) and
follows the specification section by section, choosing the obvious algorithm
over a fast one: training recounts every pair frequency at every merge, and
the normalizer runs its stages one after the other over the whole text.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import string
import sys
import unicodedata
from bisect import bisect_right
from collections import Counter
from dataclasses import asdict, dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from itertools import groupby
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from fast_wordpiece import _unicode_tables

__all__ = ["DEFAULT_SPECIAL_TOKENS", "Encoding", "PyTokenizer"]

DEFAULT_SPECIAL_TOKENS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
PRE_TOKENIZERS = ("bert", "whitespace", "regex")
CONTINUATION = "##"
FILE_FORMAT, FILE_VERSION = "fast-wordpiece", 1

Pair = tuple[str, str]
Offsets = tuple[int, int]

# --- 1. Unicode character classes -------------------------------------------------------------------------------------


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
CHINESE = CharClass([(0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
                     (0x2B740, 0x2B81F), (0x2B920, 0x2CEAF), (0x2F800, 0x2FA1F)])  # fmt: skip
WHITESPACE = "\t\n\v\f\r \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"

# --- 2. Normalizer ----------------------------------------------------------------------------------------------------


class Normalizer:
    """Hugging Face's ``BertNormalizer``, remembering the original index of every character.

    Stages 1, 2 and 4 map each character on its own, so their result is
    computed once per distinct character and remembered.
    """

    def __init__(self, clean_text: bool, handle_chinese_chars: bool, strip_accents: bool, lowercase: bool) -> None:
        self.clean_text = clean_text
        self.handle_chinese_chars = handle_chinese_chars
        self.strip_accents = strip_accents
        self.lowercase = lowercase
        self._cleaned: dict[str, str] = {}
        self._lowered: dict[str, str] = {}

    def normalize(self, text: str) -> tuple[str, list[int]]:
        """The normalized text and, for each of its characters, the index of the original one."""
        chars, origins = _map_chars(text, range(len(text)), self.clean_and_space, self._cleaned)
        if self.strip_accents:
            chars, origins = strip_accents(chars, origins)
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


@lru_cache(maxsize=None)
def _nfd(c: str) -> str:
    """Full canonical decomposition, from the engine's (and Hugging Face's)
    Unicode 9 tables; Hangul syllables decompose algorithmically."""
    if ord(c) in _HANGUL_SYLLABLES:
        return unicodedata.normalize("NFD", c)
    return "".join(map(chr, _unicode_tables.CANONICAL_DECOMPOSITION.get(ord(c), (ord(c),))))


@lru_cache(maxsize=None)
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


def strip_accents(chars: str, origins: list[int]) -> tuple[str, list[int]]:
    """Stage 3: canonical decomposition (NFD), then drop the non-spacing marks.

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
        if d not in MARK_NONSPACING:
            kept.append(d)
            kept_origins.append(origin)
    return "".join(kept), kept_origins


def canonical_order(chars: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """Unicode canonical ordering: each run of combining marks stably sorted by combining class."""
    ordered: list[tuple[str, bool]] = []
    for is_mark, run in groupby(chars, key=lambda item: combining_class(item[0]) > 0):
        ordered += sorted(run, key=lambda item: combining_class(item[0])) if is_mark else run
    return ordered


# --- 3. Pre-tokenizers: each is a regular expression that matches the words -------------------------------------------

_SPACE = re.escape(WHITESPACE)
_BERT_PUNCTUATION = re.escape(string.punctuation) + PUNCTUATION.regex_set()
_WORD = WORD.regex_set()
PRE_TOKENIZER_PATTERNS = {
    "bert": re.compile(f"[{_BERT_PUNCTUATION}]|[^{_BERT_PUNCTUATION}{_SPACE}]+"),  # punctuation alone, or a run
    "whitespace": re.compile(f"[^{_SPACE}]+"),
    "regex": re.compile(f"[{_WORD}]+|[^{_WORD}{_SPACE}]"),  # the seed's \w+|[^\w\s]
}


def pre_tokenize(name: str, text: str) -> list[Offsets]:
    """The ``(start, end)`` spans of the words of ``text``."""
    return [match.span() for match in PRE_TOKENIZER_PATTERNS[name].finditer(text)]


# --- 4. Training ------------------------------------------------------------------------------------------------------


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
                out += self.tokens[done:i] + [new]
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


# --- 5. WordPiece model -----------------------------------------------------------------------------------------------


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


# --- 7. Decoding ------------------------------------------------------------------------------------------------------

CLEANUP = ((" .", "."), (" ?", "?"), (" !", "!"), (" ,", ","), (" ' ", "'"), (" n't", "n't"), (" 'm", "'m"),
           (" do not", " don't"), (" 's", "'s"), (" 've", "'ve"), (" 're", "'re"))  # fmt: skip


def decode_tokens(tokens: Sequence[str]) -> str:
    """Hugging Face's ``decoders.WordPiece(prefix="##", cleanup=True)``."""
    out = []
    for i, token in enumerate(tokens):
        if i > 0:
            token = token[len(CONTINUATION) :] if token.startswith(CONTINUATION) else " " + token
        for dirty, clean in CLEANUP:
            token = token.replace(dirty, clean)
        out.append(token)
    return "".join(out)


# --- 9. Truncation and padding (Hugging Face's truncate_encodings, Encoding::truncate, pad_encodings) -----------------

TRUNCATIONS = ("longest_first", "only_first", "only_second", "do_not_truncate")
PADDINGS = ("longest", "max_length")
SIDES = ("left", "right")
PAD_TOKEN = "[PAD]"


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
    return Encoding._from_columns(kept.to_dict(), rest)


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


def merge(x: Encoding, y: Encoding) -> Encoding:
    """``x`` then ``y``, their overflowing windows combined as Hugging Face's ``Encoding::merge_with``:
    each window of ``x`` with ``y`` (nesting the window with ``y``'s windows), then with each window
    of ``y``; then ``x`` (with its windows nested) with each window of ``y``."""
    overflowing = []
    for x_window in x.overflowing:
        overflowing.append(merge(x_window, y))
        overflowing += [merge(x_window, y_window) for y_window in y.overflowing]
    overflowing += [merge(x, y_window) for y_window in y.overflowing]
    return x._joined(y, overflowing)


def pad(encoding: Encoding, length: int, pad_id: int, side: str) -> Encoding:
    """``encoding`` and its overflowing windows, padded to ``length`` tokens on ``side``."""
    n = max(0, length - len(encoding))
    filler: dict[str, list[Any]] = {"ids": [pad_id] * n, "tokens": [PAD_TOKEN] * n, "offsets": [(0, 0)] * n,
              "special_tokens_mask": [1] * n, "type_ids": [0] * n, "attention_mask": [0] * n}  # fmt: skip
    columns = {key: filler[key] + encoding[key] if side == "left" else encoding[key] + filler[key] for key in _KEYS}
    return Encoding._from_columns(columns, [pad(o, length, pad_id, side) for o in encoding.overflowing])


def padding_length(batch: Sequence[Encoding], options: EncodeOptions) -> int:
    """The longest encoding of the batch (its windows not counted) or ``max_length``, rounded up to
    a multiple of ``pad_to_multiple_of``."""
    length = max(map(len, batch), default=0) if options.padding == "longest" else options.max_length
    assert length is not None
    multiple = options.pad_to_multiple_of or 1
    return -(-length // multiple) * multiple


def numpy_arrays(batch: Sequence[Encoding]) -> dict[str, Any]:
    """``return_tensors="np"``: int64 arrays n × length (n × length × 2 for the offsets)."""
    numpy = _import_numpy()
    length = len(batch[0]) if batch else 0
    for i, encoding in enumerate(batch):
        if len(encoding) != length:
            raise ValueError(f'return_tensors="np" needs encodings of equal length, but inputs[0] has {length} '
                             f'tokens and inputs[{i}] has {len(encoding)}: pass padding="longest" or '
                             'padding="max_length"')  # fmt: skip

    def array(key: str, *shape: int) -> Any:
        return numpy.array([encoding[key] for encoding in batch], dtype=numpy.int64).reshape(len(batch), length, *shape)

    return {"input_ids": array("ids"), "attention_mask": array("attention_mask"),
            "token_type_ids": array("type_ids"), "offsets": array("offsets", 2)}  # fmt: skip


def _import_numpy() -> Any:
    try:
        import numpy
    except ImportError as e:
        raise ImportError(f'return_tensors="np" needs numpy, which could not be imported ({e})') from None
    return numpy


# --- 8. Argument checks: TypeError for a wrong type, ValueError for a wrong value -------------------------------------


def _type_name(value: object) -> str:
    return type(value).__name__


def _text(value: object, name: str) -> str:
    """A str that is valid Unicode text (no lone surrogate)."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be str, not {_type_name(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ValueError(f"{name} contains a lone surrogate at index {e.start}, which is not valid text") from None
    return value


def _items(value: object, name: str, of: str) -> Iterator[Any]:
    """The items of a collection argument; a str or bytes is not a collection here."""
    if not isinstance(value, (str, bytes, bytearray)):
        with contextlib.suppress(TypeError):
            return iter(value)  # type: ignore[call-overload, no-any-return]
    raise TypeError(f"{name} must be an iterable of {of}, not {_type_name(value)}")


def _texts(value: object, name: str) -> list[str]:
    return [_text(item, f"{name}[{i}]") for i, item in enumerate(_items(value, name, "str"))]


#: The engine's limit on ``num_threads`` (``src/tokenizer/threads.rs``).
MAX_THREADS = 1024


def _integer(value: object, name: str, minimum: int) -> int:
    """An int, not a bool, at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be int, not {_type_name(value)}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return value


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be bool, not {_type_name(value)}")
    return value


def _special_tokens(value: object) -> tuple[str, ...]:
    """Distinct non-empty strings; None stands for the defaults."""
    tokens = DEFAULT_SPECIAL_TOKENS if value is None else tuple(_texts(value, "special_tokens"))
    for i, token in enumerate(tokens):
        if not token:
            raise ValueError("special tokens must not be empty strings")
        if token in tokens[:i]:
            raise ValueError(f"special token {token!r} is listed twice")
    return tokens


def _path(value: object) -> str:
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"path must be str or os.PathLike, not {_type_name(value)}")
    return os.fspath(value)


def _vocab_ids(tokens: list[str]) -> dict[str, int]:
    """``{token: id}``, the id being the position; a repeated token is a ValueError."""
    ids: dict[str, int] = {}
    for i, token in enumerate(tokens):
        if ids.setdefault(token, i) != i:
            raise ValueError(f"duplicate token {token!r} at ids {ids[token]} and {i}")
    return ids


@dataclass(frozen=True)
class Options:
    """The pipeline options, which every constructor takes as keyword arguments."""

    clean_text: bool = True
    handle_chinese_chars: bool = True
    strip_accents: bool | None = None  # None: the same as lowercase
    lowercase: bool = True
    pre_tokenizer: str = "bert"
    unk_token: str = "[UNK]"
    cls_token: str = "[CLS]"
    sep_token: str = "[SEP]"
    max_input_chars_per_word: int = 100

    def __post_init__(self) -> None:
        for name in ("clean_text", "handle_chinese_chars", "lowercase"):
            _flag(getattr(self, name), name)
        if self.strip_accents is not None:
            _flag(self.strip_accents, "strip_accents")
        if _text(self.pre_tokenizer, "pre_tokenizer") not in PRE_TOKENIZERS:
            choices = ", ".join(map(repr, PRE_TOKENIZERS))
            raise ValueError(f"unknown pre_tokenizer {self.pre_tokenizer!r}: expected one of {choices}")
        for name in ("unk_token", "cls_token", "sep_token"):
            if not _text(getattr(self, name), name):
                raise ValueError(f"{name} must not be empty")
        _integer(self.max_input_chars_per_word, "max_input_chars_per_word", 1)

    @cached_property
    def normalizer(self) -> Normalizer:
        strip = self.lowercase if self.strip_accents is None else self.strip_accents
        return Normalizer(self.clean_text, self.handle_chinese_chars, strip, self.lowercase)

    def words(self, text: str) -> list[str]:
        """Step 1 of spec section 4 for one text: its normalized, pre-tokenized words."""
        normalized, _ = self.normalizer.normalize(text)
        return [normalized[start:end] for start, end in pre_tokenize(self.pre_tokenizer, normalized)]


@dataclass(frozen=True)
class EncodeOptions:
    """The keyword arguments of ``encode`` and ``encode_batch``, checked (spec section 9)."""

    add_special_tokens: bool = True
    max_length: int | None = None
    truncation: str = "longest_first"
    stride: int = 0
    truncation_side: str = "right"
    padding: str | None = None
    pad_to_multiple_of: int | None = None
    padding_side: str = "right"

    def __post_init__(self) -> None:
        _flag(self.add_special_tokens, "add_special_tokens")
        if self.max_length is not None:
            _integer(self.max_length, "max_length", 0)
        _integer(self.stride, "stride", 0)
        if self.pad_to_multiple_of is not None:
            _integer(self.pad_to_multiple_of, "pad_to_multiple_of", 1)
        for name in ("truncation", "truncation_side", "padding_side"):
            _text(getattr(self, name), name)
        if self.padding is not None:
            _text(self.padding, "padding")
        if self.truncation not in TRUNCATIONS:
            choices = ", ".join(map(json.dumps, TRUNCATIONS))
            raise ValueError(f"unknown truncation {json.dumps(self.truncation)}: expected one of {choices}")
        for name in ("truncation_side", "padding_side"):
            if getattr(self, name) not in SIDES:
                raise ValueError(f'{name} must be "left" or "right", not {json.dumps(getattr(self, name))}')
        if self.truncates:
            room = max(0, self.max_length - (2 if self.add_special_tokens else 0))  # type: ignore[operator]
            if 0 < self.stride and room <= self.stride:
                added = 2 if self.add_special_tokens else 0
                raise ValueError(f"stride must be less than max_length minus the {added} special tokens ({room}), "
                                 f"got {self.stride}")  # fmt: skip
        elif self.stride > 0:
            raise ValueError('stride needs max_length (and a truncation other than "do_not_truncate")')
        if self.padding is not None and self.padding not in PADDINGS:
            raise ValueError(f'padding must be None, "longest" or "max_length", not {json.dumps(self.padding)}')
        if self.padding == "max_length" and self.max_length is None:
            raise ValueError('padding="max_length" needs max_length')
        if self.pad_to_multiple_of is not None and self.padding is None:
            raise ValueError('pad_to_multiple_of needs padding="longest" or padding="max_length"')

    @property
    def truncates(self) -> bool:
        return self.max_length is not None and self.truncation != "do_not_truncate"


@dataclass(frozen=True)
class _TrainingArgs:
    """The checked arguments of the training functions."""

    vocab_size: int
    min_frequency: int
    special_tokens: tuple[str, ...]
    show_progress: bool
    options: Options

    @staticmethod
    def check(vocab_size: object, min_frequency: object, special_tokens: object, show_progress: object,
              options: dict[str, Any]) -> _TrainingArgs:  # fmt: skip
        args = _TrainingArgs(
            _integer(vocab_size, "vocab_size", 1),
            2 if min_frequency is None else _integer(min_frequency, "min_frequency", 0),
            _special_tokens(special_tokens),
            _flag(show_progress, "show_progress"),
            Options(**options),
        )
        if args.options.unk_token not in args.special_tokens:
            unk, specials = args.options.unk_token, list(args.special_tokens)
            raise ValueError(f"unk_token {unk!r} must be one of the special tokens {specials}")
        return args

    def learn(self, counts: Mapping[str, int]) -> PyTokenizer:
        vocab, merges = learn(counts, self.vocab_size, self.min_frequency, self.special_tokens, self.show_progress)
        return PyTokenizer(vocab, merges=merges, special_tokens=self.special_tokens, **asdict(self.options))


# --- The public classes -----------------------------------------------------------------------------------------------

_KEYS = ("ids", "tokens", "offsets", "attention_mask", "special_tokens_mask", "type_ids")


class Encoding:
    """The tokens of one encoded text or pair; reads like a dict and like attributes."""

    __slots__ = ("_fields", "_overflowing")

    def __init__(self, ids: list[int], tokens: list[str], offsets: list[Offsets], special_tokens_mask: list[int],
                 type_ids: list[int], attention_mask: list[int] | None = None,
                 overflowing: Sequence[Encoding] = ()) -> None:  # fmt: skip
        attention = [1] * len(ids) if attention_mask is None else attention_mask
        columns = (ids, tokens, offsets, attention, special_tokens_mask, type_ids)
        self._fields: dict[str, list[Any]] = dict(zip(_KEYS, columns))
        self._overflowing = list(overflowing)

    ids = property(lambda self: self["ids"], doc="Token ids.")
    tokens = property(lambda self: self["tokens"], doc="Token strings.")
    offsets = property(lambda self: self["offsets"], doc="(start, end) in characters of the original text.")
    attention_mask = property(lambda self: self["attention_mask"], doc="1 for every token.")
    special_tokens_mask = property(lambda self: self["special_tokens_mask"], doc="1 for the added [CLS], [SEP].")
    type_ids = property(lambda self: self["type_ids"], doc="0 for the first sequence, 1 for the second.")
    overflowing = property(lambda self: list(self._overflowing), doc="The windows that truncation cut off.")

    def __getitem__(self, key: str) -> list[Any]:
        if key not in _KEYS:
            raise KeyError(f"{key!r}: an Encoding has the keys {list(_KEYS)}")
        return list(self._fields[key])

    def __contains__(self, key: object) -> bool:
        return key in _KEYS

    def keys(self) -> list[str]:
        return list(_KEYS)

    def to_dict(self) -> dict[str, list[Any]]:
        return {key: self[key] for key in _KEYS}

    def __len__(self) -> int:
        return len(self._fields["ids"])

    def __eq__(self, other: object) -> bool:
        to_dict, overflowing = getattr(other, "to_dict", None), getattr(other, "overflowing", None)
        if not callable(to_dict) or overflowing is None:
            return NotImplemented
        return self.to_dict() == to_dict() and self.overflowing == overflowing

    def _slice(self, start: int, stop: int) -> Encoding:
        """Tokens ``start:stop``, without overflowing windows."""
        return Encoding._from_columns({key: self[key][start:stop] for key in _KEYS})

    def _joined(self, other: Encoding, overflowing: Sequence[Encoding] = ()) -> Encoding:
        """This encoding's tokens followed by ``other``'s."""
        return Encoding._from_columns({key: self[key] + other[key] for key in _KEYS}, overflowing)

    @staticmethod
    def _from_columns(columns: Mapping[str, list[Any]], overflowing: Sequence[Encoding] = ()) -> Encoding:
        """An Encoding from its six fields by name."""
        c = columns
        return Encoding(c["ids"], c["tokens"], c["offsets"], c["special_tokens_mask"], c["type_ids"],
                        c["attention_mask"], overflowing)  # fmt: skip

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = repr(self.tokens[:8])[:-1] + (", ..." if len(self) > 8 else "")
        return f"Encoding(n_tokens={len(self)}, tokens={shown}])"


class PyTokenizer:
    """A WordPiece tokenizer with BERT's pipeline.

    ``vocab`` lists the tokens, the id of a token being its position. Those of
    ``special_tokens`` that are in the vocabulary are kept whole where a text
    contains them, and ``decode(..., skip_special_tokens=True)`` drops them.
    The keyword ``options`` are the fields of :class:`Options`.
    """

    def __init__(self, vocab: Iterable[str], *, merges: Iterable[Pair] | None = None,
                 special_tokens: Sequence[str] | None = DEFAULT_SPECIAL_TOKENS, **options: Any) -> None:  # fmt: skip
        self._vocab = _texts(vocab, "vocab")
        self._merges = [_pair(pair, f"merges[{i}]") for i, pair in enumerate(_items(merges or [], "merges", "pairs"))]
        given_special_tokens = _special_tokens(special_tokens)
        self._options = Options(**options)
        self._ids = _vocab_ids(self._vocab)
        if self._options.unk_token not in self._ids:
            raise ValueError(f"unk_token {self._options.unk_token!r} is not in the vocabulary")
        self._special_tokens = [token for token in given_special_tokens if token in self._ids]
        longest_first = sorted(self._special_tokens, key=len, reverse=True)  # so the leftmost match is the longest
        self._special_pattern = re.compile("|".join(map(re.escape, longest_first))) if longest_first else None

    # -- training (spec section 4) ---------------------------------------------

    @staticmethod
    def train(corpus: Iterable[str], vocab_size: int, min_frequency: int | None = 2, *,
              special_tokens: Sequence[str] | None = DEFAULT_SPECIAL_TOKENS, show_progress: bool = False,
              **options: Any) -> PyTokenizer:  # fmt: skip
        """Learns a vocabulary of ``vocab_size`` tokens from an iterable of texts."""
        args = _TrainingArgs.check(vocab_size, min_frequency, special_tokens, show_progress, options)
        counts: Counter[str] = Counter()
        for i, text in enumerate(_items(corpus, "corpus", "str")):
            counts.update(args.options.words(_text(text, f"corpus[{i}]")))
        return args.learn(counts)

    @staticmethod
    def train_from_counts(counts: Mapping[str, int], vocab_size: int, min_frequency: int | None = 2, *,
                          special_tokens: Sequence[str] | None = DEFAULT_SPECIAL_TOKENS, show_progress: bool = False,
                          **options: Any) -> PyTokenizer:  # fmt: skip
        """``train`` on ``{word: count}``, the words being already normalized and pre-tokenized."""
        if not isinstance(counts, Mapping):
            raise TypeError(f"counts must be a dict of str to int, not {_type_name(counts)}")
        checked = {_text(word, "counts keys"): _integer(n, f"counts[{word!r}]", 1) for word, n in counts.items()}
        return _TrainingArgs.check(vocab_size, min_frequency, special_tokens, show_progress, options).learn(checked)

    # -- files -----------------------------------------------------------------

    @staticmethod
    def from_vocab_file(path: str | os.PathLike[str], *, special_tokens: Sequence[str] | None = DEFAULT_SPECIAL_TOKENS,
                        **options: Any) -> PyTokenizer:  # fmt: skip
        """Reads a BERT ``vocab.txt``: one token per line, the id being the line number from 0."""
        path = _path(path)
        with open(path, "rb") as f:
            data = f.read()
        try:
            lines = data.decode("utf-8").split("\n")
        except UnicodeDecodeError as e:
            raise ValueError(f"{path}: not UTF-8 text (invalid byte at offset {e.start})") from None
        if lines[-1] == "":  # the line break that ends the last line
            lines.pop()
        if not lines:
            raise ValueError(f"{path}: empty vocabulary file")
        vocab = [line.rstrip(WHITESPACE) for line in lines]  # as Hugging Face trims them
        try:
            _vocab_ids(vocab)
        except ValueError as e:
            raise ValueError(f"{path}: {e} (ids are line numbers from 0)") from None
        return PyTokenizer(vocab, special_tokens=special_tokens, **options)

    def to_json(self) -> str:
        """The content of the tokenizer file, as the engine writes it too."""
        return json.dumps({"format": FILE_FORMAT, "version": FILE_VERSION, "vocab": self._vocab,
                           "merges": self._merges, "special_tokens": self._special_tokens, "options": self.options},
                          ensure_ascii=False, separators=(",", ":"))  # fmt: skip

    @staticmethod
    def from_json(json_text: str) -> PyTokenizer:
        """The tokenizer that the content of a tokenizer file describes."""
        _text(json_text, "json")
        try:
            return _from_document(json.loads(json_text))
        except (json.JSONDecodeError, TypeError, ValueError) as e:
            raise ValueError(f"not a fast-wordpiece tokenizer file: {e}") from None

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the tokenizer file (JSON), atomically."""
        _write_atomic(_path(path), self.to_json())

    @staticmethod
    def load(path: str | os.PathLike[str]) -> PyTokenizer:
        """Reads a tokenizer file that either implementation saved."""
        path = _path(path)
        with open(path, "rb") as f:
            data = f.read()
        try:
            return PyTokenizer.from_json(data.decode("utf-8"))
        except ValueError as e:  # including UnicodeDecodeError
            raise ValueError(f"{path}: {e}") from None

    def save_vocab(self, path: str | os.PathLike[str]) -> None:
        """Writes the vocabulary as a BERT ``vocab.txt``, atomically."""
        _write_atomic(_path(path), "".join(token + "\n" for token in self._vocab))

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return PyTokenizer.from_json, (self.to_json(),)

    # -- encoding (spec sections 5 and 6) --------------------------------------

    def encode(self, text: str, pair: str | None = None, add_special_tokens: bool = True, *,
               max_length: int | None = None, truncation: str = "longest_first", stride: int = 0,
               truncation_side: str = "right", padding: str | None = None, pad_to_multiple_of: int | None = None,
               padding_side: str = "right") -> Encoding:  # fmt: skip
        """The encoding of ``text``, or of the pair; ``[CLS] text [SEP] pair [SEP]`` with special tokens.
        Truncation and padding as in spec section 9."""
        first = _text(text, "text")
        second = None if pair is None else _text(pair, "pair")
        options = EncodeOptions(add_special_tokens, max_length, truncation, stride, truncation_side, padding,
                                pad_to_multiple_of, padding_side)  # fmt: skip
        pad_id = self._pad_id(options)
        return self._pad([self._encode_one(first, second, options)], options, pad_id)[0]

    def encode_batch(self, inputs: Iterable[str | tuple[str, str]], add_special_tokens: bool = True, *,
                     max_length: int | None = None, truncation: str = "longest_first", stride: int = 0,
                     truncation_side: str = "right", padding: str | None = None,
                     pad_to_multiple_of: int | None = None, padding_side: str = "right",
                     return_tensors: str | None = None, num_threads: int | None = None) -> Any:  # fmt: skip
        """``encode`` for each item, a str or a ``(text, pair)`` tuple, then padding of the whole batch;
        a list of Encoding, or with ``return_tensors="np"`` a dict of numpy arrays. ``num_threads`` is
        checked and otherwise ignored: the twin runs on one thread."""
        if num_threads is not None and _integer(num_threads, "num_threads", 1) > MAX_THREADS:
            raise ValueError(f"num_threads must be between 1 and {MAX_THREADS}, not {num_threads}")
        options = EncodeOptions(add_special_tokens, max_length, truncation, stride, truncation_side, padding,
                                pad_to_multiple_of, padding_side)  # fmt: skip
        if return_tensors is not None and _text(return_tensors, "return_tensors") != "np":
            raise ValueError(f'return_tensors must be None or "np", not {return_tensors!r}')
        if return_tensors is not None:
            _import_numpy()
        texts = [_batch_item(item, f"inputs[{i}]") for i, item in enumerate(_items(inputs, "inputs", "str"))]
        if options.add_special_tokens:
            self._cls_and_sep()
        pad_id = self._pad_id(options)
        batch = []
        for i, (text, pair) in enumerate(texts):
            try:
                batch.append(self._encode_one(text, pair, options))
            except ValueError as e:
                raise ValueError(f"inputs[{i}]: {e}") from None
        batch = self._pad(batch, options, pad_id)
        return batch if return_tensors is None else numpy_arrays(batch)

    def _encode_one(self, text: str, pair: str | None, options: EncodeOptions) -> Encoding:
        """One input, truncated (spec section 9) and post-processed."""
        first = self._encode_text(text)
        second = None if pair is None else self._encode_text(pair)
        if not options.truncates:
            return self._post_process(first, second, options.add_special_tokens)
        cls_and_sep = self._cls_and_sep() if options.add_special_tokens else None
        added = 0 if cls_and_sep is None else 2 if second is None else 3
        a, b = truncate(self._sequence(first), None if second is None else self._sequence(second), options, added)
        x = self._post_process_window(a, 0, cls_and_sep)
        return x if b is None else merge(x, self._post_process_window(b, 1, cls_and_sep))

    def _sequence(self, rows: list[tuple[int, Offsets]]) -> Encoding:
        """Raw tokens as an Encoding: type ids 0, masks 0."""
        ids = [id_ for id_, _ in rows]
        return Encoding(ids, [self._vocab[i] for i in ids], [o for _, o in rows], [0] * len(ids), [0] * len(ids))

    def _post_process_window(self, window: Encoding, type_id: int, cls_and_sep: tuple[int, int] | None) -> Encoding:
        """``[CLS] window [SEP]`` (first sequence) or ``window [SEP]`` (second), all with ``type_id``; the same
        for each overflowing window."""
        rows = [(id_, offsets, special) for id_, offsets, special in
                zip(window.ids, window.offsets, window.special_tokens_mask)]  # fmt: skip
        if cls_and_sep is not None:
            cls, sep = cls_and_sep
            rows = ([(cls, (0, 0), 1)] if type_id == 0 else []) + rows + [(sep, (0, 0), 1)]
        ids = [id_ for id_, _, _ in rows]
        overflowing = [self._post_process_window(w, type_id, cls_and_sep) for w in window.overflowing]
        return Encoding(ids, [self._vocab[i] for i in ids], [o for _, o, _ in rows], [s for _, _, s in rows],
                        [type_id] * len(rows), overflowing=overflowing)  # fmt: skip

    def _pad_id(self, options: EncodeOptions) -> int | None:
        if options.padding is None:
            return None
        if PAD_TOKEN not in self._ids:
            raise ValueError(f'padding needs "{PAD_TOKEN}" in the vocabulary')
        return self._ids[PAD_TOKEN]

    def _pad(self, batch: list[Encoding], options: EncodeOptions, pad_id: int | None) -> list[Encoding]:
        if pad_id is None:
            return batch
        length = padding_length(batch, options)
        return [pad(encoding, length, pad_id, options.padding_side) for encoding in batch]

    def _encode_text(self, text: str) -> list[tuple[int, Offsets]]:
        """The ids and offsets of one text: special tokens kept whole, the rest tokenized."""
        out: list[tuple[int, Offsets]] = []
        start = 0
        for match in self._special_pattern.finditer(text) if self._special_pattern else ():
            out += self._encode_segment(text[start : match.start()], start)
            out.append((self._ids[match.group()], match.span()))
            start = match.end()
        return out + self._encode_segment(text[start:], start)

    def _encode_segment(self, segment: str, base: int) -> list[tuple[int, Offsets]]:
        """Normalizes, pre-tokenizes and WordPiece-encodes text without special tokens."""
        o = self._options
        normalized, origins = o.normalizer.normalize(segment)
        out = []
        for word_start, word_end in pre_tokenize(o.pre_tokenizer, normalized):
            word = normalized[word_start:word_end]
            for token, start, end in wordpiece(word, self._ids, o.unk_token, o.max_input_chars_per_word):
                first, last = origins[word_start + start], origins[word_start + end - 1]
                out.append((self._ids[token], (base + first, base + last + 1)))
        return out

    def _post_process(self, first: list[tuple[int, Offsets]], second: list[tuple[int, Offsets]] | None,
                      add_special_tokens: bool) -> Encoding:  # fmt: skip
        """``[CLS] A [SEP] B [SEP]`` (or ``A B``), type ids 0 up to the first ``[SEP]``, then 1."""
        cls, sep = self._cls_and_sep() if add_special_tokens else (None, None)
        rows: list[tuple[int, Offsets, int, int]] = []  # id, offsets, special, type id
        if cls is not None:
            rows.append((cls, (0, 0), 1, 0))
        for type_id, sequence in enumerate([first] if second is None else [first, second]):
            rows += [(id_, offsets, 0, type_id) for id_, offsets in sequence]
            if sep is not None:
                rows.append((sep, (0, 0), 1, type_id))
        ids, offsets, special, type_ids = (list(column) for column in zip(*rows)) if rows else ([], [], [], [])
        return Encoding(ids, [self._vocab[i] for i in ids], offsets, special, type_ids)

    def _cls_and_sep(self) -> tuple[int, int]:
        cls, sep = self._options.cls_token, self._options.sep_token
        if cls not in self._ids or sep not in self._ids:
            raise ValueError(f"cannot add special tokens: {cls!r} and {sep!r} must both be in the vocabulary "
                             "(pass add_special_tokens=False)")  # fmt: skip
        return self._ids[cls], self._ids[sep]

    # -- decoding (spec section 7) ---------------------------------------------

    def decode(self, ids: Iterable[int], skip_special_tokens: bool = False) -> str:
        """Turns ids back into text; an id outside the vocabulary is a ValueError."""
        return self._decode(self._checked_ids(ids, "ids"), _flag(skip_special_tokens, "skip_special_tokens"))

    def decode_batch(self, sequences: Iterable[Iterable[int]], skip_special_tokens: bool = False) -> list[str]:
        """``decode`` for each sequence of ids."""
        skip = _flag(skip_special_tokens, "skip_special_tokens")
        items = enumerate(_items(sequences, "sequences", "sequences of int"))
        return [self._decode(self._checked_ids(ids, f"sequences[{i}]"), skip) for i, ids in items]

    def _decode(self, ids: list[int], skip_special_tokens: bool) -> str:
        tokens = [self._vocab[i] for i in ids]
        return decode_tokens([t for t in tokens if t not in self._special_tokens] if skip_special_tokens else tokens)

    def _checked_ids(self, ids: object, name: str) -> list[int]:
        checked = []
        for i, id_ in enumerate(_items(ids, name, "int")):
            if isinstance(id_, bool) or not isinstance(id_, int):
                raise TypeError(f"{name}[{i}] must be int, not {_type_name(id_)}")
            if not 0 <= id_ < len(self._vocab):
                raise ValueError(f"{name}[{i}] = {id_} is out of range for a vocabulary of {len(self._vocab)} tokens")
            checked.append(id_)
        return checked

    # -- the vocabulary --------------------------------------------------------

    def get_vocab(self) -> dict[str, int]:
        return dict(self._ids)

    @property
    def vocab_size(self) -> int:
        return len(self._vocab)

    @property
    def merges(self) -> list[Pair]:
        """The merges, in the order training made them."""
        return list(self._merges)

    @property
    def special_tokens(self) -> list[str]:
        """The special tokens that are in the vocabulary, in the given order."""
        return list(self._special_tokens)

    @property
    def options(self) -> dict[str, Any]:
        """The pipeline options, as keyword arguments for the constructors."""
        return asdict(self._options)

    def token_to_id(self, token: str) -> int | None:
        return self._ids.get(_text(token, "token"))

    def id_to_token(self, id: int) -> str | None:  # noqa: A002  (the engine's name)
        """The token with this id; None past the vocabulary, ValueError if negative."""
        return self._vocab[id] if _integer(id, "id", 0) < len(self._vocab) else None

    def __eq__(self, other: object) -> bool:
        return self.to_json() == other.to_json() if isinstance(other, PyTokenizer) else NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        o = self._options
        return (f"PyTokenizer(vocab_size={self.vocab_size}, lowercase={o.lowercase}, strip_accents={o.strip_accents}, "
                f"pre_tokenizer={o.pre_tokenizer!r}, merges={len(self._merges)})")  # fmt: skip


def _pair(value: object, name: str) -> Pair:
    if not (isinstance(value, (tuple, list)) and len(value) == 2):
        raise TypeError(f"{name} must be a pair of str")
    return _text(value[0], f"{name}[0]"), _text(value[1], f"{name}[1]")


def _batch_item(item: object, name: str) -> tuple[str, str | None]:
    if isinstance(item, tuple) and len(item) != 2:
        raise TypeError(f"{name} must be str or a (str, str) pair")
    if isinstance(item, tuple):
        return _text(item[0], f"{name}[0]"), _text(item[1], f"{name}[1]")
    return _text(item, name), None


def _fields(value: object, names: Iterable[str], what: str) -> dict[str, Any]:
    """A JSON object that has exactly the fields ``names``."""
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be a JSON object")
    missing, unknown = set(names) - value.keys(), value.keys() - set(names)
    if missing or unknown:
        raise ValueError(f"{what}: missing fields {sorted(missing)}, unknown fields {sorted(unknown)}")
    return value


def _from_document(document: object) -> PyTokenizer:
    """The tokenizer a parsed tokenizer file describes (TypeError or ValueError if malformed)."""
    doc = _fields(document, ("format", "version", "vocab", "merges", "special_tokens", "options"), "the file")
    if doc["format"] != FILE_FORMAT or type(doc["version"]) is not int or doc["version"] != FILE_VERSION:
        raise ValueError(f"unsupported format {doc['format']!r} version {doc['version']!r}")
    if not all(isinstance(doc[name], list) for name in ("vocab", "merges", "special_tokens")):
        raise ValueError("vocab, merges and special_tokens must be JSON arrays")
    options = _fields(doc["options"], Options.__dataclass_fields__, "options")
    return PyTokenizer(doc["vocab"], merges=doc["merges"], special_tokens=doc["special_tokens"], **options)


def _write_atomic(path: str, content: str) -> None:
    """Writes a temporary file beside ``path``, then renames it to ``path``."""
    directory, name = os.path.split(path)
    temporary = os.path.join(directory, f".{name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "w", encoding="utf-8", newline="\n") as f:
            f.write(content)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        raise
