"""Byte-level BPE (GPT-2 style), written out plainly: the twin of ``src/bpe``.

docs/spec.md, "Byte-level BPE", states the rules this follows: the GPT-2
pre-tokenization regex (coded by hand below, alternative by alternative), the
byte-to-character mapping, encoding by merge rank one merge at a time, and
training that recounts every pair at every merge.
"""

from __future__ import annotations

import json
import json as _json  # from_json's parameter is named json, as the engine's
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, SupportsIndex

from fast_wordpiece import batch_encoding
from fast_wordpiece.reference import family
from fast_wordpiece.reference.args import (
    TEXT_COUNTS,
    _corpus_texts,
    _flag,
    _integer,
    _path,
    _quoted,
    _special_texts,
    _StrPath,
    _text,
    _text_counts,
    _threads,
    _type_name,
)
from fast_wordpiece.reference.family import IdArray as _IdArray
from fast_wordpiece.reference.family import IntT as _IntT
from fast_wordpiece.reference.files import load_parsed, paths_arg, read_utf8, write_atomic
from fast_wordpiece.reference.hf_json import check_root_keys, load_json
from fast_wordpiece.reference.json_text import shown
from fast_wordpiece.reference.training import check_occurrences
from fast_wordpiece.reference.unicode import LETTER, NUMBER

#: Unicode White_Space: what ``\\s`` matches.
WHITE_SPACE = family.WHITE_SPACE
CONTRACTIONS = ("s", "t", "re", "ve", "m", "ll", "d")
DEFAULT_SPECIAL = ("<|endoftext|>",)


def bytes_to_unicode() -> dict[int, str]:
    """Printable bytes stand for themselves; the other 68 map to U+0100, U+0101, ... in order."""
    printable = [*range(ord("!"), ord("~") + 1), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
    mapping, extra = {}, 0
    for b in range(256):
        if b in printable:
            mapping[b] = chr(b)
        else:
            mapping[b] = chr(0x100 + extra)
            extra += 1
    return mapping


BYTE_CHAR = bytes_to_unicode()
CHAR_BYTE = {c: b for b, c in BYTE_CHAR.items()}


def is_letter(c: str) -> bool:
    """Whether ``c`` is a letter (general category L, of the engine's Unicode 16 tables)."""
    return c in LETTER


def is_number(c: str) -> bool:
    """Whether ``c`` is a number (general category N, of the engine's Unicode 16 tables)."""
    return c in NUMBER


def is_space(c: str) -> bool:
    """Whether ``c`` is Unicode White_Space."""
    return c in WHITE_SPACE


def is_other(c: str) -> bool:
    """Whether ``c`` is neither a letter, a number nor whitespace."""
    return not (is_letter(c) or is_number(c) or is_space(c))


def pre_tokenize(text: str) -> list[str]:
    """``'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+``"""
    pieces, i, n = [], 0, len(text)
    while i < n:
        end = None
        if text[i] == "'":
            for suffix in CONTRACTIONS:
                if text.startswith(suffix, i + 1):
                    end = i + 1 + len(suffix)
                    break
        if end is None:
            start = i + 1 if text[i] == " " and i + 1 < n else i
            for test in (is_letter, is_number, is_other):
                if test(text[start]):
                    end = start
                    while end < n and test(text[end]):
                        end += 1
                    break
        if end is None:  # whitespace
            end = i
            while end < n and is_space(text[end]):
                end += 1
            if end < n and end - 1 > i:
                end -= 1  # leave the last one to the next piece
        pieces.append(text[i:end])
        i = end
    return pieces


def show(piece: str) -> str:
    """A piece's UTF-8 bytes as byte characters."""
    return "".join(BYTE_CHAR[b] for b in piece.encode("utf-8"))


def merge_pairs(merges: object) -> list[tuple[str, str]]:
    """The constructor's ``merges``, checked as the engine checks them: an iterable (not a str) of
    ``(str, str)`` tuples (or lists of two str) or ``"a b"`` strings (split at the first space); TypeError naming the
    first bad item otherwise, ValueError naming a str with a lone surrogate (``merges[3]``, ``merges[3][1]``)."""
    if isinstance(merges, (str, bytes, bytearray)):
        raise TypeError(f"merges must be an iterable of pairs of str, not {_type_name(merges)}")
    try:
        items = iter(merges)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(f"merges must be a list of pairs, not {_type_name(merges)}") from None

    pairs = []
    for i, m in enumerate(items):
        if isinstance(m, str) and " " in _text(m, f"merges[{i}]"):
            a, b = m.split(" ", 1)
        elif isinstance(m, (tuple, list)) and len(m) == 2 and all(isinstance(x, str) for x in m):
            # a list of two as a tuple: a tokenizer.json's merges, read by json.load
            a, b = _text(m[0], f"merges[{i}][0]"), _text(m[1], f"merges[{i}][1]")
        else:
            raise TypeError(f'merges[{i}] must be a pair of str or "a b", not {_type_name(m)}')
        pairs.append((a, b))
    return pairs


def _is_count(v: object) -> bool:
    """Whether ``v`` is a JSON count the engine reads: an int in 0..2**64-1."""
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**64


def _padding(p: object) -> dict[str, object]:
    """A ``padding`` section as the ``padding`` property shows it; ValueError naming what is wrong."""
    if not isinstance(p, dict):
        raise ValueError("padding: expected an object (or null)")

    def number(key: str) -> int | None:
        v = p.get(key)
        if v is not None and not _is_count(v):
            raise ValueError(f"padding.{key}: {shown(v)} is not a count")
        return v

    strategy = p.get("strategy")
    if strategy is None or strategy == "BatchLongest":
        length = None
    elif isinstance(strategy, dict) and list(strategy) == ["Fixed"] and _is_count(strategy["Fixed"]):
        length = strategy["Fixed"]
    else:
        raise ValueError(f'padding.strategy: {shown(strategy)} is not "BatchLongest" or {{"Fixed": n}}')
    direction = p.get("direction")
    if direction not in (None, "Right", "Left"):
        raise ValueError(f'padding.direction: {shown(direction)} is not "Right" or "Left"')
    token = p.get("pad_token", "[PAD]")
    if not isinstance(token, str):
        raise ValueError(f"padding.pad_token: {shown(token)} is not a str")

    def id_(key: str) -> int:
        n = number(key) or 0
        if n >= 2**32:
            raise ValueError(f"padding.{key}: {n} is too large")
        return n

    out = {"length": length, "pad_to_multiple_of": number("pad_to_multiple_of"), "pad_id": id_("pad_id")}
    return out | {"pad_token": token, "pad_type_id": id_("pad_type_id"),
                  "direction": "left" if direction == "Left" else "right"}  # fmt: skip


def _shown(value: object) -> str:
    """A JSON value as the engine shows it in messages (its compact JSON text)."""
    return shown(value)


def _bpe_model(model: Any) -> tuple[dict[str, int], list[Any], str | None]:
    """A tokenizer.json's ``model`` (after its ``type``) read as the engine reads it, in its order: the
    options it does not run refused, then the vocabulary (ids 0..n, each once), the merges (``"a b"``
    or ``[a, b]``) and the unknown token (a str or null)."""
    if not isinstance(model, dict):  # the engine finds none of its fields, the vocabulary first missed
        raise ValueError("model.vocab: expected an object")
    for key in ("dropout", "continuing_subword_prefix", "end_of_word_suffix"):
        if model.get(key) is not None and model.get(key) != "":
            raise ValueError(f"model.{key}: not supported")
    for key in ("fuse_unk", "byte_fallback", "ignore_merges"):
        value = model.get(key)
        if value is not None and value is not False:  # JSON's false only (not 0)
            raise ValueError(f"model.{key}: {shown(value)} is not supported (only false)")
    given = model.get("vocab")
    if not isinstance(given, dict):
        raise ValueError("model.vocab: expected an object")
    slots: list[str | None] = [None] * len(given)
    for token, id_ in given.items():
        if not _is_count(id_):
            raise ValueError(f"model.vocab: {_quoted(token)}: id {shown(id_)} is not an integer")
        if id_ >= len(slots):
            raise ValueError(f"model.vocab: {_quoted(token)}: id {id_} leaves a gap (ids must be 0..{len(slots)})")
        if slots[id_] is not None:
            raise ValueError(f"model.vocab: id {id_} is given twice")
        slots[id_] = token
    vocab = {token: id_ for id_, token in enumerate(slots) if token is not None}
    given_merges = model.get("merges")
    if not isinstance(given_merges, list):
        raise ValueError("model.merges: expected a list")
    merges: list[Any] = []
    for i, m in enumerate(given_merges):
        if isinstance(m, str) and " " in m:
            merges.append(tuple(m.split(" ", 1)))
        elif isinstance(m, list) and len(m) == 2 and all(isinstance(x, str) for x in m):
            merges.append(tuple(m))
        else:
            raise ValueError(f'model.merges[{i}]: expected "a b" or [a, b]')
    unk = model.get("unk_token")
    if unk is not None and not isinstance(unk, str):
        raise ValueError(f"model.unk_token: expected a string or null, found {shown(unk)}")
    return vocab, merges, unk


def _byte_level(part: object, key: str, required: bool) -> None:
    """The engine's check of a ``pre_tokenizer`` or ``decoder``: a ``ByteLevel`` one, or none
    when not ``required``; ValueError naming ``key`` otherwise."""
    if part is None:
        if required:
            raise ValueError(f"{key}: a ByteLevel component is required")
        return
    kind = part.get("type") if isinstance(part, dict) else None
    if kind != "ByteLevel":
        raise ValueError(f"{key}: {_shown(kind)} is not supported (only ByteLevel)")


def _is_identity_template(post: Any) -> bool:
    """Whether a post-processor is a ``TemplateProcessing`` that changes nothing: single ``$A:0``, pair
    ``$A:0 $B:1``, no special tokens (as transformers 5 writes GPT-2's). It reads as none."""

    def sequence(name: str, type_id: int) -> dict[str, Any]:
        return {"Sequence": {"id": name, "type_id": type_id}}

    return (isinstance(post, dict) and len(post) == 4 and post.get("type") == "TemplateProcessing"
            and post.get("single") == [sequence("A", 0)] and post.get("pair") == [sequence("A", 0), sequence("B", 1)]
            and post.get("special_tokens") == {})  # fmt: skip


class BPETokenizer(family.TableLookups, family.TransformersCalls):
    """The twin of ``fast_wordpiece.BPETokenizer``: byte-level BPE, GPT-2 style
    (docs/spec.md section 15). ``vocab`` maps tokens to ids 0..n, ``merges``
    are pairs (tuples or lists of two, or ``"a b"`` strings) in rank order; ``special_tokens`` (default
    none) are split out of the text first, ``unk_token`` (default None) stands
    for a byte the vocabulary lacks. ValueError for ids with a gap or a token
    named that is not in the vocabulary."""

    def __init__(
        self,
        vocab: dict[str, _IntT],
        merges: Iterable[tuple[str, str] | list[str] | str],
        *,
        special_tokens: Iterable[str] | None = None,
        unk_token: str | None = None,
    ) -> None:
        if unk_token is not None:
            _text(unk_token, "unk_token")
        self.vocab = family.table_vocab(vocab)
        self.id_to = {i: t for t, i in self.vocab.items()}
        pairs = merge_pairs(merges)
        self.specials = list(dict.fromkeys(() if special_tokens is None else _special_texts(special_tokens)))
        # The engine's order: the merges, the unknown token, then the special tokens.
        self.ranks: dict[tuple[str, str], int] = {}
        for rank, (a, b) in enumerate(pairs):
            for t, what in ((a, "merge token"), (b, "merge token"), (a + b, "merged token")):
                if t not in self.vocab:
                    raise ValueError(f"{what} {_quoted(t)} is not in the vocabulary")
            # a merge listed twice takes the rank of its last place, as in Hugging Face's
            self.ranks.pop((a, b), None)
            self.ranks[(a, b)] = rank
        # (ranks 0, 1, ... in that order, as the merges list them: a merge listed twice leaves a gap)
        self.ranks = {merge: rank for rank, merge in enumerate(self.ranks)}
        if unk_token is not None and unk_token not in self.vocab:
            raise ValueError(f"unk_token {_quoted(unk_token)} is not in the vocabulary")
        for t in self.specials:
            if not t:
                raise ValueError("a special token must not be empty")
            if t not in self.vocab:
                raise ValueError(f"special token {_quoted(t)} is not in the vocabulary")
        self._unk_token = unk_token
        #: the file's ByteLevel post-processor: trim_offsets, and add_prefix_space with it
        self._trim = (False, False)
        #: the file's added tokens with lstrip or rstrip: token -> (lstrip, rstrip)
        self._strip: dict[str, tuple[bool, bool]] = {}
        #: the file's added tokens with normalized (matched in the text between the others)
        self._normalized: set[str] = set()
        #: the file's added tokens with single_word (passed over where a word character touches them)
        self._single_word: set[str] = set()
        #: the file's added tokens whose special is false (split out of the text as the others, kept by
        #: decode and convert_ids_to_tokens with skip_special_tokens)
        self._plain: set[str] = set()
        #: the file's RobertaProcessing: the tokens before and after each text
        self._template: tuple[str, str] | None = None
        #: the file's padding section, kept to be written back, and as the ``padding`` property shows it
        self._padding: dict[str, object] | None = None
        self._pad: dict[str, object] | None = None

    @property
    def padding(self) -> dict[str, object] | None:
        """The file's ``padding`` section, as ``tokenizers``' ``Tokenizer.padding`` shows it
        (``length`` None for ``BatchLongest``; ``direction`` "right" or "left"), or None.
        ``encode`` and ``encode_batch`` apply it (``tokenize`` does not); the call pads as its own
        ``padding=`` says."""
        return None if self._pad is None else dict(self._pad)

    def _padded(self, rows: list[list[str]]) -> list[list[str]]:
        """``rows`` of tokens padded as the file's ``padding`` section says (Hugging Face's rule)."""
        if self._pad is None:
            return rows
        p = self._pad
        length, m = p["length"], p["pad_to_multiple_of"]
        n = length if isinstance(length, int) else max(map(len, rows), default=0)
        if isinstance(m, int) and m and n % m:
            n += m - n % m
        pad_id = p["pad_id"]
        assert isinstance(pad_id, int)  # checked by from_json
        fill = self.id_to[pad_id]
        out = []
        for row in rows:
            try:
                more = [fill] * max(n - len(row), 0)
            except (MemoryError, OverflowError):
                raise MemoryError(f"an encoding of {n} tokens needs more memory than can be reserved") from None
            out.append(more + row if p["direction"] == "left" else row + more)
        return out

    @property
    def special_tokens_strip(self) -> dict[str, tuple[bool, bool]]:
        """``{token: (lstrip, rstrip)}`` for the added tokens that take in the whitespace on their
        left or right when split out of the text (the ``lstrip`` and ``rstrip`` of the file's added
        tokens, as RoBERTa's ``<mask>`` has); empty for a tokenizer built or trained here."""
        return {t: self._strip[t] for t in self._added() if t in self._strip}

    @property
    def template(self) -> tuple[str, str] | None:
        """The tokens RoBERTa's template puts before and after each text, ``(cls, sep)``
        (``<s> A </s>``), from the ``RobertaProcessing`` post-processor of the file it was
        loaded from; None otherwise."""
        return self._template

    @property
    def trim_offsets(self) -> bool:
        """Whether ``return_offsets_mapping`` leaves out the spaces at either end of a token, as
        the ``ByteLevel`` post-processor of the file it was loaded from says (true when the file
        leaves it out); False for a tokenizer built or trained here."""
        return self._trim[0]

    @property
    def trim_keeps_prefix_space(self) -> bool:
        """Whether trimmed offsets keep the single leading space of the first token, as the
        ``ByteLevel`` post-processor's ``add_prefix_space`` says (true when the file leaves it
        out); always False without ``trim_offsets``."""
        return self._trim[1]

    # ------------------------------------------------------------------ training
    @staticmethod
    def train(
        corpus: Iterable[str | Iterable[str]],
        vocab_size: SupportsIndex = 30000,
        min_frequency: SupportsIndex | None = None,
        *,
        special_tokens: Iterable[str] | None = None,
        show_progress: bool = True,
    ) -> BPETokenizer:
        """Same as the engine's ``BPETokenizer.train``: counts the
        pre-tokenized pieces of ``corpus`` (texts, and batches of texts
        read as their texts) and trains on them (``train_from_counts``;
        ``min_frequency`` None means 2, ``special_tokens`` None means
        ``["<|endoftext|>"]``). ``show_progress`` is checked first, as in the
        engine; the twin shows none."""
        _flag(show_progress, "show_progress")
        special_tokens = family.train_args(vocab_size, min_frequency, special_tokens)
        counts: Counter[str] = Counter()
        for text in _corpus_texts(corpus, "corpus"):
            counts.update(show(p) for p in pre_tokenize(text))
        return BPETokenizer.train_from_counts(counts, vocab_size, min_frequency, special_tokens=special_tokens)

    @staticmethod
    def train_from_files(
        paths: _StrPath | Iterable[_StrPath],
        vocab_size: SupportsIndex = 30000,
        min_frequency: SupportsIndex | None = None,
        *,
        special_tokens: Iterable[str] | None = None,
        show_progress: bool = True,
    ) -> BPETokenizer:
        """``train`` on UTF-8 text files, each read whole: OSError for a file that cannot be
        read, ValueError for one that is not UTF-8. The arguments are checked first, in the
        engine's order (``show_progress``, ``paths``, then the others)."""
        _flag(show_progress, "show_progress")
        files = paths_arg(paths)
        special_tokens = family.train_args(vocab_size, min_frequency, special_tokens)
        texts = [read_utf8(path) for path in files]
        return BPETokenizer.train(texts, vocab_size, min_frequency, special_tokens=special_tokens)

    @staticmethod
    def train_from_counts(
        counts: Mapping[str, SupportsIndex] | Iterable[tuple[str, SupportsIndex]],
        vocab_size: SupportsIndex = 30000,
        min_frequency: SupportsIndex | None = None,
        *,
        special_tokens: Iterable[str] | None = None,
        show_progress: bool = True,
    ) -> BPETokenizer:
        """Same as the engine's ``BPETokenizer.train_from_counts``: pieces as
        byte-level strings with their counts (a mapping or pairs). The
        vocabulary is the special tokens (None: ``["<|endoftext|>"]``) and the
        256 byte characters; every pair frequency is recounted at every merge,
        the most frequent eligible pair (seen at least ``min_frequency``
        times, None: 2) merged, until ``vocab_size`` tokens or no eligible
        pair. Returns the new tokenizer. ``show_progress`` is checked first, as in the engine; the
        twin shows none."""
        _flag(show_progress, "show_progress")
        checked = _text_counts(counts, "counts", TEXT_COUNTS, 0)
        byte_chars = set(BYTE_CHAR.values())
        for i, (piece, _) in enumerate(checked):
            if not set(piece) <= byte_chars:
                raise ValueError(
                    f"counts[{i}]: {_quoted(piece)} is not a byte-level string (every character must show a byte)"
                )
        vocab_size = _integer(vocab_size, "vocab_size", 1)
        min_frequency = 2 if min_frequency is None else _integer(min_frequency, "min_frequency", 0)
        words = [(list(w), c) for w, c in checked if w and c > 0]
        specials = list(DEFAULT_SPECIAL if special_tokens is None else _special_texts(special_tokens))
        for i, t in enumerate(specials):
            if not t or t in specials[:i]:
                raise ValueError(f"special token {_quoted(t)} is empty or given twice")
        check_occurrences(words)
        vocab: dict[str, int] = {}
        for t in [*specials, *sorted(set(BYTE_CHAR.values()) | {c for w, _ in words for c in w})]:
            vocab.setdefault(t, len(vocab))
        merges = []
        while len(vocab) < vocab_size:
            freq: Counter[tuple[str, str]] = Counter()
            k: Counter[tuple[str, str]] = Counter()
            for w, c in words:
                for pair in zip(w, w[1:]):
                    freq[pair] += c
                    if pair[0] != pair[1]:
                        k[pair] += c
                # k of (x, x): what a left-to-right merge replaces, r // 2 in a run of r.
                i = 0
                while i < len(w):
                    j = i
                    while j < len(w) and w[j] == w[i]:
                        j += 1
                    k[(w[i], w[i])] += c * ((j - i) // 2)
                    i = j
            eligible = [p for p, f in freq.items() if f > 0 and f >= min_frequency]
            if not eligible:
                break
            # Highest count, then larger k, then smaller left token, then smaller right token.
            a, b = min(eligible, key=lambda p: (-freq[p], -k[p], p[0], p[1]))
            merges.append((a, b))
            vocab.setdefault(a + b, len(vocab))
            for w, _ in words:
                i = 0
                while i + 1 < len(w):
                    if w[i] == a and w[i + 1] == b:
                        w[i : i + 2] = [a + b]
                    i += 1
        trained = BPETokenizer(vocab, merges, special_tokens=specials)
        if not words:  # checked after the special tokens, as the engine does
            raise ValueError("the corpus has no words to train on")
        return trained

    def _compared(self) -> object:
        """The vocabulary, the merges, the unknown token, the special tokens (in any order: the
        order given changes no split), and what a file gave (the offsets' trimming, the tokens' lstrip and
        rstrip, the template, the padding section), as the engine compares them."""
        strip = {t: f for t, f in self._strip.items() if any(f)}
        return (
            self.vocab,
            self.ranks,
            self.unk_token,
            set(self.specials),
            self._trim,
            strip,
            self._normalized & set(self.specials),
            self._single_word & set(self.specials),
            self._plain & set(self.specials),
            self._template,
            self._padding,
        )

    # ------------------------------------------------------------------ encoding
    def _encode_piece(self, piece: str) -> list[str]:
        symbols: list[str] = []
        for b in piece.encode("utf-8"):
            if BYTE_CHAR[b] in self.vocab:
                symbols.append(BYTE_CHAR[b])
            elif self.unk_token is not None:
                symbols.append(self.unk_token)
        while True:
            ranked = [(self.ranks[p], i) for i, p in enumerate(zip(symbols, symbols[1:])) if p in self.ranks]
            if not ranked:
                return symbols
            _, i = min(ranked)  # lowest rank, leftmost
            symbols[i : i + 2] = [symbols[i] + symbols[i + 1]]

    def _sequence(self, text: str, shown: bool) -> list[str]:
        """The tokens of one text, no template; with ``shown``, a special token as the text it was
        split out of (with the whitespace its ``lstrip`` or ``rstrip`` took in), as Hugging Face's
        encoding shows it."""
        tokens: list[str] = []
        raw = [t for t in self.specials if t not in self._normalized]
        normalized = [t for t in self.specials if t in self._normalized]
        for segment, _, special in family.split_both(text, raw, normalized, self._strip, self._single_word):
            if special is not None:
                tokens.append(segment if shown else special)
                continue
            for piece in pre_tokenize(segment):
                tokens.extend(self._encode_piece(piece))
        return tokens

    def _tokens(self, text: str, add_special_tokens: bool, pair: str | None = None, shown: bool = False) -> list[str]:
        """The tokens of ``text`` and of ``pair`` when given (not None), in the template when
        there is one and ``add_special_tokens`` (``<s> A </s></s> B </s>`` for a pair), else one
        after the other. The flag is checked first, as the engine reads it before the texts."""
        _flag(add_special_tokens, "add_special_tokens")
        _text(text, "text")
        if pair is not None:
            _text(pair, "pair")
        template = self._template if add_special_tokens else None
        tokens: list[str] = []
        for i, t in enumerate([text] if pair is None else [text, pair]):
            if template is not None:
                tokens.append(template[0] if i == 0 else template[1])
            tokens.extend(self._sequence(t, shown))
            if template is not None:
                tokens.append(template[1])
        return tokens

    def tokenize(
        self, text: str, pair: str | None = None, *, add_special_tokens: bool = False, **kwargs: Any
    ) -> list[str]:
        """The tokens (byte-level strings) of ``text`` and of ``pair`` when given (an empty one is
        none), as transformers' ``tokenize``: without the special tokens of a file's template unless
        ``add_special_tokens``, and never padded; a special token split out of the text shows the
        whitespace its ``lstrip`` or ``rstrip`` took in (RoBERTa's ``<mask>`` as ``" <mask>"``), as
        transformers shows it; TypeError unless they are str. The call's other keyword arguments
        (``truncation``, ``max_length``, ``padding``, ...) are accepted and change nothing, as in
        transformers 5 (``batch_encoding.tokenize_keywords``)."""
        _flag(add_special_tokens, "add_special_tokens")  # read with the arguments, as the engine's
        batch_encoding.tokenize_keywords(kwargs, "BPETokenizer")
        if pair is not None:
            _text(text, "text")
            pair = _text(pair, "pair") or None  # an empty pair is none, as transformers' tokenize has it
        return self._tokens(text, add_special_tokens, pair, shown=True)

    def encode(self, text: str, pair: str | None = None, *, add_special_tokens: bool = True) -> list[int]:
        """The token ids of ``text`` (special tokens in it split out first) and, when ``pair`` is
        given, of ``pair`` after them: in the template of a file's ``RobertaProcessing``
        (``<s> A </s>``, ``<s> A </s></s> B </s>`` for a pair) unless ``add_special_tokens=False``
        (without one, the pair's ids follow the text's), padded as the file's ``padding`` section
        says."""
        return [self.vocab[t] for t in self._padded([self._tokens(text, add_special_tokens, pair)])[0]]

    def encode_batch(
        self,
        texts: Iterable[str | tuple[str, str] | list[str]],
        *,
        add_special_tokens: bool = True,
        padding: bool = True,
        num_threads: SupportsIndex | None = None,
    ) -> list[list[int]]:
        """``encode`` of every item of ``texts`` (str, and pairs of str: a tuple, or a list of
        two), one after the other (``num_threads`` is checked, then ignored); with the file's
        ``padding`` section, each padded to the longest (or to its fixed length), as Hugging
        Face's ``encode_batch``, unless ``padding=False``."""
        _threads(num_threads)
        _flag(add_special_tokens, "add_special_tokens")
        _flag(padding, "padding")
        rows = [self._tokens(t, add_special_tokens, p) for t, p in family.batch_items(texts)]
        rows = self._padded(rows) if padding else rows
        return [[self.vocab[t] for t in row] for row in rows]

    def decode(
        self,
        token_ids: Mapping[str, Any]
        | _IdArray
        | SupportsIndex
        | Iterable[SupportsIndex]
        | Sequence[Sequence[SupportsIndex]],
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> str | list[str]:
        """The text of ``token_ids``, as Hugging Face's ``decode`` with the ``ByteLevel`` decoder: each
        token's bytes (an added token's, special or not, as any other's; a token with a character
        that shows no byte: its UTF-8 text), read as UTF-8 with invalid sequences as U+FFFD; the
        special tokens left out when ``skip_special_tokens`` (not the added tokens whose ``special``
        is false). ``clean_up_tokenization_spaces`` is checked and changes nothing, as transformers 5
        ignores it for BPE. An id not in the vocabulary: ValueError."""
        _flag(skip_special_tokens, "skip_special_tokens")
        family.clean_up_flag(clean_up_tokenization_spaces)
        _flag(spaces_between_special_tokens, "spaces_between_special_tokens")  # as transformers 5: no effect
        ids, name, batch = family.top_ids(token_ids)
        if batch:
            return family.decode_rows(self.decode, ids, self.vocab_size, skip_special_tokens, False)
        out = bytearray()
        for i in family.decode_ids(ids, self.vocab_size, name):
            token = self.id_to[i]
            if skip_special_tokens and token in self.specials and token not in self._plain:
                continue
            if all(c in CHAR_BYTE for c in token):
                out += bytes(CHAR_BYTE[c] for c in token)
            else:
                out += token.encode("utf-8")
        return out.decode("utf-8", errors="replace")

    def analyze(self, texts: Iterable[str]) -> dict[str, int | float]:
        """Same as the engine's ``BPETokenizer.analyze``: counts over the encoded ``texts``."""
        unk = self.vocab[self.unk_token] if self.unk_token is not None else None
        # the model's tokens only: no template, no padding (as the engine's)
        return family.analyze(texts, lambda t: [self.vocab[x] for x in self._tokens(t, False)], self.vocab_size, unk)

    # ------------------------------------------------------------------ vocabulary and files
    def get_vocab(self) -> dict[str, int]:
        """``{token: id}`` for the whole vocabulary."""
        return dict(self.vocab)

    @property
    def vocab_size(self) -> int:
        """The number of tokens in the vocabulary."""
        return len(self.vocab)

    @property
    def merges(self) -> list[tuple[str, str]]:
        """The merges ``(a, b)``, in rank order."""
        return sorted(self.ranks, key=self.ranks.__getitem__)

    @property
    def unk_token(self) -> str | None:
        """The token of a byte the vocabulary lacks, or None (such a byte is left out)."""
        return self._unk_token

    @property
    def special_tokens(self) -> list[str]:
        """The special tokens, in id order (not a file's added tokens whose ``special`` is false:
        split out of the text as the others, they are kept by ``decode`` and
        ``convert_ids_to_tokens`` with ``skip_special_tokens``)."""
        return [t for t in self._added() if t not in self._plain]

    def get_added_vocab(self) -> dict[str, int]:
        """``{token: id}`` of the added tokens, special or not (what transformers' ``get_added_vocab``
        gives): the tokens split out of the text before the model sees it."""
        return {t: self.vocab[t] for t in self._added()}

    def _added(self) -> list[str]:
        """The added tokens (special or not), in id order."""
        return sorted(self.specials, key=self.vocab.__getitem__)

    def to_json(self) -> str:
        """The tokenizer as Hugging Face ``tokenizer.json`` text (the GPT-2 layout), on one line in
        Hugging Face's key order, as its ``to_str()`` writes it (the engine's to the byte)."""

        def byte_level(trim: bool) -> dict[str, object]:
            return {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": trim, "use_regex": True}

        added = [
            {"id": self.vocab[t], "content": t, "single_word": t in self._single_word}
            | dict(zip(("lstrip", "rstrip"), self._strip.get(t, (False, False))))
            | {"normalized": t in self._normalized, "special": t not in self._plain}
            for t in self._added()
        ]
        model = {
            "type": "BPE",
            "dropout": None,
            "unk_token": self.unk_token,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": False,
            "byte_fallback": False,
            "ignore_merges": False,
            "vocab": dict(sorted(self.vocab.items(), key=lambda x: x[1])),
            "merges": [list(m) for m in self.merges],
        }
        root: dict[str, object] = {
            "version": "1.0",
            "truncation": None,
            "padding": self._padding,
            "added_tokens": added,
            "normalizer": None,
        }
        post = byte_level(self.trim_offsets) | {"add_prefix_space": self.trim_keeps_prefix_space}
        if self._template is not None:
            cls, sep = self._template
            post = {"type": "RobertaProcessing", "sep": [sep, self.vocab[sep]], "cls": [cls, self.vocab[cls]]}
            post |= {"trim_offsets": self.trim_offsets, "add_prefix_space": self.trim_keeps_prefix_space}
        root |= {"pre_tokenizer": byte_level(True), "post_processor": post, "decoder": byte_level(True)}
        return json.dumps(root | {"model": model}, ensure_ascii=False, separators=(",", ":"))

    @staticmethod
    def from_json(json: str) -> BPETokenizer:
        """A tokenizer from ``tokenizer.json`` text with a ``ByteLevel``
        pre-tokenizer (ValueError otherwise); the pipeline around the model (no normalizer, the
        ``ByteLevel`` pre-tokenizer and decoder, the post-processor, no truncation, the padding,
        the model's type) is checked as the engine checks it, in its order; the model itself less."""
        try:
            root = load_json(_text(json, "json"))
        except _json.JSONDecodeError as e:
            raise ValueError(f"not valid JSON: {e}") from None
        if not isinstance(root, dict):
            raise ValueError("a tokenizer.json must be a JSON object")
        check_root_keys(root)
        if root.get("normalizer") is not None:
            raise ValueError("normalizer: a normalizer is not supported with byte-level BPE")
        _byte_level(root.get("pre_tokenizer"), "pre_tokenizer", required=True)
        for key, want in (("add_prefix_space", False), ("use_regex", True)):
            value = root["pre_tokenizer"].get(key)
            if value is not None and value is not want:  # JSON's true and false only (not 0 or 1)
                raise ValueError(f"pre_tokenizer.{key}: {_shown(value)} is not supported "
                                 f"(only {_shown(want)})")  # fmt: skip
        _byte_level(root.get("decoder"), "decoder", required=False)
        post = root.get("post_processor")
        post = None if post is None or _is_identity_template(post) else post
        if post is not None:
            if not isinstance(post, dict) or post.get("type") not in ("ByteLevel", "RobertaProcessing"):
                raise ValueError("post_processor: only ByteLevel, RobertaProcessing (or none) is supported")
            if post["type"] == "RobertaProcessing":
                for key in ("cls", "sep"):
                    pair = post.get(key)
                    if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)
                            and _is_count(pair[1])):  # fmt: skip
                        raise ValueError(f"post_processor.{key}: expected [token, id]")
            for key in ("trim_offsets", "add_prefix_space"):
                if post.get(key) is not None and not isinstance(post[key], bool):
                    raise ValueError(f"post_processor.{key}: {_shown(post[key])} is not a bool")
        if root.get("truncation") is not None:
            raise ValueError("truncation: not supported with byte-level BPE")
        padding = root.get("padding")
        pad = None if padding is None else _padding(padding)
        if "model" not in root:
            raise ValueError("model: missing")
        model = root["model"]
        if isinstance(model, dict) and "type" in model and model["type"] != "BPE":
            raise ValueError(f'model.type: {_shown(model["type"])} is not supported (only "BPE")')
        vocab, merges, unk = _bpe_model(model)
        added = root.get("added_tokens")
        if added is not None and not isinstance(added, list):
            raise ValueError("added_tokens: expected a list")
        specials, strip, normalized, single_word, plain = [], {}, set[str](), set[str](), set[str]()
        special_before = set[str]()
        for i, t in enumerate(added or []):
            content = t.get("content") if isinstance(t, dict) else None
            if not isinstance(content, str):
                raise ValueError(f"added_tokens[{i}]: no content")
            id_ = t.get("id")
            if not _is_count(id_):
                raise ValueError(f"added_tokens[{i}]: no id")
            if id_ == len(vocab) >= len(model["vocab"]):
                # beyond the model's vocabulary, as Hugging Face's added vocabulary has it: the next id
                if content in vocab or (len(content) == 1 and content in CHAR_BYTE):
                    raise ValueError(f"added_tokens[{i}]: {_quoted(content)} has an id past the model's vocabulary, "
                                     "but is a token of the model or a byte")  # fmt: skip
                vocab[content] = id_
            if vocab.get(content) != id_:
                where = f"must be in the model's vocabulary with id {id_}"
                raise ValueError(f"added_tokens[{i}]: {_quoted(content)} {where}")
            # single_word refused, as the engine refuses it (the call's offsets would not tell a
            # passed-over match from the model's same token)
            if t.get("single_word") is not None and t.get("single_word") is not False:
                raise ValueError(f"added_tokens[{i}].single_word: {shown(t['single_word'])} is not supported "
                                 "(only false)")  # fmt: skip
            # read in the engine's order; absent: false, but special true
            keys = ("lstrip", "rstrip", "single_word", "normalized", "special")
            values = {key: t.get(key) for key in keys}
            for key, value in values.items():
                if value is not None and not isinstance(value, bool):
                    raise ValueError(f"added_tokens[{i}].{key}: {shown(value)} is not a bool")
            strip[content] = (values["lstrip"] is True, values["rstrip"] is True)
            # (a token listed twice takes its last entry's flags); without a normalizer, normalized
            # only puts the token's search after the others'; plain: special false
            # a token listed twice is special when any of its entries is, as Hugging Face's added
            # vocabulary keeps it
            for found, on in ((single_word, values["single_word"] is True), (normalized, values["normalized"] is True),
                              (plain, values["special"] is False and content not in special_before)):  # fmt: skip
                (found.add if on else found.discard)(content)
            if values["special"] is not False:
                special_before.add(content)
            specials.append(content)
        made = BPETokenizer(vocab, merges, special_tokens=specials, unk_token=unk)
        made._strip = {t: f for t, f in strip.items() if any(f)}
        made._normalized = normalized
        made._single_word, made._plain = single_word, plain
        if post is not None:  # ByteLevel's, RobertaProcessing's defaults: true
            if post["type"] == "RobertaProcessing":
                template = []
                for key in ("cls", "sep"):
                    pair = post[key]
                    if made.vocab.get(pair[0]) != pair[1]:
                        raise ValueError(f"post_processor.{key}: {_quoted(pair[0])} must be in the vocabulary "
                                         f"with id {pair[1]}")  # fmt: skip
                    template.append(pair[0])
                made._template = (template[0], template[1])
            trim = post.get("trim_offsets") is not False
            made._trim = (trim, trim and post.get("add_prefix_space") is not False)
        if pad is not None:
            made._pad = pad
            if made._pad["pad_id"] not in made.id_to:
                raise ValueError(f"padding.pad_id: id {made._pad['pad_id']} is not in the vocabulary")
        made._padding = padding
        return made

    def save(self, path: _StrPath) -> None:
        """Writes ``to_json``'s text to ``path`` atomically, as the engine does (see ``files.write_atomic``)."""
        write_atomic(_path(path), self.to_json().encode("utf-8"))

    @staticmethod
    def load(path: _StrPath) -> BPETokenizer:
        """Reads a ``tokenizer.json`` file (see ``from_json``): OSError if it cannot be read,
        ValueError naming the file if it is not UTF-8 or not a byte-level BPE tokenizer."""
        return load_parsed(_path(path), BPETokenizer.from_json)
